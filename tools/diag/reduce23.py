"""Issue 23's strided and fused reductions against other forms of the same work: GPU time per call (CUDA events
around 20 calls queued back to back) and the fraction of a 1 GiB device-to-device copy's rate (bytes read + written).

    python tools/diag/reduce23.py
"""
import numpy as np

import cuarray as ca
from _events import copy_gbs, gpu_us, optional

torch = optional("torch")

ROWDOT = r"""
extern "C" __global__ void __launch_bounds__(256) rowdot(const float4* __restrict__ x, const float4* __restrict__ y,
                                                       float* __restrict__ out, int rows, int cols4) {
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int row = blockIdx.x * 8 + warp;
  if (row >= rows) return;
  const float4* xr = x + (long long)row * cols4;
  const float4* yr = y + (long long)row * cols4;
  float acc = 0.f;
  int c = lane;
  for (; c + 96 < cols4; c += 128) {
    float4 a0 = xr[c], a1 = xr[c + 32], a2 = xr[c + 64], a3 = xr[c + 96];
    float4 b0 = yr[c], b1 = yr[c + 32], b2 = yr[c + 64], b3 = yr[c + 96];
    acc += a0.x * b0.x + a0.y * b0.y + a0.z * b0.z + a0.w * b0.w;
    acc += a1.x * b1.x + a1.y * b1.y + a1.z * b1.z + a1.w * b1.w;
    acc += a2.x * b2.x + a2.y * b2.y + a2.z * b2.z + a2.w * b2.w;
    acc += a3.x * b3.x + a3.y * b3.y + a3.z * b3.z + a3.w * b3.w;
  }
  for (; c < cols4; c += 32) { float4 a = xr[c], b = yr[c]; acc += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
  for (int s = 16; s > 0; s >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, s);
  if (lane == 0) out[row] = acc;
}
"""




def main():
    rng = np.random.default_rng(0)
    copy = copy_gbs("cuarray")
    print(f"copy 1 GiB: {copy:.0f} GB/s")

    def report(name, lib, fn, nbytes):
        us = gpu_us(fn, lib)
        print(f"{name:44} {lib:8} {us:9.1f} us  {nbytes / us / 1e3 / copy:5.2f} of copy")

    h3 = rng.standard_normal((4096, 4096, 16), dtype=np.float32)
    a3 = ca.asarray(h3)
    nb3 = h3.nbytes
    report("mean(axis=(0, 2))", "cuarray", lambda: ca.mean(a3, axis=(0, 2)), nb3)
    report("sum(axis=(0, 2))", "cuarray", lambda: a3.sum(axis=(0, 2)), nb3)
    report("sum(axis=0) of (4096, 65536), then rows", "cuarray",
           lambda: a3.reshape(4096, 65536).sum(axis=0).reshape(4096, 16).sum(axis=1), nb3)
    report("sum(axis=0) of (4096, 65536)", "cuarray", lambda: a3.reshape(4096, 65536).sum(axis=0), nb3)
    report("sum(axis=2) (rows of 16)", "cuarray", lambda: a3.sum(axis=2), nb3)
    report("sum(axis=0) (4096, 16) kept", "cuarray", lambda: a3.sum(axis=0), nb3)
    hm = rng.standard_normal((8192, 8192), dtype=np.float32)
    x = ca.asarray(hm)
    y = x * 0.5
    nb2 = 2 * hm.nbytes
    fused = ca.fuse(lambda p, q: (p * q).sum(axis=-1))
    report("fuse sum(x * y, axis=-1) 8192^2", "cuarray", lambda: fused(x, y), nb2)
    report("sum(x, axis=-1) 8192^2 (one input)", "cuarray", lambda: x.sum(axis=-1), nb2 // 2)
    report("norm (Frobenius) 8192^2", "cuarray", lambda: ca.linalg.norm(x), nb2 // 2)
    report("sum(x) 8192^2", "cuarray", lambda: x.sum(), nb2 // 2)
    k = ca.RawKernel(ROWDOT, "rowdot")
    out = ca.empty(8192, ca.float32)
    report("float4 warp-per-row dot (RawKernel)", "cuarray",
           lambda: k((1024,), (256,), (x, y, out, np.int32(8192), np.int32(2048))), nb2)
    np.testing.assert_allclose(out.get(), (hm.astype(np.float64) * (hm * 0.5)).sum(axis=-1), rtol=1e-3, atol=1e-2)
    h16 = rng.standard_normal((16384, 16384), dtype=np.float32)
    s16 = ca.asarray(h16)
    report("sum(axis=0) 16384^2", "cuarray", lambda: s16.sum(axis=0), h16.nbytes)
    report("sum(axis=1) 16384^2", "cuarray", lambda: s16.sum(axis=1), h16.nbytes)
    if torch is not None:
        t3 = torch.from_numpy(h3).cuda()
        tx = torch.from_numpy(hm).cuda()
        ty = tx * 0.5
        t16 = torch.from_numpy(h16).cuda()
        report("mean(axis=(0, 2))", "torch", lambda: torch.mean(t3, dim=(0, 2)), nb3)
        report("einsum ij,ij->i 8192^2", "torch", lambda: torch.einsum("ij,ij->i", tx, ty), nb2)
        report("sum(x, axis=-1) 8192^2", "torch", lambda: tx.sum(dim=-1), nb2 // 2)
        report("norm (Frobenius) 8192^2", "torch", lambda: torch.linalg.norm(tx), nb2 // 2)
        report("sum(axis=0) 16384^2", "torch", lambda: t16.sum(dim=0), h16.nbytes)
        report("sum(axis=1) 16384^2", "torch", lambda: t16.sum(dim=1), h16.nbytes)


if __name__ == "__main__":
    main()
