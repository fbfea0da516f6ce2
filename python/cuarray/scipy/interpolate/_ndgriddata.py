"""Scattered-data interpolation of cuarray.scipy.interpolate: NearestNDInterpolator (on cuarray's KDTree)."""
import numpy

import cuarray as _cp


def _asarray(x):
    return x if isinstance(x, _cp.ndarray) else _cp.asarray(x)


def _coords(args, ndim=None):
    """One (..., ndim) array, or ndim broadcastable coordinate arrays stacked on a last axis."""
    if len(args) == 1 and not isinstance(args[0], tuple):
        xi = _asarray(args[0])
    else:
        arrs = args[0] if len(args) == 1 else args
        arrs = _cp.broadcast_arrays(*[_asarray(a) for a in arrs])
        xi = _cp.stack(arrs, axis=-1)
    if ndim is not None and xi.ndim == 1 and ndim > 1:
        raise ValueError(f"number of dimensions in xi does not match x: {xi.shape}")
    return xi


class NearestNDInterpolator:
    """Value of the nearest data point (Euclidean, after optional rescaling of each coordinate)."""

    def __init__(self, x, y, rescale=False, tree_options=None):
        from cuarray.scipy.spatial import KDTree
        x = _coords((x,))
        if x.ndim != 2:
            x = x.reshape(x.shape[0], -1) if x.ndim > 2 else x.reshape(-1, 1)
        if x.dtype.kind == 'c':
            raise ValueError("x must be real")
        x = x.astype(numpy.float64)
        y = _asarray(y)
        if y.shape[0] != x.shape[0]:
            raise ValueError("different number of values and points")
        self.values = y.astype(numpy.complex128 if y.dtype.kind == 'c' else numpy.float64)
        self.rescale = rescale
        if rescale:
            self.offset = x.mean(axis=0)
            x = x - self.offset
            scale = x.max(axis=0) - x.min(axis=0)
            self.scale = _cp.where(scale > 0, scale, 1.0)
            x = x / self.scale
        self.points = x
        self.tree = KDTree(x, **(tree_options or {}))

    def __call__(self, *args, **query_options):
        """Nearest data values at the points (..., ndim); NaN where no neighbour is found within the bound."""
        ndim = self.points.shape[1]
        xi = _coords(args).astype(numpy.float64)
        if xi.shape[-1] != ndim:
            raise ValueError(f"number of dimensions in xi does not match x: {xi.shape[-1]} != {ndim}")
        lead = xi.shape[:-1]
        flat = xi.reshape(-1, ndim)
        if self.rescale:
            flat = (flat - self.offset) / self.scale
        dist, i = self.tree.query(flat, **query_options)
        if dist.ndim > 1:
            raise ValueError("NearestNDInterpolator queries one neighbour (k=1)")
        ok = _cp.isfinite(dist)
        n = self.values.shape[0]
        vals = self.values[_cp.where(ok, i, 0) if n else i]
        sh = (-1,) + (1,) * (self.values.ndim - 1)
        out = _cp.where(ok.reshape(sh), vals, numpy.nan).astype(self.values.dtype)
        return out.reshape(lead + self.values.shape[1:])
