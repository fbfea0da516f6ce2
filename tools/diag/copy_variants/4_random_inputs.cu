// The row copy (tile) and the join on random data in separate allocations, as the library sees them: the cache
// hints, tile sizes, and a join on an (x, input) grid with one vector a thread (what the library now does).
#include "common.cuh"

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
int main() {
  const bench b = setup(true);
  char *A = b.A, *B = b.B;
  auto rep = [&](const char* name, float ms, double bytes) { b.report(name, ms, bytes); };
  // tile((2,2)) of 4096^2 float32 from random data, separate allocations
  {
    char *src, *dst;
    CK(cudaMalloc(&src, 64 << 20));
    CK(cudaMalloc(&dst, 256 << 20));
    fill_random<<<4096, 256>>>((unsigned*)src, (64 << 20) / 4, 3);
    const rl l = tile_rows_layout();
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
    rep("join U8 cs (current)", run_join<8, true, true>(segs, 1ll << 30), bytes);
    rep("join U4 cs (before)", run_join<4, true, true>(segs, 1ll << 30), bytes);
    rep("join U4 plain", run_join<4, false, true>(segs, 1ll << 30), bytes);
    rep("join U8 plain", run_join<8, false, true>(segs, 1ll << 30), bytes);
    rep("join U1 plain", run_join<1, false, true>(segs, 1ll << 30), bytes);
    rep("join U1 cs", run_join<1, true, true>(segs, 1ll << 30), bytes);
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
