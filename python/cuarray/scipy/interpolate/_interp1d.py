"""interp1d of cuarray.scipy.interpolate: 1-D interpolation by table lookup (searchsorted) or B-splines."""
import numpy

import cuarray as _cp
from cuarray.scipy.interpolate._bspline import make_interp_spline

_SPLINE_ORDER = {'zero': 0, 'slinear': 1, 'quadratic': 2, 'cubic': 3}


def _asarray(x):
    return x if isinstance(x, _cp.ndarray) else _cp.asarray(x)


class interp1d:
    """Interpolate a 1-D function y = f(x) along `axis` of y (SciPy's legacy interp1d)."""

    def __init__(self, x, y, kind='linear', axis=-1, copy=True, bounds_error=None, fill_value=numpy.nan,
                 assume_sorted=False):
        x = _asarray(x)
        y = _asarray(y)
        if isinstance(kind, str) and kind in _SPLINE_ORDER:
            order = _SPLINE_ORDER[kind]
        elif isinstance(kind, (int, numpy.integer)) and not isinstance(kind, bool):
            order = int(kind)
            kind = 'spline'
        elif kind in ('linear', 'nearest', 'nearest-up', 'previous', 'next'):
            order = None
        else:
            raise NotImplementedError(f"{kind} is unsupported: Use fitpack routines for other types.")
        if x.ndim != 1:
            raise ValueError("the x array must have exactly one dimension.")
        if y.ndim == 0:
            raise ValueError("the y array must have at least one dimension.")
        axis = axis % y.ndim
        if x.shape[0] != y.shape[axis]:
            raise ValueError("x and y arrays must be equal in length along interpolation axis.")
        if y.dtype.kind not in 'fc':
            y = y.astype(numpy.float64)
        if copy:
            x = x.copy()
            y = y.copy()
        if not assume_sorted:
            ind = _cp.argsort(x, kind='stable') if x.size else _cp.arange(0)
            x = x[ind]
            y = _cp.take(y, ind, axis=axis)
        self.x = x
        self.y = y
        self.axis = axis
        self.copy = copy
        self.assume_sorted = assume_sorted
        self._kind = kind
        self._yt = _cp.moveaxis(y, axis, 0)
        n = x.shape[0]
        if kind in ('nearest', 'nearest-up', 'previous', 'next'):
            minval = 1
        elif order is not None:
            minval = order + 1
        else:
            minval = 2
        if n < minval:
            raise ValueError(f"x and y arrays must have at least {minval} entries")
        self._extrapolate = False
        if isinstance(fill_value, str) and fill_value == 'extrapolate':
            self._extrapolate = True
            if bounds_error:
                raise ValueError("Cannot extrapolate and raise at the same time.")
            bounds_error = False
        self.bounds_error = True if bounds_error is None else bool(bounds_error)
        self.fill_value = fill_value
        self._spline = None
        if order is not None:
            self._spline = make_interp_spline(x, self._yt, k=order, check_finite=False)
            self._kind = 'spline'
        self._x_bds = (x[1:] + x[:-1]) / 2.0 if kind in ('nearest', 'nearest-up') else None

    @property
    def _y(self):
        return self._yt

    def __call__(self, x):
        """Interpolated values at x: shape y.shape[:axis] + x.shape + y.shape[axis+1:]."""
        xn = _asarray(x)
        xs = xn.shape
        xf = xn.reshape(-1).astype(numpy.float64)
        yt = self._yt
        n = self.x.shape[0]
        tail = yt.shape[1:]
        kind = self._kind
        xx = self.x.astype(numpy.float64)
        if kind == 'spline':
            out = self._spline(xf, extrapolate=True)
        elif kind == 'linear':
            idx = _cp.clip(_cp.searchsorted(xx, xf, side='left'), 1, n - 1)
            lo = idx - 1
            x_lo, x_hi = xx[lo], xx[idx]
            y_lo, y_hi = yt[lo], yt[idx]
            sh = (-1,) + (1,) * len(tail)
            slope = (y_hi - y_lo) / (x_hi - x_lo).reshape(sh)
            out = slope * (xf - x_lo).reshape(sh) + y_lo
        elif kind in ('nearest', 'nearest-up'):
            side = 'left' if kind == 'nearest' else 'right'
            idx = _cp.clip(_cp.searchsorted(self._x_bds, xf, side=side), 0, n - 1)
            out = yt[idx]
        elif kind == 'previous':
            idx = _cp.clip(_cp.searchsorted(xx, xf, side='right') - 1, 0, n - 1)
            out = yt[idx]
            if self._extrapolate:
                sh = (-1,) + (1,) * len(tail)
                out = _cp.where((xf < xx[0]).reshape(sh), numpy.nan, out)
        else:  # 'next'
            idx = _cp.clip(_cp.searchsorted(xx, xf, side='left'), 0, n - 1)
            out = yt[idx]
            if self._extrapolate:
                sh = (-1,) + (1,) * len(tail)
                out = _cp.where((xf > xx[-1]).reshape(sh), numpy.nan, out)
        if not self._extrapolate and xf.size:
            below = xf < xx[0]
            above = xf > xx[-1]
            if self.bounds_error:
                if bool(below.any()):
                    bad = float(xf[below][0])
                    raise ValueError(f"A value ({bad}) in x_new is below the interpolation range's minimum value "
                                     f"({float(xx[0])}).")
                if bool(above.any()):
                    bad = float(xf[above][0])
                    raise ValueError(f"A value ({bad}) in x_new is above the interpolation range's maximum value "
                                     f"({float(xx[-1])}).")
            fv = self.fill_value
            if isinstance(fv, tuple) and len(fv) == 2:
                fb, fa = fv
            else:
                fb = fa = fv
            fb = _cp.broadcast_to(_asarray(fb), tail) if numpy.ndim(fb) or isinstance(fb, _cp.ndarray) else fb
            fa = _cp.broadcast_to(_asarray(fa), tail) if numpy.ndim(fa) or isinstance(fa, _cp.ndarray) else fa
            sh = (-1,) + (1,) * len(tail)
            out = _cp.where(below.reshape(sh), fb, out)
            out = _cp.where(above.reshape(sh), fa, out)
        if kind != 'spline':
            out = out.astype(self.y.dtype if self.y.dtype.kind in 'fc' else numpy.float64, copy=False)
        out = out.reshape(xs + tail)
        if self.axis != 0:
            nx = len(xs)
            perm = list(range(nx, nx + self.axis)) + list(range(nx)) + list(range(nx + self.axis, nx + len(tail)))
            out = out.transpose(perm)
        return out
