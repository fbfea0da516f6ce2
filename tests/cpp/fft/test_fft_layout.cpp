// Host logic of cuarray.fft: which strided layouts one cuFFT plan takes, and how transform axes group into plans.
#include <gtest/gtest.h>

#include "cuarray/errors.hpp"
#include "cuarray/fft.hpp"
#include "src/fft/fft_layout.hpp"

namespace cuarray::detail::fft {
namespace {

strides_t c_strides(const shape_t& shape, std::int64_t item) { return contiguous_strides(shape, item, order::C); }

TEST(FftLayout, ContiguousRowsAreOneBatchedPlan) {
  shape_t s{8, 64};
  auto p = make_plan_layout(s, c_strides(s, 8), 8, s, c_strides(s, 8), 8, {1}, transform_kind::c2c);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->rank, 1);
  EXPECT_EQ(p->n[0], 64);
  EXPECT_EQ(p->batch, 8);
  EXPECT_EQ(p->istride, 1);
  EXPECT_EQ(p->idist, 64);
  EXPECT_EQ(p->loop_count(), 1);
}

TEST(FftLayout, LeadingAxisUsesStrideAndUnitDistance) {
  shape_t s{64, 8};
  auto p = make_plan_layout(s, c_strides(s, 8), 8, s, c_strides(s, 8), 8, {0}, transform_kind::c2c);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->batch, 8);
  EXPECT_EQ(p->istride, 8);
  EXPECT_EQ(p->idist, 1);
  EXPECT_EQ(p->ostride, 8);
  EXPECT_EQ(p->odist, 1);
}

TEST(FftLayout, MiddleAxisLoopsOverFewOuterIndices) {
  shape_t s{2, 64, 1024};
  auto p = make_plan_layout(s, c_strides(s, 8), 8, s, c_strides(s, 8), 8, {1}, transform_kind::c2c);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->batch, 1024);
  EXPECT_EQ(p->idist, 1);
  EXPECT_EQ(p->istride, 1024);
  ASSERT_EQ(p->loop_count(), 2);
  EXPECT_EQ(p->loop_offsets(1), std::make_pair(std::int64_t{64 * 1024}, std::int64_t{64 * 1024}));
}

TEST(FftLayout, ManySmallLoopsAreRefused) {
  shape_t s{500, 8, 500};
  EXPECT_FALSE(make_plan_layout(s, c_strides(s, 8), 8, s, c_strides(s, 8), 8, {1}, transform_kind::c2c));
}

TEST(FftLayout, TrailingAxesChainIntoOnePlan) {
  shape_t s{4, 16, 32};
  auto p = make_plan_layout(s, c_strides(s, 16), 16, s, c_strides(s, 16), 16, {1, 2}, transform_kind::c2c);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->rank, 2);
  EXPECT_EQ(p->n[0], 16);
  EXPECT_EQ(p->n[1], 32);
  EXPECT_EQ(p->inembed[1], 32);
  EXPECT_EQ(p->batch, 4);
  EXPECT_EQ(p->idist, 16 * 32);
}

TEST(FftLayout, TruncatedViewIsAnEmbedding) {
  // A (16, 32) view of a (16, 40) array: the inner axis is embedded in rows of 40.
  shape_t s{16, 32}, out{16, 32};
  strides_t in{40 * 8, 8};
  auto p = make_plan_layout(s, in, 8, out, c_strides(out, 8), 8, {0, 1}, transform_kind::c2c);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->inembed[1], 40);
  EXPECT_EQ(p->onembed[1], 32);
}

TEST(FftLayout, NegativeOrMisalignedStridesAreRefused) {
  shape_t s{16};
  EXPECT_FALSE(make_plan_layout(s, strides_t{-8}, 8, s, strides_t{8}, 8, {0}, transform_kind::c2c));
  EXPECT_FALSE(make_plan_layout(s, strides_t{12}, 8, s, strides_t{8}, 8, {0}, transform_kind::c2c));
}

TEST(FftLayout, RealToComplexHalvesTheLastPlanAxis) {
  shape_t in{3, 10}, out{3, 6};
  auto p = make_plan_layout(in, c_strides(in, 4), 4, out, c_strides(out, 8), 8, {1}, transform_kind::r2c);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->n[0], 10);
  EXPECT_EQ(p->idist, 10);
  EXPECT_EQ(p->odist, 6);
  auto q = make_plan_layout(out, c_strides(out, 8), 8, in, c_strides(in, 4), 4, {1}, transform_kind::c2r);
  ASSERT_TRUE(q);
  EXPECT_EQ(q->n[0], 10);
}

TEST(FftLayout, GroupsOfAtMostThreeInnermostFirst) {
  shape_t s{2, 3, 4, 5};
  auto g = group_axes({0, 1, 2, 3}, s, c_strides(s, 8));
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0], (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(g[1], (std::vector<int>{0}));
}

TEST(FftLayout, AxesSplitByAnUntransformedAxis) {
  shape_t s{2, 3, 4};
  auto g = group_axes({0, 2}, s, c_strides(s, 8));
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0], (std::vector<int>{2}));
  EXPECT_EQ(g[1], (std::vector<int>{0}));
}

TEST(FftLayout, FortranOrderGroupsByMemory) {
  shape_t s{4, 6};
  auto g = group_axes({0, 1}, s, contiguous_strides(s, 8, order::F));
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0], (std::vector<int>{1, 0}));
}

TEST(FftLayout, HalvedAxisEndsTheFirstGroup) {
  shape_t s{4, 6, 8};
  auto g = group_axes({0, 1, 2}, s, c_strides(s, 8), 2);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0], (std::vector<int>{0, 1, 2}));
  // Halved axis 0 (rfftn with axes=(1, 2, 0)): it cannot be the innermost of a plan over the others.
  auto h = group_axes({1, 2, 0}, s, c_strides(s, 8), 0);
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(h[0], (std::vector<int>{0}));
  EXPECT_EQ(h[1], (std::vector<int>{1, 2}));
}

TEST(FftLayout, UnitAxesAreIdentities) {
  shape_t s{1, 8};
  auto g = group_axes({0, 1}, s, c_strides(s, 8));
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0], (std::vector<int>{1}));
}

TEST(FftLayout, LoopCostModel) {
  EXPECT_TRUE(loop_is_cheap(4, 1, 8));
  EXPECT_FALSE(loop_is_cheap(1000, 64, 8));
  EXPECT_TRUE(loop_is_cheap(64, 1 << 20, 8));
}

// irfft(x, 3, axis=1) of a (4, 2, 5) complex64 array into (4, 3, 5) float32: the loop over axis 0 steps the
// output by 15 floats, which leaves every odd execution's real pointer off cufftComplex alignment.
TEST(FftLayout, OddRealLoopStrideBreaksAlignment) {
  shape_t in{4, 2, 5}, out{4, 3, 5};
  auto p = make_plan_layout(in, c_strides(in, 8), 8, out, c_strides(out, 4), 4, {1}, transform_kind::c2r);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->n[0], 3);
  EXPECT_EQ(p->batch, 5);
  ASSERT_EQ(p->loop_count(), 4);
  EXPECT_EQ(p->loop_offsets(1), std::make_pair(std::int64_t{10}, std::int64_t{15}));
  EXPECT_FALSE(loop_keeps_alignment(*p, 8, 4, 8));
  // Double precision: 15 doubles is 120 bytes, not a multiple of 16 either.
  auto d = make_plan_layout(in, c_strides(in, 16), 16, out, c_strides(out, 8), 8, {1}, transform_kind::c2r);
  ASSERT_TRUE(d);
  EXPECT_FALSE(loop_keeps_alignment(*d, 16, 8, 16));
  // An even output length keeps every execution aligned; so does a plan without a host loop.
  shape_t out4{4, 4, 5}, in3{4, 3, 5};
  auto e = make_plan_layout(in3, c_strides(in3, 8), 8, out4, c_strides(out4, 4), 4, {1}, transform_kind::c2r);
  ASSERT_TRUE(e);
  ASSERT_EQ(e->loop_count(), 4);
  EXPECT_TRUE(loop_keeps_alignment(*e, 8, 4, 8));
  shape_t in2{2, 5}, out2{3, 5};
  auto f = make_plan_layout(in2, c_strides(in2, 8), 8, out2, c_strides(out2, 4), 4, {0}, transform_kind::c2r);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->loop_count(), 1);
  EXPECT_TRUE(loop_keeps_alignment(*f, 8, 4, 8));
  // R2C reading an odd-length middle axis: the input steps by 3 * 5 floats.
  auto r = make_plan_layout(out, c_strides(out, 4), 4, in, c_strides(in, 8), 8, {1}, transform_kind::r2c);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->loop_count(), 4);
  EXPECT_FALSE(loop_keeps_alignment(*r, 4, 8, 8));
}

TEST(FftPlanCache, LimitsAndValidationNeedNoDevice) {
  // Device 1000 never runs anything: the cache's bookkeeping is host-only until a plan exists.
  auto info = cuarray::fft::get_plan_cache_info(1000);
  EXPECT_EQ(info.size, 16);
  EXPECT_EQ(info.memsize, -1);
  EXPECT_EQ(info.curr_size, 0);
  cuarray::fft::set_plan_cache_size(1000, 3);
  cuarray::fft::set_plan_cache_memsize(1000, 1 << 20);
  info = cuarray::fft::get_plan_cache_info(1000);
  EXPECT_EQ(info.size, 3);
  EXPECT_EQ(info.memsize, 1 << 20);
  EXPECT_THROW(cuarray::fft::set_plan_cache_size(1000, -2), value_error);
  EXPECT_THROW(cuarray::fft::set_plan_cache_memsize(1000, -5), value_error);
  cuarray::fft::clear_plan_cache(1000);
}

TEST(FftNorm, ParsesNumPyNames) {
  using cuarray::fft::norm_mode;
  EXPECT_EQ(cuarray::fft::parse_norm("ortho"), norm_mode::ortho);
  EXPECT_EQ(cuarray::fft::parse_norm("forward"), norm_mode::forward);
  EXPECT_EQ(cuarray::fft::parse_norm("backward"), norm_mode::backward);
  EXPECT_THROW(cuarray::fft::parse_norm("bad"), value_error);
}

}  // namespace
}  // namespace cuarray::detail::fft
