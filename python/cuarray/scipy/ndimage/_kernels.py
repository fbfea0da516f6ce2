"""Generated CUDA kernels of cuarray.scipy.ndimage's filters: one per (kind, ndim, mode, dtypes, size), cached."""
import numpy

from cuarray._kernel import RawKernel
from cuarray.scipy.ndimage._util import _CTYPES

# Note [ndimage kernels]
# Every filter is a gather: one thread per output element (grid-stride loop over the C-contiguous output),
# which decomposes its flat index into coordinates, visits the taps of the footprint, maps each tap's
# coordinate into the input through the boundary rule and reads the input through its own strides (so that
# views need no copy). Separable filters (correlate1d and everything built on it: uniform, gaussian, min/max
# with a box, sobel...) are the "1d" kinds: taps lie along one compile-time axis, the tap count is a
# compile-time constant (the loop unrolls) and an interior test skips the boundary rule. The "nd" kinds read
# a table of per-tap coordinate offsets (int32, taps x ndim) and, for correlations, the weights of the
# nonzero taps only (SciPy's footprint is weights != 0). Rank filters gather the footprint into a per-thread
# array and sort it by insertion (the footprint size is compile-time). Values are read into the accumulation
# type: float for float32 in and out (CuPy's choice, within float32 tolerance of SciPy), double otherwise
# (SciPy computes in double); the result is converted to the output type by a C cast, as SciPy's is.

_MAP = {
    'reflect': "const long long p = 2 * n; c %= p; if (c < 0) c += p; return c >= n ? p - 1 - c : c;",
    'mirror': "if (n == 1) return 0; const long long p = 2 * n - 2; c %= p; if (c < 0) c += p;"
              " return c >= n ? p - c : c;",
    'wrap': "c %= n; return c < 0 ? c + n : c;",
    'nearest': "return c < 0 ? 0 : n - 1;",
    'constant': "return -1;",
}

_HEAD = r"""
typedef {in_t} in_t;
typedef {out_t} out_t;
typedef {acc_t} acc_t;
#define NDIM {ndim}
__device__ __forceinline__ long long ca_map(long long c, long long n) {{
  if (c >= 0 && c < n) return c;
  {map}
}}
extern "C" __global__ void ca_ndimage(const in_t* __restrict__ x, out_t* __restrict__ y,
    const acc_t* __restrict__ w, const int* __restrict__ offs, long long total, int shift, int rank,
    double cval_d, {dims}) {{
  const long long shape[NDIM] = {{{shape}}};
  const long long strides[NDIM] = {{{strides}}};
  const acc_t cval = (acc_t)cval_d;
  for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < total;
       idx += (long long)blockDim.x * gridDim.x) {{
    long long c[NDIM];
    long long r = idx;
#pragma unroll
    for (int d = NDIM - 1; d >= 0; --d) {{ c[d] = r % shape[d]; r /= shape[d]; }}
{body}
  }}
}}
"""

# Taps along AXIS: base is the input offset of the line, p the position on it, q0 the first tap's coordinate.
_LINE = r"""
    long long base = 0;
#pragma unroll
    for (int d = 0; d < NDIM; ++d) if (d != {axis}) base += c[d] * strides[d];
    const long long n = shape[{axis}], st = strides[{axis}];
    const long long q0 = c[{axis}] - shift;
    const bool inside = q0 >= 0 && q0 + {K} <= n;
    acc_t s = {init};
#pragma unroll
    for (int j = 0; j < {K}; ++j) {{
      acc_t v;
      if (inside) {{
        v = (acc_t)x[base + (q0 + j) * st];
      }} else {{
        const long long q = ca_map(q0 + j, n);
        v = q < 0 ? cval : (acc_t)x[base + q * st];
      }}
      {step}
    }}
    y[idx] = (out_t)({result});
"""

# Taps from the offset table: tap k reads coordinate c + offs[k * NDIM + d] (centre and origin included).
_TAPS = r"""
    {decl}
    for (int k = 0; k < {K}; ++k) {{
      long long off = 0;
      bool outside = false;
#pragma unroll
      for (int d = 0; d < NDIM; ++d) {{
        const long long q = ca_map(c[d] + offs[k * NDIM + d], shape[d]);
        outside |= q < 0;
        off += q * strides[d];
      }}
      const acc_t v = outside ? cval : (acc_t)x[off];
      {step}
    }}
    {finish}
    y[idx] = (out_t)({result});
"""

_STEPS = {
    'corr': ("acc_t s = 0;", "s += w[k] * v;", "", "s"),
    'min': ("acc_t s = 0;", "if (k == 0 || v < s) s = v;", "", "s"),
    'max': ("acc_t s = 0;", "if (k == 0 || v > s) s = v;", "", "s"),
    # Insertion sort of the footprint's values; the rank-th smallest is the result.
    'rank': ("acc_t vals[{K}];", "int m = k; while (m > 0 && vals[m - 1] > v) {{ vals[m] = vals[m - 1]; --m; }}"
             " vals[m] = v;", "", "vals[rank]"),
}
_LINE_STEPS = {
    'corr': ("0", "s += w[j] * v;", "s"),
    'uniform': ("0", "s += v;", "s / (acc_t){K}"),
    'min': ("0", "if (j == 0 || v < s) s = v;", "s"),
    'max': ("0", "if (j == 0 || v > s) s = v;", "s"),
}

_cache = {}


def acc_dtype(in_dtype, out_dtype):
    """The accumulation type: float32 when input and output are float32, else float64."""
    if in_dtype == numpy.float32 and out_dtype == numpy.float32:
        return numpy.dtype(numpy.float32)
    return numpy.dtype(numpy.float64)


def source(kind, ndim, mode, in_dtype, out_dtype, K, axis=None):
    """The CUDA source of one kernel: kind is 'corr1d', 'uniform1d', 'min1d', 'max1d' (taps along ``axis``) or
    'corr', 'min', 'max', 'rank' (a tap table)."""
    in_dtype, out_dtype = numpy.dtype(in_dtype), numpy.dtype(out_dtype)
    acc = acc_dtype(in_dtype, out_dtype)
    if kind.endswith('1d'):
        init, step, result = _LINE_STEPS[kind[:-2]]
        body = _LINE.format(axis=axis, K=K, init=init, step=step, result=result.format(K=K))
    else:
        decl, step, finish, result = _STEPS[kind]
        if kind == 'rank':
            step = step.replace("{{", "{").replace("}}", "}")
        body = _TAPS.format(K=K, decl=decl.format(K=K), step=step, finish=finish, result=result)
    return _HEAD.format(in_t=_CTYPES[in_dtype.name], out_t=_CTYPES[out_dtype.name], acc_t=_CTYPES[acc.name],
                        ndim=ndim, map=_MAP[mode],
                        dims=", ".join(f"long long n{d}, long long s{d}" for d in range(ndim)),
                        shape=", ".join(f"n{d}" for d in range(ndim)),
                        strides=", ".join(f"s{d}" for d in range(ndim)), body=body)


def get_kernel(kind, ndim, mode, in_dtype, out_dtype, K, axis=None):
    """The compiled kernel for this combination (compiled on the first launch, cached here and on disk)."""
    key = (kind, ndim, mode, numpy.dtype(in_dtype).name, numpy.dtype(out_dtype).name, K, axis)
    k = _cache.get(key)
    if k is None:
        k = _cache[key] = RawKernel(source(kind, ndim, mode, in_dtype, out_dtype, K, axis), "ca_ndimage")
    return k
