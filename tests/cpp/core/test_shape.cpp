// Shapes and strides: contiguity flags, broadcasting, axis normalisation, dim_vector storage.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cuarray/axis.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/shape.hpp"

using namespace cuarray;

TEST(Shape, ContiguousStridesInBothOrders) {
  EXPECT_EQ(contiguous_strides({2, 3, 4}, 4), (strides_t{48, 16, 4}));
  EXPECT_EQ(contiguous_strides({2, 3, 4}, 4, order::F), (strides_t{4, 8, 24}));
  EXPECT_EQ(contiguous_strides({}, 8), strides_t{});
  EXPECT_EQ(contiguous_strides({0, 3}, 8), (strides_t{24, 8}));
}

TEST(Shape, ContiguityIgnoresUnitDimensionsAndEmptyArrays) {
  EXPECT_TRUE(is_c_contiguous({2, 1, 3}, {24, 999, 8}, 8));
  EXPECT_TRUE(is_f_contiguous({1, 5}, {77, 4}, 4));
  EXPECT_TRUE(is_c_contiguous({0, 3}, {-5, 3}, 8));
  EXPECT_FALSE(is_c_contiguous({3}, {-8}, 8));
  EXPECT_FALSE(is_c_contiguous({2, 3}, {8, 16}, 8));
  EXPECT_TRUE(is_f_contiguous({2, 3}, {8, 16}, 8));
  EXPECT_TRUE(is_c_contiguous({}, {}, 8));
}

TEST(Shape, StridesLikeKeepsAxisOrder) {
  // An F-ordered prototype gives F-ordered strides.
  EXPECT_EQ(strides_like({2, 3}, {8, 16}, 4), (strides_t{4, 8}));
  // A transposed 3-d prototype.
  EXPECT_EQ(strides_like({4, 3, 2}, {8, 16, 48}, 8), (strides_t{8, 32, 96}));
}

TEST(Shape, BroadcastsLikeNumPy) {
  EXPECT_EQ(broadcast_shapes({3, 1}, {4}), (shape_t{3, 4}));
  EXPECT_EQ(broadcast_shapes({}, {2, 2}), (shape_t{2, 2}));
  EXPECT_EQ(broadcast_shapes({0, 1}, {1, 5}), (shape_t{0, 5}));
  EXPECT_THROW(broadcast_shapes({3}, {4}), value_error);
}

TEST(Shape, NormalizesAxesOrThrowsAxisError) {
  EXPECT_EQ(normalize_axis(-1, 3), 2);
  EXPECT_EQ(normalize_axis(0, 1), 0);
  EXPECT_THROW(normalize_axis(3, 3), axis_error);
  EXPECT_THROW(normalize_axis(-4, 3), axis_error);
}

TEST(Shape, CheckedSizeRejectsNegativeAndOverflow) {
  EXPECT_EQ(checked_size({2, 3, 4}), 24);
  EXPECT_EQ(checked_size({0, 1LL << 62}), 0);
  EXPECT_THROW(checked_size({-1}), value_error);
  EXPECT_THROW(checked_size({1LL << 62, 1LL << 62}), value_error);
  EXPECT_THROW(checked_size({1LL << 61}, 8), value_error);
}

TEST(Shape, DimVectorSpillsToHeapAndCopies) {
  dim_vector v;
  for (int i = 0; i < 40; ++i) v.push_back(i);
  dim_vector w = v;
  EXPECT_EQ(w.size(), 40);
  EXPECT_EQ(w[39], 39);
  dim_vector m = std::move(w);
  EXPECT_EQ(m, v);
  m.insert(0, -1);
  EXPECT_EQ(m[0], -1);
  EXPECT_EQ(m[1], 0);
  m.erase(0);
  EXPECT_EQ(m, v);
  EXPECT_EQ(shape_to_string({4}), "(4,)");
  EXPECT_EQ(shape_to_string({2, 3}), "(2, 3)");
}

// Note [fixed-size inline copies]: copies and moves between inline and heap vectors in every direction keep
// the entries in use, and a moved-from vector is empty and reusable.
TEST(Shape, DimVectorCopiesAndMovesBetweenInlineAndHeap) {
  dim_vector small{1, 2, 3};
  dim_vector big;
  for (int i = 0; i < 9; ++i) big.push_back(10 + i);
  dim_vector a = big;  // heap
  a = small;           // inline entries into a heap vector
  EXPECT_EQ(a, small);
  EXPECT_EQ(a.size(), 3);
  dim_vector b = small;  // inline
  b = big;               // heap entries into an inline vector
  EXPECT_EQ(b, big);
  dim_vector c = std::move(b);  // heap moved: b gives up its buffer
  EXPECT_EQ(c, big);
  EXPECT_TRUE(b.empty());
  dim_vector d = std::move(a);  // inline moved
  EXPECT_EQ(d, small);
  EXPECT_TRUE(a.empty());
  a.push_back(7);  // a moved-from vector is reusable
  EXPECT_EQ(a, (dim_vector{7}));
  c = std::move(d);  // heap vector takes an inline one
  EXPECT_EQ(c, small);
  dim_vector full{1, 2, 3, 4, 5, 6};  // exactly the inline capacity
  dim_vector e(std::move(full));
  EXPECT_EQ(e, (dim_vector{1, 2, 3, 4, 5, 6}));
  dim_vector empty0;
  dim_vector f = empty0;
  EXPECT_TRUE(f.empty());
}

TEST(Shape, ByteExtentCoversNegativeStrides) {
  std::int64_t lo, hi;
  byte_extent({3}, {-8}, 8, lo, hi);
  EXPECT_EQ(lo, -16);
  EXPECT_EQ(hi, 8);
  byte_extent({2, 0}, {8, 8}, 8, lo, hi);
  EXPECT_EQ(hi, 0);
}

// The one axis normaliser (cuarray/axis.hpp): NumPy's messages and check orders.
static std::string error_text(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(Axis, ReductionAxesAreAllWhenAbsentAndAscending) {
  EXPECT_EQ(reduction_axes(std::nullopt, 3), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(reduction_axes(std::nullopt, 0), std::vector<int>{});
  EXPECT_EQ(reduction_axes(std::vector<int>{-1, 0}, 3), (std::vector<int>{0, 2}));
}

TEST(Axis, ReductionAxesRangeCheckEveryEntryBeforeRepeats) {
  // NumPy: np.sum(a, axis=(0, 0, 5)) on 3-d is an AxisError, not the duplicate's ValueError.
  EXPECT_THROW(reduction_axes(std::vector<int>{0, 0, 5}, 3), axis_error);
  EXPECT_EQ(error_text([] { reduction_axes(std::vector<int>{0, -3}, 3); }), "duplicate value in 'axis'");
  EXPECT_EQ(error_text([] { reduction_axes(std::vector<int>{4}, 3); }),
            "axis 4 is out of bounds for array of dimension 3");
}

TEST(Axis, NormalizeAxisTupleKeepsOrderAndRefusesRepeats) {
  EXPECT_EQ(normalize_axis_tuple({2, -3}, 3), (std::vector<int>{2, 0}));
  EXPECT_EQ(error_text([] { normalize_axis_tuple({1, -2}, 3); }), "repeated axis");
  EXPECT_EQ(normalize_axis_tuple({1, -2}, 3, true), (std::vector<int>{1, 1}));
  EXPECT_THROW(normalize_axis_tuple({0, 0, 7}, 3), axis_error);
}

TEST(Axis, InOrderRulesStopAtTheFirstBadEntry) {
  axis_rules r;
  r.repeat_message = "repeated axis in transpose";
  r.check_in_order = true;
  // NumPy: a.transpose(0, 0, 5) reports the repeat, a.transpose(0, 5, 0) the range.
  EXPECT_EQ(error_text([&] { normalize_axes({0, 0, 5}, 3, r); }), "repeated axis in transpose");
  EXPECT_THROW(normalize_axes({0, 5, 0}, 3, r), axis_error);
}
