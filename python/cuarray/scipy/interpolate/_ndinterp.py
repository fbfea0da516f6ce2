"""Piecewise linear and Clough-Tocher interpolation on a 2-D Delaunay triangulation (SciPy's LinearNDInterpolator
and CloughTocher2DInterpolator), evaluated on the GPU."""
import math
import warnings

import numpy

import cuarray as _cp
from cuarray.scipy.spatial import _delaunay
from cuarray.scipy.spatial import _delaunay_kernels as _k

_DBL_EPS = float(numpy.finfo(numpy.float64).eps)


class GradientEstimationWarning(Warning):
    """The global gradient estimation stopped at maxiter before reaching its tolerance (SciPy's warning)."""


def _asarray(x):
    return x if isinstance(x, _cp.ndarray) else _cp.asarray(x)


def _coords(points, ndim=None):
    """SciPy's _ndim_coords_from_arrays: a tuple of broadcastable coordinate arrays stacked on a new last axis,
    or one array; a 1-D array is read as rows of ndim coordinates."""
    if isinstance(points, tuple) and len(points) == 1:
        points = points[0]
    if isinstance(points, tuple):
        arrs = _cp.broadcast_arrays(*[_asarray(a) for a in points])
        return _cp.stack([a.astype(numpy.float64) for a in arrs], axis=-1)
    points = _asarray(points)
    if points.ndim == 1:
        points = points.reshape(-1, 1) if ndim is None else points.reshape(-1, ndim)
    return points


def _host_coords(points):
    """_coords on the host: the interpolators' points as a NumPy array."""
    if isinstance(points, tuple) and len(points) == 1:
        points = points[0]
    if isinstance(points, tuple):
        arrs = numpy.broadcast_arrays(*[_cp.asnumpy(a) if isinstance(a, _cp.ndarray) else numpy.asarray(a)
                                        for a in points])
        return numpy.stack([a.astype(numpy.float64) for a in arrs], axis=-1)
    points = _cp.asnumpy(points) if isinstance(points, _cp.ndarray) else numpy.asarray(points)
    return points.reshape(-1, 1) if points.ndim == 1 else points


class _NDInterpolatorBase:
    """Common set-up of the triangulation interpolators: points (or a Delaunay), rescaling, values."""

    def __init__(self, points, values, fill_value=numpy.nan, ndim=None, rescale=False, need_values=True):
        # The points are prepared and triangulated on the host (where the triangulation is built anyway), so
        # bad points raise before any device work.
        if isinstance(points, _delaunay.Delaunay):
            if rescale:
                raise ValueError("Rescaling is not supported when passing a Delaunay triangulation as ``points``.")
            self.tri = points
            host = points._host[0]
        else:
            self.tri = None
            host = _host_coords(points)
        if host.dtype.kind == 'c':
            raise ValueError("points must be real")
        host = numpy.ascontiguousarray(host, dtype=numpy.float64)
        if host.ndim == 2 and host.shape[1] < 2:
            raise ValueError("Need at least 2-D data")
        if host.ndim == 2 and host.shape[1] != 2:
            raise ValueError("this mode of interpolation is available only for 2-D data (the triangulation is "
                             "2-D)")
        if not rescale:
            self.scale = None
        else:
            offset = numpy.mean(host, axis=0)
            scale = numpy.ptp(host, axis=0)
            scale[~(scale > 0)] = 1.0
            host = (host - offset) / scale
            self.offset = _cp.asarray(offset)
            self.scale = _cp.asarray(scale)
        if self.tri is None:
            self.tri = _delaunay.Delaunay(host)
        self.points = self.tri.points
        if need_values or values is not None:
            self._set_values(values, fill_value, ndim)
        else:
            self.values = None

    def _check_init_shape(self, values, ndim):
        values = _asarray(values)
        if values.ndim == 0 or values.shape[0] != self.points.shape[0]:
            raise ValueError("different number of values and points")
        if self.points.ndim != 2:
            raise ValueError("invalid shape for input data points")
        if ndim is not None and self.points.shape[1] != ndim:
            raise ValueError(f"this mode of interpolation available only for {ndim}-D data")

    def _set_values(self, values, fill_value=numpy.nan, ndim=None):
        values = _asarray(values)
        self._check_init_shape(values, ndim)
        self.values_shape = values.shape[1:]
        vals = values.reshape(values.shape[0], int(numpy.prod(values.shape[1:], dtype=numpy.int64)))
        self.is_complex = vals.dtype.kind == 'c'
        if self.is_complex:
            self.values = _cp.ascontiguousarray(vals.astype(numpy.complex128))
            self.fill_value = complex(fill_value)
            self._cols = self.values.view(numpy.float64)
        else:
            self.values = _cp.ascontiguousarray(vals.astype(numpy.float64))
            self.fill_value = float(fill_value)
            self._cols = self.values

    def _preprocess_xi(self, *args):
        xi = _coords(args, ndim=2)
        if xi.shape[-1] != 2:
            raise ValueError("number of dimensions in xi does not match x")
        shape = xi.shape
        flat = _cp.ascontiguousarray(xi.reshape(-1, 2).astype(numpy.float64))
        if self.scale is not None:
            flat = _cp.ascontiguousarray((flat - self.offset) / self.scale)
        return flat, shape

    def __call__(self, *args, simplex_tolerance=1.0):
        """Interpolated values at the points (x1, x2) or xi (..., 2); `fill_value` outside the convex hull.

        `simplex_tolerance` multiplies the inside-triangle tolerance (100 eps) as in SciPy 1.18."""
        if simplex_tolerance <= 0:
            raise ValueError("simplex_tolerance must be positive")
        if self.values is None:
            raise ValueError("no values were given to interpolate")
        flat, shape = self._preprocess_xi(*args)
        nq = flat.shape[0]
        ncols = self._cols.shape[1]
        out = _cp.empty((nq, ncols), dtype=numpy.float64)
        if out.size:
            self._evaluate(flat, out, float(simplex_tolerance))
        if self.is_complex:
            out = out.view(numpy.complex128)
        return out.reshape(shape[:-1] + self.values_shape)

    def _common_args(self, flat, eps, eps_broad):
        fill = self.fill_value
        fre, fim = (fill.real, fill.imag) if self.is_complex else (fill, 0.0)
        return (flat, _k.i64(flat.shape[0]), _k.f64(eps), _k.f64(eps_broad)), (_k.f64(fre), _k.f64(fim),
                                                                                 _k.i32(self.is_complex))


class LinearNDInterpolator(_NDInterpolatorBase):
    """Piecewise linear interpolation on the Delaunay triangulation of 2-D points (SciPy's interface).

    `points` (npoints, 2) or a cuarray Delaunay; `values` (npoints, ...) real or complex; `fill_value` outside
    the convex hull; `rescale` maps the points to the unit square first. The triangulation is built on the
    host (cuarray.scipy.spatial.Delaunay); evaluation runs on the GPU. Higher-dimensional points raise
    ValueError (only 2-D triangulations exist here).
    """

    def __init__(self, points, values, fill_value=numpy.nan, rescale=False):
        super().__init__(points, values, fill_value=fill_value, rescale=rescale)

    def _evaluate(self, flat, out, tolerance):
        eps = 100 * _DBL_EPS * tolerance
        head, tail = self._common_args(flat, eps, math.sqrt(_DBL_EPS))
        ncols = self._cols.shape[1]
        _k.kernel('ca_tri_linear')((_k.blocks(flat.shape[0]),), (_k.THREADS,),
                                   self.tri._launch_args() + head + (self._cols, _k.i64(ncols)) + tail + (out,))


def _estimate_gradients(tri, cols, maxiter, tol):
    """SciPy's global gradient estimate of every column of cols (npoints, ncols), (npoints, ncols, 2) float64,
    on the GPU (Note [global gradient estimation]); warns as SciPy does when a column did not converge."""
    npts, ncols = cols.shape
    grad = _cp.empty((npts, ncols, 2), dtype=numpy.float64)
    iters = _cp.empty(ncols, dtype=numpy.int32)
    if ncols and npts:
        indptr, indices = tri.vertex_neighbor_vertices
        _k.kernel('ca_tri_gradients')((_k.blocks(ncols),), (_k.THREADS,),
                                      (tri.points, indptr, indices, _k.i64(npts), cols, _k.i64(ncols),
                                       _k.i32(maxiter), _k.f64(tol), grad, iters))
        if int(_cp.asnumpy(iters).min()) == 0:
            warnings.warn("Gradient estimation did not converge, the results may be inaccurate",
                          GradientEstimationWarning, stacklevel=3)
    return grad


class CloughTocher2DInterpolator(_NDInterpolatorBase):
    """Piecewise cubic, C1, curvature-minimising interpolation in 2-D (SciPy's interface).

    Gradients at the data points come from SciPy's global estimate (Gauss-Seidel sweeps with `tol` and
    `maxiter`, Note [global gradient estimation]); each triangle carries a Clough-Tocher split cubic
    (Note [Clough-Tocher patch]). The triangulation is built on the host; gradients and evaluation run on the
    GPU. The gradient sweeps are sequential, as SciPy's are (one GPU thread per value column), so they, not the
    evaluation, dominate the set-up time for large point sets. `grad` holds the estimated gradients,
    (npoints, nvalues, 2).
    """

    def __init__(self, points, values, fill_value=numpy.nan, tol=1e-6, maxiter=400, rescale=False):
        self._tol = float(tol)
        self._maxiter = int(maxiter)
        super().__init__(points, values, ndim=2, fill_value=fill_value, rescale=rescale, need_values=False)

    def _set_values(self, values, fill_value=numpy.nan, ndim=None):
        super()._set_values(values, fill_value=fill_value, ndim=ndim)
        self._grad_cols = _estimate_gradients(self.tri, self._cols, self._maxiter, self._tol)
        if self.is_complex:
            g = self._grad_cols.reshape(self.values.shape[0], self.values.shape[1], 2, 2)
            self.grad = _cp.ascontiguousarray(g.transpose(0, 1, 3, 2)).view(numpy.complex128).reshape(
                self.values.shape + (2,))
        else:
            self.grad = self._grad_cols

    def _evaluate(self, flat, out, tolerance):
        eps = 100 * _DBL_EPS * tolerance
        head, tail = self._common_args(flat, eps, math.sqrt(eps))
        ncols = self._cols.shape[1]
        _k.kernel('ca_tri_clough')((_k.blocks(flat.shape[0]),), (_k.THREADS,),
                                   self.tri._launch_args() + head + (self._cols, self._grad_cols, _k.i64(ncols))
                                   + tail + (out,))
