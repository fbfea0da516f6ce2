// Scans, selection and counting in C++: argument checks that run before any device use (CPU), and small
// device round trips against hand-computed values (skipped without a GPU).
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <vector>

#include "cuarray/cuarray.hpp"
#include "src/kernels/count_kernels.hpp"
#include "tests/cpp/test_util.hpp"

using namespace cuarray;
using cuarray::test::expect_throw_with;
using cuarray::test::host;
using cuarray::test::shape_only;

TEST(ScanHost, CumulativeSumNeedsAxisBeyondOneDimension) {
  EXPECT_THROW(cumulative_sum(shape_only(float64, {2, 3})), value_error);
  EXPECT_THROW(cumulative_prod(shape_only(float64, {2, 3}), std::nullopt, std::nullopt, array(), true), value_error);
}

TEST(ScanHost, AxisOutOfRangeIsAxisError) {
  EXPECT_THROW(cumsum(shape_only(float32, {2, 3}), 2), axis_error);
  EXPECT_THROW(cumprod(shape_only(float32, {2, 3}), -3), axis_error);
  EXPECT_THROW(cumsum(shape_only(float32, {}), 1), axis_error);  // a 0-d array scans as 1-d
}

TEST(ScanHost, OutOfWrongShapeIsValueError) {
  EXPECT_THROW(cumsum(shape_only(float32, {4}), std::nullopt, std::nullopt, shape_only(float32, {5})), value_error);
}

TEST(ScanHost, DiffChecks) {
  EXPECT_THROW(diff(shape_only(int32, {4}), -1), value_error);
  EXPECT_THROW(diff(shape_only(int32, {}), 1), value_error);
  EXPECT_THROW(diff(shape_only(int32, {4}), 1, 1), axis_error);
  array a = shape_only(int32, {4});
  EXPECT_EQ(diff(a, 0).shape(), a.shape());  // n = 0 returns the input itself, even for checks that would fail
}

TEST(ScanHost, GradientChecks) {
  EXPECT_THROW(gradient(shape_only(float64, {5}), {}, std::nullopt, 3), value_error);
  EXPECT_THROW(gradient(shape_only(float64, {2}), {}, std::nullopt, 2), value_error);
  EXPECT_THROW(gradient(shape_only(float64, {3, 3}), {1.0, 2.0, 3.0}), type_error);
  EXPECT_THROW(gradient(shape_only(float64, {3, 3}), {}, std::vector<int>{0, -2}), value_error);
  EXPECT_THROW(gradient(shape_only(float64, {3, 3}), {}, std::vector<int>{2}), axis_error);
  EXPECT_TRUE(gradient(shape_only(float64, {})).empty());
}

TEST(SelectHost, ShapeChecks) {
  EXPECT_THROW(nonzero(shape_only(float64, {})), value_error);
  EXPECT_THROW(compress_mask(shape_only(float64, {2, 3}), shape_only(bool_, {3})), index_error);
  EXPECT_THROW(compress_mask(shape_only(float64, {2, 3}), shape_only(bool_, {2, 3, 1})), index_error);
  EXPECT_THROW(compress_mask(shape_only(float64, {2, 3}), shape_only(int8, {2, 3})), type_error);
}

TEST(CountingHost, BincountChecks) {
  EXPECT_THROW(bincount(shape_only(int64, {})), value_error);
  EXPECT_THROW(bincount(shape_only(int64, {2, 2})), value_error);
  EXPECT_THROW(bincount(shape_only(float64, {3})), type_error);
  EXPECT_THROW(bincount(shape_only(float32, {0})), type_error);  // empty or not, a float list needs a safe cast
  EXPECT_THROW(bincount(shape_only(int64, {3}), array(), -1), value_error);
  // The weights are checked only after the values (on the device), as NumPy orders it: see CountingDevice.
}

TEST(CountingHost, HistogramChecks) {
  EXPECT_THROW(histogram(shape_only(complex64, {3})), type_error);
  EXPECT_THROW(histogram(shape_only(float64, {3}), 10, std::nullopt, false, shape_only(float64, {4})), value_error);
  EXPECT_THROW(histogramdd(shape_only(float64, {3, 2}), {2, 3, 4}), value_error);
  EXPECT_THROW(histogramdd(shape_only(float64, {3, 2}), {2}, {std::nullopt}), value_error);
  EXPECT_THROW(histogram2d(shape_only(float64, {3}), shape_only(float64, {4})), value_error);
}

// Expected values below are NumPy 2.4's, as hexadecimal floats (bit-exact).
TEST(CountingHost, EdgesFollowNumpysLinspaceInTheDataType) {
  // np.histogram_bin_edges(a, 10) for float32 data with these min and max: linspace runs in float32; a float64
  // linspace cast to float32 differs at edges 3, 4, 6, 7 and 8.
  std::vector<double> e = detail::numpy_linspace(-0x1.76583p+3, 0x1.38b0ecp+3, 11, float32);
  std::vector<double> want{-0x1.76583p+3, -0x1.31a414p+3, -0x1.d9dfeep+2, -0x1.5077b4p+2, -0x1.8e1ef8p+1, -0x1.ed3a2p-1,
                           0x1.2f03ep+0,  0x1.aa526p+1,   0x1.5e9168p+2,  0x1.e7f9ap+2,   0x1.38b0ecp+3};
  EXPECT_EQ(e, want);
  // float16 data: every operation rounds to float16.
  e = detail::numpy_linspace(-0x1.104p+3, 0x1.c5cp+2, 11, float16);
  want = {-0x1.104p+3, -0x1.bccp+2, -0x1.59p+2, -0x1.eap+1, -0x1.228p+1, -0x1.6cp-1,
          0x1.b4p-1,   0x1.34p+1,   0x1.fcp+1,  0x1.62p+2,  0x1.c5cp+2};
  EXPECT_EQ(e, want);
  // range=(-3, 4), 21 bins: 9 * (7 / 21) rounds to 3, so edge 9 is exactly 0 (a fused a*b+c gives -1.7e-16).
  e = detail::numpy_linspace(-3, 4, 22, float64);
  EXPECT_EQ(e[9], 0.0);
  EXPECT_EQ(e.back(), 4.0);
  EXPECT_EQ(detail::round_to(0.1, float32), static_cast<double>(0.1f));
  EXPECT_EQ(detail::round_to(0x1.004p+0, float16), 0x1.004p+0);
  EXPECT_EQ(detail::round_to(0x1.0021p+0, float16), 0x1.004p+0);
}

TEST(CountingHost, SumsFollowNumpysPairwiseSummation) {
  std::vector<double> v{0x1.f0dfbcp+4,  0x1.4aa3fap+6,  -0x1.e90048p+6, 0x1.1719d6p+5,  0x1.3a7c68p+6,
                        -0x1.e9fb28p+4, -0x1.fe86dep+2, 0x1.fafda2p-2,  0x1.45ba26p+4,  -0x1.c32ddap+6,
                        -0x1.9cadecp+5, 0x1.4ad5f6p+5,  -0x1.2f79d4p+6, -0x1.14ed12p+3, -0x1.d15a76p+2,
                        -0x1.37d3dap+6, 0x1.a9ef14p+3,  0x1.0589eap+7,  -0x1.3d37c4p+6, -0x1.ec6fb8p+5};
  EXPECT_EQ(detail::numpy_pairwise_sum(v.data(), 20, float32), -0x1.94a8b8p+7);  // float64 gives -0x1.94a8b96fp+7
  std::complex<double> q = detail::numpy_cdiv({5.0, 0.0}, {3.0, 0.0});
  EXPECT_EQ(q.real(), 0x1.aaaaaaaaaaaaap+0);  // NumPy multiplies by the reciprocal: not 5.0 / 3.0
}

TEST(CountingHost, WeightedHistogramOverEdgesCumulatesInTheWeightsType) {
  // np.histogram(x, bins=[-3, -0.5, 0, 0.7, 3], weights=w) with float32 w: NumPy's bins are differences of
  // float32 cumulative sums; the first bin differs from the rounded exact sum (0x1.6c7b4p+1).
  std::vector<double> x{0x1.017ed89db8441p-3,  -0x1.0e8cfe9bd45ccp-3, 0x1.47e57a468b06dp-1,  0x1.adabbec84d4f0p-4,
                        -0x1.1243418e643edp-1, 0x1.7245f95ced1e6p-2,  0x1.4dd2f26bd103cp+0,  0x1.e4e7cbc69bca3p-1,
                        -0x1.684ffc1daaf28p-1, -0x1.43f2a959cc8bbp+0, -0x1.3f1dd4920f4fbp-1, 0x1.528adc38b0ce3p-5};
  std::vector<double> wr{-0x1.d10194p+7, -0x1.5e111p+4, -0x1.f25d48p+6, -0x1.24e82ep+6, -0x1.b3683ep+5, -0x1.fa148cp+4,
                         0x1.494dfp+5,   0x1.a1015ep+6, -0x1.9b4f98p+3, 0x1.114aeep+7,  -0x1.0a13fp+6,  0x1.193544p+5};
  std::vector<std::complex<double>> w(wr.begin(), wr.end());
  std::vector<std::complex<double>> h = detail::numpy_cumulative_histogram(x, w, {-3.0, -0.5, 0.0, 0.7, 3.0}, float32);
  ASSERT_EQ(h.size(), 4u);
  EXPECT_EQ(h[0].real(), 0x1.6c7b2p+1);
  EXPECT_EQ(h[1].real(), -0x1.5e111p+4);
  EXPECT_EQ(h[2].real(), -0x1.aaccc8p+8);
  EXPECT_EQ(h[3].real(), 0x1.22d42cp+7);
}

TEST(ScanDevice, CumsumAndCumprodAlongAxes) {
  REQUIRE_GPU();
  std::vector<std::int32_t> v{1, 2, 3, 4, 5, 6};
  array a = from_host(v.data(), int32, {2, 3});
  EXPECT_EQ(host<std::int64_t>(cumsum(a)), (std::vector<std::int64_t>{1, 3, 6, 10, 15, 21}));
  EXPECT_EQ(host<std::int64_t>(cumsum(a, 0)), (std::vector<std::int64_t>{1, 2, 3, 5, 7, 9}));
  EXPECT_EQ(host<std::int64_t>(cumprod(a, 1)), (std::vector<std::int64_t>{1, 2, 6, 4, 20, 120}));
  array r = cumsum(a, 1, int8);
  EXPECT_EQ(r.type(), int8);
}

TEST(SelectDevice, NonzeroAndMask) {
  REQUIRE_GPU();
  std::vector<float> v{0, 1, 0, 2, 3, 0};
  array a = from_host(v.data(), float32, {2, 3});
  std::vector<array> nz = nonzero(a);
  ASSERT_EQ(nz.size(), 2u);
  EXPECT_EQ(host<std::int64_t>(nz[0]), (std::vector<std::int64_t>{0, 1, 1}));
  EXPECT_EQ(host<std::int64_t>(nz[1]), (std::vector<std::int64_t>{1, 0, 1}));
  array m = greater(a, 1.5);
  EXPECT_EQ(host<float>(compress_mask(a, m)), (std::vector<float>{2, 3}));
}

TEST(CountingDevice, BincountAndHistogram) {
  REQUIRE_GPU();
  std::vector<std::int64_t> v{0, 1, 1, 3};
  array x = from_host(v.data(), int64, {4});
  EXPECT_EQ(host<std::int64_t>(bincount(x)), (std::vector<std::int64_t>{1, 2, 0, 1}));
  // Edges 0, 1, 2, 3: the two 1s fall in [1, 2), the 3 in the closed last bin (NumPy gives [1, 2, 1]).
  auto [n, e] = histogram(x, 3);
  EXPECT_EQ(host<std::int64_t>(n), (std::vector<std::int64_t>{1, 2, 1}));
  EXPECT_EQ(e.size(), 4);
  // NumPy force-casts unsigned input to intp: 2**63 wraps negative.
  std::vector<std::uint64_t> u{1, 2, 1ull << 63};
  EXPECT_EQ(host<std::int64_t>(bincount(from_host(u.data(), uint64, {2}))), (std::vector<std::int64_t>{0, 1, 1}));
  EXPECT_THROW(bincount(from_host(u.data(), uint64, {3})), value_error);
  std::vector<std::int64_t> neg{1, -1};
  array ones3 = ones(shape_t{3});
  EXPECT_THROW(bincount(x, ones3), value_error);  // lengths differ
  EXPECT_THROW(bincount(from_host(neg.data(), int64, {2}), ones(shape_t{2}, complex128)), value_error);
  EXPECT_THROW(bincount(x, ones(shape_t{4}, complex128)), type_error);
  array empty = bincount(from_host(v.data(), int64, {0}), ones3, 2);  // weights unchecked, counts intp
  EXPECT_EQ(empty.type(), int64);
  EXPECT_EQ(empty.size(), 2);
}
