// Issue 23 variants, timed side by side in one process: join (concatenate of 64 x 2**20 float32), diff of 2**27
// float32, the 2-D broadcast add (8192,1)+(1,8192) and tile((2,2)) of 4096² as the elementwise engine's strided
// loop did them before Note [strided runs] and with one index split per run of elements along the innermost axis.
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

int main() {
  int dev = 0;
  CK(cudaSetDevice(dev));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, dev));
  g_sms = prop.multiProcessorCount;
  std::printf("device %s, %d SMs\n", prop.name, g_sms);
  const size_t GiB = 1ull << 30;
  char *A, *B;
  CK(cudaMalloc(&A, GiB));
  CK(cudaMalloc(&B, GiB));
  CK(cudaMemset(A, 1, GiB));
  CK(cudaMemset(B, 2, GiB));
  float t = time_ms([&] { CK(cudaMemcpyAsync(B, A, GiB, cudaMemcpyDeviceToDevice)); });
  double copy_gbs = 2.0 * GiB / (t * 1e-3) / 1e9;
  std::printf("memcpy 1GiB: %.1f us, %.0f GB/s (r+w)\n", t * 1e3, copy_gbs);
  t = time_ms([&] { copy_k<<<g_sms * 32, 256>>>((const uint4*)A, (uint4*)B, GiB / 16); });
  std::printf("copy kernel 1GiB: %.1f us, %.0f GB/s\n", t * 1e3, 2.0 * GiB / (t * 1e-3) / 1e9);
  auto rep = [&](const char* name, float ms, double bytes) {
    double gbs = bytes / (ms * 1e-3) / 1e9;
    std::printf("%-44s %9.1f us %6.0f GB/s %.3f of copy\n", name, ms * 1e3, gbs, gbs / copy_gbs);
  };

  // join: 64 x 4 MiB into 256 MiB
  {
    std::vector<seg> segs;
    const long long each = 4ll << 20;
    for (int i = 0; i < 64; ++i)
      segs.push_back(seg{A + 512ll * 1024 * 1024 + i * each, B + i * each, each, each * 64, 1});
    double bytes = 2.0 * 64 * each;
    const long long big = 1ll << 30;
    rep("join cur (U4, cs, 1 block/tile)", run_join<4, true>(segs, big), bytes);
    rep("join U4 plain", run_join<4, false>(segs, big), bytes);
    rep("join U8 cs", run_join<8, true>(segs, big), bytes);
    rep("join U8 plain", run_join<8, false>(segs, big), bytes);
    rep("join U4 cs, grid sms*16", run_join<4, true>(segs, g_sms * 16), bytes);
    rep("join U4 plain, grid sms*16", run_join<4, false>(segs, g_sms * 16), bytes);
    rep("join U2 plain", run_join<2, false>(segs, big), bytes);
    float tc = time_ms([&] {
      for (int i = 0; i < 64; ++i) CK(cudaMemcpyAsync(segs[i].dst, segs[i].src, each, cudaMemcpyDeviceToDevice));
    });
    rep("64 memcpys", tc, bytes);
    float tk = time_ms([&] { copy_k<<<g_sms * 32, 256>>>((const uint4*)A, (uint4*)B, (64 * each) / 16); });
    rep("one copy kernel, 256 MiB", tk, bytes);
  }
  // diff of 2**27 float32
  {
    const long long n = 1ll << 27;
    const float* x = (const float*)A;
    float* o = (float*)B;
    double bytes = 2.0 * 4 * n;
    for (int cap : {32, 16, 8}) {
      int grid = g_sms * cap;
      char name[64];
      std::snprintf(name, sizeof name, "diff cur grid sms*%d", cap);
      rep(name, time_ms([&] { diff_cur<<<grid, 256>>>(x, o, n - 1); }), bytes);
      std::snprintf(name, sizeof name, "diff shfl cs grid sms*%d", cap);
      rep(name, time_ms([&] { diff_shfl<true><<<grid, 256>>>(x, o, n - 1); }), bytes);
      std::snprintf(name, sizeof name, "diff shfl plain grid sms*%d", cap);
      rep(name, time_ms([&] { diff_shfl<false><<<grid, 256>>>(x, o, n - 1); }), bytes);
      std::snprintf(name, sizeof name, "diff plain grid sms*%d", cap);
      rep(name, time_ms([&] { diff_plain<<<grid, 256>>>(x, o, n - 1); }), bytes);
    }
  }
  // broadcast (8192,1)+(1,8192) float32 -> 8192x8192
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
    for (int cap : {32, 16}) {
      int items = 8192 * ((8192 + 1023) / 1024);
      int grid = std::min(items, g_sms * cap);
      char name[64];
      std::snprintf(name, sizeof name, "bcast run4 grid sms*%d", cap);
      rep(name, time_ms([&] { ew_run<2, 4><<<grid, 256>>>(B, A, A + 65536, n, L, 2); }), bytes);
      items = 8192 * ((8192 + 2047) / 2048);
      grid = std::min(items, g_sms * cap);
      std::snprintf(name, sizeof name, "bcast run8 grid sms*%d", cap);
      rep(name, time_ms([&] { ew_run<2, 8><<<grid, 256>>>(B, A, A + 65536, n, L, 2); }), bytes);
    }
  }
  // tile((2,2)) of 4096² float32: out (2,4096,2,4096) C-contiguous, in strides (0, 16384, 0, 4)
  {
    lay<4> L{};
    int sh[4] = {2, 4096, 2, 4096};
    int so[4] = {4096 * 8192 * 4, 8192 * 4, 4096 * 4, 4};
    int si[4] = {0, 4096 * 4, 0, 4};
    for (int d = 0; d < 4; ++d) {
      L.shape[d] = sh[d];
      L.strides[0][d] = so[d];
      L.strides[1][d] = si[d];
      L.strides[2][d] = 0;
    }
    int n = 8192 * 8192;
    double bytes = 4.0 * n + 4.0 * 4096 * 4096;
    int grid_cur = std::min<long long>((n + 255) / 256, g_sms * 32);
    rep("tile cur", time_ms([&] { ew_cur<4><<<grid_cur, 256>>>(B, A, A, n, L, 1); }), bytes);
    int items = (n / 4096) * ((4096 + 1023) / 1024);
    int grid = std::min(items, g_sms * 32);
    rep("tile run4", time_ms([&] { ew_run<4, 4><<<grid, 256>>>(B, A, A, n, L, 1); }), bytes);
    items = (n / 4096) * ((4096 + 2047) / 2048);
    grid = std::min(items, g_sms * 32);
    rep("tile run8", time_ms([&] { ew_run<4, 8><<<grid, 256>>>(B, A, A, n, L, 1); }), bytes);
    // a transposed copy: out C (8192,8192), in = A viewed transposed
    lay<2> T{};
    T.shape[0] = 8192;
    T.shape[1] = 8192;
    T.strides[0][0] = 8192 * 4;
    T.strides[0][1] = 4;
    T.strides[1][0] = 4;
    T.strides[1][1] = 8192 * 4;
    bytes = 8.0 * n;
    rep("transpose cur", time_ms([&] { ew_cur<2><<<grid_cur, 256>>>(B, A, A, n, T, 1); }), bytes);
    items = 8192 * 8;
    rep("transpose run4", time_ms([&] { ew_run<2, 4><<<std::min(items, g_sms * 32), 256>>>(B, A, A, n, T, 1); }),
        bytes);
    // a small innermost dimension: (2**21, 32) strided slice copy x[:, ::2] of (2**21, 64)
    lay<2> S{};
    S.shape[0] = 1 << 21;
    S.shape[1] = 32;
    S.strides[0][0] = 32 * 4;
    S.strides[0][1] = 4;
    S.strides[1][0] = 64 * 4;
    S.strides[1][1] = 8;
    n = (1 << 21) * 32;
    bytes = 8.0 * n;
    rep("slice (2^21, 32) cur",
        time_ms([&] { ew_cur<2><<<std::min<long long>((n + 255) / 256, g_sms * 32), 256>>>(B, A, A, n, S, 1); }),
        bytes);
  }
  return 0;
}
