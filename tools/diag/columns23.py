"""Column sums of a (16384, 16384) float32 array (sum(axis=0)) in forms of the reduction engine's columns mapping:
one element or one 16-byte vector (4 outputs) a thread per reduced element, `U` loads in flight, `S` splits of the
rows (each block of 256 threads: 32 output groups x 8 lanes), the split's partials written [S, C]. GPU time per
call (CUDA events over 20 queued calls), and the fraction of a 1 GiB device-to-device copy's rate.
Uses CuPy's RawKernel, so that it runs without building cuarray.

    python tools/diag/columns23.py
"""
import cupy as cp
import numpy as np
from _events import copy_gbs, gpu_us

SRC = r"""
template <int V, int U>
__device__ void body(const float* __restrict__ x, float* __restrict__ part, int R, int C, int chunk) {
  const int t = threadIdx.x, lane = t / 32;
  const int o = (blockIdx.x * 32 + t % 32) * V;
  const int rb = blockIdx.y * chunk, re = min(rb + chunk, R);
  float acc[V];
  for (int e = 0; e < V; ++e) acc[e] = 0.f;
  if (o < C) {
    int r = rb + lane;
    for (; r + (U - 1) * 8 < re; r += U * 8) {
      float q[U][V];
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const float* p = x + (long long)(r + u * 8) * C + o;
        if (V == 4) { float4 f = *reinterpret_cast<const float4*>(p); q[u][0] = f.x; q[u][1] = f.y; q[u][2] = f.z; q[u][3] = f.w; }
        else q[u][0] = *p;
      }
#pragma unroll
      for (int u = 0; u < U; ++u)
#pragma unroll
        for (int e = 0; e < V; ++e) acc[e] += q[u][e];
    }
    for (; r < re; r += 8) {
      const float* p = x + (long long)r * C + o;
#pragma unroll
      for (int e = 0; e < V; ++e) acc[e] += p[e];
    }
  }
  __shared__ float sh[V * 256];
  for (int e = 0; e < V; ++e) sh[e * 256 + t] = acc[e];
  __syncthreads();
  for (int s = 4; s > 0; s >>= 1) {
    if (lane < s) for (int e = 0; e < V; ++e) sh[e * 256 + t] += sh[e * 256 + t + 32 * s];
    __syncthreads();
  }
  if (lane == 0 && o < C) for (int e = 0; e < V; ++e) part[(long long)blockIdx.y * C + o + e] = sh[e * 256 + t];
}
extern "C" __global__ void __launch_bounds__(256) s1u4(const float* x, float* p, int R, int C, int ch) { body<1, 4>(x, p, R, C, ch); }
extern "C" __global__ void __launch_bounds__(256) s1u8(const float* x, float* p, int R, int C, int ch) { body<1, 8>(x, p, R, C, ch); }
extern "C" __global__ void __launch_bounds__(256) v4u4(const float* x, float* p, int R, int C, int ch) { body<4, 4>(x, p, R, C, ch); }
extern "C" __global__ void __launch_bounds__(256) v4u2(const float* x, float* p, int R, int C, int ch) { body<4, 2>(x, p, R, C, ch); }
extern "C" __global__ void __launch_bounds__(256) v4u1(const float* x, float* p, int R, int C, int ch) { body<4, 1>(x, p, R, C, ch); }
"""




def main():
    copy = copy_gbs("cupy")
    print(f"copy 1 GiB: {copy:.0f} GB/s")
    R = C = 16384
    x = cp.random.standard_normal((R, C), dtype=cp.float32)
    want = cp.asnumpy(x.sum(axis=0, dtype=cp.float64))
    mod = cp.RawModule(code=SRC, options=("-std=c++17",))
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    for name, v in [("s1u4", 1), ("s1u8", 1), ("v4u4", 4), ("v4u2", 4), ("v4u1", 4)]:
        k = mod.get_function(name)
        bx = C // (32 * v)
        print(f"{name}: {k.num_regs} registers, {bx} x-blocks, {sms} SMs")
        for S in [1, 2, 3, 4, 6, 8, 9, 12, 16, 24, 32, 64]:
            chunk = (R + S - 1) // S
            part = cp.empty((S, C), cp.float32)
            us = gpu_us(lambda: k((bx, S), (256,), (x, part, np.int32(R), np.int32(C), np.int32(chunk))), "cupy")
            got = cp.asnumpy(part.sum(axis=0))
            assert np.allclose(got, want, rtol=1e-3, atol=1e-2), name
            print(f"  S={S:3d} blocks={bx * S:6d} ({bx * S / sms:5.1f}/SM): {us:7.1f} us "
                  f"{R * C * 4 / us / 1e3 / copy:5.2f} of copy")


if __name__ == "__main__":
    main()
