"""NumPy's index tricks and small creation routines over device arrays: mgrid, ogrid, r_, c_, s_, index_exp, tri,
vander, fromfunction, diag_indices.

Slices, directives and dtypes are worked out on the host exactly as NumPy does; the arrays are made on the device.
"""
import math
import sys

import numpy

import cuarray as _cp
from cuarray._core import ndarray

__all__ = ["c_", "diag_indices", "diag_indices_from", "fromfunction", "index_exp", "mgrid", "ogrid", "r_", "s_",
           "tri", "vander"]

# Pure host objects (they build index tuples): NumPy's own, as CuPy re-exports them.
s_ = numpy.s_
index_exp = numpy.index_exp


def tri(N, M=None, k=0, dtype=float, *, like=None):
    """An N x M array with ones at and below the k-th diagonal, zeros elsewhere."""
    if M is None:
        M = N
    rows = _cp.arange(N)
    cols = _cp.arange(-k, M - k)
    m = _cp.greater_equal(rows[:, None], cols[None, :])
    return m.astype(dtype, copy=False)


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of 1-D `x`: columns x**(N-1), ..., x**0 (reversed when `increasing`), as running
    products in the dtype NumPy uses (x's promoted with the default integer)."""
    if not isinstance(x, ndarray):
        raise TypeError(f"Unsupported type {type(x).__name__} for cuarray.vander(): pass a cuarray array (move host "
                        f"data with cuarray.asarray())")
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    if N is None:
        N = len(x)
    v = _cp.empty((len(x), N), dtype=numpy.promote_types(x.dtype, int))
    tmp = v if increasing else v[:, ::-1]
    if N > 0:
        tmp[:, 0] = 1
    if N > 1:
        tmp[:, 1:] = x[:, None]
        tmp[:, 1:] = _cp.multiply.accumulate(tmp[:, 1:], axis=1)
    return v


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """``function(*indices(shape, dtype), **kwargs)``: the function is called once, on whole index arrays."""
    args = _cp.indices(shape, dtype=dtype)
    return function(*args, **kwargs)


def diag_indices(n, ndim=2):
    """The indices of the main diagonal of an n x ... x n array of `ndim` dimensions (one arange, ndim times)."""
    idx = _cp.arange(n)
    return (idx,) * ndim


def diag_indices_from(arr):
    """diag_indices for `arr`, which must have at least 2 dimensions, all of one length."""
    if not arr.ndim >= 2:
        raise ValueError("input array must be at least 2-d")
    if any(n != arr.shape[0] for n in arr.shape):
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim)


def _slice_parts(s):
    start = 0 if s.start is None else s.start
    step = 1 if s.step is None else s.step
    return start, s.stop, step


class _NdGrid:
    """mgrid (dense) and ogrid (sparse): slices with a real step are ranges, with an imaginary step ``nj`` n points
    from start to stop inclusive; the dtype is NumPy's result type of every start, stop and step."""
    __slots__ = ("sparse",)

    def __init__(self, sparse=False):
        self.sparse = sparse

    def __getitem__(self, key):
        if isinstance(key, slice):
            return self._one(key)
        try:
            sizes, num_list = [], [0]
            for k in range(len(key)):
                start, stop, step = _slice_parts(key[k])
                if isinstance(step, (numpy.complexfloating, complex)):
                    sizes.append(int(abs(step)))
                else:
                    sizes.append(math.ceil((stop - start) / step))
                num_list += [start, stop, abs(step) if isinstance(step, (numpy.complexfloating, complex))
                             else step]
            typ = numpy.result_type(*num_list)
        except (IndexError, TypeError):
            return self._one(key)  # NumPy's fallback: the key as one slice (AttributeError if it is not)
        if self.sparse:
            nn = [_cp.arange(n, dtype=typ) for n in sizes]
        else:
            nn = _cp.indices(sizes, typ)
        for k, s in enumerate(key):
            start, _, step = _slice_parts(s)
            if isinstance(step, (numpy.complexfloating, complex)):
                step = int(abs(step))
                if step != 1:
                    step = (s.stop - start) / float(step - 1)
            nn[k] = _cp.add(_cp.multiply(nn[k], step), start)
        if self.sparse:
            axes = [None] * len(sizes)
            for k in range(len(sizes)):
                axes[k] = slice(None, None)
                nn[k] = nn[k][tuple(axes)]
                axes[k] = None
            return tuple(nn)
        return nn

    @staticmethod
    def _one(key):
        start, stop, step = key.start, key.stop, key.step
        if start is None:
            start = 0
        if isinstance(step, (numpy.complexfloating, complex)):
            step_float = abs(step)
            step = length = int(step_float)
            if step != 1:
                step = (key.stop - start) / float(step - 1)
            typ = numpy.result_type(start, stop, step_float)
            return _cp.add(_cp.multiply(_cp.arange(0, length, 1, dtype=typ), step), start)
        return _cp.arange(start, stop, step)

    def __len__(self):
        return 0


mgrid = _NdGrid(sparse=False)
ogrid = _NdGrid(sparse=True)


def _as_matrix(a):
    """NumPy's matrix shape for an array (cuarray has no matrix class: a 2-D array stands in for it)."""
    if a.ndim > 2:
        raise ValueError("matrix must be 2-dimensional")
    return a.reshape((1,) * (2 - a.ndim) + a.shape) if a.ndim < 2 else a


def _bmat(text, f_globals, f_locals):
    """NumPy's bmat from a string ('A, B; C, D'): names (split on commas and spaces) looked up in the caller's
    locals, then globals; blocks joined along the last axis, rows along the first, the result made 2-D."""
    rows = []
    for row in text.split(";"):
        names = [name for part in row.split(",") for name in part.split()]
        blocks = []
        for name in names:
            if name in f_locals:
                blocks.append(f_locals[name])
            elif name in f_globals:
                blocks.append(f_globals[name])
            else:
                raise NameError(f"name {name!r} is not defined")
        rows.append(_cp.concatenate(blocks, axis=-1))
    return _as_matrix(_cp.concatenate(rows, axis=0))


class _AxisConcatenator:
    """r_ and c_: concatenate arrays, scalars and slices (ranges, or ``nj`` linspaces) along an axis, with NumPy's
    string directives ('0,2,-1': axis, ndmin, where 1-D items go; 'r'/'c': a row or column matrix, a 2-D array
    here)."""
    __slots__ = ("axis", "matrix", "ndmin", "trans1d")

    def __init__(self, axis=0, matrix=False, ndmin=1, trans1d=-1):
        self.axis = axis
        self.matrix = matrix
        self.trans1d = trans1d
        self.ndmin = ndmin

    def __getitem__(self, key):
        if isinstance(key, str):
            frame = sys._getframe().f_back
            return _bmat(key, frame.f_globals, frame.f_locals)
        if not isinstance(key, tuple):
            key = (key,)
        trans1d, ndmin, matrix, axis = self.trans1d, self.ndmin, self.matrix, self.axis
        col = False
        objs = []
        # Scalars go to result_type as values (weak Python scalars), arrays as dtypes.
        type_objs = []
        for k, item in enumerate(key):
            scalar = False
            if isinstance(item, slice):
                start, stop, step = _slice_parts(item)
                if isinstance(step, (numpy.complexfloating, complex)):
                    new = _cp.linspace(start, stop, num=int(abs(step)))
                else:
                    new = _cp.arange(start, stop, step)
                if ndmin > 1:
                    new = _cp.array(new, copy=None, ndmin=ndmin)
                    if trans1d != -1:
                        new = new.swapaxes(-1, trans1d)
            elif isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                if item in ("r", "c"):
                    matrix = True
                    col = item == "c"
                    continue
                if "," in item:
                    vec = item.split(",")
                    try:
                        axis, ndmin = [int(v) for v in vec[:2]]
                        if len(vec) == 3:
                            trans1d = int(vec[2])
                        continue
                    except Exception as e:
                        raise ValueError(f"unknown special directive {item!r}") from e
                try:
                    axis = int(item)
                    continue
                except (ValueError, TypeError) as e:
                    raise ValueError("unknown special directive") from e
            elif type(item) in numpy.ScalarType:
                scalar = True
                new = item
            else:
                item_ndim = _cp.ndim(item)
                new = _cp.array(item, copy=None, ndmin=ndmin)
                if trans1d != -1 and item_ndim < ndmin:
                    k2 = ndmin - item_ndim
                    k1 = trans1d
                    if k1 < 0:
                        k1 += k2 + 1
                    dims = list(range(ndmin))
                    new = _cp.transpose(new, dims[:k1] + dims[k2:] + dims[k1:k2])
            objs.append(new)
            type_objs.append(item if scalar else new.dtype)
        if type_objs:
            final = numpy.result_type(*type_objs)
            objs = [_cp.array(o, copy=None, ndmin=ndmin, dtype=final) for o in objs]
        res = _cp.concatenate(tuple(objs), axis=axis)
        if matrix:
            oldndim = res.ndim
            res = _as_matrix(res)
            if oldndim == 1 and col:
                res = res.T
        return res

    def __len__(self):
        return 0


r_ = _AxisConcatenator(0)
c_ = _AxisConcatenator(-1, ndmin=2, trans1d=0)
