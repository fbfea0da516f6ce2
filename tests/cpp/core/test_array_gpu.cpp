// Arrays on the device through the C++ API: creation, transfers, casts, views (skipped without a GPU).
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "cuarray/cuarray.hpp"
#include "tests/cpp/test_util.hpp"

using namespace cuarray;

TEST(ArrayGpu, ImportWithoutDeviceRaisesClearError) {
  if (is_available()) GTEST_SKIP() << "a device is present";
  try {
    (void)zeros({3});
    FAIL() << "expected no_device_error";
  } catch (const no_device_error& e) {
    EXPECT_NE(std::string(e.what()).find("no CUDA device"), std::string::npos);
  }
}

TEST(ArrayGpu, ZerosOnesFullRoundTrip) {
  REQUIRE_GPU();
  array z = zeros({3, 4}, float32);
  std::vector<float> host(12, 7.0f);
  z.copy_to_host(host);
  for (float v : host) EXPECT_EQ(v, 0.0f);
  array f = full({5}, 2.5, float64);
  std::vector<double> h2(5);
  f.copy_to_host(h2);
  for (double v : h2) EXPECT_EQ(v, 2.5);
}

TEST(ArrayGpu, TransposedCopyAndCast) {
  REQUIRE_GPU();
  std::vector<std::int32_t> src(6);
  std::iota(src.begin(), src.end(), 0);
  array a = from_host(src.data(), int32, {2, 3});
  array t = a.transpose().copy(order::C);
  std::vector<std::int32_t> out(6);
  t.copy_to_host(out);
  EXPECT_EQ(out, (std::vector<std::int32_t>{0, 3, 1, 4, 2, 5}));
  array d = a.astype(float64);
  std::vector<double> dout(6);
  d.copy_to_host(dout);
  EXPECT_EQ(dout[5], 5.0);
}

TEST(ArrayGpu, ArangeLinspaceEye) {
  REQUIRE_GPU();
  array r = arange(std::int64_t{0}, std::int64_t{10}, std::int64_t{3});
  std::vector<std::int64_t> h(4);
  r.copy_to_host(h);
  EXPECT_EQ(h, (std::vector<std::int64_t>{0, 3, 6, 9}));
  double step = 0;
  array l = linspace(0.0, 1.0, 5, true, float64, &step);
  std::vector<double> lh(5);
  l.copy_to_host(lh);
  EXPECT_DOUBLE_EQ(step, 0.25);
  EXPECT_DOUBLE_EQ(lh[4], 1.0);
  array e = eye(3, 4, 1, float32);
  std::vector<float> eh(12);
  e.copy_to_host(eh);
  EXPECT_EQ(eh[1], 1.0f);
  EXPECT_EQ(eh[6], 1.0f);
  EXPECT_EQ(eh[0], 0.0f);
}

TEST(ArrayGpu, LargeTransferUsesStagingAndIsExact) {
  REQUIRE_GPU();
  std::size_t n = (std::size_t{40} << 20) / 4 + 3;  // crosses several staging chunks
  std::vector<float> src(n);
  for (std::size_t i = 0; i < n; ++i) src[i] = static_cast<float>(i % 1000003);
  array a = from_host(src.data(), float32, {static_cast<std::int64_t>(n)});
  std::vector<float> back(n, -1.0f);
  a.copy_to_host(back);
  EXPECT_EQ(src, back);
}

TEST(ArrayGpu, PoolReturnsToBaseline) {
  REQUIRE_GPU();
  auto& pool = *default_memory_pool();
  current_stream().synchronize();
  std::size_t base = pool.used_bytes();
  {
    array a = empty({1000}, float32);
    array b = a.copy();
    EXPECT_GT(pool.used_bytes(), base);
  }
  EXPECT_EQ(pool.used_bytes(), base);
}

// Note [host copies]: a host side too small, or of another element size, is refused before any byte moves.
TEST(ArrayGpu, HostCopiesCheckTheRoomOnTheHost) {
  REQUIRE_GPU();
  array a = arange(std::int64_t{0}, std::int64_t{5}, std::int64_t{1});  // int64, 40 bytes
  std::int64_t one = -1;
  EXPECT_THROW(a.copy_to_host(&one, sizeof one), value_error);
  EXPECT_EQ(one, -1);
  std::vector<std::int32_t> narrow(5);
  EXPECT_THROW(a.copy_to_host(narrow), value_error);
  std::vector<std::int64_t> short_vec(4);
  EXPECT_THROW(a.copy_to_host(short_vec), value_error);
  std::vector<std::int64_t> fits(5);
  a.copy_to_host(fits);
  EXPECT_EQ(fits, (std::vector<std::int64_t>{0, 1, 2, 3, 4}));
  EXPECT_THROW(a.copy_from_host(fits.data(), 3 * sizeof(std::int64_t)), value_error);
}

TEST(ArrayGpu, HostValueReadsOneElementInCOrder) {
  REQUIRE_GPU();
  array a = arange(std::int64_t{0}, std::int64_t{6}, std::int64_t{1}).reshape({2, 3});
  array t = a.transpose();  // (3, 2), not C-contiguous: C position 1 is a[1][0] = 3
  EXPECT_EQ(t.host_value<std::int64_t>(), 0);
  EXPECT_EQ(t.host_value<std::int64_t>(1), 3);
  EXPECT_EQ(t.host_value<std::int64_t>(5), 5);
  EXPECT_THROW(t.host_value<std::int64_t>(6), index_error);
  EXPECT_THROW(t.host_value<std::int64_t>(-1), index_error);
  EXPECT_THROW(t.host_value<std::int32_t>(), value_error);
  array empty_axis = zeros({3, 0}, int64);
  EXPECT_THROW(empty_axis.host_value<std::int64_t>(), index_error);
}

// Note [assignment across devices]: under device 0, an assignment into a device-1 array is written by device 1 but
// ordered with device 0's current stream, both ways. A spinning kernel holds one stream back, so an unordered write
// would land on the wrong side of it.
TEST(ArrayMultiGpu, AssignmentIntoAnotherDeviceFollowsTheCurrentStream) {
  REQUIRE_GPU();
  if (device_count() < 2) GTEST_SKIP() << "needs two GPUs";
  require_peer_access(0, 1);
  require_peer_access(1, 0);
  raw_kernel spin(R"(extern "C" __global__ void spin(long long cycles) {
    long long start = clock64();
    while (clock64() - start < cycles) {}
  })",
                  "spin");
  const long long cycles = 50'000'000;  // about 25 ms at 2 GHz
  const std::size_t n = 1 << 14;        // 64 KiB: one direct copy to the host, no staging
  auto filled = [n](float v) { return std::vector<float>(n, v); };
  auto host_of = [n](const array& a) {  // read over device 0's stream only
    activate_device(0);
    std::vector<float> h(n);
    memcpy_device_to_host(h.data(), a.data(), n * sizeof(float), current_stream(0));
    return h;
  };
  array b1, c1;
  {
    device_guard on1(1);
    b1 = from_host(filled(1.0f).data(), float32, {static_cast<std::int64_t>(n)});
    c1 = from_host(filled(2.0f).data(), float32, {static_cast<std::int64_t>(n)});
    current_stream().synchronize();
  }
  device_guard on0(0);
  // 1. A write device 0 queued before the assignment lands before it.
  array zeros0 = zeros({static_cast<std::int64_t>(n)}, float32);
  spin({1}, {1}, cycles);
  activate_device(0);
  memcpy_device_to_device(b1.data(), 1, zeros0.data(), 0, n * sizeof(float), current_stream(0));
  b1.assign(c1);
  auto settle = [] {  // both devices idle; a default-stream handle names the active device's stream
    for (int d : {0, 1}) {
      device_guard on(d);
      current_stream().synchronize();
    }
  };
  settle();
  EXPECT_EQ(host_of(b1), filled(2.0f));
  // 2. What device 0 queues after the assignment sees it, though device 1's stream is held back when it is queued.
  array d1;
  {
    device_guard on1(1);
    d1 = from_host(filled(3.0f).data(), float32, {static_cast<std::int64_t>(n)});
    spin({1}, {1}, cycles);
  }
  b1.assign(d1);
  EXPECT_EQ(host_of(b1), filled(3.0f));
  settle();
}
