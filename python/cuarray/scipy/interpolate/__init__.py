"""cuarray.scipy.interpolate: SciPy's interpolation on the GPU (CuPy's cupyx.scipy.interpolate)."""
from cuarray.scipy.interpolate._bspline import (BSpline, make_interp_spline, make_lsq_spline,  # NOQA
                                                splantider, splder)
from cuarray.scipy.interpolate._interp1d import interp1d  # NOQA
from cuarray.scipy.interpolate._ppoly import (Akima1DInterpolator, CubicHermiteSpline, CubicSpline,  # NOQA
                                              PchipInterpolator, PPoly, pchip, pchip_interpolate)
from cuarray.scipy.interpolate._rbf import RBFInterpolator  # NOQA
from cuarray.scipy.interpolate._rgi import RegularGridInterpolator, interpn  # NOQA
from cuarray.scipy.interpolate._bpoly import BPoly, NdPPoly  # NOQA
from cuarray.scipy.interpolate._ndbspline import NdBSpline  # NOQA
from cuarray.scipy.interpolate._ndgriddata import NearestNDInterpolator  # NOQA
from cuarray.scipy.interpolate._fitpack import (InterpolatedUnivariateSpline, LSQUnivariateSpline,  # NOQA
                                                UnivariateSpline)
from cuarray.scipy.interpolate._polyint import (BarycentricInterpolator, KroghInterpolator,  # NOQA
                                               barycentric_interpolate, krogh_interpolate)


def _MODULES():
    """The submodules whose `_cp` host emulation replaces (tests/python/_scipy_extra_host.py)."""
    from cuarray.scipy.interpolate import (_bpoly, _bspline, _fitpack, _interp1d, _ndbspline, _ndgriddata, _polyint,
                                           _ppoly, _rbf, _rgi)
    return (_bpoly, _bspline, _fitpack, _interp1d, _ndbspline, _ndgriddata, _polyint, _ppoly, _rbf, _rgi)
# Interpolation on a 2-D Delaunay triangulation (triangulation on the host, evaluation on the GPU)
from cuarray.scipy.interpolate._ndinterp import CloughTocher2DInterpolator, LinearNDInterpolator  # NOQA
