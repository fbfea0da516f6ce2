"""cuarray.lib.array_utils: NumPy 2's numpy.lib.array_utils (byte_bounds over device addresses)."""
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple  # noqa: F401 - host-only helpers

from cuarray._numpy_extras import byte_bounds  # noqa: F401

__all__ = ["byte_bounds", "normalize_axis_index", "normalize_axis_tuple"]
