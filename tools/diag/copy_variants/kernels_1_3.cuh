// The kernels of 1_first_look.cu and 3_grids_and_runs.cu: join tiles, diff forms, and the elementwise engine's
// strided loop element by element (ew_cur) and in runs (ew_run), plus a flat vectorised add.
#pragma once
#include "common.cuh"

// ---------------------------------------------------------------- join
constexpr int JB = 256;
struct seg {
  const char* src;
  char* dst;
  long long row_bytes, dst_pitch, rows;
};
struct jargs {
  seg s[64];
  long long first[65];
  long long tpr[64];
  int count;
};
template <int U, bool CS> __device__ __forceinline__ void jtile(const char* src, char* dst, long long bytes) {
  const long long n = bytes / 16;
  const uint4* s = reinterpret_cast<const uint4*>(src);
  uint4* d = reinterpret_cast<uint4*>(dst);
  uint4 v[U];
#pragma unroll
  for (int u = 0; u < U; ++u) {
    long long k = threadIdx.x + u * JB;
    if (k < n) v[u] = CS ? __ldcs(s + k) : s[k];
  }
#pragma unroll
  for (int u = 0; u < U; ++u) {
    long long k = threadIdx.x + u * JB;
    if (k < n) {
      if (CS) __stcs(d + k, v[u]);
      else d[k] = v[u];
    }
  }
}
template <int U, bool CS> __global__ void join_k(const __grid_constant__ jargs a) {
  const long long tb = 16LL * JB * U;
  for (long long blk = blockIdx.x; blk < a.first[a.count]; blk += gridDim.x) {
    int lo = 0, hi = a.count - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >> 1;
      if (a.first[mid] <= blk) lo = mid;
      else hi = mid - 1;
    }
    const seg& g = a.s[lo];
    long long local = blk - a.first[lo];
    long long row = a.tpr[lo] == 1 ? local : local / a.tpr[lo];
    long long ti = local - row * a.tpr[lo];
    long long off = ti * tb;
    long long bytes = g.row_bytes - off < tb ? g.row_bytes - off : tb;
    jtile<U, CS>(g.src + row * g.row_bytes + off, g.dst + row * g.dst_pitch + off, bytes);
  }
}
template <int U, bool CS> float run_join(std::vector<seg>& segs, long long grid_cap) {
  jargs a{};
  long long blocks = 0;
  const long long tb = 16LL * JB * U;
  for (size_t i = 0; i < segs.size(); ++i) {
    a.s[i] = segs[i];
    a.tpr[i] = (segs[i].row_bytes + tb - 1) / tb;
    a.first[i] = blocks;
    blocks += a.tpr[i] * segs[i].rows;
  }
  a.count = (int)segs.size();
  a.first[a.count] = blocks;
  unsigned grid = (unsigned)std::min(blocks, grid_cap);
  return time_ms([&] { join_k<U, CS><<<grid, JB>>>(a); });
}

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
