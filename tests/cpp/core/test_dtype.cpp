// dtype tables: sizes, kinds, names, parsing and NumPy's promotion rules.
#include <gtest/gtest.h>

#include "cuarray/dtype.hpp"

using namespace cuarray;

TEST(Dtype, ItemsizesMatchNumPy) {
  EXPECT_EQ(itemsize(bool_), 1u);
  EXPECT_EQ(itemsize(int16), 2u);
  EXPECT_EQ(itemsize(uint32), 4u);
  EXPECT_EQ(itemsize(float16), 2u);
  EXPECT_EQ(itemsize(float64), 8u);
  EXPECT_EQ(itemsize(complex64), 8u);
  EXPECT_EQ(itemsize(complex128), 16u);
}

TEST(Dtype, KindsAndNames) {
  EXPECT_EQ(kind(bool_), 'b');
  EXPECT_EQ(kind(int8), 'i');
  EXPECT_EQ(kind(uint64), 'u');
  EXPECT_EQ(kind(float16), 'f');
  EXPECT_EQ(kind(complex64), 'c');
  EXPECT_EQ(name(complex128), "complex128");
  EXPECT_EQ(type_char(float32), 'f');
  EXPECT_TRUE(is_inexact(complex64));
  EXPECT_FALSE(is_inexact(int64));
}

TEST(Dtype, ParsesNamesAndCodes) {
  dtype t;
  ASSERT_TRUE(parse_dtype("float32", t));
  EXPECT_EQ(t, float32);
  ASSERT_TRUE(parse_dtype("i8", t));
  EXPECT_EQ(t, int64);
  ASSERT_TRUE(parse_dtype("?", t));
  EXPECT_EQ(t, bool_);
  ASSERT_TRUE(parse_dtype("D", t));
  EXPECT_EQ(t, complex128);
  EXPECT_FALSE(parse_dtype("object", t));
  EXPECT_FALSE(parse_dtype("U5", t));
}

TEST(Dtype, PromotionFollowsNumPyTable) {
  EXPECT_EQ(promote_types(bool_, int8), int8);
  EXPECT_EQ(promote_types(int8, uint8), int16);
  EXPECT_EQ(promote_types(int16, uint16), int32);
  EXPECT_EQ(promote_types(int32, uint32), int64);
  EXPECT_EQ(promote_types(int64, uint64), float64);
  EXPECT_EQ(promote_types(uint8, int32), int32);
  EXPECT_EQ(promote_types(int8, float16), float16);
  EXPECT_EQ(promote_types(int16, float16), float32);
  EXPECT_EQ(promote_types(int32, float32), float64);
  EXPECT_EQ(promote_types(uint8, float32), float32);
  EXPECT_EQ(promote_types(float16, float32), float32);
  EXPECT_EQ(promote_types(float64, complex64), complex128);
  EXPECT_EQ(promote_types(float32, complex64), complex64);
  EXPECT_EQ(promote_types(int16, complex64), complex64);
  EXPECT_EQ(promote_types(int64, complex64), complex128);
  EXPECT_EQ(promote_types(float16, complex64), complex64);
}

TEST(Dtype, PromotionIsSymmetricAndIdempotent) {
  for (int i = 0; i < num_dtypes; ++i) {
    for (int j = 0; j < num_dtypes; ++j) {
      auto a = static_cast<dtype>(i), b = static_cast<dtype>(j);
      EXPECT_EQ(promote_types(a, b), promote_types(b, a)) << name(a) << " " << name(b);
      EXPECT_EQ(promote_types(a, promote_types(a, b)), promote_types(a, b));
    }
  }
}

TEST(Dtype, SafeCasts) {
  EXPECT_TRUE(can_cast_safely(int8, int16));
  EXPECT_TRUE(can_cast_safely(uint8, int16));
  EXPECT_FALSE(can_cast_safely(int16, uint16));
  EXPECT_FALSE(can_cast_safely(float64, float32));
  EXPECT_TRUE(can_cast_safely(float32, complex64));
  EXPECT_TRUE(can_cast_safely(bool_, float16));
}
