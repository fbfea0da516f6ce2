"""LinearOperator and aslinearoperator: SciPy's abstract linear operator over cuarray arrays and sparse matrices."""
import numpy

import cuarray as cp


def _sparse_module():
    # Imported late: cuarray.scipy.sparse imports this package while it initialises.
    from cuarray.scipy import sparse
    return sparse


def issparse(x):
    """Whether `x` is one of cuarray.scipy.sparse's matrices or arrays (False when that package is absent)."""
    try:
        return bool(_sparse_module().issparse(x))
    except ImportError:
        return False


def _is_device_array(x):
    return isinstance(x, cp.ndarray)


def _isshape(shape):
    try:
        m, n = shape
    except (TypeError, ValueError):
        return False
    return numpy.isscalar(m) and numpy.isscalar(n) and int(m) == m and int(n) == n and m >= 0 and n >= 0


class LinearOperator:
    """An m x n operator known by its products: matvec (y = A x) and optionally rmatvec, matmat and rmatmat.

    As in SciPy, ``LinearOperator(shape, matvec, rmatvec=None, matmat=None, dtype=None, rmatmat=None)`` builds one
    from functions; subclasses implement ``_matvec`` or ``_matmat`` (and ``_rmatvec``/``_rmatmat`` or
    ``_adjoint``). Vectors are cuarray arrays of shape (n,) or (n, 1); results keep that shape.
    """

    ndim = 2
    # Operators take precedence over cuarray arrays in binary operations, as SciPy's do over NumPy's.
    __array_priority__ = 200
    __array_ufunc__ = None

    def __new__(cls, *args, **kwargs):
        if cls is LinearOperator:
            # LinearOperator(shape, matvec, ...) builds the function-backed subclass, as SciPy does.
            return super().__new__(_CustomLinearOperator)
        obj = super().__new__(cls)
        if (type(obj)._matvec is LinearOperator._matvec and type(obj)._matmat is LinearOperator._matmat):
            raise TypeError("LinearOperator subclass should implement at least one of _matvec and _matmat.")
        return obj

    def __init__(self, dtype, shape):
        if dtype is not None:
            dtype = numpy.dtype(dtype)
        shape = tuple(shape)
        if not _isshape(shape):
            raise ValueError(f"invalid shape {shape!r} (must be 2-d)")
        self.dtype = dtype
        self.shape = (int(shape[0]), int(shape[1]))

    def _init_dtype(self):
        """Learn the dtype from one product with a zero vector when none was given (costs one matvec)."""
        if self.dtype is None:
            v = cp.zeros(self.shape[-1], dtype=numpy.int8)
            try:
                self.dtype = numpy.dtype(self.matvec(v).dtype)
            except Exception:
                self.dtype = numpy.dtype(numpy.float64)

    # Defaults: each of matvec/matmat can be had from the other.
    def _matmat(self, X):
        return cp.stack([self.matvec(X[:, i]) for i in range(X.shape[1])], axis=1) if X.shape[1] else \
            cp.zeros((self.shape[0], 0), dtype=self.dtype or X.dtype)

    def _matvec(self, x):
        return self.matmat(x.reshape(-1, 1))

    def _rmatvec(self, x):
        if type(self)._adjoint is LinearOperator._adjoint:
            raise NotImplementedError("rmatvec is not defined")
        return self.H.matvec(x)

    def _rmatmat(self, X):
        if type(self)._adjoint is LinearOperator._adjoint:
            if X.shape[1] == 0:
                return cp.zeros((self.shape[1], 0), dtype=self.dtype or X.dtype)
            return cp.stack([self.rmatvec(X[:, i]) for i in range(X.shape[1])], axis=1)
        return self.H.matmat(X)

    def matvec(self, x):
        """A @ x for x of shape (N,) or (N, 1)."""
        M, N = self.shape
        if x.shape != (N,) and x.shape != (N, 1):
            raise ValueError(f"dimension mismatch: operator of shape {self.shape} applied to a vector of shape "
                             f"{x.shape}")
        y = cp.asarray(self._matvec(x))
        return y.reshape(M) if x.ndim == 1 else y.reshape(M, 1)

    def rmatvec(self, x):
        """A^H @ x for x of shape (M,) or (M, 1)."""
        M, N = self.shape
        if x.shape != (M,) and x.shape != (M, 1):
            raise ValueError(f"dimension mismatch: adjoint of an operator of shape {self.shape} applied to a "
                             f"vector of shape {x.shape}")
        y = cp.asarray(self._rmatvec(x))
        return y.reshape(N) if x.ndim == 1 else y.reshape(N, 1)

    def matmat(self, X):
        """A @ X for a 2-d X of shape (N, K)."""
        if X.ndim != 2:
            raise ValueError(f"expected 2-d ndarray or matrix, not {X.ndim}-d")
        if X.shape[0] != self.shape[1]:
            raise ValueError(f"dimension mismatch: {self.shape}, {X.shape}")
        return cp.asarray(self._matmat(X))

    def rmatmat(self, X):
        """A^H @ X for a 2-d X of shape (M, K)."""
        if X.ndim != 2:
            raise ValueError(f"expected 2-d ndarray or matrix, not {X.ndim}-d")
        if X.shape[0] != self.shape[0]:
            raise ValueError(f"dimension mismatch: {self.shape}, {X.shape}")
        return cp.asarray(self._rmatmat(X))

    def __call__(self, x):
        return self * x

    def __mul__(self, x):
        return self.dot(x)

    def __truediv__(self, other):
        if not numpy.isscalar(other):
            raise ValueError("Can only divide a linear operator by a scalar.")
        return _ScaledLinearOperator(self, 1.0 / other)

    def dot(self, x):
        """The product with another operator, a scalar, or a vector/matrix (cuarray array or sparse)."""
        if isinstance(x, LinearOperator):
            return _ProductLinearOperator(self, x)
        if numpy.isscalar(x):
            return _ScaledLinearOperator(self, x)
        if issparse(x):
            x = x.toarray()
        if not _is_device_array(x):
            x = cp.asarray(x)
        if x.ndim == 1 or (x.ndim == 2 and x.shape[1] == 1):
            return self.matvec(x)
        if x.ndim == 2:
            return self.matmat(x)
        raise ValueError(f"expected 1-d or 2-d array or matrix, got {x!r}")

    def __matmul__(self, other):
        if numpy.isscalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self.__mul__(other)

    def __rmatmul__(self, other):
        if numpy.isscalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self.__rmul__(other)

    def __rmul__(self, x):
        if numpy.isscalar(x):
            return _ScaledLinearOperator(self, x)
        return self._rdot(x)

    def _rdot(self, x):
        """x @ A for a vector or matrix x: (A^T x^T)^T."""
        if isinstance(x, LinearOperator):
            return _ProductLinearOperator(x, self)
        if issparse(x):
            x = x.toarray()
        if not _is_device_array(x):
            x = cp.asarray(x)
        if x.ndim == 1 or (x.ndim == 2 and x.shape[0] == 1):
            return self.T.matvec(x.T).T
        if x.ndim == 2:
            return self.T.matmat(x.T).T
        raise ValueError(f"expected 1-d or 2-d array or matrix, got {x!r}")

    def __pow__(self, p):
        if numpy.isscalar(p):
            return _PowerLinearOperator(self, p)
        return NotImplemented

    def __add__(self, x):
        if isinstance(x, LinearOperator):
            return _SumLinearOperator(self, x)
        return NotImplemented

    def __neg__(self):
        return _ScaledLinearOperator(self, -1)

    def __sub__(self, x):
        return self.__add__(-x)

    def __repr__(self):
        dt = "unspecified dtype" if self.dtype is None else "dtype=" + str(self.dtype)
        return f"<{self.shape[0]}x{self.shape[1]} {self.__class__.__name__} with {dt}>"

    def adjoint(self):
        """The Hermitian adjoint A^H (also ``A.H``)."""
        return self._adjoint()

    H = property(adjoint)

    def transpose(self):
        """The transpose A^T (also ``A.T``)."""
        return self._transpose()

    T = property(transpose)

    def _adjoint(self):
        return _AdjointLinearOperator(self)

    def _transpose(self):
        return _TransposedLinearOperator(self)


class _CustomLinearOperator(LinearOperator):
    """An operator from user functions."""

    def __init__(self, shape, matvec, rmatvec=None, matmat=None, dtype=None, rmatmat=None):
        super().__init__(dtype, shape)
        self.args = ()
        self.__matvec_impl = matvec
        self.__rmatvec_impl = rmatvec
        self.__rmatmat_impl = rmatmat
        self.__matmat_impl = matmat
        self._init_dtype()

    def _matmat(self, X):
        if self.__matmat_impl is not None:
            return self.__matmat_impl(X)
        return super()._matmat(X)

    def _matvec(self, x):
        return self.__matvec_impl(x)

    def _rmatvec(self, x):
        if self.__rmatvec_impl is None:
            raise NotImplementedError("rmatvec is not defined")
        return self.__rmatvec_impl(x)

    def _rmatmat(self, X):
        if self.__rmatmat_impl is not None:
            return self.__rmatmat_impl(X)
        if self.__rmatvec_impl is None:
            raise NotImplementedError("rmatmat is not defined")
        if X.shape[1] == 0:
            return cp.zeros((self.shape[1], 0), dtype=self.dtype)
        return cp.stack([self.__rmatvec_impl(X[:, i]) for i in range(X.shape[1])], axis=1)

    def _adjoint(self):
        return _CustomLinearOperator(shape=(self.shape[1], self.shape[0]), matvec=self.__rmatvec_impl,
                                     rmatvec=self.__matvec_impl, matmat=self.__rmatmat_impl,
                                     rmatmat=self.__matmat_impl, dtype=self.dtype)


class _AdjointLinearOperator(LinearOperator):
    def __init__(self, A):
        super().__init__(A.dtype, (A.shape[1], A.shape[0]))
        self.A = A
        self.args = (A,)

    def _matvec(self, x):
        return self.A._rmatvec(x)

    def _rmatvec(self, x):
        return self.A._matvec(x)

    def _matmat(self, X):
        return self.A._rmatmat(X)

    def _rmatmat(self, X):
        return self.A._matmat(X)


class _TransposedLinearOperator(LinearOperator):
    # A^T x = conj(A^H conj(x)).
    def __init__(self, A):
        super().__init__(A.dtype, (A.shape[1], A.shape[0]))
        self.A = A
        self.args = (A,)

    def _matvec(self, x):
        return cp.conj(self.A._rmatvec(cp.conj(x)))

    def _rmatvec(self, x):
        return cp.conj(self.A._matvec(cp.conj(x)))

    def _matmat(self, X):
        return cp.conj(self.A._rmatmat(cp.conj(X)))

    def _rmatmat(self, X):
        return cp.conj(self.A._matmat(cp.conj(X)))


def _get_dtype(operators, dtypes=None):
    dtypes = list(dtypes or [])
    for obj in operators:
        if obj is not None and getattr(obj, "dtype", None) is not None:
            dtypes.append(obj.dtype)
    return numpy.result_type(*dtypes) if dtypes else None


class _SumLinearOperator(LinearOperator):
    def __init__(self, A, B):
        if not isinstance(A, LinearOperator) or not isinstance(B, LinearOperator):
            raise ValueError("both operands have to be a LinearOperator")
        if A.shape != B.shape:
            raise ValueError(f"cannot add {A} and {B}: shape mismatch")
        self.args = (A, B)
        super().__init__(_get_dtype([A, B]), A.shape)

    def _matvec(self, x):
        return self.args[0].matvec(x) + self.args[1].matvec(x)

    def _rmatvec(self, x):
        return self.args[0].rmatvec(x) + self.args[1].rmatvec(x)

    def _matmat(self, X):
        return self.args[0].matmat(X) + self.args[1].matmat(X)

    def _rmatmat(self, X):
        return self.args[0].rmatmat(X) + self.args[1].rmatmat(X)

    def _adjoint(self):
        A, B = self.args
        return A.H + B.H


class _ProductLinearOperator(LinearOperator):
    def __init__(self, A, B):
        if not isinstance(A, LinearOperator) or not isinstance(B, LinearOperator):
            raise ValueError("both operands have to be a LinearOperator")
        if A.shape[1] != B.shape[0]:
            raise ValueError(f"cannot multiply {A} and {B}: shape mismatch")
        super().__init__(_get_dtype([A, B]), (A.shape[0], B.shape[1]))
        self.args = (A, B)

    def _matvec(self, x):
        return self.args[0].matvec(self.args[1].matvec(x))

    def _rmatvec(self, x):
        return self.args[1].rmatvec(self.args[0].rmatvec(x))

    def _matmat(self, X):
        return self.args[0].matmat(self.args[1].matmat(X))

    def _rmatmat(self, X):
        return self.args[1].rmatmat(self.args[0].rmatmat(X))

    def _adjoint(self):
        A, B = self.args
        return B.H * A.H


class _ScaledLinearOperator(LinearOperator):
    def __init__(self, A, alpha):
        if not isinstance(A, LinearOperator):
            raise ValueError("LinearOperator expected as A")
        if not numpy.isscalar(alpha):
            raise ValueError("scalar expected as alpha")
        if isinstance(A, _ScaledLinearOperator):
            A, alpha_original = A.args
            alpha = alpha * alpha_original
        super().__init__(_get_dtype([A], [type(alpha)]), A.shape)
        self.args = (A, alpha)

    def _matvec(self, x):
        return self.args[1] * self.args[0].matvec(x)

    def _rmatvec(self, x):
        return numpy.conj(self.args[1]) * self.args[0].rmatvec(x)

    def _matmat(self, X):
        return self.args[1] * self.args[0].matmat(X)

    def _rmatmat(self, X):
        return numpy.conj(self.args[1]) * self.args[0].rmatmat(X)

    def _adjoint(self):
        A, alpha = self.args
        return A.H * numpy.conj(alpha)


class _PowerLinearOperator(LinearOperator):
    def __init__(self, A, p):
        if not isinstance(A, LinearOperator):
            raise ValueError("LinearOperator expected as A")
        if A.shape[0] != A.shape[1]:
            raise ValueError(f"square LinearOperator expected, got {A!r}")
        if not (numpy.isscalar(p) and int(p) == p and p >= 0):
            raise ValueError("non-negative integer expected as p")
        super().__init__(_get_dtype([A]), A.shape)
        self.args = (A, int(p))

    def _power(self, fun, x):
        res = x.copy()
        for _ in range(self.args[1]):
            res = fun(res)
        return res

    def _matvec(self, x):
        return self._power(self.args[0].matvec, x)

    def _rmatvec(self, x):
        return self._power(self.args[0].rmatvec, x)

    def _matmat(self, X):
        return self._power(self.args[0].matmat, X)

    def _rmatmat(self, X):
        return self._power(self.args[0].rmatmat, X)

    def _adjoint(self):
        A, p = self.args
        return A.H ** p


class MatrixLinearOperator(LinearOperator):
    """The operator of a dense cuarray matrix or a sparse matrix."""

    def __init__(self, A):
        super().__init__(A.dtype, A.shape)
        self.A = A
        self.__adj = None
        self.args = (A,)

    def _matmat(self, X):
        return self.A @ X

    def _matvec(self, x):
        return self.A @ x

    def _adjoint(self):
        if self.__adj is None:
            self.__adj = _AdjointMatrixOperator(self)
        return self.__adj


class _AdjointMatrixOperator(MatrixLinearOperator):
    def __init__(self, adjoint):
        LinearOperator.__init__(self, adjoint.dtype, (adjoint.shape[1], adjoint.shape[0]))
        self.A = adjoint.A.T.conj() if adjoint.A.dtype.kind == "c" else adjoint.A.T
        self.__adjoint = adjoint
        self.args = (adjoint,)

    def _adjoint(self):
        return self.__adjoint


class IdentityOperator(LinearOperator):
    """The identity of a square shape."""

    def __init__(self, shape, dtype=None):
        super().__init__(dtype, shape)

    def _matvec(self, x):
        return x

    def _rmatvec(self, x):
        return x

    def _matmat(self, X):
        return X

    def _rmatmat(self, X):
        return X

    def _adjoint(self):
        return self


def aslinearoperator(A):
    """A as a LinearOperator: operators pass through; cuarray arrays and sparse matrices are wrapped; any object
    with ``shape`` and ``matvec`` (optionally ``rmatvec``, ``rmatmat``, ``dtype``) is adapted (SciPy's rules)."""
    if isinstance(A, LinearOperator):
        return A
    if _is_device_array(A):
        if A.ndim > 2:
            raise ValueError("array must have ndim <= 2")
        A = cp.atleast_2d(A)
        return MatrixLinearOperator(A)
    if issparse(A):
        return MatrixLinearOperator(A)
    if isinstance(A, numpy.ndarray):
        raise TypeError("type not understood: a NumPy array is host memory; pass cuarray.asarray(A)")
    if hasattr(A, "shape") and hasattr(A, "matvec"):
        rmatvec = getattr(A, "rmatvec", None)
        rmatmat = getattr(A, "rmatmat", None)
        dtype = getattr(A, "dtype", None)
        return LinearOperator(A.shape, A.matvec, rmatvec=rmatvec, rmatmat=rmatmat, dtype=dtype)
    raise TypeError("type not understood")
