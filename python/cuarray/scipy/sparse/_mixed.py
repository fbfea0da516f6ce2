"""Mixed-precision sparse matrix-vector products: float32/complex64 (or float64) stored values times float64/complex128
vectors, accumulated in float64, without a float64 copy of the matrix.

SciPy multiplies a float32 matrix with a float64 vector by upcasting the values: every product a_ij * x_j is one
double rounding and the sums run in double. These kernels compute the same thing from the stored values (the cast
happens in registers), so a solver iterating in float64 on a float32 matrix reads 8 bytes per nonzero (value and
int32 index), as a float32 product does, instead of allocating and reading a 12-byte-per-nonzero float64 copy.

Two kernels cover CSR and CSC and both products:
- gather: ``y[i] = sum_p op(data[p]) * x[indices[p]]`` over the entries of major row i (CSR A @ x, CSC A^H @ x);
  a group of G threads per row (G a power of two <= 32 chosen from the mean row length) sums with shuffles;
- scatter: ``y[indices[p]] += op(data[p]) * x[i]`` (CSR A^H @ x, CSC A @ x) with float64 atomicAdd into a zeroed y.
op is the identity or the complex conjugate. Note [mixed A^H product]: the adjoint is a scatter rather than a gather
over a transposed copy. The copy costs as much memory as the matrix (values and indices: 180 MB for 22.5M nonzeros)
plus a sort per solve; the scatter costs nothing but its atomics, whose targets (the n-vector y, 8 bytes a column)
stay in L2 for any n up to a few million, so the pass stays close to one read of the matrix. The summation order
of the atomics varies from run to run; in float64 that moves the result by a few ulps.
"""
import numpy

import cuarray as xp

_SOURCE = r"""
struct alignas(8) ca_cf { float x, y; };
struct alignas(16) ca_cd { double x, y; };
__device__ __forceinline__ W ca_make(double re, double im) {
#if CA_W_COMPLEX
  W r; r.x = re; r.y = im; return r;
#else
  (void)im; return re;
#endif
}
__device__ __forceinline__ W ca_val(float v, int) { return ca_make((double)v, 0.0); }
__device__ __forceinline__ W ca_val(double v, int) { return ca_make(v, 0.0); }
#if CA_W_COMPLEX
__device__ __forceinline__ W ca_val(ca_cf v, int conj) { return ca_make((double)v.x, conj ? -(double)v.y : (double)v.y); }
// acc += a * b in complex arithmetic (two fused multiply-adds per component, as a double product would round).
__device__ __forceinline__ void ca_fma(W& acc, W a, W b) {
  acc.x = fma(a.x, b.x, fma(-a.y, b.y, acc.x));
  acc.y = fma(a.x, b.y, fma(a.y, b.x, acc.y));
}
__device__ __forceinline__ W ca_mul(W a, W b) { return ca_make(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
__device__ __forceinline__ void ca_atomic_add(W* p, W v) {
  atomicAdd(&p->x, v.x);
  atomicAdd(&p->y, v.y);
}
#if G > 1
__device__ __forceinline__ W ca_shfl_xor(W v, int off) {
  return ca_make(__shfl_xor_sync(0xffffffffu, v.x, off), __shfl_xor_sync(0xffffffffu, v.y, off));
}
#endif
__device__ __forceinline__ void ca_add(W& a, W b) { a.x += b.x; a.y += b.y; }
#else
__device__ __forceinline__ void ca_fma(W& acc, W a, W b) { acc = fma(a, b, acc); }
__device__ __forceinline__ W ca_mul(W a, W b) { return a * b; }
__device__ __forceinline__ void ca_atomic_add(W* p, W v) { atomicAdd(p, v); }
#if G > 1
__device__ __forceinline__ W ca_shfl_xor(W v, int off) { return __shfl_xor_sync(0xffffffffu, v, off); }
#endif
__device__ __forceinline__ void ca_add(W& a, W b) { a += b; }
#endif

// Rows are walked warp by warp (CA_WARP / G rows per warp and pass), so the loop bound is the same for every lane
// of a warp and the full-mask shuffles below see all 32 lanes (the block size is a multiple of 32).
extern "C" __global__ void ca_spmv_gather(const PTR* __restrict__ indptr, const IDX* __restrict__ indices,
                                          const V* __restrict__ data, const W* __restrict__ x, W* __restrict__ y,
                                          long long n_major, int conj) {
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = (int)(threadIdx.x % CA_WARP);
  const long long rows_per_warp = CA_WARP / G;
  const long long stride = ((long long)gridDim.x * blockDim.x / CA_WARP) * rows_per_warp;
  for (long long base = (tid / CA_WARP) * rows_per_warp; base < n_major; base += stride) {
    const long long row = base + lane / G;
    W acc = ca_make(0.0, 0.0);
    if (row < n_major) {
      const long long end = (long long)indptr[row + 1];
      for (long long p = (long long)indptr[row] + lane % G; p < end; p += G)
        ca_fma(acc, ca_val(data[p], conj), x[indices[p]]);
    }
#if G > 1
    for (int off = G / 2; off > 0; off >>= 1) ca_add(acc, ca_shfl_xor(acc, off));
#endif
    if (row < n_major && lane % G == 0) y[row] = acc;
  }
}

extern "C" __global__ void ca_spmv_scatter(const PTR* __restrict__ indptr, const IDX* __restrict__ indices,
                                           const V* __restrict__ data, const W* __restrict__ x, W* y,
                                           long long n_major, int conj) {
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = (int)(threadIdx.x % CA_WARP);
  const long long rows_per_warp = CA_WARP / G;
  const long long stride = ((long long)gridDim.x * blockDim.x / CA_WARP) * rows_per_warp;
  for (long long base = (tid / CA_WARP) * rows_per_warp; base < n_major; base += stride) {
    const long long row = base + lane / G;
    if (row >= n_major) continue;
    const W xr = x[row];
    const long long end = (long long)indptr[row + 1];
    for (long long p = (long long)indptr[row] + lane % G; p < end; p += G)
      ca_atomic_add(y + indices[p], ca_mul(ca_val(data[p], conj), xr));
  }
}
"""

_CTYPES = {"float32": "float", "float64": "double", "complex64": "ca_cf", "complex128": "ca_cd",
           "int32": "int", "int64": "long long"}
_THREADS = 256
_MAX_BLOCKS = 1 << 16
_kernels = {}


def supported(data_dtype, vector_dtype):
    """Whether the product of stored `data_dtype` values with `vector_dtype` vectors has a kernel here: vectors of
    float64/complex128 with narrower or real values (what SciPy would upcast the matrix for)."""
    d, v = numpy.dtype(data_dtype), numpy.dtype(vector_dtype)
    if d == v or v.name not in ("float64", "complex128") or d.name not in ("float32", "float64", "complex64"):
        return False
    return not (d.kind == "c" and v.kind != "c")


def group_size(nnz, n_major):
    """Threads per row: the smallest power of two >= the mean row length, at most a warp (32)."""
    mean = nnz / n_major if n_major else 0
    g = 1
    while g < 32 and g < mean:
        g *= 2
    return g


def source(data_dtype, vector_dtype, ptr_dtype, index_dtype, group, warp=32):
    """The CUDA source of both kernels for these dtypes, `group` threads per row and `warp` lanes a warp (tests
    compile it for the host with warp = group = 1)."""
    v = numpy.dtype(vector_dtype).name
    head = (f"#define CA_W_COMPLEX {int(v == 'complex128')}\n"
            f"#define G {int(group)}\n#define CA_WARP {int(warp)}\n"
            f"typedef {_CTYPES[numpy.dtype(ptr_dtype).name]} PTR;\n"
            f"typedef {_CTYPES[numpy.dtype(index_dtype).name]} IDX;\n")
    # V and W after the complex structs they may name.
    body = _SOURCE.replace("};\n__device__ __forceinline__ W ca_make",
                           f"}};\ntypedef {_CTYPES[numpy.dtype(data_dtype).name]} V;\ntypedef {_CTYPES[v]} W;\n"
                           "__device__ __forceinline__ W ca_make", 1)
    return head + body


def launch_shape(n_major, group):
    """(grid, block) for `n_major` rows at `group` threads each; the kernels loop when the grid is capped."""
    blocks = max(1, min(_MAX_BLOCKS, -(-n_major * group // _THREADS)))
    return (blocks,), (_THREADS,)


def _kernel(name, data_dtype, vector_dtype, ptr_dtype, index_dtype, group):
    key = (name, numpy.dtype(data_dtype).name, numpy.dtype(vector_dtype).name, numpy.dtype(ptr_dtype).name,
           numpy.dtype(index_dtype).name, group)
    k = _kernels.get(key)
    if k is None:
        k = _kernels[key] = xp.RawKernel(source(*key[1:5], group), name)
    return k


def product(indptr, indices, data, x, out, scatter, conj=False):
    """out = op(A) @ x for the compressed matrix (indptr, indices, data) of len(indptr) - 1 major rows: a gather
    (out has a row per major row) or, with `scatter`, a scatter (out has a row per minor index; zeroed here).
    x and out are contiguous 1-d arrays of the vector dtype; op conjugates the stored values when `conj`."""
    n_major = int(indptr.size) - 1
    if scatter:
        out.fill(0)
    if n_major <= 0 or data.size == 0:
        if not scatter:
            out.fill(0)
        return out
    g = group_size(int(data.size), n_major)
    kern = _kernel("ca_spmv_scatter" if scatter else "ca_spmv_gather", data.dtype, out.dtype, indptr.dtype,
                   indices.dtype, g)
    grid, block = launch_shape(n_major, g)
    kern(grid, block, (indptr, indices, data, x, out, numpy.int64(n_major), numpy.int32(bool(conj))))
    return out
