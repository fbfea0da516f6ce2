// Issue 23 variants, timed side by side in one process: join (concatenate of 64 x 2**20 float32), diff of 2**27
// float32, the 2-D broadcast add (8192,1)+(1,8192) and tile((2,2)) of 4096² as the elementwise engine's strided
// loop did them before Note [strided runs] and with one index split per run of elements along the innermost axis.
#include "kernels_1_3.cuh"

int main() {
  const bench b = setup(false);
  char *A = b.A, *B = b.B;
  const size_t GiB = 1ull << 30;
  float t = time_ms([&] { copy_k<<<g_sms * 32, 256>>>((const uint4*)A, (uint4*)B, GiB / 16); });
  std::printf("copy kernel 1GiB: %.1f us, %.0f GB/s\n", t * 1e3, 2.0 * GiB / (t * 1e-3) / 1e9);
  auto rep = [&](const char* name, float ms, double bytes) { b.report(name, ms, bytes); };

  // join: 64 x 4 MiB into 256 MiB
  {
    const long long each = 4ll << 20;
    const std::vector<seg> segs = join_segments(A, B, each);
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
    const lay<2> L = broadcast_layout();
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
