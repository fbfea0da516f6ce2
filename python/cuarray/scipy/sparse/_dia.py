"""Sparse matrices with diagonal storage: dia_matrix and dia_array."""
import numpy

import cuarray as xp
from cuarray.scipy.sparse import _base, _util
from cuarray.scipy.sparse._base import _cls, issparse


class _dia_base(_base._spbase):
    format = 'dia'

    def __init__(self, arg1, shape=None, dtype=None, copy=False):
        from cuarray.scipy.sparse._compressed import _is_scipy_sparse
        if shape is not None:
            shape = _util.check_shape(shape)
        if issparse(arg1):
            src = arg1.todia()
            if dtype is not None:
                src = src.astype(dtype, copy=False)
            self._set(src.data.copy() if copy else src.data, src.offsets.copy() if copy else src.offsets, src.shape)
        elif _is_scipy_sparse(arg1):
            s = arg1.todia()
            dt = _util.coerce_dtype(dtype if dtype is not None else s.dtype)
            self._set(xp.asarray(s.data.astype(dt)), xp.asarray(s.offsets.astype(numpy.int32)), s.shape)
        elif isinstance(arg1, tuple) and len(arg1) == 2 and _util.isintlike(arg1[0]) and _util.isintlike(arg1[1]):
            shp = _util.check_shape(arg1)
            dt = _util.coerce_dtype(dtype if dtype is not None else numpy.float64)
            self._set(xp.zeros((0, 0), dtype=dt), xp.zeros(0, dtype=numpy.int32), shp)
        elif isinstance(arg1, tuple) and len(arg1) == 2:
            if shape is None:
                raise ValueError('expected a shape argument')
            data = xp.atleast_2d(xp.asarray(arg1[0]))
            offsets = arg1[1]
            offsets = xp.atleast_1d(xp.asarray(numpy.asarray(offsets) if not _util.isdense(offsets) else offsets))
            if offsets.ndim != 1:
                raise ValueError('offsets array must have rank 1')
            if data.ndim != 2:
                raise ValueError('data array must have rank 2')
            if data.shape[0] != offsets.size:
                raise ValueError('number of diagonals ({}) does not match the number of offsets ({})'.format(
                    data.shape[0], offsets.size))
            if offsets.size != xp.unique(offsets).size:
                raise ValueError('offset array contains duplicate values')
            dt = _util.coerce_dtype(dtype if dtype is not None else data.dtype)
            self._set(data.astype(dt, copy=copy), offsets.astype(numpy.int32), shape)
        elif _util.isdense(arg1) or isinstance(arg1, (numpy.ndarray, list)):
            src = _cls('coo', self._is_array)(arg1, dtype=dtype).todia()
            self._set(src.data, src.offsets, src.shape)
        else:
            raise TypeError('unrecognized form for dia_matrix constructor')
        if shape is not None and tuple(shape) != self._shape:
            raise ValueError('shape {} does not match the data shape {}'.format(shape, self._shape))

    def _set(self, data, offsets, shape):
        self.data, self.offsets = data, offsets
        self._shape = _util.check_shape(shape)

    @classmethod
    def _from_arrays(cls, data, offsets, shape):
        self = cls.__new__(cls)
        self._set(data, offsets, shape)
        return self

    def _with_data(self, data, copy=True):
        return type(self)._from_arrays(data, self.offsets.copy() if copy else self.offsets, self._shape)

    def copy(self):
        return type(self)._from_arrays(self.data.copy(), self.offsets.copy(), self._shape)

    def _entries(self):
        """(row, col, mask) of every slot of `data` (SciPy's layout: data[i, j] is at (j - offsets[i], j))."""
        M, N = self._shape
        ndiag, width = self.data.shape
        col = xp.broadcast_to(xp.arange(width, dtype=numpy.int64)[None, :], (ndiag, width))
        row = col - self.offsets.astype(numpy.int64)[:, None]
        mask = (row >= 0) & (row < M) & (col < N)
        return row, col, mask

    def _nnz(self):
        M, N = self._shape
        if self.offsets.size == 0:
            return 0
        _, _, mask = self._entries()
        return int(mask.sum())

    def tocoo(self, copy=False):
        M, N = self._shape
        if self.offsets.size == 0 or self.data.size == 0:
            return _cls('coo', self._is_array)((M, N), dtype=self.dtype)
        row, col, mask = self._entries()
        mask = mask & (self.data != 0)
        idt = _util.index_dtype(maxval=max(M, N))
        coo = _cls('coo', self._is_array)._from_arrays(self.data[mask], row[mask].astype(idt), col[mask].astype(idt),
                                                       (M, N), None)
        return coo

    def todia(self, copy=False):
        return self.copy() if copy else self

    def transpose(self, axes=None, copy=False):
        return self.tocoo().transpose(axes=axes).todia()

    def diagonal(self, k=0):
        return self.tocsr().diagonal(k)

    def get(self, stream=None):
        import scipy.sparse
        cls = scipy.sparse.dia_array if self._is_array else scipy.sparse.dia_matrix
        return cls((_util.to_host(self.data), _util.to_host(self.offsets)), shape=self._shape)


def _dia_from_coo(coo):
    M, N = coo.shape
    a = coo.copy()
    a.sum_duplicates()
    if a.data.size == 0:
        return _cls('dia', coo._is_array)._from_arrays(xp.zeros((0, 0), dtype=a.dtype), xp.zeros(0, dtype=numpy.int32),
                                                       (M, N))
    ks = a.col.astype(numpy.int64) - a.row
    offsets = xp.unique(ks)
    width = int(a.col.max()) + 1
    data = xp.zeros((offsets.size, width), dtype=a.dtype)
    data[xp.searchsorted(offsets, ks), a.col.astype(numpy.int64)] = a.data
    return _cls('dia', coo._is_array)._from_arrays(data, offsets.astype(numpy.int32), (M, N))


class dia_matrix(_dia_base, _base.spmatrix):
    """Sparse matrix with diagonal storage (scipy.sparse.dia_matrix on the GPU)."""


class dia_array(_dia_base, _base.sparray):
    """Sparse array with diagonal storage (scipy.sparse.dia_array on the GPU)."""
    _is_array = True


_base._classes[('dia', False)] = dia_matrix
_base._classes[('dia', True)] = dia_array


def isspmatrix_dia(x):
    """Whether `x` is a dia_matrix."""
    return isinstance(x, dia_matrix)
