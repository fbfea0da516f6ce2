// Grids, one-shot against capped, for the flat add of 2**28 float32 and diff of 2**27 float32; the join in tiles
// of 1 to 8 vectors a thread; the broadcast add and tile in runs of 1 to 8 elements a thread with one-shot grids.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                                                          \
  do {                                                                                                                 \
    cudaError_t e = (x);                                                                                               \
    if (e != cudaSuccess) {                                                                                            \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__);                              \
      std::exit(1);                                                                                                    \
    }                                                                                                                  \
  } while (0)

static int g_sms = 132;

template <class F> float time_ms(F f, int reps = 20) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int i = 0; i < 3; ++i) f();
  std::vector<float> t;
  for (int r = 0; r < reps; ++r) {
    CK(cudaEventRecord(a));
    f();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  CK(cudaGetLastError());
  return t[t.size() / 2];
}

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
int main() {
  CK(cudaSetDevice(0));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  g_sms = prop.multiProcessorCount;
  std::printf("device %s, %d SMs\n", prop.name, g_sms);
  const size_t GiB = 1ull << 30;
  char *A, *B, *C;
  CK(cudaMalloc(&A, GiB));
  CK(cudaMalloc(&B, GiB));
  CK(cudaMalloc(&C, GiB));
  CK(cudaMemset(A, 1, GiB));
  CK(cudaMemset(B, 2, GiB));
  float t = time_ms([&] { CK(cudaMemcpyAsync(B, A, GiB, cudaMemcpyDeviceToDevice)); });
  double copy_gbs = 2.0 * GiB / (t * 1e-3) / 1e9;
  std::printf("memcpy 1GiB: %.1f us, %.0f GB/s (r+w)\n", t * 1e3, copy_gbs);
  auto rep = [&](const char* name, float ms, double bytes) {
    double gbs = bytes / (ms * 1e-3) / 1e9;
    std::printf("%-44s %9.1f us %6.0f GB/s %.3f of copy\n", name, ms * 1e3, gbs, gbs / copy_gbs);
  };
  char nm[96];
  // flat add of 2**28 float32
  {
    int nvec = (1 << 28) / 4;
    double bytes = 3.0 * 4 * (1 << 28);
    for (long long cap : {32ll, 64ll, 128ll, 1ll << 30}) {
      int grid = (int)std::min<long long>((nvec + 255) / 256, g_sms * cap);
      std::snprintf(nm, sizeof nm, "add 2^28 f32 grid %d", grid);
      rep(nm, time_ms([&] { add_vec<<<grid, 256>>>((const float4*)A, (const float4*)B, (float4*)C, nvec); }), bytes);
    }
  }
  // diff 2**27
  {
    const long long n = 1ll << 27;
    double bytes = 2.0 * 4 * n;
    for (long long cap : {32ll, 1ll << 30}) {
      int grid = (int)std::min<long long>((n / 4 + 255) / 256, g_sms * cap);
      std::snprintf(nm, sizeof nm, "diff cur grid %d", grid);
      rep(nm, time_ms([&] { diff_cur<<<grid, 256>>>((const float*)A, (float*)B, n - 1); }), bytes);
      std::snprintf(nm, sizeof nm, "diff plain grid %d", grid);
      rep(nm, time_ms([&] { diff_plain<<<grid, 256>>>((const float*)A, (float*)B, n - 1); }), bytes);
    }
  }
  // join of 64 x 4 MiB
  {
    std::vector<seg> segs;
    const long long each = 4ll << 20;
    for (int i = 0; i < 64; ++i)
      segs.push_back(seg{A + 512ll * 1024 * 1024 + i * each, B + i * each, each, each * 64, 1});
    double bytes = 2.0 * 64 * each;
    const long long big = 1ll << 30;
    rep("join U4 cs (current)", run_join<4, true>(segs, big), bytes);
    rep("join U4 plain", run_join<4, false>(segs, big), bytes);
    rep("join U2 cs", run_join<2, true>(segs, big), bytes);
    rep("join U2 plain", run_join<2, false>(segs, big), bytes);
    rep("join U1 cs", run_join<1, true>(segs, big), bytes);
    rep("join U1 plain", run_join<1, false>(segs, big), bytes);
    rep("join U8 cs", run_join<8, true>(segs, big), bytes);
    rep("memcpy 256MiB", time_ms([&] { CK(cudaMemcpyAsync(B, A, 256 << 20, cudaMemcpyDeviceToDevice)); }), bytes);
  }
  // broadcast and tile in runs, uncapped
  {
    lay<2> L{};
    L.shape[0] = 8192;
    L.shape[1] = 8192;
    L.strides[0][0] = 8192 * 4;
    L.strides[0][1] = 4;
    L.strides[1][0] = 4;
    L.strides[1][1] = 0;
    L.strides[2][0] = 0;
    L.strides[2][1] = 4;
    int n = 8192 * 8192;
    double bytes = 4.0 * n;
    int grid_cur = std::min<long long>((n + 255) / 256, g_sms * 32);
    rep("bcast cur", time_ms([&] { ew_cur<2><<<grid_cur, 256>>>(B, A, A + 65536, n, L, 2); }), bytes);
    rep("bcast cur uncapped", time_ms([&] { ew_cur<2><<<(n + 255) / 256, 256>>>(B, A, A + 65536, n, L, 2); }), bytes);
    for (int rv : {1, 2, 4, 8}) {
      int items = 8192 * ((8192 + 256 * rv - 1) / (256 * rv));
      std::snprintf(nm, sizeof nm, "bcast run%d uncapped", rv);
      float ms = rv == 1   ? time_ms([&] { ew_run<2, 1><<<items, 256>>>(B, A, A + 65536, n, L, 2); })
                 : rv == 2 ? time_ms([&] { ew_run<2, 2><<<items, 256>>>(B, A, A + 65536, n, L, 2); })
                 : rv == 4 ? time_ms([&] { ew_run<2, 4><<<items, 256>>>(B, A, A + 65536, n, L, 2); })
                           : time_ms([&] { ew_run<2, 8><<<items, 256>>>(B, A, A + 65536, n, L, 2); });
      rep(nm, ms, bytes);
    }
    lay<4> T{};
    int sh[4] = {2, 4096, 2, 4096};
    int so[4] = {4096 * 8192 * 4, 8192 * 4, 4096 * 4, 4};
    int si[4] = {0, 4096 * 4, 0, 4};
    for (int d = 0; d < 4; ++d) {
      T.shape[d] = sh[d];
      T.strides[0][d] = so[d];
      T.strides[1][d] = si[d];
      T.strides[2][d] = 0;
    }
    bytes = 4.0 * n + 4.0 * 4096 * 4096;
    int items = (n / 4096) * 2;
    rep("tile run8 uncapped", time_ms([&] { ew_run<4, 8><<<items, 256>>>(B, A, A, n, T, 1); }), bytes);
    items = (n / 4096) * 4;
    rep("tile run4 uncapped", time_ms([&] { ew_run<4, 4><<<items, 256>>>(B, A, A, n, T, 1); }), bytes);
    items = (n / 4096) * 8;
    rep("tile run2 uncapped", time_ms([&] { ew_run<4, 2><<<items, 256>>>(B, A, A, n, T, 1); }), bytes);
  }
  return 0;
}
