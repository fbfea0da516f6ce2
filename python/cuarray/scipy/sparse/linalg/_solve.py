"""Direct sparse solvers: spsolve_triangular (a sync-free kernel on the device), spsolve (cuSOLVER's sparse QR on
the device), splu/spilu/factorized (SciPy's SuperLU on the host, solves on the device).

Note [sparse LU on the host]: no sparse LU factorisation runs on the device here (cuDSS is not loaded by cuarray),
so splu and spilu factorise with SciPy's SuperLU on the host, as CuPy's do; the factors are copied to the device
once and every solve runs there (permutations and two triangular solves). factorized is built on splu. They need
SciPy installed.

Note [spsolve by sparse QR]: spsolve factorises on the device with cusolverSp<t>csrlsvqr (as CuPy's spsolve),
in the result dtype SciPy picks (float32 stays float32). The routine solves one right-hand side per call and
refactorises each time, so a b of k columns costs k factorisations; it takes int32 sizes (SciPy's SuperLU does
too), blocks until done, and takes its work memory from cudaMalloc rather than cuarray's pool (on its
out-of-memory status the pool's cached blocks are freed and the solve retried once). A is singular when the
QR meets an exactly zero R(j,j) (tol = 0), which matches SuperLU's exactly-zero-pivot test for structurally
singular matrices; a numerically singular one may pass either test and give huge or infinite values in both.
"""
import warnings

import numpy

import cuarray as cp
from cuarray.scipy.sparse.linalg._interface import issparse
from numpy.linalg import LinAlgError

# Note [sync-free triangular solve]: one thread per row, rows handed out in dependency order by an atomic
# counter (not by blockIdx, whose scheduling order CUDA does not promise), so every row a thread waits for
# belongs to a thread that is already running: the spin on `ready` always ends (independent thread scheduling,
# sm_70+, lets a lane wait for another lane of its own warp). A row is published by writing its solution,
# a fence, then its flag. Work is O(nnz) in one launch, whatever the depth of the dependency graph.
_TRSV_SOURCE = r"""
template <class T> __device__ __forceinline__ T ca_mul(T a, T b) { return a * b; }
template <class T> __device__ __forceinline__ T ca_div(T a, T b) { return a / b; }
__device__ __forceinline__ float2 ca_mul(float2 a, float2 b) {
  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
__device__ __forceinline__ double2 ca_mul(double2 a, double2 b) {
  return make_double2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
template <class C> __device__ __forceinline__ C ca_cdiv(C a, C b) {
  // Scaled by |re| + |im| of the divisor so that neither overflows early.
  auto s = fabs(b.x) + fabs(b.y);
  auto ar = a.x / s, ai = a.y / s, br = b.x / s, bi = b.y / s, d = br * br + bi * bi;
  C r; r.x = (ar * br + ai * bi) / d; r.y = (ai * br - ar * bi) / d; return r;
}
__device__ __forceinline__ float2 ca_div(float2 a, float2 b) { return ca_cdiv(a, b); }
__device__ __forceinline__ double2 ca_div(double2 a, double2 b) { return ca_cdiv(a, b); }
template <class T> __device__ __forceinline__ void ca_sub(T& a, T b) { a -= b; }
__device__ __forceinline__ void ca_sub(float2& a, float2 b) { a.x -= b.x; a.y -= b.y; }
__device__ __forceinline__ void ca_sub(double2& a, double2 b) { a.x -= b.x; a.y -= b.y; }
// A volatile read of a solved entry. float2/double2 have no volatile copy constructor, so a complex value is
// read as its two volatile components.
template <class T> __device__ __forceinline__ T ca_vload(const T* p) { return *(const volatile T*)p; }
__device__ __forceinline__ float2 ca_vload(const float2* p) {
  const volatile float* q = (const volatile float*)p; return make_float2(q[0], q[1]);
}
__device__ __forceinline__ double2 ca_vload(const double2* p) {
  const volatile double* q = (const volatile double*)p; return make_double2(q[0], q[1]);
}
template <class T> __device__ __forceinline__ void ca_add(T& a, T b) { a += b; }
__device__ __forceinline__ void ca_add(float2& a, float2 b) { a.x += b.x; a.y += b.y; }
__device__ __forceinline__ void ca_add(double2& a, double2 b) { a.x += b.x; a.y += b.y; }

// x (n, k) row-major holds b on entry. lower: rows 0..n-1 depend on smaller columns; upper: the reverse.
extern "C" __global__ void ca_trsv(const IDX* __restrict__ indptr, const IDX* __restrict__ indices,
                                   const T* __restrict__ data, T* x, int* ready, unsigned long long* counter,
                                   long long n, long long k, int lower, int unit) {
  long long t = (long long)atomicAdd(counter, 1ULL);
  if (t >= n) return;
  long long row = lower ? t : n - 1 - t;
  T diag;
  bool has_diag = false;
  for (long long c = 0; c < k; ++c) {
    T acc = x[row * k + c];
    for (IDX p = indptr[row]; p < indptr[row + 1]; ++p) {
      long long j = (long long)indices[p];
      if (j == row) {
        if (c == 0 && !has_diag) { diag = data[p]; has_diag = true; }
        else if (c == 0) { ca_add(diag, data[p]); }  // duplicates of the diagonal add up
        continue;
      }
      if (lower ? (j > row) : (j < row)) continue;  // outside the triangle: ignored
      while (((volatile int*)ready)[j] == 0) { }
      __threadfence();
      ca_sub(acc, ca_mul(data[p], ca_vload(x + j * k + c)));
    }
    if (!unit) acc = ca_div(acc, diag);
    x[row * k + c] = acc;
  }
  __threadfence();
  ((volatile int*)ready)[row] = 1;
}
"""
_CTYPES = {"float32": "float", "float64": "double", "complex64": "float2", "complex128": "double2"}
_trsv_kernels = {}


def _trsv_kernel(dtype, index_dtype):
    key = (numpy.dtype(dtype).name, numpy.dtype(index_dtype).name)
    k = _trsv_kernels.get(key)
    if k is None:
        idx = "int" if key[1] == "int32" else "long long"
        code = f"typedef {_CTYPES[key[0]]} T;\ntypedef {idx} IDX;\n" + _TRSV_SOURCE
        k = _trsv_kernels[key] = cp.RawKernel(code, "ca_trsv")
    return k


def _trsv_device(indptr, indices, data, x, lower, unit):
    """Solve in place: x (n, k) C-contiguous of data's dtype holds b and receives the solution."""
    n, k = x.shape
    if n == 0 or k == 0:
        return x
    ready = cp.zeros(n, dtype=numpy.int32)
    counter = cp.zeros(1, dtype=numpy.uint64)
    kern = _trsv_kernel(data.dtype, indices.dtype)
    threads = 128
    blocks = (n + threads - 1) // threads
    kern((blocks,), (threads,), (indptr, indices, data, x, ready, counter, numpy.int64(n), numpy.int64(k),
                                 numpy.int32(bool(lower)), numpy.int32(bool(unit))))
    return x


def _inexact(dtype):
    dtype = numpy.dtype(dtype)
    if dtype.kind in "fc" and dtype.itemsize >= 4 and dtype != numpy.float16:
        return dtype
    if dtype == numpy.float16:
        return numpy.dtype(numpy.float32)
    return numpy.dtype(numpy.float64)


def _canonical_csr(A):
    A = A.tocsr()
    if not A.has_canonical_format:
        A = A.copy()
        A.sum_duplicates()
    return A


def spsolve_triangular(A, b, lower=True, overwrite_A=False, overwrite_b=False, unit_diagonal=False):
    """Solve A x = b for a sparse triangular A (CSR; other formats are converted with SciPy's
    SparseEfficiencyWarning). Entries outside the chosen triangle are ignored. b is (n,) or (n, k); x has b's
    shape and the promoted inexact dtype of A and b. LinAlgError when a diagonal entry is zero or missing
    (unless ``unit_diagonal``). One device kernel whatever the matrix's structure: Note [sync-free triangular
    solve].
    """
    if not issparse(A):
        raise TypeError(f"A must be a sparse matrix, got {type(A).__name__}")
    if A.format not in ("csr", "csc"):
        warnings.warn("CSR matrix format is required. Converting to CSR matrix.", _sparse_efficiency_warning(),
                      stacklevel=2)
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise ValueError(f"A must be a square matrix but its shape is {A.shape}.")
    if not isinstance(b, cp.ndarray):
        raise TypeError(f"b must be a cuarray.ndarray, got {type(b).__name__}")
    n = A.shape[0]
    if b.ndim not in (1, 2) or b.shape[0] != n:
        raise ValueError(f"The size of the dimensions of A must be equal to the size of the first dimension of b "
                         f"but the shape of A is {A.shape} and the shape of b is {b.shape}.")
    dtype = _inexact(numpy.result_type(A.dtype, b.dtype))
    A = _canonical_csr(A)
    data = A.data.astype(dtype, copy=False)
    indices, indptr = A.indices, A.indptr
    if indices.dtype != indptr.dtype:
        indices, indptr = indices.astype(numpy.int64), indptr.astype(numpy.int64)
    if not unit_diagonal and n > 0:
        # Every diagonal entry must be present and nonzero (one reduction, checked before the solve).
        if bool(cp.any(A.diagonal() == 0)):
            raise LinAlgError("A is singular: zero entry on diagonal.")
    x = cp.ascontiguousarray(b.reshape(n, -1).astype(dtype, copy=True))
    _trsv_device(indptr, indices, data, x, lower, unit_diagonal)
    return x.reshape(b.shape)


def _sparse_efficiency_warning():
    try:
        from cuarray.scipy import sparse
        return getattr(sparse, "SparseEfficiencyWarning", UserWarning)
    except ImportError:
        return UserWarning


def _to_scipy(A):
    """A host SciPy CSC copy of a sparse or dense device matrix (Note [sparse LU on the host])."""
    try:
        import scipy.sparse
    except ImportError as e:  # pragma: no cover - SciPy is a test dependency
        raise ImportError("splu/spilu/spsolve/factorized factorise on the host and need SciPy") from e
    if issparse(A):
        return scipy.sparse.csc_matrix(A.get())
    if isinstance(A, cp.ndarray):
        return scipy.sparse.csc_matrix(cp.asnumpy(A))
    raise TypeError(f"A must be a sparse matrix or a cuarray.ndarray, got {type(A).__name__}")


class SuperLU:
    """An LU factorisation Pr A Pc = L U from SciPy's SuperLU, with the factors on the device.

    Attributes as SciPy's: ``shape``, ``nnz``, ``perm_r``, ``perm_c`` (device int arrays), ``L``, ``U`` (device
    CSR matrices). ``solve(rhs, trans='N')`` solves A x = rhs ('T': A^T, 'H': A^H) on the device.
    """

    def __init__(self, obj):
        from cuarray.scipy import sparse
        self.shape = obj.shape
        self.nnz = obj.nnz
        self.perm_r = cp.asarray(obj.perm_r)
        self.perm_c = cp.asarray(obj.perm_c)
        self.L = sparse.csr_matrix(obj.L.tocsr())
        self.U = sparse.csr_matrix(obj.U.tocsr())
        self._dtype = numpy.dtype(obj.L.dtype)
        self._LT = self._UT = None

    def _transposes(self):
        if self._LT is None:
            self._LT = _canonical_csr(self.L.T)
            self._UT = _canonical_csr(self.U.T)
        return self._LT, self._UT

    def solve(self, rhs, trans="N"):
        """x with A x = rhs (trans 'N'), A^T x = rhs ('T') or A^H x = rhs ('H'); rhs (n,) or (n, k)."""
        if not isinstance(rhs, cp.ndarray):
            raise TypeError(f"rhs must be a cuarray.ndarray, got {type(rhs).__name__}")
        if trans not in ("N", "T", "H"):
            raise ValueError("trans must be N, T, or H")
        n = self.shape[0]
        if rhs.ndim not in (1, 2) or rhs.shape[0] != n:
            raise ValueError(f"shape mismatch: factor of shape {self.shape}, right-hand side of shape {rhs.shape}")
        dtype = self._dtype
        if numpy.result_type(rhs.dtype, dtype) != dtype and rhs.dtype.kind == "c":
            raise TypeError(f"cannot solve a {dtype} factorisation with a {rhs.dtype} right-hand side")
        b = rhs.reshape(n, -1).astype(dtype)
        y = cp.empty_like(b)
        if trans == "N":
            y[self.perm_r] = b
            _solve_csr(self.L, y, lower=True, unit=True)
            _solve_csr(self.U, y, lower=False, unit=False)
            x = y[self.perm_c]
        else:
            LT, UT = self._transposes()
            conj = trans == "H" and dtype.kind == "c"
            y[self.perm_c] = b.conj() if conj else b
            _solve_csr(UT, y, lower=True, unit=False)
            _solve_csr(LT, y, lower=False, unit=True)
            x = y[self.perm_r]
            if conj:
                x = x.conj()
        return x.reshape(rhs.shape)


def _solve_csr(A, y, lower, unit):
    A = _canonical_csr(A)
    indices, indptr = A.indices, A.indptr
    if indices.dtype != indptr.dtype:
        indices, indptr = indices.astype(numpy.int64), indptr.astype(numpy.int64)
    out = cp.ascontiguousarray(y)
    _trsv_device(indptr, indices, A.data.astype(y.dtype, copy=False), out, lower, unit)
    if out is not y:
        y[...] = out


def splu(A, permc_spec=None, diag_pivot_thresh=None, relax=None, panel_size=None, options=None):
    """The sparse LU factorisation of a square A as a SuperLU object (Note [sparse LU on the host]: SciPy's
    SuperLU factorises on the host; solves run on the device). Arguments as scipy.sparse.linalg.splu."""
    import scipy.sparse.linalg
    lu = scipy.sparse.linalg.splu(_to_scipy(A), permc_spec=permc_spec, diag_pivot_thresh=diag_pivot_thresh,
                                  relax=relax, panel_size=panel_size, options=options or {})
    return SuperLU(lu)


def spilu(A, drop_tol=None, fill_factor=None, drop_rule=None, permc_spec=None, diag_pivot_thresh=None, relax=None,
          panel_size=None, options=None):
    """An incomplete LU factorisation of a square A as a SuperLU object, typically a preconditioner
    (``M = LinearOperator(A.shape, ilu.solve)``). Factorises on the host: Note [sparse LU on the host]."""
    import scipy.sparse.linalg
    lu = scipy.sparse.linalg.spilu(_to_scipy(A), drop_tol=drop_tol, fill_factor=fill_factor, drop_rule=drop_rule,
                                   permc_spec=permc_spec, diag_pivot_thresh=diag_pivot_thresh, relax=relax,
                                   panel_size=panel_size, options=options)
    return SuperLU(lu)


def factorized(A):
    """A function ``solve(b)`` returning the solution of A x = b, from one LU factorisation of A."""
    if not (issparse(A) or isinstance(A, cp.ndarray)):
        raise TypeError(f"A must be a sparse matrix or a cuarray.ndarray, got {type(A).__name__}")
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise ValueError(f"can only factor square matrices, got shape {A.shape}")
    lu = splu(A)

    def solve(b):
        return lu.solve(b)
    return solve


def _warning_class(name):
    """SciPy's warning class `name` (so that filters and pytest.warns written for SciPy match), else a
    UserWarning subclass of that name."""
    try:
        import scipy.sparse
        import scipy.sparse.linalg
        for mod in (scipy.sparse.linalg, scipy.sparse):
            if hasattr(mod, name):
                return getattr(mod, name)
    except ImportError:  # pragma: no cover - SciPy is a test dependency
        pass
    cls = _fallback_warnings.get(name)
    if cls is None:
        cls = _fallback_warnings[name] = type(name, (UserWarning,), {})
    return cls


_fallback_warnings = {}
_INT32_MAX = numpy.iinfo(numpy.int32).max


def _spsolve_dtype(a_dtype, b_dtype):
    """SciPy's: A upcast to a floating type (bool/int8/int16 to float32, wider ints to float64), promoted with b."""
    a_dtype = numpy.dtype(a_dtype)
    if a_dtype.kind not in "fc" or a_dtype.itemsize < 4:
        a_dtype = numpy.promote_types(a_dtype, numpy.float32)
    dtype = numpy.promote_types(a_dtype, b_dtype)
    if dtype not in (numpy.float32, numpy.float64, numpy.complex64, numpy.complex128):
        raise TypeError(f"spsolve: no solver for dtype {dtype} (from A {a_dtype} and b {numpy.dtype(b_dtype)})")
    return dtype


def _qr_solve(A, B, dtype):
    """x (n, k) F-ordered with A x = B column by column (Note [spsolve by sparse QR]), and the singularity index
    (-1: nonsingular). A is CSR or CSC; B a dense (n, k) device array."""
    from cuarray.scipy.sparse import _util
    n = A.shape[0]
    if n > _INT32_MAX or A.nnz > _INT32_MAX:
        raise ValueError(f"spsolve: cuSOLVER's sparse QR takes 32-bit sizes, and this matrix has n = {n} and "
                         f"nnz = {A.nnz} (the limit is {_INT32_MAX} for each)")
    A = A.tocsr()
    # The stored order is scanned, not the cached flag: a CSC/CSR conversion marks its result canonical even
    # when duplicates came through it, and the QR needs them summed.
    if not A._order_flags()[1]:
        A = A.copy()
        A._canonical = False
        A.sum_duplicates()
    data = cp.ascontiguousarray(A.data.astype(dtype, copy=False))
    indices = cp.ascontiguousarray(A.indices.astype(numpy.int32, copy=False))
    indptr = cp.ascontiguousarray(A.indptr.astype(numpy.int32, copy=False))
    b = cp.asfortranarray(B.astype(dtype, copy=False))
    x = cp.empty(b.shape, dtype=dtype, order="F")
    prims = _util.prims()
    try:
        singular = prims.csrlsvqr(n, indptr, indices, data, b, x, 0.0, 1)
    except cp.cuda.runtime.CUDARuntimeError as e:
        if "ALLOC_FAILED" not in str(e):
            raise
        cp.get_default_memory_pool().free_all_blocks()
        singular = prims.csrlsvqr(n, indptr, indices, data, b, x, 0.0, 1)
    return x, singular


def spsolve(A, b, permc_spec=None, use_umfpack=True):
    """The solution x of A x = b for a square sparse A, on the device by cuSOLVER's sparse QR (Note [spsolve by
    sparse QR]).

    A: a sparse matrix (CSR or CSC; other formats and dense cuarray arrays are converted to CSC with SciPy's
    SparseEfficiencyWarning). b: a cuarray vector (n,), a dense (n, k) cuarray array, or a sparse matrix. As
    SciPy: b of shape (n,) or (n, 1), dense or sparse, gives a dense (n,) x; a dense (n, k) b a dense (n, k) x;
    a sparse b of k > 1 columns a sparse x of A's class (its zeros not stored). The dtype is SciPy's: A upcast
    to a floating type, promoted with b (float32 stays float32). A singular A gives SciPy's MatrixRankWarning
    ("Matrix is exactly singular") and an x of NaNs, or RuntimeError("Factor is exactly singular") for a sparse
    b of several columns, as SciPy's. n and nnz must fit in int32 (ValueError otherwise; SciPy's SuperLU has the
    same limit). ``permc_spec`` and ``use_umfpack`` are accepted for SciPy's signature and ignored: the QR
    orders columns itself and UMFPACK is not used.
    """
    from cuarray.scipy import sparse
    from cuarray.scipy.sparse._base import _cls
    if issparse(A):
        if A.format not in ("csr", "csc"):
            warnings.warn("spsolve requires A be CSC or CSR matrix format",
                          _warning_class("SparseEfficiencyWarning"), stacklevel=2)
            A = sparse.csc_array(A)
    elif isinstance(A, cp.ndarray):
        if A.ndim != 2:
            raise ValueError(f"A must be 2-D, got {A.ndim}-d")
        warnings.warn("spsolve requires A be CSC or CSR matrix format",
                      _warning_class("SparseEfficiencyWarning"), stacklevel=2)
        A = sparse.csc_array(A)
    else:
        raise TypeError(f"A must be a sparse matrix or a cuarray.ndarray, got {type(A).__name__}")
    b_sparse = issparse(b)
    if not b_sparse and not isinstance(b, cp.ndarray):
        raise TypeError(f"b must be a cuarray.ndarray or a sparse matrix, got {type(b).__name__}")
    dtype = _spsolve_dtype(A.dtype, b.dtype)
    M, N = A.shape
    if M != N:
        raise ValueError(f"matrix must be square (has shape {(M, N)})")
    if b.ndim == 0:
        raise IndexError("b must have at least one dimension (got a 0-d array)")
    if b.shape[0] != M:
        raise ValueError(f"matrix - rhs dimension mismatch ({A.shape} - {b.shape[0]})")
    if b.ndim > 2:
        raise ValueError(f"b must be 1-D or 2-D, got shape {b.shape}")
    n = M
    b_vector = b.ndim == 1 or b.shape[1] == 1
    if b_sparse and b_vector:
        b, b_sparse = b.toarray(), False
    if b_sparse and b.format != "csc":
        warnings.warn("spsolve is more efficient when sparse b is in the CSC matrix format",
                      _warning_class("SparseEfficiencyWarning"), stacklevel=2)
    B = b.toarray() if b_sparse else b
    if B.ndim == 1:
        B = B.reshape(n, 1)
    if n == 0 or B.shape[1] == 0:
        x, singular = cp.zeros(B.shape, dtype=dtype), -1
    else:
        x, singular = _qr_solve(A, B, dtype)
    if singular >= 0:
        if b_sparse:
            raise RuntimeError("Factor is exactly singular")
        warnings.warn("Matrix is exactly singular", _warning_class("MatrixRankWarning"), stacklevel=2)
        x = cp.full(B.shape, numpy.nan, dtype=dtype)
    if b_sparse:
        return _cls(A.format, A._is_array)(cp.ascontiguousarray(x))
    if b_vector:
        return cp.ascontiguousarray(x).reshape(n)
    return cp.ascontiguousarray(x).reshape(b.shape)
