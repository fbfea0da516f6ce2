"""diff of 2**27 float32 (issue 23's row; cuarray 363.8 µs against torch.diff 358.2 and a flat copy of as many
bytes 361.3 in interleaved rounds on an H100, tools/diag/bw_rows23.py): forms of the flat diff kernel
(src/kernels/diff_kernels.cu, diff_flat_kernel) as CuPy RawKernels on the same input, timed as the benchmark
times (median of single calls between events). Each form writes out[i] = x[i + 1] - x[i]; they differ in the
load and store hints, in where the element after a thread's vector comes from (a scalar load, or a shuffle from
the next lane with a scalar load for the warp's last lane), and in the grid (a thread per vector, or a capped
grid whose threads loop with U vectors in flight); `scalar4` is PyTorch's form (no vectors: a block's threads
take 4 elements each, 128 apart, as its unrolled elementwise kernel does).

    python tools/diag/diff_forms23.py
"""
import cupy as cp
import numpy as np
from _events import gpu_us_each, optional

torch = optional("torch")
ca = optional("cuarray")

SRC = r"""
template <int L> __device__ __forceinline__ float4 ld4(const float* p) {
  const float4* q = reinterpret_cast<const float4*>(p);
  return L ? __ldcs(q) : *q;
}
template <int S> __device__ __forceinline__ void st4(float* p, float4 v) {
  float4* q = reinterpret_cast<float4*>(p);
  if (S) __stcs(q, v); else *q = v;
}
__device__ __forceinline__ float4 sub4(float4 lo, float nx) {
  return make_float4(lo.y - lo.x, lo.z - lo.y, lo.w - lo.z, nx - lo.w);
}
// A thread per vector; the next element by a scalar load (SH 0) or from the next lane (SH 1).
template <int L, int S, int SH> __device__ void one(const float* x, float* out, long long n) {
  const long long nvec = n / 4;
  const long long step = (long long)gridDim.x * 256;
  for (long long k = blockIdx.x * 256LL + threadIdx.x; k < nvec; k += step) {
    const long long o = k * 4;
    float4 lo = ld4<L>(x + o);
    float nx;
    if (SH) {
      float up = __shfl_down_sync(0xffffffffu, lo.x, 1);
      nx = (threadIdx.x & 31) == 31 ? x[o + 4] : up;
    } else {
      nx = x[o + 4];
    }
    st4<S>(out + o, sub4(lo, nx));
  }
}
// Capped grid, U vectors in flight a thread (loads, then the scalar neighbours, then stores).
template <int U, int L, int S> __device__ void capped(const float* x, float* out, long long n) {
  const long long nvec = n / 4;
  const long long step = (long long)gridDim.x * 256 * U;
  for (long long k = blockIdx.x * 256LL * U + threadIdx.x; k < nvec; k += step) {
    float4 lo[U];
    float nx[U];
#pragma unroll
    for (int u = 0; u < U; ++u) if (k + u * 256 < nvec) lo[u] = ld4<L>(x + (k + u * 256) * 4);
#pragma unroll
    for (int u = 0; u < U; ++u) if (k + u * 256 < nvec) nx[u] = x[(k + u * 256) * 4 + 4];
#pragma unroll
    for (int u = 0; u < U; ++u) if (k + u * 256 < nvec) st4<S>(out + (k + u * 256) * 4, sub4(lo[u], nx[u]));
  }
}
// PyTorch's unrolled elementwise form: a block takes 512 elements, each thread 4 of them 128 apart.
__device__ void scalar4(const float* x, float* out, long long n) {
  const long long base = blockIdx.x * 512LL + threadIdx.x;
  float a[4], b[4];
#pragma unroll
  for (int u = 0; u < 4; ++u) { long long i = base + u * 128; if (i < n) { a[u] = x[i]; b[u] = x[i + 1]; } }
#pragma unroll
  for (int u = 0; u < 4; ++u) { long long i = base + u * 128; if (i < n) out[i] = b[u] - a[u]; }
}
#define ONE(name, L, S, SH) extern "C" __global__ void __launch_bounds__(256) name(const float* x, float* o, long long n) { one<L, S, SH>(x, o, n); }
#define CAP(name, U, L, S) extern "C" __global__ void __launch_bounds__(256) name(const float* x, float* o, long long n) { capped<U, L, S>(x, o, n); }
ONE(one_cs_ld, 1, 0, 0)
ONE(one_ld_ld, 0, 0, 0)
ONE(one_ld_cs, 0, 1, 0)
ONE(one_cs_cs, 1, 1, 0)
ONE(shfl_cs_ld, 1, 0, 1)
ONE(shfl_ld_ld, 0, 0, 1)
ONE(shfl_ld_cs, 0, 1, 1)
ONE(shfl_cs_cs, 1, 1, 1)
CAP(cap2_ld_ld, 2, 0, 0)
CAP(cap4_ld_ld, 4, 0, 0)
CAP(cap2_cs_cs, 2, 1, 1)
extern "C" __global__ void __launch_bounds__(128) torch_form(const float* x, float* o, long long n) { scalar4(x, o, n); }
extern "C" __global__ void flat(const float4* s, float4* d, long long n) {
  long long i = blockIdx.x * 256LL + threadIdx.x;
  if (i < n) d[i] = s[i];
}
"""


def main():
    n = 1 << 27
    x = cp.random.standard_normal(n, dtype=cp.float32)
    out = cp.empty(n, cp.float32)
    want = cp.diff(x)
    nbytes = 2 * n * 4
    mod = cp.RawModule(code=SRC, options=("-std=c++17",))
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]

    def report(name, us):
        print(f"{name:34} {us:7.1f} us {nbytes / us / 1e3:6.0f} GB/s", flush=True)

    # The kernels write n - 1 outputs; the last vector's neighbour x[n] is past the input, so they run over
    # n - 4 outputs' vectors and the check covers those (the library finishes the tail with its scalar loop).
    m = n - 4
    dst = cp.empty(n, cp.float32)
    f = mod.get_function("flat")
    report("flat copy (n floats)", gpu_us_each(lambda: f((n // 4 // 256,), (256,), (x, dst, np.int64(n // 4))), "cupy"))
    forms = [(nm, ((m // 4 + 255) // 256,), 256) for nm in
             ("one_cs_ld", "one_ld_ld", "one_ld_cs", "one_cs_cs", "shfl_cs_ld", "shfl_ld_ld", "shfl_ld_cs",
              "shfl_cs_cs")]
    for nm, u in (("cap2_ld_ld", 2), ("cap4_ld_ld", 4), ("cap2_cs_cs", 2)):
        for per_sm in (8, 16, 32):
            forms.append((f"{nm} {per_sm}/SM", (min(sms * per_sm, (m // 4 + 256 * u - 1) // (256 * u)),), 256))
    forms.append(("torch_form", ((m + 511) // 512,), 128))
    for name, grid, block in forms:
        fn = mod.get_function(name.split()[0])
        out.fill(0)
        call = lambda: fn(grid, (block,), (x, out, np.int64(m)))  # noqa: E731
        call()
        assert bool((out[:m - 4] == want[:m - 4]).all()), name
        report(f"{name} ({fn.num_regs} regs)", gpu_us_each(call, "cupy"))
    report("cupy.diff", gpu_us_each(lambda: cp.diff(x), "cupy"))
    if torch is not None:
        tx = torch.as_tensor(cp.asnumpy(x), device="cuda")
        report("torch.diff", gpu_us_each(lambda: torch.diff(tx), "torch"))
    if ca is not None:
        cx = ca.asarray(cp.asnumpy(x))
        report("cuarray.diff", gpu_us_each(lambda: ca.diff(cx), "cuarray"))


if __name__ == "__main__":
    main()
