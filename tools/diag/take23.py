"""take(x, rows, axis=0) of a (65536, 256) float32 array (issue 23's gather row) in forms of the row gather
(src/kernels/index_kernels.cu, Note [row gather]): G lanes per row (32: a warp, as the library; 16, 8: several rows
per warp, so that each lane has more 16-byte loads in flight), the index read first. GPU time per call (CUDA events
over 20 queued calls) as a fraction of a 1 GiB copy's rate and of a 64 MiB copy's (the same bytes as the take),
next to CuPy's take, PyTorch's index_select and, where it imports, cuarray's take. Indices are a permutation, or
drawn with replacement as in the benchmark (random rows repeat, so some loads hit L2). cuarray's take is timed both
ways the figures are taken: queued calls between two events, and the benchmark's median of one call between events.
Uses CuPy's RawKernel, so that the kernel forms run without building cuarray.

    python tools/diag/take23.py            # after a gpu_check build: PYTHONPATH=build-gpu/python for cuarray
"""
import cupy as cp
import numpy as np
from _events import copy_gbs, gpu_us, gpu_us_each, optional

torch = optional("torch")
ca = optional("cuarray")

SRC = r"""
// G lanes per row, each with V = 64 / G 16-byte vectors of its row's 64 (1 KiB rows); a block of 256 threads
// takes 256 / G rows. The row's index is read once per lane group before the loads.
template <int G>
__device__ void body(const uint4* __restrict__ x, const long long* __restrict__ idx, uint4* __restrict__ out,
                     long long rows, int row_vecs) {
  constexpr int V = 64 / G;
  const long long r = (long long)blockIdx.x * (256 / G) + threadIdx.x / G;
  const int lane = threadIdx.x % G;
  if (r >= rows) return;
  const long long s = idx[r];
  const uint4* src = x + s * row_vecs;
  uint4* dst = out + r * row_vecs;
  uint4 v[V];
#pragma unroll
  for (int u = 0; u < V; ++u) v[u] = src[lane + u * G];
#pragma unroll
  for (int u = 0; u < V; ++u) __stcs(dst + lane + u * G, v[u]);
}
extern "C" __global__ void __launch_bounds__(256) g32(const uint4* x, const long long* i, uint4* o, long long n, int rv) { body<32>(x, i, o, n, rv); }
extern "C" __global__ void __launch_bounds__(256) g16(const uint4* x, const long long* i, uint4* o, long long n, int rv) { body<16>(x, i, o, n, rv); }
extern "C" __global__ void __launch_bounds__(256) g8(const uint4* x, const long long* i, uint4* o, long long n, int rv) { body<8>(x, i, o, n, rv); }
extern "C" __global__ void __launch_bounds__(256) g4(const uint4* x, const long long* i, uint4* o, long long n, int rv) { body<4>(x, i, o, n, rv); }
"""




def main():
    copy = copy_gbs("cupy")
    rows, cols = 65536, 256
    nbytes = 2 * rows * cols * 4  # read + written
    x = cp.random.standard_normal((rows, cols), dtype=cp.float32)
    y = cp.empty_like(x)
    c64_us = gpu_us(lambda: y.__setitem__(slice(None), x), "cupy")
    print(f"copy 1 GiB: {copy:.0f} GB/s; copy 64 MiB: {c64_us:.1f} us, {nbytes / c64_us / 1e3 / copy:.2f} "
          f"of the 1 GiB rate")
    rng = np.random.default_rng(0)
    indices = {"perm": rng.permutation(rows).astype(np.int64),
               "repl": rng.integers(0, rows, rows, dtype=np.int64)}

    def report(name, us):
        print(f"{name:44} {us:7.1f} us  {nbytes / us / 1e3 / copy:5.2f} of 1 GiB copy  "
              f"{c64_us / us:5.2f} of 64 MiB copy")

    mod = cp.RawModule(code=SRC)
    out = cp.empty_like(x)
    for kind, hidx in indices.items():
        idx = cp.asarray(hidx)
        want = cp.asnumpy(cp.take(x, idx, axis=0))
        report(f"cupy.take [{kind}]", gpu_us(lambda: cp.take(x, idx, axis=0), "cupy"))
        for g in (32, 16, 8, 4):
            k = mod.get_function(f"g{g}")
            blocks = (rows + 256 // g - 1) // (256 // g)
            us = gpu_us(lambda: k((blocks,), (256,), (x, idx, out, np.int64(rows), np.int32(cols * 4 // 16))), "cupy")
            assert np.array_equal(cp.asnumpy(out), want), g
            report(f"RawKernel, {g} lanes a row ({k.num_regs} regs) [{kind}]", us)
        if torch is not None:
            tx = torch.as_tensor(x, device="cuda")
            ti = torch.as_tensor(idx, device="cuda")
            report(f"torch.index_select [{kind}]", gpu_us(lambda: torch.index_select(tx, 0, ti), "torch"))
        if ca is not None:
            cx, ci = ca.asarray(cp.asnumpy(x)), ca.asarray(hidx)
            assert np.array_equal(ca.asnumpy(ca.take(cx, ci, axis=0)), want)
            fn = lambda: ca.take(cx, ci, axis=0)  # noqa: E731
            report(f"cuarray.take, queued [{kind}]", gpu_us(fn, "cuarray"))
            report(f"cuarray.take, median of single calls [{kind}]", gpu_us_each(fn, "cuarray"))
            report(f"cupy RawKernel g32, median of single [{kind}]",
                   gpu_us_each(lambda: mod.get_function("g32")((rows // 8,), (256,), (
                       x, idx, out, np.int64(rows), np.int32(cols * 4 // 16))), "cupy"))


if __name__ == "__main__":
    main()
