"""cuarray.scipy.interpolate: SciPy's interpolation on the GPU (CuPy's cupyx.scipy.interpolate)."""
from cuarray.scipy.interpolate._bspline import (BSpline, make_interp_spline, make_lsq_spline,  # NOQA
                                                splantider, splder)
from cuarray.scipy.interpolate._interp1d import interp1d  # NOQA
from cuarray.scipy.interpolate._ppoly import (Akima1DInterpolator, CubicHermiteSpline, CubicSpline,  # NOQA
                                              PchipInterpolator, PPoly, pchip, pchip_interpolate)
from cuarray.scipy.interpolate._rbf import RBFInterpolator  # NOQA
from cuarray.scipy.interpolate._rgi import RegularGridInterpolator, interpn  # NOQA


def _MODULES():
    """The submodules whose `_cp` host emulation replaces (tests/python/_scipy_extra_host.py)."""
    from cuarray.scipy.interpolate import _bspline, _interp1d, _ppoly, _rbf, _rgi
    return (_bspline, _interp1d, _ppoly, _rbf, _rgi)
