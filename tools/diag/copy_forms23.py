"""The ceiling of issue 23's join rows (`concatenate`/`stack` of 64 float32 arrays of 2**20, where cuarray and
torch.cat both run at a flat copy's rate and trail or lead each other by under 1%): is there a copy of 256 MiB
faster than the copy kernels measured so far? CuPy RawKernel forms of a flat device-to-device copy, timed in
interleaved rounds (median of single calls between events; the median over rounds is printed), beside
cudaMemcpyAsync, cuarray's own copy, cuarray.concatenate and torch.cat of the same bytes:

- one 16-byte vector a thread (a grid that covers the copy), or U vectors a thread, by the load's PTX form:
  ld.global (plain), .nc (the read-only path, what a `const __restrict__` dereference compiles to), .cs
  (streaming), .L1::no_allocate, and .L2::256B (a prefetch of the whole 256-byte L2 sector group), and by the
  store's: st.global plain or .cs;
- the Hopper bulk copy (TMA, cp.async.bulk): one thread a block moves `chunk` bytes global -> shared -> global
  with an mbarrier, blocks looping over the copy, by chunk size.

    python tools/diag/copy_forms23.py [rounds]
"""
import statistics
import sys

import cupy as cp
import numpy as np
from _events import gpu_us_each, optional

torch = optional("torch")
ca = optional("cuarray")

SRC = r"""
template <int L> __device__ __forceinline__ uint4 ld(const uint4* p) {
  uint4 v;
  if (L == 0) {
    asm volatile("ld.global.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  } else if (L == 1) {
    asm volatile("ld.global.nc.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  } else if (L == 2) {
    asm volatile("ld.global.cs.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  } else if (L == 3) {
    asm volatile("ld.global.L1::no_allocate.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  } else if (L == 4) {
    asm volatile("ld.global.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  } else {
    asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  }
  return v;
}
template <int S> __device__ __forceinline__ void st(uint4* p, uint4 v) {
  if (S == 0) asm volatile("st.global.v4.u32 [%0], {%1,%2,%3,%4};" :: "l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) : "memory");
  else asm volatile("st.global.cs.v4.u32 [%0], {%1,%2,%3,%4};" :: "l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) : "memory");
}
// U vectors a thread, a block's 256 * U vectors contiguous, loads before stores; the grid covers the copy.
template <int U, int L, int S> __global__ void __launch_bounds__(256) vcopy(const uint4* s, uint4* d, long long n) {
  const long long base = (long long)blockIdx.x * 256 * U + threadIdx.x;
  uint4 v[U];
#pragma unroll
  for (int u = 0; u < U; ++u) if (base + u * 256 < n) v[u] = ld<L>(s + base + u * 256);
#pragma unroll
  for (int u = 0; u < U; ++u) if (base + u * 256 < n) st<S>(d + base + u * 256, v[u]);
}
// Bulk copy: thread 0 of each block moves `chunk` bytes at a time through shared memory.
__device__ __forceinline__ void wait_phase(unsigned bar, unsigned phase) {
  unsigned ok = 0;
  do {
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(ok) : "r"(bar), "r"(phase) : "memory");
  } while (!ok);
}
extern "C" __global__ void __launch_bounds__(32) tma_copy(const char* src, char* dst, long long nbytes, int chunk) {
  extern __shared__ __align__(128) char buf[];
  __shared__ __align__(8) unsigned long long bar;
  if (threadIdx.x != 0) return;
  const unsigned sbuf = (unsigned)__cvta_generic_to_shared(buf);
  const unsigned sbar = (unsigned)__cvta_generic_to_shared(&bar);
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(sbar) : "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  unsigned phase = 0;
  for (long long off = (long long)blockIdx.x * chunk; off < nbytes; off += (long long)gridDim.x * chunk) {
    const unsigned bytes = (unsigned)(nbytes - off < chunk ? nbytes - off : chunk);
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(sbar), "r"(bytes) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 :: "r"(sbuf), "l"(src + off), "r"(bytes), "r"(sbar) : "memory");
    wait_phase(sbar, phase);
    phase ^= 1u;
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" :: "l"(dst + off), "r"(sbuf), "r"(bytes)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}
"""

LOADS = {0: "ld", 1: "nc", 2: "cs", 3: "L1noalloc", 4: "L2_256B", 5: "nc_noalloc_256B"}
STORES = {0: "st", 1: "stcs"}


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    n = 64 << 20  # float32 elements: 256 MiB
    nvec = n // 4
    x = cp.random.standard_normal(n, dtype=cp.float32)
    y = cp.empty_like(x)
    names = [f"vcopy<{u}, {l}, {s}>" for u in (1, 2, 4) for l in LOADS for s in STORES]
    mod = cp.RawModule(code=SRC, options=("-std=c++17",), name_expressions=names)
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    forms = {}
    for u in (1, 2, 4):
        for l, ln in LOADS.items():
            for s, sn in STORES.items():
                k = mod.get_function(f"vcopy<{u}, {l}, {s}>")
                g = (nvec + 256 * u - 1) // (256 * u)
                forms[f"U={u} {ln}/{sn}"] = (lambda k=k, g=g: k((g,), (256,), (x, y, np.int64(nvec))), "cupy")
    tma = mod.get_function("tma_copy")
    for chunk, per_sm in ((8192, 16), (8192, 24), (16384, 8), (16384, 12), (32768, 6)):
        forms[f"tma chunk {chunk // 1024} KiB {per_sm}/SM"] = (
            lambda c=chunk, g=sms * per_sm: tma((g,), (32,), (x, y, np.int64(4 * n), np.int32(c)), shared_mem=c),
            "cupy")
    forms["cudaMemcpyAsync"] = (lambda: y.data.copy_from_device_async(x.data, 4 * n), "cupy")
    if ca is not None:
        cx, cy = ca.empty(n, ca.float32), ca.empty(n, ca.float32)
        parts = [ca.empty(n // 64, ca.float32) for _ in range(64)]
        forms["cuarray b[:] = a"] = (lambda: cy.__setitem__(slice(None), cx), "cuarray")
        forms["cuarray.concatenate 64"] = (lambda: ca.concatenate(parts), "cuarray")
    if torch is not None:
        tparts = [torch.empty(n // 64, device="cuda") for _ in range(64)]
        forms["torch.cat 64"] = (lambda: torch.cat(tparts), "torch")
    # correctness of every kernel form before timing
    for name, (fn, lib) in forms.items():
        if lib == "cupy" and name != "cudaMemcpyAsync":
            y.fill(0)
            fn()
            assert bool((y == x).all()), name
    got = {name: [] for name in forms}
    for _ in range(rounds):
        for name, (fn, lib) in forms.items():
            got[name].append(gpu_us_each(fn, lib, reps=20))
    ref = statistics.median(got["cudaMemcpyAsync"])
    rows = sorted((statistics.median(v), name) for name, v in got.items())
    for us, name in rows:
        print(f"{name:34} {us:7.1f} us {2 * 4 * n / us / 1e3:6.0f} GB/s  memcpy/this {ref / us:.3f}", flush=True)


if __name__ == "__main__":
    main()
