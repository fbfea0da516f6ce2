"""Issue 23's `norm` of 8192² float32: cuarray's full reduction runs 3-6% slower than the best sum-of-squares
replica of bw_rows23.py (grid-stride order, four streaming-load vectors a thread, 8 or 32 blocks a
multiprocessor). Which of the differences costs the time?

The library's split full reduction (Note [reduction kernels]) gives each of its S blocks (1024 on an H200:
policy::splits caps them) one contiguous chunk of the input, walked 256 vectors at a time, four in flight,
with plain loads. The replicas here differ from that in one thing at a time:
  - order: "chunk" (the library's) or "stride" (block b reads vectors b*256 + t, then a grid further on);
  - load: plain `ld.global` or `__ldcs` (evict-first);
  - grid: 1024 blocks, or 8, 16 or 32 a multiprocessor.
Each is a partials kernel then a one-block fold, as the library's two launches. "library kernel" is the
engine's own generated source (cuarray._core.reduction_source), called through a wrapper, at its own grid and
at others. All read the same PyTorch tensor, so placement is the same for every row. Interleaved rounds; the
medians over rounds are printed, fastest first, with the library's and PyTorch's calls (norm, sum, mean, var)
as rows of the same table.

With "profile", first the per-kernel times of the library's and PyTorch's calls under torch.profiler.

    python tools/diag/norm23.py [rounds] [profile]
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
  return *p;
}
__device__ __forceinline__ void sq4(float& acc, float4 v) {  // the library's fold: one element at a time
  acc = fmaf(v.x, v.x, acc); acc = fmaf(v.y, v.y, acc); acc = fmaf(v.z, v.z, acc); acc = fmaf(v.w, v.w, acc);
}
template <int ORDER, int H>
__global__ void __launch_bounds__(256) sq(const float4* __restrict__ x, int nv, int chunkv, float* part) {
  float acc = 0.f;
  int i, step, end;
  if (ORDER == 0) {
    const int vb = blockIdx.x * chunkv;
    end = min(vb + chunkv, nv); i = vb + threadIdx.x; step = 256;
  } else {
    end = nv; i = blockIdx.x * 256 + threadIdx.x; step = gridDim.x * 256;
  }
  for (; i + 3 * step < end; i += 4 * step) {
    float4 v0 = ld<H>(x + i), v1 = ld<H>(x + i + step), v2 = ld<H>(x + i + 2 * step), v3 = ld<H>(x + i + 3 * step);
    sq4(acc, v0); sq4(acc, v1); sq4(acc, v2); sq4(acc, v3);
  }
  for (; i < end; i += step) sq4(acc, ld<H>(x + i));
  __shared__ float sh[256];
  sh[threadIdx.x] = acc;
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) { if (threadIdx.x < s) sh[threadIdx.x] += sh[threadIdx.x + s]; __syncthreads(); }
  if (threadIdx.x == 0) part[blockIdx.x] = sh[0];
}
extern "C" __global__ void fold(const float* part, int n, float* out) {
  __shared__ float sh[256];
  float a = 0;
  for (int i = threadIdx.x; i < n; i += 256) a += part[i];
  sh[threadIdx.x] = a;
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) { if (threadIdx.x < s) sh[threadIdx.x] += sh[threadIdx.x + s]; __syncthreads(); }
  if (threadIdx.x == 0) out[0] = sqrtf(sh[0]);
}
"""

LIB_WRAPPER = r"""
extern "C" __global__ void __launch_bounds__(256) lib_norm(const char* x, float* part, int R, int chunk) {
  ca_ptrs P; P.p[0] = x;
  ca_rlayout L; L.kshape[0] = 1; L.kstride[0][0] = 0; L.rshape[0] = R; L.rstride[0][0] = 4;
  lib_body(P, nullptr, reinterpret_cast<char*>(part), 1, R, chunk, R, 0.0, L);
}
"""

FOLD_WRAPPER = r"""
extern "C" __global__ void __launch_bounds__(256) lib_fold(const char* part, float* out, int S, int R) {
  ca_ptrs P; P.p[0] = part;
  ca_rlayout L; L.kshape[0] = 1; L.kstride[0][0] = 0; L.rshape[0] = S; L.rstride[0][0] = 4;
  lib_body(P, nullptr, reinterpret_cast<char*>(out), 1, S, S, R, 0.0, L);
}
"""


def library_source(fold=False, streaming=False):
    """The engine's kernel for norm of float32 as a device function `lib_body`, with a wrapper that builds its
    structs: the partials pass (rows, whole block, vector rows, partial out; its vector loads made `__ldcs` with
    `streaming`), or with `fold` the second pass (partial in)."""
    src = _core.reduction_source("norm2", "", "float", ["float"], "float", "m = x * x;", "r = a + b;",
                                 "y = ca_cast<out_t>(sqrt(a));", "ca_cast<acc_t>(0)", 4, [np.float32], np.float32,
                                 True, 256, 0, 1, False, not fold, not fold, fold, stream=streaming)
    head = 'extern "C" __global__ void __launch_bounds__(256) cuarray_reduce_norm2('
    assert head in src, "the engine's kernel signature changed: update norm23.py"
    assert ("__ldcs(" in src) == streaming
    src = src.replace(head, "__device__ __forceinline__ void lib_body(")
    return src + (FOLD_WRAPPER if fold else LIB_WRAPPER)


def profile(cases, reps=20):
    """Per-kernel GPU times of each case under torch.profiler (CUPTI sees every library's kernels): for each
    kernel of a call in launch order, its median time and the median idle time before it."""
    from torch.profiler import ProfilerActivity
    from torch.profiler import profile as tprofile
    for name, (fn, lib) in cases.items():
        for _ in range(3):
            fn()
        torch.cuda.synchronize()
        with tprofile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(reps):
                fn()
            torch.cuda.synchronize()
        events = sorted((e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA),
                        key=lambda e: e.time_range.start)
        k = len(events) // reps
        parts = []
        for j in range(k):
            mine = events[j::k]
            dur = statistics.median(e.time_range.end - e.time_range.start for e in mine)
            gaps = [b.time_range.start - a.time_range.end for a, b in zip(events, events[1:])][j - 1::k] if j \
                else [b.time_range.start - a.time_range.end for a, b in zip(events[k - 1::k], events[k::k])]
            gap = statistics.median(gaps) if gaps else 0.0
            parts.append(f"{mine[0].name[:28]} {dur:.2f} (idle before {gap:.2f})")
        print(f"profile {name:34} " + "; ".join(parts))


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 5
    side = 8192
    rng = np.random.default_rng(0)
    hx = rng.standard_normal(side * side).astype(np.float32)
    tx = torch.as_tensor(hx.reshape(side, side), device="cuda")
    cx, px = ca.from_dlpack(tx), cp.from_dlpack(tx)
    ref = float(np.sqrt(np.sum(hx.astype(np.float64) ** 2)))
    nv, R = px.size // 4, px.size
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    part = cp.zeros(65536, cp.float32)
    out = cp.zeros(1, cp.float32)

    mod = cp.RawModule(code=REPLICA, options=("-std=c++17",),
                       name_expressions=[f"sq<{o}, {h}>" for o in (0, 1) for h in (0, 1)])
    fold = mod.get_function("fold")
    inc = str(__import__("pathlib").Path(__file__).resolve().parents[2] / "src" / "engine" / "device")
    lib_k = cp.RawModule(code=library_source(), options=("-std=c++17", f"-I{inc}")).get_function("lib_norm")
    lib_ks = cp.RawModule(code=library_source(streaming=True),
                          options=("-std=c++17", f"-I{inc}")).get_function("lib_norm")
    lib_f = cp.RawModule(code=library_source(fold=True), options=("-std=c++17", f"-I{inc}")).get_function("lib_fold")

    cases = {}
    grids = {"1024": 1024, "8/SM": 8 * sms, "16/SM": 16 * sms, "32/SM": 32 * sms}
    for o, oname in ((0, "chunk"), (1, "stride")):
        for h, hname in ((0, "plain"), (1, "ldcs")):
            k = mod.get_function(f"sq<{o}, {h}>")
            for gname, g in grids.items():
                chunkv = (nv + g - 1) // g

                def run(k=k, g=g, chunkv=chunkv):
                    k((g,), (256,), (px, np.int32(nv), np.int32(chunkv), part))
                    fold((1,), (256,), (part, np.int32(g), out))
                cases[f"replica {oname:6} {hname:5} {gname:5}"] = (run, "cupy")
    for gname, g in grids.items():
        chunk = ((R + g - 1) // g + 3) // 4 * 4
        g_used = (R + chunk - 1) // chunk

        def run(g=g_used, chunk=chunk):
            lib_k((1, g), (256,), (px, part, np.int32(R), np.int32(chunk)))
            fold((1,), (256,), (part, np.int32(g), out))
        cases[f"library kernel      {gname:5}"] = (run, "cupy")
    chunk = ((R + 1023) // 1024 + 3) // 4 * 4
    for k, kname in ((lib_k, "plain"), (lib_ks, "ldcs")):
        def run(k=k):
            k((1, 1024), (256,), (px, part, np.int32(R), np.int32(chunk)))
            lib_f((1,), (256,), (part, out, np.int32(1024), np.int32(R)))
        cases[f"library kernels {kname:5} 1024 + lib fold"] = (run, "cupy")
    for name, (fn, lib) in cases.items():
        fn()
        got = float(out[0])
        assert abs(got - ref) < 1e-3 * ref, (name, got, ref)
    assert abs(float(ca.linalg.norm(cx)) - ref) < 1e-3 * ref
    cases["cuarray linalg.norm"] = (lambda: ca.linalg.norm(cx), "cuarray")
    cases["torch linalg.norm"] = (lambda: torch.linalg.norm(tx), "torch")
    cases["cuarray sum"] = (lambda: cx.sum(), "cuarray")
    cases["torch sum"] = (lambda: tx.sum(), "torch")
    cases["cuarray mean"] = (lambda: cx.mean(), "cuarray")
    cases["torch mean"] = (lambda: tx.mean(), "torch")
    cases["cuarray var"] = (lambda: cx.var(), "cuarray")
    cases["torch var"] = (lambda: torch.var(tx, correction=0), "torch")
    cases["cuarray max"] = (lambda: cx.max(), "cuarray")
    cases["torch max"] = (lambda: tx.max(), "torch")
    s0 = ca.empty((), ca.float32)
    cases["cuarray sum out="] = (lambda: cx.sum(out=s0), "cuarray")
    s1, ts1 = ca.empty(side, ca.float32), torch.empty(side, device="cuda")
    cases["cuarray sum axis=1 out="] = (lambda: cx.sum(axis=1, out=s1), "cuarray")
    cases["torch sum dim=1 out="] = (lambda: torch.sum(tx, dim=1, out=ts1), "torch")

    if "profile" in sys.argv:
        profile({k: v for k, v in cases.items() if k.startswith(("library kernels", "cuarray", "torch"))
                 or k == "replica chunk  ldcs  1024"})
    got = {name: [] for name in cases}
    for _ in range(rounds):
        for name, (fn, lib) in cases.items():
            got[name].append(gpu_us_each(fn, lib, reps=20))
    med = sorted((statistics.median(v), name) for name, v in got.items())
    nbytes = px.nbytes
    print(f"{sms} multiprocessors, {nbytes >> 20} MiB read, {rounds} rounds")
    for t, name in med:
        print(f"{name:32} {t:7.1f} µs  {nbytes / t / 1e3:5.0f} GB/s  [{min(got[name]):.1f}, {max(got[name]):.1f}]")


if __name__ == "__main__":
    main()
