#include "evaluator/scoring/tolerance.h"

#include <gtest/gtest.h>

namespace pf {
namespace {

TEST(Tolerance, DtypeBaselineMatchesDesign) {
  // docs/design.md: t = -5 is the dtype baseline, fp32 rtol 1.3e-6 atol 1e-5.
  Tolerance f32 = tolerance_for(DType::float32, -5);
  EXPECT_DOUBLE_EQ(f32.rtol, 1.3e-6);
  EXPECT_DOUBLE_EQ(f32.atol, 1e-5);
  EXPECT_FALSE(f32.exact);
}

TEST(Tolerance, ThreeSignificantFiguresPerDtype) {
  EXPECT_DOUBLE_EQ(tolerance_for(DType::float16, -1).rtol, 0.251);
  EXPECT_DOUBLE_EQ(tolerance_for(DType::float16, -1).atol, 0.1);
  EXPECT_DOUBLE_EQ(tolerance_for(DType::bfloat16, -5).rtol, 0.016);
  EXPECT_DOUBLE_EQ(tolerance_for(DType::bfloat16, -1).rtol, 0.437);
  EXPECT_DOUBLE_EQ(tolerance_for(DType::float32, -1).rtol, 0.0665);
  EXPECT_DOUBLE_EQ(tolerance_for(DType::float32, 1).rtol, 15.0);
  EXPECT_DOUBLE_EQ(tolerance_for(DType::float64, -5).rtol, 1e-7);
  EXPECT_DOUBLE_EQ(tolerance_for(DType::float64, -5).atol, 1e-7);
  EXPECT_DOUBLE_EQ(tolerance_for(DType::float64, 1).atol, 25.1);
}

TEST(Tolerance, IntegersAndBoolAreExact) {
  EXPECT_TRUE(tolerance_for(DType::int64, 4).exact);
  EXPECT_TRUE(tolerance_for(DType::boolean, -10).exact);
}

}  // namespace
}  // namespace pf
