"""RegularGridInterpolator and interpn of cuarray.scipy.interpolate: linear, nearest and tensor-product spline
methods on rectilinear grids."""
import itertools

import numpy

import cuarray as _cp

# Methods of SciPy's RegularGridInterpolator. 'cubic' and 'quintic' are the not-a-knot tensor-product
# interpolating splines (NdBSpline); 'pchip' folds 1-D PCHIP interpolants axis by axis, last axis first, as
# SciPy does; 'slinear' is evaluated as 'linear' except for derivatives (then as a degree-1 NdBSpline).
_METHODS = ('linear', 'nearest', 'slinear', 'cubic', 'quintic', 'pchip')
_DEGREE = {'slinear': 1, 'cubic': 3, 'quintic': 5, 'pchip': 3}


def _asarray(x):
    return x if isinstance(x, _cp.ndarray) else _cp.asarray(x)


class RegularGridInterpolator:
    """Interpolation on a rectilinear grid in any number of dimensions (linear, nearest and spline methods)."""

    def __init__(self, points, values, method='linear', bounds_error=True, fill_value=numpy.nan, *, solver=None,
                 solver_args=None):
        if method not in _METHODS:
            raise ValueError(f"Method '{method}' is not defined (cuarray supports {_METHODS})")
        self.method = method
        self.bounds_error = bounds_error
        values = _asarray(values)
        if values.dtype.kind not in 'fc':
            values = values.astype(numpy.float64)
        if len(points) > values.ndim:
            raise ValueError(f"There are {len(points)} point arrays, but values has {values.ndim} dimensions")
        grid = []
        self._descending = []
        for i, p in enumerate(points):
            p = _asarray(p).astype(numpy.float64)
            if p.ndim != 1:
                raise ValueError(f"The points in dimension {i} must be 1-dimensional")
            if p.shape[0] != values.shape[i]:
                raise ValueError(f"There are {p.shape[0]} points and {values.shape[i]} values in dimension {i}")
            if p.shape[0] < 2 and method != 'nearest':
                raise ValueError(f"There are {p.shape[0]} point(s) in dimension {i}, but method {method} requires "
                                 "at least 2 points.")
            d = p[1:] - p[:-1]
            if bool((d > 0).all()):
                self._descending.append(False)
            elif bool((d < 0).all()):
                p = p[::-1]
                values = _cp.flip(values, axis=i)
                self._descending.append(True)
            else:
                raise ValueError(f"The points in dimension {i} must be strictly ascending or descending")
            grid.append(_cp.ascontiguousarray(p))
        self.grid = tuple(grid)
        self.values = values
        self._splines = {}
        if method in _DEGREE:
            self._check_spline_points(method)
        if fill_value is not None:
            fv = numpy.asarray(fill_value)
            if numpy.iscomplexobj(fv) and values.dtype.kind != 'c':
                raise ValueError("fill_value must be either 'None' or of a type compatible with values")
        self.fill_value = fill_value

    def _check_spline_points(self, method):
        k = _DEGREE[method]
        for i, g in enumerate(self.grid):
            if g.shape[0] <= k:
                raise ValueError(f"There are {g.shape[0]} points in dimension {i}, but method {method} requires at "
                                 f"least {k + 1} points per dimension.")
        if method == 'pchip' and self.values.dtype.kind == 'c':
            raise ValueError("`PchipInterpolator` only works with real values for `y`.")

    def _spline(self, method):
        spl = self._splines.get(method)
        if spl is None:
            from cuarray.scipy.interpolate._ndbspline import _make_ndbspl
            spl = self._splines[method] = _make_ndbspl(self.grid, self.values, _DEGREE[method])
        return spl

    def _pchip(self, x):
        """Fold PCHIP interpolants from the last grid axis to the first; each later fold is evaluated only at its
        own query point (one gather per point instead of SciPy's loop)."""
        from cuarray.scipy.interpolate._ppoly import PchipInterpolator, _pchip_slopes
        ndim = len(self.grid)
        nq = x.shape[0]
        g = self.grid[ndim - 1]
        F = PchipInterpolator(g, _cp.moveaxis(self.values, ndim - 1, 0), axis=0)(x[:, ndim - 1])
        rows = _cp.arange(nq)
        for i in range(ndim - 2, -1, -1):
            g = self.grid[i]
            Y = _cp.moveaxis(F, i + 1, 0)
            h = g[1:] - g[:-1]
            D = _pchip_slopes(h, Y)
            col = x[:, i]
            j = _cp.clip(_cp.searchsorted(g, col, side='right') - 1, 0, g.shape[0] - 2)
            sh = (-1,) + (1,) * (Y.ndim - 2)
            hj = h[j].reshape(sh)
            s = (col - g[j]).reshape(sh)
            y0, y1, d0, d1 = Y[j, rows], Y[j + 1, rows], D[j, rows], D[j + 1, rows]
            slope = (y1 - y0) / hj
            tt = (d0 + d1 - 2 * slope) / hj
            F = ((tt / hj * s + ((slope - d0) / hj - tt)) * s + d0) * s + y0
        return F

    def _points(self, xi):
        ndim = len(self.grid)
        if isinstance(xi, tuple):
            arrs = _cp.broadcast_arrays(*[_asarray(a) for a in xi])
            xi = _cp.stack(arrs, axis=-1)
        xi = _asarray(xi)
        if xi.ndim == 1 and ndim > 1 and xi.shape[0] == ndim:
            xi = xi.reshape(1, ndim)
        if xi.shape[-1] != ndim:
            raise ValueError(f"The requested sample points xi have dimension {xi.shape[-1]} but this "
                             f"RegularGridInterpolator has dimension {ndim}")
        return xi.shape[:-1], xi.reshape(-1, ndim).astype(numpy.float64)

    def __call__(self, xi, method=None, *, nu=None):
        """Values at the points xi (..., ndim) or a tuple of coordinate arrays."""
        method = self.method if method is None else method
        if method not in _METHODS:
            raise ValueError(f"Method '{method}' is not defined (cuarray supports {_METHODS})")
        has_nu = nu is not None and any(int(v) != 0 for v in numpy.ravel(nu))
        if nu is not None and method not in ('slinear', 'cubic', 'quintic'):
            raise ValueError(f"Can only compute derivatives for methods ('slinear', 'cubic', 'quintic'), got "
                             f"method ={method!r}.")
        if method in _DEGREE:
            self._check_spline_points(method)
        lead, x = self._points(xi)
        ndim = len(self.grid)
        if nu is not None:
            nu = tuple(int(v) for v in numpy.ravel(nu))
            if len(nu) != ndim:
                raise ValueError(f"nu must have {ndim} entries, got {nu}")
        if self.bounds_error and x.shape[0]:
            for i, g in enumerate(self.grid):
                col = x[:, i]
                # NaN coordinates count as out of bounds, as in SciPy.
                if bool((~((col >= g[0]) & (col <= g[-1]))).any()):
                    raise ValueError(f"One of the requested xi is out of bounds in dimension {i}")
        idx, frac = [], []
        for i, g in enumerate(self.grid):
            col = x[:, i]
            n = g.shape[0]
            if n == 1:
                idx.append(_cp.zeros(col.shape, dtype=numpy.int64))
                frac.append(_cp.zeros(col.shape))
                continue
            j = _cp.clip(_cp.searchsorted(g, col, side='left') - 1, 0, n - 2)
            idx.append(j)
            frac.append((col - g[j]) / (g[j + 1] - g[j]))
        tail = self.values.shape[ndim:]
        sh = (-1,) + (1,) * len(tail)
        if method in ('cubic', 'quintic') or (method == 'slinear' and has_nu):
            out = self._spline(method)(x, nu=nu)
        elif method == 'pchip':
            out = self._pchip(x)
        elif method == 'nearest':
            sel = tuple(_cp.where(f <= 0.5, j, j + 1) if g.shape[0] > 1 else j
                        for j, f, g in zip(idx, frac, self.grid))
            out = self.values[sel]
        else:
            out = None
            for corner in itertools.product((0, 1), repeat=ndim):
                w = None
                sel = []
                for d, bit in enumerate(corner):
                    if self.grid[d].shape[0] == 1:
                        if bit:
                            w = None
                            break
                        sel.append(idx[d])
                        continue
                    wd = frac[d] if bit else 1.0 - frac[d]
                    w = wd if w is None else w * wd
                    sel.append(idx[d] + bit)
                else:
                    term = self.values[tuple(sel)]
                    term = term * (w.reshape(sh) if w is not None else 1.0)
                    out = term if out is None else out + term
        nanrow = _cp.isnan(x).any(axis=1)
        out = _cp.where(nanrow.reshape(sh), numpy.nan, out)
        if not self.bounds_error and self.fill_value is not None and x.shape[0]:
            oob = _cp.zeros(x.shape[0], dtype=bool)
            for i, g in enumerate(self.grid):
                oob |= (x[:, i] < g[0]) | (x[:, i] > g[-1])
            out = _cp.where(oob.reshape(sh), self.fill_value, out)
        dt = self.values.dtype if self.values.dtype.kind == 'c' else numpy.result_type(self.values.dtype, numpy.float64) \
            if method != 'nearest' else self.values.dtype
        return out.astype(dt, copy=False).reshape(lead + tail)


def interpn(points, values, xi, method='linear', bounds_error=True, fill_value=numpy.nan):
    """Interpolation on a rectilinear grid: RegularGridInterpolator(points, values, method, ...)(xi)."""
    if method not in _METHODS:
        raise ValueError(f"interpn only understands the methods {_METHODS!r}. You provided {method}.")
    values = _asarray(values)
    ndim = values.ndim
    if len(points) > ndim:
        raise ValueError(f"There are {len(points)} point arrays, but values has {ndim} dimensions")
    rgi = RegularGridInterpolator(points, values, method=method, bounds_error=bounds_error, fill_value=fill_value)
    return rgi(xi)
