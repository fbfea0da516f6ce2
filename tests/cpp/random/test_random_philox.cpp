// Philox4x32-10 against Random123's known answers, the uniform conversions' ranges, and counter accounting.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "cuarray/errors.hpp"
#include "cuarray/random.hpp"
#include "src/kernels/random_kernels.hpp"
#include "src/kernels/random_philox.cuh"

namespace rng = cuarray::detail::rng;

TEST(RandomPhilox, MatchesRandom123KnownAnswers) {
  rng::u32x4 r = rng::philox4x32_10({0, 0, 0, 0}, 0, 0);
  EXPECT_EQ(r.x, 0x6627e8d5u);
  EXPECT_EQ(r.y, 0xe169c58du);
  EXPECT_EQ(r.z, 0xbc57ac4cu);
  EXPECT_EQ(r.w, 0x9b00dbd8u);
  r = rng::philox4x32_10({0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}, 0xffffffffu, 0xffffffffu);
  EXPECT_EQ(r.x, 0x408f276du);
  EXPECT_EQ(r.w, 0x6d5451fdu);
  r = rng::philox4x32_10({0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}, 0xa4093822u, 0x299f31d0u);
  EXPECT_EQ(r.x, 0xd16cfe09u);
  EXPECT_EQ(r.y, 0x94fdccebu);
  EXPECT_EQ(r.z, 0x5001e420u);
  EXPECT_EQ(r.w, 0x24126ea1u);
}

TEST(RandomPhilox, CounterLayoutIsIndexThenSubStream) {
  rng::u32x4 a = rng::block_at(0x299f31d0a4093822ull, 0x85a308d3243f6a88ull, 0x0370734413198a2eull);
  EXPECT_EQ(a.x, 0xd16cfe09u);
  EXPECT_EQ(a.w, 0x24126ea1u);
}

TEST(RandomPhilox, UniformConversionsStayInTheirIntervals) {
  EXPECT_EQ(rng::u01f(0), 0.0f);
  EXPECT_LT(rng::u01f(0xffffffffu), 1.0f);
  EXPECT_GT(rng::u01f_open0(0), 0.0f);
  EXPECT_EQ(rng::u01f_open0(0xffffffffu), 1.0f);
  EXPECT_EQ(rng::u01d(0, 0), 0.0);
  EXPECT_LT(rng::u01d(0xffffffffu, 0xffffffffu), 1.0);
  EXPECT_GT(rng::u01d_open0(0, 0), 0.0);
  EXPECT_GT(rng::u01d_open(0, 0), 0.0);
  EXPECT_LT(rng::u01d_open(0xffffffffu, 0xffffffffu), 1.0);
}

TEST(RandomPhilox, CountersPerCall) {
  using rng::dist;
  EXPECT_EQ(rng::counters_used(dist::uniform01, cuarray::float32, 9), 3u);  // 4 float32 per counter
  EXPECT_EQ(rng::counters_used(dist::normal, cuarray::float64, 5), 3u);     // 2 float64 per counter
  EXPECT_EQ(rng::counters_used(dist::geometric, cuarray::int64, 4), 2u);
  EXPECT_EQ(rng::counters_used(dist::gamma, cuarray::float32, 7), 7u);  // one per output when looping
  EXPECT_EQ(rng::counters_used(dist::poisson, cuarray::int64, 0), 0u);
}

TEST(RandomGenerator, ArgumentErrorsComeBeforeAnyDeviceWork) {
  cuarray::random::generator g(42);
  std::uint64_t before = g.state()->counter;
  EXPECT_THROW(g.normal(0.0, -1.0), cuarray::value_error);
  EXPECT_THROW(g.random(std::nullopt, cuarray::int32), cuarray::type_error);
  EXPECT_THROW(g.integers(5, 3), cuarray::value_error);
  EXPECT_THROW(g.integers(0, 300, std::nullopt, cuarray::uint8), cuarray::value_error);
  EXPECT_THROW(g.integers(0, 3, std::nullopt, cuarray::float64), cuarray::type_error);
  EXPECT_THROW(g.binomial(3, 1.5), cuarray::value_error);
  EXPECT_THROW(g.uniform(0.0, std::numeric_limits<double>::infinity()), cuarray::overflow_error);
  EXPECT_THROW(g.choice(3, cuarray::shape_t{4}, false), cuarray::value_error);
  EXPECT_EQ(g.state()->counter, before);  // failed calls take no counters
  EXPECT_NE(cuarray::random::key_from_seed(1), cuarray::random::key_from_seed(2));
}

// Note [integers per counter]: the redraw of a rejected 32-bit draw against a plain model of the same rule: the
// words of sub-streams (k + 1) << 32, +1, ... of the counter, in order, until the low half of word * rng1 reaches
// 2**32 mod rng1.
TEST(RandomPhilox, IntegerRedrawFollowsTheOutputsOwnSubStreams) {
  const std::uint64_t key = 0x0123456789ABCDEFull, counter = 1000;
  auto model = [&](int k, std::uint32_t w0, std::uint32_t rng1, int* words_read) {
    const std::uint32_t t = static_cast<std::uint32_t>((std::uint64_t{1} << 32) % rng1);
    std::vector<std::uint32_t> words;
    for (std::uint64_t sub = (static_cast<std::uint64_t>(k) + 1) << 32; words.size() < 64; ++sub) {
      rng::u32x4 b = rng::block_at(key, counter, sub);
      words.insert(words.end(), {b.x, b.y, b.z, b.w});
    }
    std::uint64_t m = static_cast<std::uint64_t>(w0) * rng1;
    std::size_t next = 0;
    while (static_cast<std::uint32_t>(m) < t) m = static_cast<std::uint64_t>(words.at(next++)) * rng1;
    *words_read = static_cast<int>(next);
    return static_cast<std::uint32_t>(m >> 32);
  };
  // 2**31 + 1 values reject about half of all words, so most cases read several; 1000 values reject almost none.
  int redrawn = 0;
  for (std::uint32_t rng1 : {2147483649u, 3000000000u, 1000u, 1u}) {
    for (int k = 0; k < 4; ++k) {
      for (std::uint32_t w0 : {0u, 1u, 0x7fffffffu, 0x80000000u}) {
        int read = 0;
        std::uint32_t want = model(k, w0, rng1, &read);
        EXPECT_EQ(rng::interval32_redraw(key, counter, k, w0, rng1), want) << rng1 << " " << k << " " << w0;
        EXPECT_LT(want, rng1);
        redrawn += read > 0;
      }
    }
  }
  EXPECT_GT(redrawn, 8);  // the loop itself was exercised, not only the first word
  // Outputs of one counter read different sub-streams: the same rejected first word gives other values.
  std::uint32_t a = rng::interval32_redraw(key, counter, 0, 0, 2147483649u);
  std::uint32_t b = rng::interval32_redraw(key, counter, 1, 0, 2147483649u);
  EXPECT_NE(a, b);
  EXPECT_EQ(rng::word_of({1, 2, 3, 4}, 0), 1u);
  EXPECT_EQ(rng::word_of({1, 2, 3, 4}, 3), 4u);
}
