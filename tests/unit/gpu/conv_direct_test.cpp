// The direct convolution kernel choice: square 3/5/7 kernels get their
// unrolled instantiation, everything else (1-d kernels run as 1 x k,
// rectangles, other sizes, transposed convolutions) the generic kernels.
#include "evaluator/gpu/conv_direct.h"

#include <gtest/gtest.h>

namespace pf::gpu {
namespace {

TEST(DirectConvKernel, SquareKernelsOfThreeFiveSevenAreUnrolled) {
  EXPECT_EQ(direct_conv_kernel(3, 3, false), "pf_conv_direct_k3");
  EXPECT_EQ(direct_conv_kernel(5, 5, false), "pf_conv_direct_k5");
  EXPECT_EQ(direct_conv_kernel(7, 7, false), "pf_conv_direct_k7");
}

TEST(DirectConvKernel, OtherShapesRunTheGenericKernel) {
  EXPECT_EQ(direct_conv_kernel(1, 3, false), "pf_conv_direct") << "conv1d as 2-d";
  EXPECT_EQ(direct_conv_kernel(3, 5, false), "pf_conv_direct");
  EXPECT_EQ(direct_conv_kernel(1, 1, false), "pf_conv_direct");
  EXPECT_EQ(direct_conv_kernel(9, 9, false), "pf_conv_direct");
  EXPECT_EQ(direct_conv_kernel(3, 3, true), "pf_conv_transpose_direct");
}

TEST(DepthwiseRowKernel, WidthsThreeFiveSevenAtStrideAndDilationOneOrTwo) {
  EXPECT_EQ(depthwise_row_kernel(3, 1, 1), "pf_conv_dw_k3_s1");
  EXPECT_EQ(depthwise_row_kernel(5, 2, 1), "pf_conv_dw_k5_s2");
  EXPECT_EQ(depthwise_row_kernel(7, 1, 1), "pf_conv_dw_k7_s1");
  EXPECT_EQ(depthwise_row_kernel(7, 2, 1), "pf_conv_dw_k7_s2");
  EXPECT_EQ(depthwise_row_kernel(3, 1, 2), "pf_conv_dw_k3_s1_d2");
  EXPECT_EQ(depthwise_row_kernel(5, 2, 2), "pf_conv_dw_k5_s2_d2");
}

TEST(DepthwiseRowKernel, OtherWidthGeometriesHaveNone) {
  EXPECT_EQ(depthwise_row_kernel(3, 1, 3), "") << "width dilation 3";
  EXPECT_EQ(depthwise_row_kernel(3, 3, 1), "") << "width stride 3";
  EXPECT_EQ(depthwise_row_kernel(4, 1, 1), "");
  EXPECT_EQ(depthwise_row_kernel(1, 1, 1), "");
  EXPECT_EQ(depthwise_row_kernel(9, 1, 1), "");
}

}  // namespace
}  // namespace pf::gpu
