"""cuarray.polynomial: CuPy's numpy.polynomial subset (the power series module and polyutils) on cuarray arrays."""
from cuarray.polynomial import polynomial  # noqa: F401
from cuarray.polynomial import polyutils  # noqa: F401
