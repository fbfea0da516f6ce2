// The row copy (tile) and the join on random data in separate allocations, as the library sees them: the cache
// hints, tile sizes, and a join on an (x, input) grid with one vector a thread (what the library now does).
#include "common.cuh"

constexpr int JB = 256;
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
template <int U, bool CS> __device__ __forceinline__ void tile16(const char* src, char* dst, long long bytes) {
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
struct rl {
  int ndim;
  long long shape[8], ds[8], ss[8];
  long long row_bytes;
};
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
    tile16<U, CS>(src + s_off + off, dst + d_off + off, bytes);
  }
}
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
    long long row = g.rows == 1 ? 0 : local / a.tpr[lo];
    long long ti = local - row * a.tpr[lo];
    long long off = ti * tb;
    long long bytes = g.row_bytes - off < tb ? g.row_bytes - off : tb;
    tile16<U, CS>(g.src + row * g.row_bytes + off, g.dst + row * g.dst_pitch + off, bytes);
  }
}
// torch style: blockIdx.y = segment, grid-stride over the segment's vectors in x
template <bool CS> __global__ void join2d_k(const __grid_constant__ jargs a) {
  const seg& g = a.s[blockIdx.y];
  const long long n = g.row_bytes / 16;
  const uint4* s = reinterpret_cast<const uint4*>(g.src);
  uint4* d = reinterpret_cast<uint4*>(g.dst);
  for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < n; k += (long long)gridDim.x * blockDim.x) {
    uint4 v = CS ? __ldcs(s + k) : s[k];
    if (CS) __stcs(d + k, v);
    else d[k] = v;
  }
}
template <int U, bool CS> float run_join(jargs a0, const std::vector<seg>& segs) {
  jargs a = a0;
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
  return time_ms([&] { join_k<U, CS><<<(unsigned)blocks, JB>>>(a); });
}

int main() {
  CK(cudaSetDevice(0));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  g_sms = prop.multiProcessorCount;
  const size_t GiB = 1ull << 30;
  char *A, *B;
  CK(cudaMalloc(&A, GiB));
  CK(cudaMalloc(&B, GiB));
  fill_random<<<4096, 256>>>((unsigned*)A, GiB / 4, 1);
  fill_random<<<4096, 256>>>((unsigned*)B, GiB / 4, 2);
  float t = time_ms([&] { CK(cudaMemcpyAsync(B, A, GiB, cudaMemcpyDeviceToDevice)); });
  double copy_gbs = 2.0 * GiB / (t * 1e-3) / 1e9;
  std::printf("memcpy 1GiB random: %.1f us, %.0f GB/s\n", t * 1e3, copy_gbs);
  auto rep = [&](const char* name, float ms, double bytes) {
    double gbs = bytes / (ms * 1e-3) / 1e9;
    std::printf("%-44s %9.1f us %6.0f GB/s %.3f of copy\n", name, ms * 1e3, gbs, gbs / copy_gbs);
  };
  // tile((2,2)) of 4096^2 float32 from random data, separate allocations
  {
    char *src, *dst;
    CK(cudaMalloc(&src, 64 << 20));
    CK(cudaMalloc(&dst, 256 << 20));
    fill_random<<<4096, 256>>>((unsigned*)src, (64 << 20) / 4, 3);
    rl l{};
    l.ndim = 3;
    long long sh[3] = {4096, 2, 2}, ds[3] = {32768, 4096LL * 32768, 16384}, ss[3] = {16384, 0, 0};
    for (int d = 0; d < 3; ++d) l.shape[d] = sh[d], l.ds[d] = ds[d], l.ss[d] = ss[d];
    l.row_bytes = 16384;
    long long blocks = 4096 * 4;
    double bytes = 5.0 * 4096 * 4096 * 4;
    rep("tile rows U4 cs (current)", time_ms([&] { rows_k<4, true><<<blocks, 256>>>(l, dst, src, 1, blocks); }), bytes);
    rep("tile rows U4 plain", time_ms([&] { rows_k<4, false><<<blocks, 256>>>(l, dst, src, 1, blocks); }), bytes);
    rep("tile rows U1 plain", time_ms([&] { rows_k<1, false><<<blocks * 4, 256>>>(l, dst, src, 4, blocks * 4); }),
        bytes);
    rep("tile rows U1 cs", time_ms([&] { rows_k<1, true><<<blocks * 4, 256>>>(l, dst, src, 4, blocks * 4); }), bytes);
    rep("tile rows U2 plain", time_ms([&] { rows_k<2, false><<<blocks * 2, 256>>>(l, dst, src, 2, blocks * 2); }),
        bytes);
    // memset-constant source, as the earlier runs
    CK(cudaMemset(src, 1, 64 << 20));
    rep("tile rows U4 cs, constant source", time_ms([&] { rows_k<4, true><<<blocks, 256>>>(l, dst, src, 1, blocks); }),
        bytes);
    rep("tile rows U4 plain, constant source",
        time_ms([&] { rows_k<4, false><<<blocks, 256>>>(l, dst, src, 1, blocks); }), bytes);
  }
  // join of 64 separately allocated random 4 MiB inputs
  {
    std::vector<seg> segs;
    const long long each = 4ll << 20;
    char* out;
    CK(cudaMalloc(&out, 64 * each));
    for (int i = 0; i < 64; ++i) {
      char* p;
      CK(cudaMalloc(&p, each));
      fill_random<<<1024, 256>>>((unsigned*)p, each / 4, 10 + i);
      segs.push_back(seg{p, out + i * each, each, each * 64, 1});
    }
    double bytes = 2.0 * 64 * each;
    jargs a{};
    rep("join U8 cs (current)", run_join<8, true>(a, segs), bytes);
    rep("join U4 cs (before)", run_join<4, true>(a, segs), bytes);
    rep("join U4 plain", run_join<4, false>(a, segs), bytes);
    rep("join U8 plain", run_join<8, false>(a, segs), bytes);
    rep("join U1 plain", run_join<1, false>(a, segs), bytes);
    rep("join U1 cs", run_join<1, true>(a, segs), bytes);
    for (size_t i = 0; i < segs.size(); ++i) a.s[i] = segs[i];
    a.count = 64;
    for (int gx : {64, 256, 1024}) {
      char nm[64];
      std::snprintf(nm, sizeof nm, "join 2-D plain, %d x 64 blocks", gx);
      rep(nm, time_ms([&] { join2d_k<false><<<dim3(gx, 64), 256>>>(a); }), bytes);
      std::snprintf(nm, sizeof nm, "join 2-D cs, %d x 64 blocks", gx);
      rep(nm, time_ms([&] { join2d_k<true><<<dim3(gx, 64), 256>>>(a); }), bytes);
    }
    float tc = time_ms([&] {
      for (int i = 0; i < 64; ++i) CK(cudaMemcpyAsync(segs[i].dst, segs[i].src, each, cudaMemcpyDeviceToDevice));
    });
    rep("64 memcpys", tc, bytes);
    rep("memcpy 256 MiB", time_ms([&] { CK(cudaMemcpyAsync(B, A, 64 * each, cudaMemcpyDeviceToDevice)); }), bytes);
  }
  return 0;
}
