"""Coordinate-format matrices: coo_matrix and coo_array."""
import numpy

import cuarray as xp
from cuarray.scipy.sparse import _base, _util
from cuarray.scipy.sparse._base import _cls, issparse


class _coo_base(_base._spbase):
    format = 'coo'

    def __init__(self, arg1, shape=None, dtype=None, copy=False):
        from cuarray.scipy.sparse._compressed import _is_scipy_sparse
        if shape is not None:
            shape = _util.check_shape(shape)
        if issparse(arg1):
            src = arg1.tocoo(copy=copy)
            if dtype is not None:
                src = src.astype(dtype, copy=False)
            self._set(src.data, src.row, src.col, src.shape, getattr(src, '_canonical', None))
        elif _is_scipy_sparse(arg1):
            s = arg1.tocoo()
            if dtype is not None:
                s = s.astype(_util.coerce_dtype(dtype))
            dt = _util.coerce_dtype(s.dtype)
            idt = _util.index_dtype(maxval=max(s.shape))
            self._set(xp.asarray(s.data.astype(dt, copy=False)), xp.asarray(s.row.astype(idt)),
                      xp.asarray(s.col.astype(idt)), s.shape, bool(s.has_canonical_format) or None)
        elif isinstance(arg1, tuple) and len(arg1) == 2 and _util.isintlike(arg1[0]) and _util.isintlike(arg1[1]):
            shp = _util.check_shape(arg1)
            dt = _util.coerce_dtype(dtype if dtype is not None else numpy.float64)
            self._set(xp.empty(0, dtype=dt), xp.empty(0, dtype=numpy.int32), xp.empty(0, dtype=numpy.int32),
                      shp, True)
        elif isinstance(arg1, tuple) and len(arg1) == 2:
            data, ij = arg1
            if not isinstance(ij, (tuple, list)) or len(ij) != 2:
                raise TypeError('invalid input format')
            row, col = xp.asarray(ij[0]), xp.asarray(ij[1])
            data = xp.asarray(data)
            if row.ndim != 1 or col.ndim != 1 or data.ndim != 1:
                raise TypeError('row, column, and data array must all be the same length')
            if not (row.size == col.size == data.size):
                raise ValueError('row, column, and data array must all be the same length')
            if row.dtype.kind not in 'iu' or col.dtype.kind not in 'iu':
                raise TypeError('row and column indices must be integers')
            if shape is None:
                if row.size == 0:
                    raise ValueError('cannot infer dimensions from zero sized index arrays')
                shape = (int(row.max()) + 1, int(col.max()) + 1)
            elif row.size:
                if int(row.max()) >= shape[0]:
                    raise ValueError('row index exceeds matrix dimensions')
                if int(col.max()) >= shape[1]:
                    raise ValueError('column index exceeds matrix dimensions')
                if int(row.min()) < 0:
                    raise ValueError('negative row index found')
                if int(col.min()) < 0:
                    raise ValueError('negative column index found')
            dt = _util.coerce_dtype(dtype if dtype is not None else data.dtype)
            idt = _util.index_dtype(maxval=max(shape))
            self._set(data.astype(dt, copy=copy), row.astype(idt, copy=copy), col.astype(idt, copy=copy),
                      shape, None)
        elif _util.isdense(arg1) or isinstance(arg1, (numpy.ndarray, list)):
            if not _util.isdense(arg1):
                arg1 = xp.asarray(numpy.asarray(arg1))
            if arg1.ndim == 1:
                arg1 = arg1[None, :]
            if arg1.ndim != 2:
                raise ValueError('expected dimension <= 2 array or matrix')
            src = _coo_from_dense(arg1, dtype, self._is_array)
            self._set(src.data, src.row, src.col, src.shape, True)
        else:
            raise TypeError('invalid input format')
        if shape is not None and tuple(shape) != self._shape:
            raise ValueError('shape {} does not match the data shape {}'.format(shape, self._shape))

    def _set(self, data, row, col, shape, canonical):
        self.data, self.row, self.col = data, row, col
        self._shape = _util.check_shape(shape)
        self._canonical = canonical

    @classmethod
    def _from_arrays(cls, data, row, col, shape, canonical=None):
        self = cls.__new__(cls)
        self._set(data, row, col, shape, canonical)
        return self

    def _with_data(self, data, copy=True):
        return type(self)._from_arrays(data, self.row.copy() if copy else self.row,
                                       self.col.copy() if copy else self.col, self._shape, self._canonical)

    def _nnz(self):
        return self.data.size

    def getnnz(self, axis=None):
        if axis is None:
            return self.nnz
        axis = self._axis(axis)
        idx, n = (self.col, self.shape[1]) if axis == 0 else (self.row, self.shape[0])
        return xp.bincount(idx, minlength=n)[:n]

    def copy(self):
        return type(self)._from_arrays(self.data.copy(), self.row.copy(), self.col.copy(), self._shape,
                                       self._canonical)

    @property
    def has_canonical_format(self):
        if self._canonical is None:
            if self.data.size < 2:
                self._canonical = True
            else:
                k = self.row.astype(numpy.int64) * self.shape[1] + self.col
                self._canonical = bool((k[1:] > k[:-1]).all())
        return self._canonical

    @has_canonical_format.setter
    def has_canonical_format(self, value):
        self._canonical = bool(value)

    def sum_duplicates(self):
        if self.has_canonical_format:
            return
        from cuarray.scipy.sparse._compressed import _canonical_triplets
        data, row, col = _canonical_triplets(self.data, self.row, self.col, *self._shape)
        self.data = data
        self.row = row.astype(self.row.dtype)
        self.col = col.astype(self.col.dtype)
        self._canonical = True

    def eliminate_zeros(self):
        keep = self.data != 0
        self.data, self.row, self.col = self.data[keep], self.row[keep], self.col[keep]

    def tocoo(self, copy=False):
        return self.copy() if copy else self

    def tocsr(self, copy=False):
        return self._compress('csr')

    def tocsc(self, copy=False):
        return self._compress('csc')

    def _compress(self, fmt):
        from cuarray.scipy.sparse._compressed import _canonical_triplets
        M, N = self._shape
        major, minor, n_major, n_minor = ((self.row, self.col, M, N) if fmt == 'csr' else
                                          (self.col, self.row, N, M))
        data, major, minor = _canonical_triplets(self.data, major, minor, n_major, n_minor)
        idt = _util.index_dtype(maxval=max(data.size, n_minor, n_major))
        return _cls(fmt, self._is_array)._from_arrays(data, minor.astype(idt), _util.make_indptr(major, n_major, idt),
                                                      self._shape, True)

    def todia(self, copy=False):
        from cuarray.scipy.sparse._dia import _dia_from_coo
        return _dia_from_coo(self)

    def transpose(self, axes=None, copy=False):
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("Sparse matrices do not support an 'axes' parameter because swapping dimensions "
                             "is the only logical permutation.")
        M, N = self._shape
        return type(self)._from_arrays(self.data.copy() if copy else self.data, self.col.copy() if copy else self.col,
                                       self.row.copy() if copy else self.row, (N, M), None)

    def toarray(self, order=None, out=None):
        M, N = self._shape
        if out is None:
            out = xp.zeros((M, N), dtype=self.dtype, order='F' if order == 'F' else 'C')
        else:
            if out.shape != (M, N):
                raise ValueError('out array has the wrong shape')
            out[...] = 0
        if self.data.size:
            a = self
            if not a.has_canonical_format:
                a = a.copy()
                a.sum_duplicates()
            out[a.row, a.col] = a.data
        return out

    def get(self, stream=None):
        import scipy.sparse
        cls = scipy.sparse.coo_array if self._is_array else scipy.sparse.coo_matrix
        return cls((_util.to_host(self.data), (_util.to_host(self.row), _util.to_host(self.col))),
                   shape=self._shape)


def _coo_from_dense(a, dtype, is_array):
    dt = _util.coerce_dtype(dtype if dtype is not None else a.dtype)
    M, N = a.shape
    flat = xp.flatnonzero(a)
    idt = _util.index_dtype(maxval=max(M, N, flat.size))
    if N:
        row, col = (flat // N).astype(idt), (flat % N).astype(idt)
    else:
        row = col = xp.empty(0, dtype=idt)
    data = a.ravel()[flat].astype(dt) if flat.size else xp.empty(0, dtype=dt)
    return _cls('coo', is_array)._from_arrays(data, row, col, (M, N), True)


class coo_matrix(_coo_base, _base.spmatrix):
    """Coordinate-format sparse matrix (scipy.sparse.coo_matrix on the GPU)."""


class coo_array(_coo_base, _base.sparray):
    """Coordinate-format sparse array (scipy.sparse.coo_array on the GPU)."""
    _is_array = True


_base._classes[('coo', False)] = coo_matrix
_base._classes[('coo', True)] = coo_array


def isspmatrix_coo(x):
    """Whether `x` is a coo_matrix."""
    return isinstance(x, coo_matrix)
