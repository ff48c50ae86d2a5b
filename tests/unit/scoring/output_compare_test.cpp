#include "evaluator/scoring/output_compare.h"

#include <gtest/gtest.h>

#include <cmath>

namespace pf {
namespace {

TEST(OutputCompare, IdenticalPassesEveryLevel) {
  Tensor a = Tensor::from_doubles(DType::float32, {3}, {1, -2, INFINITY});
  auto r = compare_output(a, a.contiguous_copy());
  EXPECT_EQ(r.first_passing_level, kMinToleranceLevel);
  EXPECT_EQ(r.first_mismatch, -1);
  EXPECT_EQ(r.max_abs_diff, 0);
}

TEST(OutputCompare, FindsTheLowestPassingLevel) {
  // |c - e| = 1e-4 at e = 1: fp32 t=-4 allows 1e-4 + 1.38e-5 (pass); t=-5 allows
  // 1e-5 + 1.3e-6 (fail).
  Tensor e = Tensor::from_doubles(DType::float64, {2}, {1.0, 0.0});
  Tensor c = Tensor::from_doubles(DType::float64, {2}, {1.0001, 0.0});
  // float64 levels: t=-3 -> 10^-4.2 = 6.31e-5 each (atol+rtol*1 = 1.26e-4 >= 1e-4).
  auto r = compare_output(c, e);
  EXPECT_EQ(r.first_passing_level, -3);
  EXPECT_FALSE(r.correct_at(-4));
  EXPECT_TRUE(r.correct_at(-3));
  EXPECT_EQ(r.first_mismatch, 0);
  EXPECT_NEAR(r.max_abs_diff, 1e-4, 1e-12);
  EXPECT_NEAR(r.max_rel_diff, 1e-4, 1e-12);
}

TEST(OutputCompare, NanNeverEqual) {
  Tensor e = Tensor::from_doubles(DType::float32, {2}, {NAN, 1});
  auto r = compare_output(e.contiguous_copy(), e);
  EXPECT_EQ(r.nan_mismatches, 1);
  EXPECT_FALSE(r.correct_at(kMaxToleranceLevel));
  EXPECT_EQ(r.first_mismatch, 0);
}

TEST(OutputCompare, ShapeAndDtypeMismatch) {
  Tensor e = Tensor::from_doubles(DType::float32, {2}, {1, 2});
  Tensor c = Tensor::from_doubles(DType::float32, {1, 2}, {1, 2});
  EXPECT_FALSE(compare_output(c, e).shape_ok);
  EXPECT_FALSE(compare_output(c, e).correct_at(4));
  Tensor h = Tensor::from_doubles(DType::float16, {2}, {1, 2});
  EXPECT_FALSE(compare_output(h, e).dtype_ok);
}

TEST(OutputCompare, IntegersAreExactAtEveryLevel) {
  Tensor e = Tensor::from_doubles(DType::int64, {2}, {1, 2});
  Tensor c = Tensor::from_doubles(DType::int64, {2}, {1, 3});
  EXPECT_FALSE(compare_output(c, e).correct_at(4));
  EXPECT_EQ(format_index(5, {2, 3}), "[1, 2]");
}

}  // namespace
}  // namespace pf
