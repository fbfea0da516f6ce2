"""Issue 23's bandwidth-bound rows that trail PyTorch by 0-4% in the quick benchmark (`concatenate`, `stack`,
`norm`, `diff`, and diff along the rows of a 2-D array as a neighbour): is that a gap or noise, and what is the ceiling?

1. Interleaved rounds: each round times cuarray's call, PyTorch's and a flat copy of as many bytes (median of
   single calls between events, as the benchmark times), so drift of the machine falls on all alike. Prints the
   medians over rounds and the per-round ratio PyTorch / cuarray (median, least, most). The row "concatenate,
   same memory" has both libraries join PyTorch's inputs into one output (out=), so that it compares the kernels
   alone, not where each library's allocator put its arrays.
2. The norm's ceiling: sum-of-squares replicas (CuPy RawKernels) over the same 8192² float32, by grid (blocks a
   multiprocessor), vectors in flight a thread, and load hint, each a partials kernel and a one-block fold.

    python tools/diag/bw_rows23.py [rounds] [torch-first]
"""
import statistics
import sys

import cupy as cp
import numpy as np
from _events import gpu_us_each, optional

import cuarray as ca

torch = optional("torch")

SRC = r"""
template <int U, int H> __device__ __forceinline__ float4 ld(const float4* p) {
  if (H == 1) return __ldcs(p);
  if (H == 2) return __ldg(p);
  return *p;
}
template <int U, int H>
__global__ void __launch_bounds__(256) sumsq(const float4* __restrict__ x, long long nv, double* part) {
  float acc = 0.f;
  const long long step = (long long)gridDim.x * 256;
  long long i = blockIdx.x * 256LL + threadIdx.x;
  for (; i + (U - 1) * step < nv; i += U * step) {
    float4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) v[u] = ld<U, H>(x + i + u * step);
#pragma unroll
    for (int u = 0; u < U; ++u) acc += v[u].x * v[u].x + v[u].y * v[u].y + v[u].z * v[u].z + v[u].w * v[u].w;
  }
  for (; i < nv; i += step) { float4 v = ld<U, H>(x + i); acc += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w; }
  __shared__ float sh[256];
  sh[threadIdx.x] = acc;
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) { if (threadIdx.x < s) sh[threadIdx.x] += sh[threadIdx.x + s]; __syncthreads(); }
  if (threadIdx.x == 0) part[blockIdx.x] = sh[0];
}
extern "C" __global__ void fold(const double* part, int n, double* out) {
  __shared__ double sh[256];
  double a = 0;
  for (int i = threadIdx.x; i < n; i += 256) a += part[i];
  sh[threadIdx.x] = a;
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) { if (threadIdx.x < s) sh[threadIdx.x] += sh[threadIdx.x + s]; __syncthreads(); }
  if (threadIdx.x == 0) out[0] = sqrt(sh[0]);
}
"""


def rounds_of(cases, rounds):
    got = {name: {lib: [] for lib in fns} for name, fns in cases.items()}
    for _ in range(rounds):
        for name, fns in cases.items():
            for lib, (fn, kind) in fns.items():
                got[name][lib].append(gpu_us_each(fn, kind, reps=20))
    for name, libs in got.items():
        med = {lib: statistics.median(v) for lib, v in libs.items()}
        line = "  ".join(f"{lib} {m:8.1f} µs" for lib, m in med.items())
        if "torch" in libs:
            r = [t / c for t, c in zip(libs["torch"], libs["cuarray"])]
            line += f"  torch/cuarray median {statistics.median(r):.3f} [{min(r):.3f}, {max(r):.3f}]"
        if "copy" in libs:
            r = [c / a for c, a in zip(libs["copy"], libs["cuarray"])]
            line += f"  of copy {statistics.median(r):.3f}"
        print(f"{name:26} {line}", flush=True)


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 9
    rng = np.random.default_rng(0)
    n = 1 << 20
    hosts = [rng.standard_normal(n).astype(np.float32) for _ in range(64)]
    parts = [ca.asarray(h) for h in hosts]
    side = 8192
    hx = rng.standard_normal(side * side).astype(np.float32)
    x2 = ca.asarray(hx.reshape(side, side))
    hf = rng.standard_normal(1 << 27).astype(np.float32)
    flat = ca.asarray(hf)
    rows2 = flat.reshape(8192, 16384)  # the neighbour: diff along rows (the rows kernel, scalar loads)
    # flat copies of as many bytes as each case moves (read + write; the norm reads only: half its bytes' copy)
    c256a, c256b = ca.empty(64 * n, ca.float32), ca.empty(64 * n, ca.float32)
    c128a, c128b = ca.empty(side * side // 2, ca.float32), ca.empty(side * side // 2, ca.float32)
    c512a, c512b = ca.empty(1 << 27, ca.float32), ca.empty(1 << 27, ca.float32)
    cases = {
        "concatenate 64 x 2^20": {"cuarray": (lambda: ca.concatenate(parts), "cuarray")},
        "stack 64 x 2^20": {"cuarray": (lambda: ca.stack(parts), "cuarray")},
        "norm 8192^2": {"cuarray": (lambda: ca.linalg.norm(x2), "cuarray")},
        "diff 2^27": {"cuarray": (lambda: ca.diff(flat), "cuarray")},
        "diff axis=1 8192x16384": {"cuarray": (lambda: ca.diff(rows2), "cuarray")},
    }
    copies = {"concatenate 64 x 2^20": (c256a, c256b), "stack 64 x 2^20": (c256a, c256b),
              "norm 8192^2": (c128a, c128b), "diff 2^27": (c512a, c512b),
              "diff axis=1 8192x16384": (c512a, c512b)}
    for name, (a, b) in copies.items():
        cases[name]["copy"] = ((lambda a=a, b=b: b.__setitem__(slice(None), a)), "cuarray")
    if torch is not None:
        tparts = [torch.as_tensor(h, device="cuda") for h in hosts]
        tx2 = torch.as_tensor(hx.reshape(side, side), device="cuda")
        tflat = torch.as_tensor(hf, device="cuda")
        cases["concatenate 64 x 2^20"]["torch"] = (lambda: torch.cat(tparts), "torch")
        cases["stack 64 x 2^20"]["torch"] = (lambda: torch.stack(tparts), "torch")
        cases["norm 8192^2"]["torch"] = (lambda: torch.linalg.norm(tx2), "torch")
        cases["diff 2^27"]["torch"] = (lambda: torch.diff(tflat), "torch")
        # both libraries reading the same inputs and writing the same output (out=)
        tout = torch.empty(64 * n, device="cuda")
        cviews, cout = [ca.from_dlpack(t) for t in tparts], ca.from_dlpack(tout)
        cases["concatenate, same memory"] = {
            "cuarray": (lambda: ca.concatenate(cviews, out=cout), "cuarray"),
            "copy": ((lambda: c256b.__setitem__(slice(None), c256a)), "cuarray"),
            "torch": (lambda: torch.cat(tparts, out=tout), "torch")}
        trows = tflat.reshape(8192, 16384)
        cases["diff axis=1 8192x16384"]["torch"] = (lambda: torch.diff(trows, dim=1), "torch")
    if "torch-first" in sys.argv:  # the order within a round: does the library timed first lose?
        cases = {name: dict(reversed(list(fns.items()))) for name, fns in cases.items()}
    rounds_of(cases, rounds)

    # 2. the norm's ceiling
    mod = cp.RawModule(code=SRC, options=("-std=c++17",),
                       name_expressions=[f"sumsq<{u}, {h}>" for u in (1, 2, 4, 8) for h in (0, 1, 2)])
    fold = mod.get_function("fold")
    cx = cp.asarray(hx)
    nv = cx.size // 4
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    part = cp.empty(65536, cp.float64)
    out = cp.empty(1, cp.float64)
    ref = float(np.sqrt(np.sum(hx.astype(np.float64) ** 2)))
    nbytes = cx.nbytes
    results = []
    for u in (1, 2, 4, 8):
        for h, hint in ((0, "plain"), (1, "ldcs"), (2, "ldg")):
            k = mod.get_function(f"sumsq<{u}, {h}>")
            for per_sm in (4, 8, 16, 32):
                g = sms * per_sm

                def run(k=k, g=g):
                    k((g,), (256,), (cx, np.int64(nv), part))
                    fold((1,), (256,), (part, np.int32(g), out))
                run()
                assert abs(float(out[0]) - ref) < 1e-3 * ref
                t = gpu_us_each(run, "cupy", reps=20)
                results.append((t, u, hint, per_sm))
    results.sort()
    for t, u, hint, per_sm in results[:12]:
        print(f"replica sumsq U={u} {hint:5} {per_sm:2} blocks/SM: {t:7.1f} µs {nbytes / t / 1e3:6.0f} GB/s read")
    print(f"(slowest replica {results[-1][0]:.1f} µs)")


if __name__ == "__main__":
    main()
