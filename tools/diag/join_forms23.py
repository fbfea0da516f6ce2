"""concatenate of 64 float32 arrays of 2**20 (issue 23's join row; cuarray at 0.98 of a flat 256 MiB copy, torch.cat
at 1.00): forms of the batched join kernel (src/kernels/manip_kernels.cu, Note [batched join]), as CuPy RawKernels
on the same inputs, timed as the benchmark times (median of single calls between events). Each form copies
blockIdx.y's input; they differ in the cache hints of the load and the store and in the grid: one 16-byte vector a
thread over a grid that covers the input (the library), or a grid capped at a few waves whose threads loop with U
vectors in flight (PyTorch's CatArrayBatchedCopy takes a capped grid).

    python tools/diag/join_forms23.py
"""
import cupy as cp
import numpy as np
from _events import gpu_us_each, optional

torch = optional("torch")
ca = optional("cuarray")

SRC = r"""
template <int L, int S> __device__ __forceinline__ void move(const uint4* s, uint4* d) {
  uint4 v = L ? __ldcs(s) : *s;
  if (S) __stcs(d, v); else *d = v;
}
// One vector a thread, x blocks covering the input.
template <int L, int S> __device__ void one(const unsigned long long* src, unsigned long long dst, long long vecs) {
  const uint4* s = reinterpret_cast<const uint4*>(src[blockIdx.y]);
  uint4* d = reinterpret_cast<uint4*>(dst) + blockIdx.y * vecs;
  const long long step = (long long)gridDim.x * 256;
  for (long long k = (long long)blockIdx.x * 256 + threadIdx.x; k < vecs; k += step) move<L, S>(s + k, d + k);
}
// Capped grid: each thread U vectors a step, loads before stores.
template <int U, int L, int S> __device__ void capped(const unsigned long long* src, unsigned long long dst, long long vecs) {
  const uint4* s = reinterpret_cast<const uint4*>(src[blockIdx.y]);
  uint4* d = reinterpret_cast<uint4*>(dst) + blockIdx.y * vecs;
  const long long step = (long long)gridDim.x * 256 * U;
  for (long long k = (long long)blockIdx.x * 256 * U + threadIdx.x; k < vecs; k += step) {
    uint4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) if (k + u * 256 < vecs) v[u] = L ? __ldcs(s + k + u * 256) : s[k + u * 256];
#pragma unroll
    for (int u = 0; u < U; ++u) if (k + u * 256 < vecs) { if (S) __stcs(d + k + u * 256, v[u]); else d[k + u * 256] = v[u]; }
  }
}
#define ONE(n, L, S) extern "C" __global__ void __launch_bounds__(256) n(const unsigned long long* a, unsigned long long b, long long c) { one<L, S>(a, b, c); }
#define CAP(n, U, L, S) extern "C" __global__ void __launch_bounds__(256) n(const unsigned long long* a, unsigned long long b, long long c) { capped<U, L, S>(a, b, c); }
ONE(one_cs_cs, 1, 1)
ONE(one_plain, 0, 0)
ONE(one_cs_ld, 1, 0)
ONE(one_ld_cs, 0, 1)
CAP(cap2_cs_cs, 2, 1, 1)
CAP(cap4_cs_cs, 4, 1, 1)
CAP(cap4_plain, 4, 0, 0)
CAP(cap1_plain, 1, 0, 0)
extern "C" __global__ void flat(const uint4* s, uint4* d, long long n) {
  long long i = blockIdx.x * 256LL + threadIdx.x;
  if (i < n) d[i] = s[i];
}
"""


def main():
    k, n = 64, 1 << 20
    vecs = n * 4 // 16
    nbytes = 2 * k * n * 4
    parts = [cp.random.standard_normal(n, dtype=cp.float32) for _ in range(k)]
    ptrs = cp.asarray(np.array([p.data.ptr for p in parts], np.uint64))
    out = cp.empty(k * n, cp.float32)
    want = cp.concatenate(parts)
    mod = cp.RawModule(code=SRC, options=("-std=c++17",), name_expressions=None)
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]

    def report(name, us):
        print(f"{name:44} {us:7.1f} us {nbytes / us / 1e3:6.0f} GB/s")

    big = cp.random.standard_normal(k * n, dtype=cp.float32)
    f = mod.get_function("flat")
    report("flat copy 256 MiB (one array)", gpu_us_each(lambda: f((k * vecs // 256,), (256,), (big, out, np.int64(k * vecs))), "cupy"))
    forms = [(name, (vecs // 256,)) for name in ("one_cs_cs", "one_plain", "one_cs_ld", "one_ld_cs")]
    for name in ("cap2_cs_cs", "cap4_cs_cs", "cap4_plain", "cap1_plain"):
        u = int(name[3])
        for waves in (2, 4, 8):
            # blocks over all inputs ~ waves * 8 blocks per SM
            x = max(1, waves * 8 * sms // k)
            forms.append((f"{name} x={x}", (min(x, vecs // (256 * u)),)))
    for name, gx in forms:
        fn = mod.get_function(name.split()[0])
        out.fill(0)
        call = lambda: fn((gx[0], k), (256,), (ptrs, np.uint64(out.data.ptr), np.int64(vecs)))  # noqa: E731
        call()
        assert bool((out == want).all()), name
        report(f"{name} ({fn.num_regs} regs)", gpu_us_each(call, "cupy"))
    report("cupy.concatenate", gpu_us_each(lambda: cp.concatenate(parts), "cupy"))
    if torch is not None:
        tp = [torch.as_tensor(p, device="cuda") for p in parts]
        report("torch.cat", gpu_us_each(lambda: torch.cat(tp), "torch"))
    if ca is not None:
        cparts = [ca.asarray(cp.asnumpy(p)) for p in parts]
        report("cuarray.concatenate", gpu_us_each(lambda: ca.concatenate(cparts), "cuarray"))


if __name__ == "__main__":
    main()
