"""Row sums (`sum(axis=-1)` of C-ordered float32) trail CuPy's by 1-4% in the quick benchmark (16384²: 243 µs
against 237), a neighbour of issue 23's reduction rows. cuarray reads each row with a group of lanes (a warp per
row when there are many rows, Note [vector rows]), four 16-byte vectors a lane in flight, with plain loads;
CuPy's CUB segmented reduction gives each row a block. Which of the differences costs the time?

Replicas (CuPy RawKernels) differ in one thing at a time:
  - G: lanes per row (8, 16, 32 or the whole block of 256);
  - load: plain `ld.global`, `__ldg` (the non-coherent path CUB uses) or `__ldcs` (evict-first);
  - U: vectors a lane has in flight (4, the library's, or 8).
"library kernel" is the engine's own generated source (cuarray._core.reduction_source) at the library's group
and at a warp, with plain and with streaming loads, launched through CuPy. Every row reads the same PyTorch tensor, so
placement is the same for all. Interleaved rounds; medians over rounds, fastest first, per shape.

    python tools/diag/rows23.py [rounds]
"""
import statistics
import sys

import cupy as cp
import numpy as np
import torch
from _events import gpu_us_each

import cuarray as ca
from cuarray import _core

REPLICA = r"""
template <int H> __device__ __forceinline__ float4 ld(const float4* p) {
  if (H == 1) return __ldcs(p);
  if (H == 2) return __ldg(p);
  return *p;
}
template <int G, int H, int U>
__global__ void __launch_bounds__(256) rows(const float4* __restrict__ x, int M, int nv, float* __restrict__ out) {
  const int lane = threadIdx.x % G, o = blockIdx.x * (256 / G) + threadIdx.x / G;
  float acc = 0.f;
  if (o < M) {
    const float4* r = x + (long long)o * nv;
    int i = lane;
    for (; i + (U - 1) * G < nv; i += U * G) {
      float4 v[U];
#pragma unroll
      for (int u = 0; u < U; ++u) v[u] = ld<H>(r + i + u * G);
#pragma unroll
      for (int u = 0; u < U; ++u) { acc += v[u].x; acc += v[u].y; acc += v[u].z; acc += v[u].w; }
    }
    for (; i < nv; i += G) { float4 v = ld<H>(r + i); acc += v.x; acc += v.y; acc += v.z; acc += v.w; }
  }
  if (G <= 32) {
#pragma unroll
    for (int s = G / 2; s > 0; s >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, s, G);
    if (lane == 0 && o < M) out[o] = acc;
  } else {
    __shared__ float sh[256];
    sh[threadIdx.x] = acc;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) { if (threadIdx.x < s) sh[threadIdx.x] += sh[threadIdx.x + s]; __syncthreads(); }
    if (threadIdx.x == 0 && o < M) out[o] = sh[0];
  }
}
"""

LIB_WRAPPER = r"""
extern "C" __global__ void __launch_bounds__(256) lib_rows(const char* x, float* out, int M, int R) {
  ca_ptrs P; P.p[0] = x;
  ca_rlayout L; L.kshape[0] = M; L.kstride[0][0] = R * 4; L.rshape[0] = R; L.rstride[0][0] = 4;
  lib_body(P, nullptr, reinterpret_cast<char*>(out), M, R, R, R, 0.0, L);
}
"""

GROUPS = (8, 16, 32, 256)
HINTS = {0: "plain", 1: "ldcs", 2: "ldg"}
UNROLLS = (4, 8)


def library_source(group, streaming):
    """The engine's one-pass rows kernel for sum of float32 at `group` lanes a row, as a device function with a
    wrapper that builds its structs."""
    src = _core.reduction_source("sumr", "", "float", ["float"], "float", "m = x;", "r = a + b;",
                                 "y = ca_cast<out_t>(a);", "ca_cast<acc_t>(0)", 4, [np.float32], np.float32,
                                 True, group, 1, 1, False, True, False, False, stream=streaming)
    head = 'extern "C" __global__ void __launch_bounds__(256) cuarray_reduce_sumr('
    assert head in src, "the engine's kernel signature changed: update rows23.py"
    assert ("__ldcs(" in src) == streaming
    return src.replace(head, "__device__ __forceinline__ void lib_body(") + LIB_WRAPPER


def library_group(M, R, sms):
    """policy::row_group of launch_policy.hpp for M rows of R/4 vectors (kept in step by hand; before 07a6b76,
    Note [long rows], long rows took a warp each, not a block)."""
    target = 8 * sms
    if M < 2 * target or R // 4 >= 256 * 4:
        return 256
    g = 32
    while g > 1 and g * 4 > R // 4:
        g >>= 1
    return g


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 5
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    mod = cp.RawModule(code=REPLICA, options=("-std=c++17",),
                       name_expressions=[f"rows<{g}, {h}, {u}>" for g in GROUPS for h in HINTS for u in UNROLLS])
    inc = str(__import__("pathlib").Path(__file__).resolve().parents[2] / "src" / "engine" / "device")
    rng = np.random.default_rng(0)
    print(f"{sms} multiprocessors, {rounds} rounds")
    for M, R in ((16384, 16384), (4096, 65536), (65536, 4096), (262144, 1024)):
        hx = rng.standard_normal((M, R), dtype=np.float32)
        tx = torch.as_tensor(hx, device="cuda")
        cx, px = ca.from_dlpack(tx), cp.from_dlpack(tx)
        ref = torch.sum(tx.double(), dim=1).cpu().numpy()
        out = cp.zeros(M, cp.float32)
        cases = {}
        for g in GROUPS:
            if g * 4 * 4 > R:
                continue
            for h, hname in HINTS.items():
                for u in UNROLLS:
                    k = mod.get_function(f"rows<{g}, {h}, {u}>")
                    grid = (M + 256 // g - 1) // (256 // g)
                    cases[f"replica G={g:3} {hname:5} U={u}"] = (
                        lambda k=k, grid=grid: k((grid,), (256,), (px, np.int32(M), np.int32(R // 4), out)), "cupy")
        g = library_group(M, R, sms)
        for lg in sorted({32, g}):  # the library's group, and the warp of the rule before Note [long rows]
            for streaming in (False, True):
                k = cp.RawModule(code=library_source(lg, streaming), options=("-std=c++17", f"-I{inc}")).get_function(
                    "lib_rows")
                grid = (M + 256 // lg - 1) // (256 // lg)
                cases[f"library kernel G={lg:3} {'ldcs' if streaming else 'plain'}"] = (
                    lambda k=k, grid=grid: k((grid,), (256,), (px, out, np.int32(M), np.int32(R))), "cupy")
        for name, (fn, lib) in cases.items():
            out.fill(0)
            fn()
            np.testing.assert_allclose(cp.asnumpy(out), ref, rtol=1e-3, atol=1e-2 * np.sqrt(R), err_msg=name)
        np.testing.assert_allclose(ca.asnumpy(cx.sum(axis=1)), ref, rtol=1e-3, atol=1e-2 * np.sqrt(R))
        cases["cuarray sum(axis=1)"] = (lambda: cx.sum(axis=1), "cuarray")
        cases["cupy sum(axis=1)"] = (lambda: px.sum(axis=1), "cupy")
        cases["torch sum(dim=1)"] = (lambda: torch.sum(tx, dim=1), "torch")
        got = {name: [] for name in cases}
        for _ in range(rounds):
            for name, (fn, lib) in cases.items():
                got[name].append(gpu_us_each(fn, lib, reps=20))
        nbytes = px.nbytes
        print(f"\n({M}, {R}) float32, {nbytes >> 20} MiB, library group {g}")
        for t, name in sorted((statistics.median(v), name) for name, v in got.items()):
            print(f"{name:34} {t:7.1f} µs  {nbytes / t / 1e3:5.0f} GB/s  [{min(got[name]):.1f}, {max(got[name]):.1f}]")
        del tx, cx, px, out, cases


if __name__ == "__main__":
    main()
