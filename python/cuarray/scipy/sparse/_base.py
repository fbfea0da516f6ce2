"""The base of cuarray.scipy.sparse's matrices: shape, conversions, arithmetic and reductions common to formats."""
import numpy

import cuarray as xp
from cuarray.scipy.sparse import _util

# (format, is_array) -> class; each format's module registers its *_matrix and *_array.
_classes = {}


def _cls(fmt, is_array):
    return _classes[(fmt, is_array)]


class _spbase:
    """Common behaviour of every sparse format (SciPy's _spbase)."""

    __array_priority__ = 101  # cuarray/NumPy binary operators defer to ours
    _is_array = False
    format = None

    # -- shape and size ----------------------------------------------------------------------------------------
    @property
    def shape(self):
        return self._shape

    @property
    def ndim(self):
        return 2

    @property
    def dtype(self):
        return self.data.dtype

    @property
    def nnz(self):
        return int(self._nnz())

    @property
    def size(self):
        return self.nnz

    def getnnz(self, axis=None):
        if axis is None:
            return self.nnz
        return self.tocsr().getnnz(axis)

    def get_shape(self):
        return self._shape

    def getformat(self):
        return self.format

    def __len__(self):
        raise TypeError('sparse matrix length is ambiguous; use getnnz() or shape[0]')

    def __bool__(self):
        if self.shape == (1, 1):
            return self.nnz != 0 and bool(self.tocsr().sum() != 0)
        raise ValueError('The truth value of an array with more than one element is ambiguous. '
                         'Use a.any() or a.all().')

    __nonzero__ = __bool__

    def __iter__(self):
        for r in range(self.shape[0]):
            yield self[r]

    def __repr__(self):
        kind = 'array' if self._is_array else 'matrix'
        return '<{}x{} sparse {} of type {} with {} stored elements in {} format>'.format(
            self.shape[0], self.shape[1], kind, self.dtype.type, self.nnz, self.format.upper())

    def __str__(self):
        return str(self.get())

    # -- conversions -------------------------------------------------------------------------------------------
    def asformat(self, format, copy=False):
        if format is None or format == self.format:
            return self.copy() if copy else self
        try:
            convert = getattr(self, 'to' + format)
        except AttributeError:
            raise ValueError('Format {} is unknown.'.format(format)) from None
        return convert(copy=copy)

    def tocsr(self, copy=False):
        return self.tocoo(copy=False).tocsr(copy=False)

    def tocsc(self, copy=False):
        return self.tocsr(copy=False).tocsc(copy=False)

    def tocoo(self, copy=False):
        return self.tocsr(copy=False).tocoo(copy=copy)

    def todia(self, copy=False):
        return self.tocoo(copy=False).todia(copy=False)

    def toarray(self, order=None, out=None):
        return self.tocoo(copy=False).toarray(order=order, out=out)

    def todense(self, order=None, out=None):
        return self.toarray(order=order, out=out)

    def get(self, stream=None):
        """A SciPy matrix (or array, for the ``*_array`` classes) of the same format with the values on the host."""
        return self.tocsr().get(stream).asformat(self.format)

    def copy(self):
        return self._with_data(self.data.copy(), copy=True)

    def astype(self, dtype, casting='unsafe', copy=True):
        dt = _util.coerce_dtype(dtype)
        if dt == self.dtype:
            return self.copy() if copy else self
        return self._with_data(self.data.astype(dt, casting=casting), copy=copy)

    def conj(self, copy=True):
        if self.dtype.kind == 'c':
            return self._with_data(self.data.conj(), copy=copy)
        return self.copy() if copy else self

    def conjugate(self, copy=True):
        return self.conj(copy=copy)

    @property
    def real(self):
        return self._with_data(self.data.real.copy() if self.dtype.kind == 'c' else self.data.copy())

    @property
    def imag(self):
        if self.dtype.kind == 'c':
            return self._with_data(self.data.imag.copy())
        return self._with_data(xp.zeros_like(self.data))

    def transpose(self, axes=None, copy=False):
        return self.tocsr(copy=False).transpose(axes=axes, copy=copy)

    @property
    def T(self):
        return self.transpose()

    @property
    def H(self):
        if self._is_array:
            raise AttributeError("'{}' object has no attribute 'H'".format(type(self).__name__))
        return self.getH()

    def getH(self):
        return self.transpose().conj()

    # -- elementwise, data-only operations ---------------------------------------------------------------------
    def __neg__(self):
        return self._with_data(-self.data)

    def __pos__(self):
        return self.copy()

    def __abs__(self):
        return self._with_data(abs(self.data))

    def __round__(self, ndigits=0):
        return self._with_data(xp.around(self.data, decimals=ndigits))

    def power(self, n, dtype=None):
        if not _util.isscalarlike(n):
            raise NotImplementedError('input is not scalar')
        if not n:
            raise NotImplementedError('zero power is not supported as it would densify the matrix.\n'
                                      'Use `np.ones(A.shape, dtype=A.dtype)` for this case.')
        data = self.data if dtype is None else self.data.astype(_util.coerce_dtype(dtype))
        return self._with_data(data ** n)

    def _scale(self, s):
        dt = _util.upcast(self.dtype, numpy.result_type(s))
        return self._with_data(self.data.astype(dt, copy=False) * s)

    # -- arithmetic --------------------------------------------------------------------------------------------
    def _check_same_shape(self, other, what='inconsistent shapes'):
        if other.shape != self.shape:
            raise ValueError(what)

    def __add__(self, other):
        if _util.isscalarlike(other):
            if other == 0:
                return self.copy()
            raise NotImplementedError('adding a nonzero scalar to a sparse array is not supported')
        if issparse(other):
            self._check_same_shape(other)
            return self.tocsr()._add_sparse(other, 1)
        if _util.isdense(other):
            return self._add_dense(other)
        return NotImplemented

    def __radd__(self, other):
        return self.__add__(other)

    def __sub__(self, other):
        if _util.isscalarlike(other):
            if other == 0:
                return self.copy()
            raise NotImplementedError('subtracting a nonzero scalar from a sparse array is not supported')
        if issparse(other):
            self._check_same_shape(other)
            return self.tocsr()._add_sparse(other, -1)
        if _util.isdense(other):
            return self._add_dense(-other)
        return NotImplemented

    def __rsub__(self, other):
        if _util.isscalarlike(other):
            if other == 0:
                return -self
            raise NotImplementedError('subtracting a sparse array from a nonzero scalar is not supported')
        if _util.isdense(other):
            return (-self)._add_dense(other)
        return NotImplemented

    def _add_dense(self, other):
        if other.ndim > 2 or xp.broadcast_shapes(other.shape, self.shape) != self.shape:
            raise ValueError('inconsistent shapes')
        dt = numpy.result_type(self.dtype, other.dtype)
        out = self.toarray().astype(dt, copy=False)
        out += other
        return out

    def __mul__(self, other):
        if _util.isscalarlike(other):
            return self._scale(other)
        if self._is_array:
            return self.multiply(other)
        return self._matmul_dispatch(other)

    def __rmul__(self, other):
        if _util.isscalarlike(other):
            return self._scale(other)
        if self._is_array:
            return self.multiply(other)
        return self._rmatmul_dispatch(other)

    def __matmul__(self, other):
        if _util.isscalarlike(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self._matmul_dispatch(other)

    def __rmatmul__(self, other):
        if _util.isscalarlike(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self._rmatmul_dispatch(other)

    def dot(self, other):
        if _util.isscalarlike(other):
            return self._scale(other)
        return self._matmul_dispatch(other)

    def _matmul_dispatch(self, other):
        M, N = self.shape
        if issparse(other):
            if other.shape[0] != N:
                raise ValueError('dimension mismatch')
            return self.tocsr()._spgemm(other)
        if not _util.isdense(other):
            if isinstance(other, numpy.ndarray):
                raise TypeError('cuarray sparse products take cuarray arrays, not numpy.ndarray '
                                '(move host data with cuarray.asarray())')
            return NotImplemented
        if other.ndim == 1:
            if other.shape[0] != N:
                raise ValueError('dimension mismatch')
            return self._mul_vector(other)
        if other.ndim == 2:
            if other.shape[0] != N:
                raise ValueError('dimension mismatch')
            return self._mul_multivector(other)
        raise ValueError('could not interpret dimensions')

    def _rmatmul_dispatch(self, other):
        if _util.isdense(other):
            if other.ndim == 0:
                raise ValueError("Scalar operands are not allowed, use '*' instead")
            # x @ A = (A^T @ x^T)^T
            tr = other.T if other.ndim == 2 else other
            if tr.shape[0] != self.shape[0]:
                raise ValueError('dimension mismatch')
            res = self.transpose()._matmul_dispatch(tr)
            return res.T if other.ndim == 2 else res
        if isinstance(other, numpy.ndarray):
            raise TypeError('cuarray sparse products take cuarray arrays, not numpy.ndarray')
        return NotImplemented

    def _mul_vector(self, x):
        return self.tocsr()._mul_vector(x)

    def _mul_multivector(self, x):
        return self.tocsr()._mul_multivector(x)

    def __truediv__(self, other):
        if _util.isscalarlike(other):
            dt = _util.upcast(self.dtype, numpy.result_type(other), numpy.float64 if self.dtype.kind != 'c' and
                              numpy.result_type(other).kind in 'biu' else self.dtype)
            return self._with_data(self.data.astype(dt, copy=False) / other)
        if issparse(other):
            self._check_same_shape(other)
            return self.toarray() / other.toarray()
        if _util.isdense(other):
            return self.toarray() / other
        return NotImplemented

    def __rtruediv__(self, other):
        if _util.isdense(other) or _util.isscalarlike(other):
            return other / self.toarray()
        return NotImplemented

    def __pow__(self, other):
        if self._is_array:
            return self.power(other)
        M, N = self.shape
        if M != N:
            raise TypeError('sparse matrix is not square')
        if not _util.isintlike(other):
            raise ValueError('exponent must be an integer')
        other = int(other)
        if other < 0:
            raise ValueError('exponent must be >= 0')
        if other == 0:
            from cuarray.scipy.sparse._construct import eye
            return eye(M, dtype=self.dtype, format='csr')
        result = self.tocsr()
        base = result
        for _ in range(other - 1):
            result = result @ base
        return result

    def multiply(self, other):
        if _util.isscalarlike(other):
            return self._scale(other)
        if issparse(other):
            if other.shape != self.shape:
                # SciPy broadcasts a sparse 1 x n or n x 1 as a dense one
                if (other.shape[0] in (1, self.shape[0]) and other.shape[1] in (1, self.shape[1])):
                    return self.tocsr()._multiply_dense(other.toarray())
                raise ValueError('inconsistent shapes')
            return self.tocsr()._multiply_sparse(other)
        if _util.isdense(other):
            return self.tocsr()._multiply_dense(other)
        if isinstance(other, numpy.ndarray):
            raise TypeError('cuarray sparse operations take cuarray arrays, not numpy.ndarray')
        raise TypeError('unsupported operand type: {}'.format(type(other).__name__))

    def maximum(self, other):
        return self.tocsr()._binary_union(other, xp.maximum)

    def minimum(self, other):
        return self.tocsr()._binary_union(other, xp.minimum)

    # -- reductions --------------------------------------------------------------------------------------------
    def _axis(self, axis):
        if axis is None:
            return None
        if isinstance(axis, tuple):
            if len(axis) == 2 and sorted(a % 2 for a in axis) == [0, 1]:
                return None
            raise ValueError('axis must be None, 0, 1, -1 or -2')
        if not _util.isintlike(axis):
            raise TypeError('axis must be an integer')
        axis = int(axis)
        if axis < -2 or axis > 1:
            raise ValueError('axis out of range')
        return axis % 2

    def _reduced_shape(self, res, axis):
        if self._is_array:
            return res
        return res.reshape((1, -1) if axis == 0 else (-1, 1))

    def _sum_dtype(self, dtype):
        if dtype is not None:
            return numpy.dtype(dtype)
        return self.dtype

    def sum(self, axis=None, dtype=None, out=None):
        axis = self._axis(axis)
        dt = self._sum_dtype(dtype)
        M, N = self.shape
        csr = self.tocsr()
        if axis is None:
            res = csr.data.sum(dtype=dt) if csr.data.size else xp.zeros((), dtype=dt)
        elif axis == 0:
            res = csr._sum_columns().astype(dt, copy=False)
            res = self._reduced_shape(res, 0)
        else:
            res = csr._sum_rows().astype(dt, copy=False)
            res = self._reduced_shape(res, 1)
        if out is not None:
            if out.shape != res.shape:
                raise ValueError('dimensions do not match')
            out[...] = res
            return out
        return res

    def mean(self, axis=None, dtype=None, out=None):
        axis = self._axis(axis)
        M, N = self.shape
        if dtype is None:
            dt = numpy.dtype('float64') if self.dtype.kind in 'biu' else self.dtype
        else:
            dt = numpy.dtype(dtype)
        n = M * N if axis is None else (M if axis == 0 else N)
        s = self.sum(axis=axis, dtype=dt)
        res = s / n if n else s * numpy.nan
        res = res.astype(dt, copy=False)
        if out is not None:
            out[...] = res
            return out
        return res

    def _min_or_max(self, axis, out, ufunc, name, explicit=False):
        axis = self._axis(axis)
        M, N = self.shape
        if out is not None:
            raise ValueError("Sparse arrays do not support an 'out' parameter.")
        if M * N == 0 and axis is None or (axis == 0 and M == 0) or (axis == 1 and N == 0):
            raise ValueError('zero-size array to reduction operation {} which has no identity'.format(name))
        csr = self.tocsr(copy=True)
        csr.sum_duplicates()
        if axis is None:
            if csr.data.size == 0:
                return xp.zeros((), dtype=self.dtype)
            m = ufunc.reduce(csr.data)
            if not explicit and csr.data.size < M * N:
                m = ufunc(m, xp.zeros((), dtype=self.dtype))
            return m
        major = csr if axis == 1 else csr.tocsc()
        n_major = M if axis == 1 else N
        n_minor = N if axis == 1 else M
        res = major._reduce_major(ufunc, n_major, n_minor, explicit)
        if self._is_array:
            return res
        from cuarray.scipy.sparse._coo import coo_matrix
        return coo_matrix(res.reshape((1, -1) if axis == 0 else (-1, 1)))

    def max(self, axis=None, out=None, *, explicit=False):
        return self._min_or_max(axis, out, xp.maximum, 'maximum', explicit)

    def min(self, axis=None, out=None, *, explicit=False):
        return self._min_or_max(axis, out, xp.minimum, 'minimum', explicit)

    def _arg_min_or_max(self, axis, out, name, explicit):
        axis = self._axis(axis)
        if out is not None:
            raise ValueError("Sparse types do not support an 'out' parameter.")
        M, N = self.shape
        if M * N == 0:
            raise ValueError('Cannot apply the operation to an empty matrix.')
        dense = self.toarray()
        if explicit:
            # implicit zeros must not win: mark them with the extreme the search ignores
            mask = self.tocsr()._stored_mask()
            fill = -numpy.inf if name == 'argmax' else numpy.inf
            dense = xp.where(mask, dense, fill)
        res = getattr(dense, name)(axis=axis)
        if axis is None or self._is_array:
            return res
        return res.reshape((1, -1) if axis == 0 else (-1, 1))

    def argmax(self, axis=None, out=None, *, explicit=False):
        return self._arg_min_or_max(axis, out, 'argmax', explicit)

    def argmin(self, axis=None, out=None, *, explicit=False):
        return self._arg_min_or_max(axis, out, 'argmin', explicit)

    def count_nonzero(self, axis=None):
        csr = self.tocsr(copy=True)
        csr.sum_duplicates()
        nz = csr.data != 0
        axis = self._axis(axis)
        if axis is None:
            return int(nz.sum())
        if axis == 1:
            return _util.segment_sum(_util.expand_ptr(csr.indptr, self.shape[0]), nz, self.shape[0], numpy.int64)
        return _util.segment_sum(csr.indices, nz, self.shape[1], numpy.int64)

    # -- diagonals ---------------------------------------------------------------------------------------------
    def diagonal(self, k=0):
        M, N = self.shape
        k = int(k)
        if k <= -M or k >= N:
            return xp.empty(0, dtype=self.dtype)
        coo = self.tocoo()
        length = min(M + min(k, 0), N - max(k, 0))
        mask = (coo.col.astype(numpy.int64) - coo.row) == k
        idx = coo.row[mask] if k >= 0 else coo.col[mask]
        return _util.segment_sum(idx, coo.data[mask], length, self.dtype)

    def setdiag(self, values, k=0):
        M, N = self.shape
        k = int(k)
        if k <= -M or k >= N:
            raise ValueError('k exceeds array dimensions')
        length = min(M + min(k, 0), N - max(k, 0))
        if _util.isscalarlike(values):
            n = length
            vals = xp.full(n, values, dtype=self.dtype)
        else:
            vals = xp.asarray(values).ravel()
            n = min(length, vals.size)
            vals = vals[:n].astype(self.dtype)
        coo = self.tocoo(copy=True)
        row0, col0 = max(-k, 0), max(k, 0)
        t = coo.row.astype(numpy.int64) - row0
        on = ((coo.col.astype(numpy.int64) - coo.row) == k) & (t < n)
        keep = ~on
        pos = xp.arange(n, dtype=numpy.int64)
        row = xp.concatenate([coo.row[keep].astype(numpy.int64), pos + row0])
        col = xp.concatenate([coo.col[keep].astype(numpy.int64), pos + col0])
        data = xp.concatenate([coo.data[keep], vals])
        new = _cls('coo', self._is_array)((data, (row, col)), shape=self.shape).asformat(self.format)
        self._set_self(new)

    def _set_self(self, other):
        self.__dict__.update(other.__dict__)

    # -- products with vectors (the interface of LinearOperator users) ------------------------------------------
    def _rmatvec(self, x):
        return self.conj().transpose() @ x


class spmatrix:
    """Marks the ``*_matrix`` classes (SciPy's spmatrix): ``*`` is the matrix product, reductions keep 2-D."""


class sparray:
    """Marks the ``*_array`` classes (SciPy's sparray): ``*`` is elementwise."""


def issparse(x):
    """Whether `x` is a cuarray sparse matrix or array."""
    return isinstance(x, _spbase)


def isspmatrix(x):
    """Whether `x` is a cuarray sparse matrix (not a sparse array)."""
    return isinstance(x, spmatrix)
