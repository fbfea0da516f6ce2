// The kernels of 1_first_look.cu and 3_grids_and_runs.cu: join tiles, diff forms, and the elementwise engine's
// strided loop element by element (ew_cur) and in runs (ew_run), plus a flat vectorised add.
#pragma once
#include "common.cuh"

// ---------------------------------------------------------------- join
// plain vectorised grid-stride copy (the reference kernel)
__global__ void copy_k(const uint4* __restrict__ s, uint4* __restrict__ d, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    d[i] = s[i];
}

// ---------------------------------------------------------------- diff
__global__ void diff_cur(const float* __restrict__ x, float* __restrict__ out, long long n) {
  const long long tid = blockIdx.x * (long long)blockDim.x + threadIdx.x, stride = (long long)gridDim.x * blockDim.x;
  const long long nvec = n / 4;
  for (long long k = tid; k < nvec; k += stride) {
    long long o = k * 4;
    float4 lo = __ldcs(reinterpret_cast<const float4*>(x + o));
    float nx = x[o + 4];
    float4 r{lo.y - lo.x, lo.z - lo.y, lo.w - lo.z, nx - lo.w};
    *reinterpret_cast<float4*>(out + o) = r;
  }
  for (long long o = nvec * 4 + tid; o < n; o += stride) out[o] = x[o + 1] - x[o];
}
// neighbour by shuffle; the last lane of a warp (or a lane whose next lane's vector is not the next one) loads it
template <bool CS> __global__ void diff_shfl(const float* __restrict__ x, float* __restrict__ out, long long n) {
  const long long tid = blockIdx.x * (long long)blockDim.x + threadIdx.x, stride = (long long)gridDim.x * blockDim.x;
  const long long nvec = n / 4;
  const long long iters = (nvec + stride - 1) / stride;
  for (long long it = 0; it < iters; ++it) {
    long long k = tid + it * stride;
    bool ok = k < nvec;
    long long o = k * 4;
    float4 lo = ok ? (CS ? __ldcs(reinterpret_cast<const float4*>(x + o)) : *reinterpret_cast<const float4*>(x + o))
                   : make_float4(0, 0, 0, 0);
    float nx = __shfl_down_sync(0xffffffffu, lo.x, 1);
    int lane = threadIdx.x & 31;
    if (ok && (lane == 31 || k + 1 >= nvec)) nx = x[o + 4];
    if (ok) {
      float4 r{lo.y - lo.x, lo.z - lo.y, lo.w - lo.z, nx - lo.w};
      if (CS) __stcs(reinterpret_cast<float4*>(out + o), r);
      else *reinterpret_cast<float4*>(out + o) = r;
    }
  }
  for (long long o = nvec * 4 + tid; o < n; o += stride) out[o] = x[o + 1] - x[o];
}
// plain loads, no cs, x[o+4] scalar
__global__ void diff_plain(const float* __restrict__ x, float* __restrict__ out, long long n) {
  const long long tid = blockIdx.x * (long long)blockDim.x + threadIdx.x, stride = (long long)gridDim.x * blockDim.x;
  const long long nvec = n / 4;
  for (long long k = tid; k < nvec; k += stride) {
    long long o = k * 4;
    float4 lo = *reinterpret_cast<const float4*>(x + o);
    float nx = x[o + 4];
    float4 r{lo.y - lo.x, lo.z - lo.y, lo.w - lo.z, nx - lo.w};
    *reinterpret_cast<float4*>(out + o) = r;
  }
  for (long long o = nvec * 4 + tid; o < n; o += stride) out[o] = x[o + 1] - x[o];
}

// ---------------------------------------------------------------- strided elementwise
template <int D> struct lay {
  int shape[D];
  int strides[3][D];
};
// the engine's current loop: one element per thread step, the index split per element
template <int D>
__global__ void ew_cur(char* __restrict__ p0, const char* __restrict__ p1, const char* __restrict__ p2, int n, lay<D> L,
                       int nin) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int rem = i, o0 = 0, o1 = 0, o2 = 0;
#pragma unroll
    for (int d = D - 1; d >= 1; --d) {
      int q = rem / L.shape[d], r = rem - q * L.shape[d];
      rem = q;
      o0 += r * L.strides[0][d];
      o1 += r * L.strides[1][d];
      o2 += r * L.strides[2][d];
    }
    o0 += rem * L.strides[0][0];
    o1 += rem * L.strides[1][0];
    o2 += rem * L.strides[2][0];
    float a = *reinterpret_cast<const float*>(p1 + o1);
    float b = nin == 2 ? *reinterpret_cast<const float*>(p2 + o2) : 0.f;
    *reinterpret_cast<float*>(p0 + o0) = a + b;
  }
}
// runs: a block takes RV * blockDim.x consecutive elements of one innermost row, each thread RV of them spaced by
// blockDim.x (coalesced), and splits the row index once
template <int D, int RV>
__global__ void ew_run(char* __restrict__ p0, const char* __restrict__ p1, const char* __restrict__ p2, int n, lay<D> L,
                       int nin) {
  const int inner = L.shape[D - 1];
  const int span = blockDim.x * RV;
  const int tiles = (inner + span - 1) / span;
  const int items = (n / inner) * tiles;
  for (int w = blockIdx.x; w < items; w += gridDim.x) {
    int q = w / tiles, c = w - q * tiles;
    int rem = q, o0 = 0, o1 = 0, o2 = 0;
#pragma unroll
    for (int d = D - 2; d >= 1; --d) {
      int qq = rem / L.shape[d], r = rem - qq * L.shape[d];
      rem = qq;
      o0 += r * L.strides[0][d];
      o1 += r * L.strides[1][d];
      o2 += r * L.strides[2][d];
    }
    if (D >= 2) {
      o0 += rem * L.strides[0][0];
      o1 += rem * L.strides[1][0];
      o2 += rem * L.strides[2][0];
    }
    const int j0 = c * span + threadIdx.x;
#pragma unroll
    for (int e = 0; e < RV; ++e) {
      int j = j0 + e * blockDim.x;
      if (j < inner) {
        float a = *reinterpret_cast<const float*>(p1 + o1 + j * L.strides[1][D - 1]);
        float b = nin == 2 ? *reinterpret_cast<const float*>(p2 + o2 + j * L.strides[2][D - 1]) : 0.f;
        *reinterpret_cast<float*>(p0 + o0 + j * L.strides[0][D - 1]) = a + b;
      }
    }
  }
}

__global__ void add_vec(const float4* __restrict__ a, const float4* __restrict__ b, float4* __restrict__ c, int nvec) {
  const int stride = gridDim.x * blockDim.x;
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < nvec; v += stride) {
    float4 x = a[v], y = b[v];
    c[v] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
}

// (8192, 1) + (1, 8192) float32 into an 8192 x 8192 result: operand 0 the output, 1 the column, 2 the row.
inline lay<2> broadcast_layout() {
  lay<2> L{};
  L.shape[0] = L.shape[1] = 8192;
  L.strides[0][0] = 8192 * 4;
  L.strides[0][1] = 4;
  L.strides[1][0] = 4;
  L.strides[1][1] = 0;
  L.strides[2][0] = 0;
  L.strides[2][1] = 4;
  return L;
}

// 64 inputs of `each` bytes, back to back in the second half of `A`, joined into the start of `B`.
inline std::vector<seg> join_segments(const char* A, char* B, long long each) {
  std::vector<seg> segs;
  for (int i = 0; i < 64; ++i)
    segs.push_back(seg{A + 512ll * 1024 * 1024 + i * each, B + i * each, each, each * 64, 1});
  return segs;
}
