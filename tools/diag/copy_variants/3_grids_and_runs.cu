// Grids, one-shot against capped, for the flat add of 2**28 float32 and diff of 2**27 float32; the join in tiles
// of 1 to 8 vectors a thread; the broadcast add and tile in runs of 1 to 8 elements a thread with one-shot grids.
#include "kernels_1_3.cuh"

int main() {
  const bench b = setup(false);
  char *A = b.A, *B = b.B;
  const size_t GiB = 1ull << 30;
  char* C;
  CK(cudaMalloc(&C, GiB));
  auto rep = [&](const char* name, float ms, double bytes) { b.report(name, ms, bytes); };
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
    const long long each = 4ll << 20;
    const std::vector<seg> segs = join_segments(A, B, each);
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
    const lay<2> L = broadcast_layout();
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
