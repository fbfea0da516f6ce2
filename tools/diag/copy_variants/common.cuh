// Shared by the copy_variants programs: error checks and a CUDA-event timer (median of repeats).
#pragma once
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

constexpr int JB = 256;  // threads per block in every kernel here

// A 1 GiB source A and destination B (memset or random data), cudaMemcpy's rate between them (bytes read plus
// written), and report(): each case's time, GB/s and fraction of that rate.
struct bench {
  char* A = nullptr;
  char* B = nullptr;
  double copy_gbs = 0;
  void report(const char* name, float ms, double bytes) const {
    double gbs = bytes / (ms * 1e-3) / 1e9;
    std::printf("%-44s %9.1f us %6.0f GB/s %.3f of copy\n", name, ms * 1e3, gbs, gbs / copy_gbs);
  }
};

__global__ void fill_random(unsigned* p, long long n, unsigned seed) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    unsigned x = (unsigned)i * 2654435761u ^ seed;
    x ^= x >> 15;
    x *= 2246822519u;
    x ^= x >> 13;
    x *= 3266489917u;
    x ^= x >> 16;
    p[i] = x;
  }
}

inline bench setup(bool random) {
  constexpr size_t GiB = 1ull << 30;
  CK(cudaSetDevice(0));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  g_sms = prop.multiProcessorCount;
  std::printf("device %s, %d SMs\n", prop.name, g_sms);
  bench b;
  CK(cudaMalloc(&b.A, GiB));
  CK(cudaMalloc(&b.B, GiB));
  if (random) {
    fill_random<<<4096, 256>>>((unsigned*)b.A, GiB / 4, 1);
    fill_random<<<4096, 256>>>((unsigned*)b.B, GiB / 4, 2);
  } else {
    CK(cudaMemset(b.A, 1, GiB));
    CK(cudaMemset(b.B, 2, GiB));
  }
  float t = time_ms([&] { CK(cudaMemcpyAsync(b.B, b.A, GiB, cudaMemcpyDeviceToDevice)); });
  b.copy_gbs = 2.0 * GiB / (t * 1e-3) / 1e9;
  std::printf("memcpy 1GiB%s: %.1f us, %.0f GB/s (r+w)\n", random ? " random" : "", t * 1e3, b.copy_gbs);
  return b;
}

// One tile of `bytes`: U 16-byte vectors a thread, loads first, with or without the streaming hints (CS).
template <int U, bool CS> __device__ __forceinline__ void tile_copy(const char* src, char* dst, long long bytes) {
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

// The row copy (src/kernels/manip_kernels.cu's rows_copy_kernel) for uint4: a block per tile of a row.
struct rl {
  int ndim;
  long long shape[8], ds[8], ss[8];
  long long row_bytes;
};
// tile((2, 2)) of a 4096 x 4096 float32 array as the library's try_rows_copy lays it out: rows of 16 KiB, the
// source row axis outermost and the two repeat axes (source stride 0) innermost.
inline rl tile_rows_layout() {
  rl l{};
  l.ndim = 3;
  const long long sh[3] = {4096, 2, 2}, ds[3] = {32768, 4096LL * 32768, 16384}, ss[3] = {16384, 0, 0};
  for (int d = 0; d < 3; ++d) l.shape[d] = sh[d], l.ds[d] = ds[d], l.ss[d] = ss[d];
  l.row_bytes = 16384;
  return l;
}
template <int U, bool CS>
__global__ void rows_k(const __grid_constant__ rl l, char* dst, const char* src, long long tpr, long long blocks) {
  const long long tb = 16LL * JB * U;
  for (long long blk = blockIdx.x; blk < blocks; blk += gridDim.x) {
    long long row = tpr == 1 ? blk : blk / tpr;
    long long off = (blk - row * tpr) * tb;
    long long d_off = 0, s_off = 0, r = row;
    for (int d = l.ndim - 1; d >= 0; --d) {
      long long c = r % l.shape[d];
      r /= l.shape[d];
      d_off += c * l.ds[d];
      s_off += c * l.ss[d];
    }
    long long bytes = l.row_bytes - off < tb ? l.row_bytes - off : tb;
    tile_copy<U, CS>(src + s_off + off, dst + d_off + off, bytes);
  }
}

// The join before 4e7c22e: a block per tile, found by a binary search over the segments' first blocks.
// OneRowNoDivide: a one-row segment skips the division (ad27fab), else the division runs unless tpr == 1.
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
template <int U, bool CS, bool OneRowNoDivide> __global__ void join_k(const __grid_constant__ jargs a) {
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
    long long row = OneRowNoDivide ? (g.rows == 1 ? 0 : local / a.tpr[lo])
                                   : (a.tpr[lo] == 1 ? local : local / a.tpr[lo]);
    long long ti = local - row * a.tpr[lo];
    long long off = ti * tb;
    long long bytes = g.row_bytes - off < tb ? g.row_bytes - off : tb;
    tile_copy<U, CS>(g.src + row * g.row_bytes + off, g.dst + row * g.dst_pitch + off, bytes);
  }
}
template <int U, bool CS, bool OneRowNoDivide = false>
float run_join(const std::vector<seg>& segs, long long grid_cap) {
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
  return time_ms([&] { join_k<U, CS, OneRowNoDivide><<<grid, JB>>>(a); });
}
