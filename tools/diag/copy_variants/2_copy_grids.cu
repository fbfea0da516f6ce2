// Copy kernel forms against cudaMemcpy (grid-stride loops at several grid caps and block sizes, unrolled, one
// vector per thread in tiles of 1 to 8 vectors), and tile((2,2)) of 4096² as the row copy does it (64-bit, 32-bit
// and shared-memory splits of the row index, capped grids).
#include "common.cuh"

// 32-bit row split
__global__ void rows_32(const __grid_constant__ rl l, char* dst, const char* src, long long tpr, long long blocks) {
  const long long tb = 16LL * JB * 4;
  for (long long blk = blockIdx.x; blk < blocks; blk += gridDim.x) {
    unsigned row = tpr == 1 ? (unsigned)blk : (unsigned)(blk / tpr);
    long long off = (blk - row * tpr) * tb;
    long long d_off = 0, s_off = 0;
    unsigned r = row;
    for (int d = l.ndim - 1; d >= 0; --d) {
      unsigned sh = (unsigned)l.shape[d];
      unsigned q = r / sh, c = r - q * sh;
      r = q;
      d_off += (long long)c * l.ds[d];
      s_off += (long long)c * l.ss[d];
    }
    long long bytes = l.row_bytes - off < tb ? l.row_bytes - off : tb;
    tile_copy<4, true>(src + s_off + off, dst + d_off + off, bytes);
  }
}
// the split done once per block by one warp into shared memory
__global__ void rows_sh(const __grid_constant__ rl l, char* dst, const char* src, long long tpr, long long blocks) {
  const long long tb = 16LL * JB * 4;
  __shared__ long long offs[2];
  for (long long blk = blockIdx.x; blk < blocks; blk += gridDim.x) {
    long long row = tpr == 1 ? blk : blk / tpr;
    long long off = (blk - row * tpr) * tb;
    if (threadIdx.x == 0) {
      long long d_off = 0, s_off = 0, r = row;
      for (int d = l.ndim - 1; d >= 0; --d) {
        long long c = r % l.shape[d];
        r /= l.shape[d];
        d_off += c * l.ds[d];
        s_off += c * l.ss[d];
      }
      offs[0] = d_off;
      offs[1] = s_off;
    }
    __syncthreads();
    long long d_off = offs[0], s_off = offs[1];
    __syncthreads();
    long long bytes = l.row_bytes - off < tb ? l.row_bytes - off : tb;
    tile_copy<4, true>(src + s_off + off, dst + d_off + off, bytes);
  }
}

__global__ void copy_gs(const uint4* __restrict__ s, uint4* __restrict__ d, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    d[i] = s[i];
}
template <int U> __global__ void copy_gs_unroll(const uint4* __restrict__ s, uint4* __restrict__ d, long long n) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  for (; i + (U - 1) * stride < n; i += U * stride) {
    uint4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) v[u] = s[i + u * stride];
#pragma unroll
    for (int u = 0; u < U; ++u) d[i + u * stride] = v[u];
  }
  for (; i < n; i += stride) d[i] = s[i];
}
template <int U> __global__ void copy_tiles(const uint4* __restrict__ s, uint4* __restrict__ d, long long n) {
  long long base = blockIdx.x * (long long)blockDim.x * U + threadIdx.x;
  uint4 v[U];
#pragma unroll
  for (int u = 0; u < U; ++u) {
    long long k = base + u * blockDim.x;
    if (k < n) v[u] = s[k];
  }
#pragma unroll
  for (int u = 0; u < U; ++u) {
    long long k = base + u * blockDim.x;
    if (k < n) d[k] = v[u];
  }
}

int main() {
  const bench b = setup(false);
  char *A = b.A, *B = b.B;
  auto rep = [&](const char* name, float ms, double bytes) { b.report(name, ms, bytes); };
  for (long long sz : {1ll << 30, 1ll << 28}) {
    long long n = sz / 16;
    double bytes = 2.0 * sz;
    char nm[80];
    std::snprintf(nm, sizeof nm, "memcpy %lld MiB", sz >> 20);
    rep(nm, time_ms([&] { CK(cudaMemcpyAsync(B, A, sz, cudaMemcpyDeviceToDevice)); }), bytes);
    for (int cap : {4, 8, 16, 32}) {
      for (int bt : {256, 512}) {
        std::snprintf(nm, sizeof nm, "%lldMiB gs sms*%d x%d", sz >> 20, cap, bt);
        rep(nm, time_ms([&] { copy_gs<<<g_sms * cap * 256 / bt, bt>>>((const uint4*)A, (uint4*)B, n); }), bytes);
      }
      std::snprintf(nm, sizeof nm, "%lldMiB gs unroll4 sms*%d", sz >> 20, cap);
      rep(nm, time_ms([&] { copy_gs_unroll<4><<<g_sms * cap, 256>>>((const uint4*)A, (uint4*)B, n); }), bytes);
    }
    std::snprintf(nm, sizeof nm, "%lldMiB tiles U4", sz >> 20);
    rep(nm, time_ms([&] { copy_tiles<4><<<(n + 1023) / 1024, 256>>>((const uint4*)A, (uint4*)B, n); }), bytes);
    std::snprintf(nm, sizeof nm, "%lldMiB tiles U8", sz >> 20);
    rep(nm, time_ms([&] { copy_tiles<8><<<(n + 2047) / 2048, 256>>>((const uint4*)A, (uint4*)B, n); }), bytes);
    std::snprintf(nm, sizeof nm, "%lldMiB tiles U2", sz >> 20);
    rep(nm, time_ms([&] { copy_tiles<2><<<(n + 511) / 512, 256>>>((const uint4*)A, (uint4*)B, n); }), bytes);
    std::snprintf(nm, sizeof nm, "%lldMiB tiles U1", sz >> 20);
    rep(nm, time_ms([&] { copy_tiles<1><<<(n + 255) / 256, 256>>>((const uint4*)A, (uint4*)B, n); }), bytes);
  }
  // tile((2,2)) of 4096^2 float32 as a rows copy
  {
    const rl l = tile_rows_layout();
    long long blocks = 4096 * 4;
    double bytes = 5.0 * 4096 * 4096 * 4;
    rep("tile rows cur", time_ms([&] { rows_k<4, true><<<blocks, 256>>>(l, B, A, 1, blocks); }), bytes);
    rep("tile rows 32-bit", time_ms([&] { rows_32<<<blocks, 256>>>(l, B, A, 1, blocks); }), bytes);
    rep("tile rows shared", time_ms([&] { rows_sh<<<blocks, 256>>>(l, B, A, 1, blocks); }), bytes);
    rep("tile rows cur, grid sms*16", time_ms([&] { rows_k<4, true><<<g_sms * 16, 256>>>(l, B, A, 1, blocks); }),
        bytes);
    rep("tile rows 32-bit, grid sms*16", time_ms([&] { rows_32<<<g_sms * 16, 256>>>(l, B, A, 1, blocks); }), bytes);
    rep("plain copy 256MiB+64MiB",
        time_ms([&] { copy_gs<<<g_sms * 32, 256>>>((const uint4*)A, (uint4*)B, (320ll << 20) / 32); }), bytes);
  }
  return 0;
}
