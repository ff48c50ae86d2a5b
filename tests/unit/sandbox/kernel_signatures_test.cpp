#include "sandbox/nvrtc/kernel_signatures.h"

#include <gtest/gtest.h>

namespace pf::nvrtc {
namespace {

std::vector<DeclaredParam> params_of(const std::string& src, const std::string& kernel) {
  auto tokens = scan_source("k.cu", src);
  EXPECT_TRUE(tokens.ok());
  auto decls = find_kernel_declarations(*tokens);
  return decls[kernel];
}

TEST(KernelSignatures, NamesThatLookLikeTypesAreNames) {
  // `half` is a type name in cuda_fp16.h but a fine parameter name.
  auto p = params_of(
      "extern \"C\" __global__ void k(const float* __restrict__ x, int half, __half h, "
      "unsigned long long n, long long, float eps) {}",
      "k");
  ASSERT_EQ(p.size(), 6u);
  EXPECT_EQ(p[0].kind, cuda::ParamKind::pointer);
  EXPECT_EQ(p[1].name, "half");
  EXPECT_EQ(p[1].kind, cuda::ParamKind::integer);
  EXPECT_EQ(p[2].name, "h");
  EXPECT_EQ(p[2].kind, cuda::ParamKind::other);
  EXPECT_EQ(p[3].name, "n");
  EXPECT_TRUE(p[3].is_unsigned);
  EXPECT_EQ(p[4].name, "");  // unnamed `long long`
  EXPECT_EQ(p[4].kind, cuda::ParamKind::integer);
  EXPECT_EQ(p[5].name, "eps");
  EXPECT_EQ(p[5].kind, cuda::ParamKind::floating);
}

}  // namespace
}  // namespace pf::nvrtc
