"""Library kernels against replicas compiled by NVRTC, on the same pool arrays, in one process: is a slow
concatenate or tile the kernel's code or the memory it runs on?

    python tools/diag/join23.py
"""
import numpy as np

import cuarray as ca

SRC = r"""
struct seg { const char* src; char* dst; long long bytes; };
extern "C" __global__ void join_copy(const seg* segs, const long long* first, int count) {
  // first[k]: blocks before segment k (first[count]: all); a block copies 32 KiB
  const long long tb = 16LL * 256 * 8;
  for (long long blk = blockIdx.x; blk < first[count]; blk += gridDim.x) {
    int lo = 0, hi = count - 1;
    while (lo < hi) { int mid = (lo + hi + 1) >> 1; if (first[mid] <= blk) lo = mid; else hi = mid - 1; }
    seg g = segs[lo];
    long long off = (blk - first[lo]) * tb;
    long long bytes = g.bytes - off < tb ? g.bytes - off : tb;
    const uint4* s = reinterpret_cast<const uint4*>(g.src + off);
    uint4* d = reinterpret_cast<uint4*>(g.dst + off);
    long long n = bytes / 16;
    uint4 v[8];
    #pragma unroll
    for (int u = 0; u < 8; ++u) { long long k = threadIdx.x + u * 256; if (k < n) v[u] = __ldcs(s + k); }
    #pragma unroll
    for (int u = 0; u < 8; ++u) { long long k = threadIdx.x + u * 256; if (k < n) __stcs(d + k, v[u]); }
  }
}
extern "C" __global__ void copy_flat(const uint4* __restrict__ s, uint4* __restrict__ d, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) d[i] = s[i];
}
"""


def timed(fn, reps=30):
    for _ in range(3):
        fn()
    ca.cuda.Device().synchronize()
    pairs = [(ca.cuda.Event(), ca.cuda.Event()) for _ in range(reps)]
    for s, e in pairs:
        s.record()
        fn()
        e.record()
    ca.cuda.Device().synchronize()
    return float(np.median([ca.cuda.get_elapsed_time(s, e) for s, e in pairs])) * 1e3


def main():
    mod = ca.RawModule(code=SRC)
    join_copy = mod.get_function("join_copy")
    copy_flat = mod.get_function("copy_flat")
    rng = np.random.default_rng(0)
    n = 1 << 20
    parts = [ca.asarray(rng.standard_normal(n).astype(np.float32)) for _ in range(64)]
    out = ca.empty(64 * n, ca.float32)
    segs = np.zeros((64, 3), np.int64)
    for k, p in enumerate(parts):
        segs[k] = (p.data.ptr, out.data.ptr + k * n * 4, n * 4)
    dsegs = ca.asarray(segs)
    tiles = (n * 4 + 32767) // 32768
    first = ca.asarray(np.arange(65, dtype=np.int64) * tiles)
    nbytes = 2 * 64 * n * 4
    t = timed(lambda: join_copy((64 * tiles,), (256,), (dsegs, first, np.int32(64))))
    print(f"replica join (U8 cs) on pool arrays       {t:8.1f} us {nbytes / t / 1e3:7.0f} GB/s")
    t = timed(lambda: ca.concatenate(parts))
    print(f"cuarray.concatenate                       {t:8.1f} us {nbytes / t / 1e3:7.0f} GB/s")
    t = timed(lambda: ca.concatenate(parts, out=out))
    print(f"cuarray.concatenate(out=)                 {t:8.1f} us {nbytes / t / 1e3:7.0f} GB/s")
    big = ca.asarray(rng.standard_normal(64 * n).astype(np.float32))
    views = [big[k * n:(k + 1) * n] for k in range(64)]
    t = timed(lambda: ca.concatenate(views, out=out))
    print(f"concatenate of 64 slices of one array     {t:8.1f} us {nbytes / t / 1e3:7.0f} GB/s")
    nv = 64 * n // 4
    t = timed(lambda: copy_flat(((nv + 255) // 256,), (256,), (big, out, np.int64(nv))))
    print(f"replica flat copy 256 MiB                 {t:8.1f} us {nbytes / t / 1e3:7.0f} GB/s")
    t = timed(lambda: out.__setitem__(slice(None), big))
    print(f"out[:] = big (256 MiB)                    {t:8.1f} us {nbytes / t / 1e3:7.0f} GB/s")
    x = ca.asarray(rng.standard_normal((4096, 4096)).astype(np.float32))
    tb = 5 * 4096 * 4096 * 4
    t = timed(lambda: ca.tile(x, (2, 2)))
    print(f"cuarray.tile((2,2)) 4096^2                {t:8.1f} us {tb / t / 1e3:7.0f} GB/s")
    o = ca.empty((8192, 8192), ca.float32)
    t = timed(lambda: ca.copyto(o.reshape(2, 4096, 2, 4096), x.reshape(1, 4096, 1, 4096)))
    print(f"copyto broadcast (tile by the engine)     {t:8.1f} us {tb / t / 1e3:7.0f} GB/s")
    # The benchmark's two joins next to PyTorch's, each timed both ways (queued; median of single calls).
    import torch
    from _events import gpu_us, gpu_us_each
    tparts = [torch.as_tensor(ca.asnumpy(p), device="cuda") for p in parts]
    for name, fn, lib in (("cuarray.concatenate", lambda: ca.concatenate(parts), "cuarray"),
                          ("torch.cat", lambda: torch.cat(tparts), "torch"),
                          ("cuarray.stack", lambda: ca.stack(parts), "cuarray"),
                          ("torch.stack", lambda: torch.stack(tparts), "torch")):
        q, m = gpu_us(fn, lib), gpu_us_each(fn, lib)
        print(f"{name:20} queued {q:7.1f} us {nbytes / q / 1e3:6.0f} GB/s; single {m:7.1f} us {nbytes / m / 1e3:6.0f} GB/s")
    print("pool:", ca.get_default_memory_pool().used_bytes(), ca.get_default_memory_pool().total_bytes())


if __name__ == "__main__":
    main()
