// The kernel caches' keys without a GPU: every input of the reduction generator reaches its key (a missing
// one would reuse a wrong kernel), the shared POD-keyed cache's levels, and the launch policy's split rule.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "cuarray/errors.hpp"
#include "src/engine/kernel_cache.hpp"
#include "src/engine/launch_policy.hpp"
#include "src/engine/reduction.hpp"

using namespace cuarray;

namespace {

red::spec base_spec() {
  red::spec s;
  s.name = "sum";
  s.preamble = "// p";
  s.acc = "double";
  s.in_compute = "float";
  s.extra_compute = {"double"};
  s.out_compute = "float";
  s.map = "m = ca_cast<acc_t>(x) * x1;";
  s.combine = "r = a + b;";
  s.post = "y = a;";
  s.identity = "ca_cast<acc_t>(0)";
  s.acc_bytes = 8;
  return s;
}

red::test_variant base_variant() {
  red::test_variant t;
  t.in_storage = dtype::float16;
  t.out_storage = dtype::float32;
  t.extra_storage = {dtype::int32};
  t.rows = true;
  t.group = 32;
  t.kept_ndim = 1;
  t.red_ndim = 1;
  t.per_output = true;
  t.per_output_type = dtype::float64;
  return t;
}

std::string key(const red::spec& s, const red::test_variant& t, int device = 0) {
  return red::key_for_test(s, t, device);
}

}  // namespace

TEST(ReductionKey, EqualSpecsGiveEqualKeys) {
  red::spec a = base_spec(), b = base_spec();
  red::test_variant t = base_variant(), u = base_variant();
  EXPECT_EQ(key(a, t), key(b, u));
  EXPECT_EQ(red::intern(a), red::intern(b));
  a.id = red::intern(a);
  b.id = red::intern(b);
  EXPECT_EQ(key(a, t), key(b, u));
}

TEST(ReductionKey, EverySpecFieldChangesTheKey) {
  const red::spec base = base_spec();
  const red::test_variant t = base_variant();
  const std::string k0 = key(base, t);
  std::vector<std::pair<const char*, std::function<void(red::spec&)>>> edits =
      {
          {"name", [](red::spec& s) { s.name = "sum2"; }},
          {"preamble", [](red::spec& s) { s.preamble = "// q"; }},
          {"acc", [](red::spec& s) { s.acc = "float"; }},
          {"in_compute", [](red::spec& s) { s.in_compute = "double"; }},
          {"extra_compute type", [](red::spec& s) { s.extra_compute[0] = "float"; }},
          {"extra_compute count", [](red::spec& s) { s.extra_compute.push_back("float"); }},
          {"out_compute", [](red::spec& s) { s.out_compute = "double"; }},
          {"map", [](red::spec& s) { s.map = "m = ca_cast<acc_t>(x);"; }},
          {"combine", [](red::spec& s) { s.combine = "r = a * b;"; }},
          {"fold", [](red::spec& s) { s.fold = "a = a + ca_cast<acc_t>(x) * x1;"; }},
          {"post", [](red::spec& s) { s.post = "y = a / _n;"; }},
          {"identity", [](red::spec& s) { s.identity = "ca_cast<acc_t>(1)"; }},
          {"acc_bytes", [](red::spec& s) { s.acc_bytes = 16; }},
          {"sequential", [](red::spec& s) { s.sequential = true; }},
          // Text moved across a field boundary is a different spec.
          {"boundary",
           [](red::spec& s) {
    s.map = "m = ca_cast<acc_t>(x) * x1;r = a";
    s.combine = " + b;";
           }},
  };
  for (auto& [what, edit] : edits) {
    red::spec s = base;
    edit(s);
    EXPECT_NE(key(s, t), k0) << what;
    EXPECT_NE(red::intern(s), red::intern(base)) << what;
    red::spec si = s;
    si.id = red::intern(s);
    red::spec bi = base;
    bi.id = red::intern(base);
    EXPECT_NE(key(si, t), key(bi, t)) << what << " (interned)";
  }
}

TEST(ReductionKey, EveryVariantInputChangesTheKey) {
  const red::spec s = base_spec();
  const red::test_variant base = base_variant();
  const std::string k0 = key(s, base);
  std::vector<std::pair<const char*, std::function<void(red::test_variant&)>>> edits = {
      {"in_storage", [](red::test_variant& t) { t.in_storage = dtype::float32; }},
      {"out_storage", [](red::test_variant& t) { t.out_storage = dtype::float64; }},
      {"extra_storage type", [](red::test_variant& t) { t.extra_storage[0] = dtype::int64; }},
      {"rows", [](red::test_variant& t) { t.rows = false; }},
      {"group", [](red::test_variant& t) { t.group = 256; }},
      {"kept_ndim", [](red::test_variant& t) { t.kept_ndim = 2; }},
      {"red_ndim", [](red::test_variant& t) { t.red_ndim = 2; }},
      {"index64", [](red::test_variant& t) { t.index64 = true; }},
      {"mask", [](red::test_variant& t) { t.mask = true; }},
      {"partial_out", [](red::test_variant& t) { t.partial_out = true; }},
      {"partial_in", [](red::test_variant& t) { t.partial_in = true; }},
      {"vec", [](red::test_variant& t) { t.vec = true; }},
      {"stream", [](red::test_variant& t) { t.stream = true; }},
      {"per_output", [](red::test_variant& t) { t.per_output = false; }},
      {"per_output_type", [](red::test_variant& t) { t.per_output_type = dtype::int64; }},
  };
  for (auto& [what, edit] : edits) {
    red::test_variant t = base;
    edit(t);
    EXPECT_NE(key(s, t), k0) << what;
  }
  EXPECT_NE(key(s, base, 1), k0) << "device";
  // A count change needs a matching spec; compare two specs of three inputs with different extra types.
  red::spec s3 = s;
  s3.extra_compute.push_back("double");
  red::test_variant t3 = base, u3 = base;
  t3.extra_storage.push_back(dtype::int8);
  u3.extra_storage.push_back(dtype::uint8);
  EXPECT_NE(key(s3, t3), key(s3, u3)) << "second extra_storage";
}

TEST(ReductionKey, EqualKeysMeanEqualSource) {
  // Over a grid of variants and specs: whenever two keys are equal, the generated sources are equal.
  std::map<std::string, std::string> seen;
  std::vector<red::spec> specs{base_spec(), base_spec()};
  specs[1].sequential = true;
  specs[1].extra_compute = {"float"};
  std::size_t n = 0;
  for (const red::spec& s : specs) {
    for (bool rows : {true, false}) {
      for (int group : {32, 256}) {
        for (int kd : {0, 1, 3}) {
          for (int rd : {1, 2}) {
            for (int f = 0; f < 128; ++f) {
              red::test_variant t = base_variant();
              t.rows = rows;
              t.group = group;
              t.kept_ndim = kd;
              t.red_ndim = rd;
              t.index64 = f & 1;
              t.mask = f & 2;
              t.partial_out = f & 4;
              t.partial_in = f & 8;
              t.per_output = f & 16;
              t.vec = f & 32;
              t.stream = f & 64;
              std::string src = red::source_for_test(s, t);
              auto [it, inserted] = seen.emplace(key(s, t), src);
              if (!inserted) EXPECT_EQ(it->second, src) << "one key, two sources";
              ++n;
            }
          }
        }
      }
    }
  }
  EXPECT_GT(seen.size(), n / 4);
}

TEST(ReductionKey, TooManyExtraInputsAreRefused) {
  red::spec s = base_spec();
  red::test_variant t = base_variant();
  s.extra_compute.assign(40, "double");
  t.extra_storage.assign(40, dtype::float64);
  EXPECT_THROW(key(s, t), value_error);
}

namespace {

struct small_key {
  std::uint64_t a;
  std::int32_t device;
  std::uint32_t b;
};
struct other_tag {};

CUfunction fake(std::uintptr_t x) { return reinterpret_cast<CUfunction>(x * 16); }

}  // namespace

TEST(PodKernelCache, MakesEachKeyOnceAndAnswersFromMemory) {
  jit::kernel_cache<small_key> cache;
  int made = 0;
  for (int round = 0; round < 3; ++round) {
    for (std::uint64_t i = 1; i <= 100; ++i) {  // more keys than front slots: the per-thread map answers
      small_key k{};
      k.a = i;
      CUfunction f = cache.get(k, [&] {
        ++made;
        return fake(i);
      });
      EXPECT_EQ(f, fake(i));
    }
  }
  EXPECT_EQ(made, 100);
  EXPECT_EQ(cache.stats().misses, 100u);
  EXPECT_EQ(cache.stats().hits, 200u);
}

TEST(PodKernelCache, ThreadsShareOneEntryPerKey) {
  jit::kernel_cache<small_key, other_tag> cache;
  std::atomic<int> made{0};
  small_key k{};
  k.a = 7;
  cache.get(k, [&] {
    ++made;
    return fake(7);
  });
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int r = 0; r < 10; ++r) {
        CUfunction f = cache.get(k, [&] {
          ++made;
          return fake(99);
        });
        if (f != fake(7)) ++wrong;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(made.load(), 1);  // other threads find it in the shared map
  EXPECT_EQ(wrong.load(), 0);
}

TEST(PodKernelCache, AFailedMakeStoresNothing) {
  jit::kernel_cache<small_key, int> cache;
  small_key k{};
  k.a = 3;
  EXPECT_THROW(cache.get(k, []() -> CUfunction { throw value_error("compile failed"); }), value_error);
  EXPECT_EQ(cache.get(k, [] { return fake(3); }), fake(3));
}

TEST(LaunchPolicy, ReductionSplitsReachWholeWavesWithinTheirCaps) {
  using P = jit::reduction_policy;
  EXPECT_EQ(P::splits(1000, 1 << 20, 32, 1000), 1);     // the outputs fill the GPU already
  EXPECT_EQ(P::splits(1, 1 << 30, 256, 1056), 1024);    // capped
  EXPECT_EQ(P::splits(1, 256 * 16 * 3, 256, 1056), 3);  // each lane keeps at least 16 elements
  EXPECT_EQ(P::splits(1, 10, 256, 1056), 1);
  EXPECT_EQ(P::splits(10, 1 << 30, 32, 1056), 316);  // 3160 blocks: three waves, 99.7% full
  // Note [whole waves]: sum(axis=0) of 16384² float32, 512 blocks of element columns or 128 of vector columns,
  // took 3 and 9 splits (1536 and 1152 blocks: 1.45 and 1.09 waves) and now 6 and 24 (3072: 2.9 waves).
  EXPECT_EQ(P::splits(512, 16384, 8, 1056), 6);
  EXPECT_EQ(P::splits(128, 16384, 8, 1056), 24);
  EXPECT_EQ(P::splits(100, 1 << 20, 256, 1056), 31);
  // 600 blocks: 5 splits fill three waves at 95%.
  EXPECT_EQ(P::splits(600, 1 << 20, 8, 1056), 5);
  // A cap of 16 splits: three waves need 24, so one wave: 8 (1024 blocks, 97%).
  EXPECT_EQ(P::splits(128, 16 * 8 * 16, 8, 1056), 8);
  // No count within the cap (3) fills its waves: the fewest splits that reach the target, as before.
  EXPECT_EQ(P::splits(600, 3 * 8 * 16, 8, 1056), 2);
  EXPECT_EQ(P::row_group(2 * 1056, 1023, 1056), 32);
  // Long rows (Note [long rows]): a block each once every lane keeps `unroll` (4) loads, however many rows.
  EXPECT_EQ(P::row_group(2 * 1056, 1 << 20, 1056), 256);
  EXPECT_EQ(P::row_group(1 << 20, 1024, 1056), 256);
  EXPECT_EQ(P::row_group(1 << 20, 1023, 1056), 32);
  EXPECT_EQ(P::row_group(2 * 1056 - 1, 1 << 20, 1056), 256);  // few outputs: a block each, however short
  EXPECT_EQ(P::row_group(2 * 1056 - 1, 3, 1056), 256);
  // Many short rows: the group narrows so that each lane keeps `unroll` (4) loads.
  EXPECT_EQ(P::row_group(1 << 20, 128, 1056), 32);
  EXPECT_EQ(P::row_group(1 << 20, 127, 1056), 16);
  EXPECT_EQ(P::row_group(1 << 20, 16, 1056), 4);
  EXPECT_EQ(P::row_group(1 << 20, 3, 1056), 1);
  EXPECT_EQ(P::row_group(1 << 20, 0, 1056), 1);
}
