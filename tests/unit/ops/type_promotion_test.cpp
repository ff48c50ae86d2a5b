// PyTorch's result_type rule (type_promotion.h), checked against cases
// verified with PyTorch 1.13 (torch.result_type / the dtype eager returns).
#include "evaluator/ops/type_promotion.h"

#include <gtest/gtest.h>

namespace pf {
namespace {

OperandType tensor(DType t) {
  return {t, false, false};
}
OperandType zero_dim(DType t) {
  return {t, true, false};
}
OperandType number(DType t) {
  return {t, true, true};
}  // int64, float64 or bool literal

TEST(TypePromotion, WrappedNumbersOnlyMatterAcrossCategories) {
  EXPECT_EQ(result_type({tensor(DType::int32), number(DType::float64)}), DType::float32);
  EXPECT_EQ(result_type({tensor(DType::float16), number(DType::float64)}), DType::float16);
  EXPECT_EQ(result_type({tensor(DType::bfloat16), number(DType::int64)}), DType::bfloat16);
  EXPECT_EQ(result_type({tensor(DType::int32), number(DType::int64)}), DType::int32);
  EXPECT_EQ(result_type({tensor(DType::uint8), number(DType::int64)}), DType::uint8);
  EXPECT_EQ(result_type({tensor(DType::boolean), number(DType::int64)}), DType::int64);
  EXPECT_EQ(result_type({tensor(DType::boolean), number(DType::float64)}), DType::float32);
  EXPECT_EQ(result_type({tensor(DType::boolean), number(DType::boolean)}), DType::boolean);
}

TEST(TypePromotion, ZeroDimTensorsRankBetweenTensorsAndNumbers) {
  EXPECT_EQ(result_type({tensor(DType::float16), zero_dim(DType::float32)}), DType::float16);
  EXPECT_EQ(result_type({tensor(DType::int32), zero_dim(DType::float64)}), DType::float64);
  EXPECT_EQ(result_type({tensor(DType::int32), zero_dim(DType::int64)}), DType::int32);
  EXPECT_EQ(result_type({zero_dim(DType::float16), number(DType::float64)}), DType::float16);
  EXPECT_EQ(result_type({zero_dim(DType::int64), number(DType::float64)}), DType::float32);
  EXPECT_EQ(result_type({zero_dim(DType::float16), zero_dim(DType::float32)}), DType::float32);
}

TEST(TypePromotion, TensorsPromoteWithEachOther) {
  EXPECT_EQ(result_type({tensor(DType::float16), tensor(DType::bfloat16)}), DType::float32);
  EXPECT_EQ(result_type({tensor(DType::int8), tensor(DType::uint8)}), DType::int16);
  EXPECT_EQ(result_type({tensor(DType::int64), tensor(DType::float16)}), DType::float16);
  EXPECT_EQ(result_type({tensor(DType::float32), tensor(DType::float64)}), DType::float64);
  EXPECT_EQ(result_type({number(DType::float64), number(DType::int64)}), DType::float32);
  EXPECT_EQ(result_type({number(DType::int64), number(DType::int64)}), DType::int64);
}

TEST(TypePromotion, OpmathAndRounding) {
  EXPECT_EQ(opmath_type(DType::float16), DType::float32);
  EXPECT_EQ(opmath_type(DType::bfloat16), DType::float32);
  EXPECT_EQ(opmath_type(DType::float64), DType::float64);
  EXPECT_EQ(round_to_dtype(0.1, DType::float16), 0.0999755859375);
  EXPECT_EQ(round_to_dtype(-2.7, DType::int32), -2);
  EXPECT_EQ(round_to_dtype(300.0, DType::uint8), 44);  // wraps like a C cast through int64
  EXPECT_EQ(wrap_to_dtype(int64_t{1} << 31, DType::int32), INT32_MIN);
  EXPECT_EQ(wrap_to_dtype(-1, DType::boolean), 1);
  EXPECT_EQ(floating_or_default(DType::int64), DType::float32);
  EXPECT_EQ(floating_or_default(DType::bfloat16), DType::bfloat16);
}

}  // namespace
}  // namespace pf
