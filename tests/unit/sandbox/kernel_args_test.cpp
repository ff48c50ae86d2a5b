// Argument marshalling from a parameter layout and launch validation against
// device limits: pure functions, no GPU needed.
#include "sandbox/cuda/kernel_args.h"

#include <gtest/gtest.h>

#include <cstring>

#include "sandbox/cuda/launch.h"

namespace pf::cuda {
namespace {

KernelParam param(size_t offset, size_t size, ParamKind kind = ParamKind::unknown,
                  const std::string& name = "", bool is_unsigned = false) {
  KernelParam p;
  p.offset = offset;
  p.size = size;
  p.kind = kind;
  p.name = name;
  p.is_unsigned = is_unsigned;
  return p;
}

template <typename T>
T read_at(const ArgPack& pack, size_t offset) {
  T v{};
  std::memcpy(&v, pack.bytes() + offset, sizeof(T));
  return v;
}

TEST(KernelArgs, PacksAtOffsetsBySize) {
  // (const float* x, float* y, float alpha, int n, double beta, char c, long long m)
  std::vector<KernelParam> layout = {param(0, 8),  param(8, 8),  param(16, 4), param(20, 4),
                                     param(24, 8), param(32, 1), param(40, 8)};
  std::vector<KernelArg> args = {KernelArg::tensor(0x7000'0000'1000),
                                 KernelArg::tensor(0x7000'0000'2000),
                                 KernelArg::of_float(0.5),
                                 KernelArg::of_int(-3),
                                 KernelArg::of_float(2.25),
                                 KernelArg::of_int(200),
                                 KernelArg::of_int(int64_t{1} << 40)};
  auto pack = marshal_kernel_args("k", layout, args);
  ASSERT_TRUE(pack.ok()) << pack.error().message;
  EXPECT_EQ(pack->size(), 48u);
  EXPECT_EQ(read_at<uint64_t>(*pack, 0), 0x7000'0000'1000u);
  EXPECT_EQ(read_at<uint64_t>(*pack, 8), 0x7000'0000'2000u);
  EXPECT_EQ(read_at<float>(*pack, 16), 0.5f);
  EXPECT_EQ(read_at<int32_t>(*pack, 20), -3);
  EXPECT_EQ(read_at<double>(*pack, 24), 2.25);
  EXPECT_EQ(read_at<uint8_t>(*pack, 32), 200);
  EXPECT_EQ(read_at<int64_t>(*pack, 40), int64_t{1} << 40);
  void** params = pack->kernel_params();
  ASSERT_NE(params, nullptr);
  for (size_t i = 0; i < layout.size(); ++i) {
    EXPECT_EQ(static_cast<const unsigned char*>(params[i]), pack->bytes() + layout[i].offset);
  }
  // Moving keeps the kernel parameter pointers valid.
  ArgPack moved = std::move(*pack);
  EXPECT_EQ(read_at<float>(moved, 16), 0.5f);
  EXPECT_EQ(static_cast<const unsigned char*>(moved.kernel_params()[2]), moved.bytes() + 16);
}

TEST(KernelArgs, CountMismatchNamesTheKernel) {
  std::vector<KernelParam> layout = {param(0, 8), param(8, 8), param(16, 4), param(20, 4)};
  auto pack = marshal_kernel_args(
      "k", layout, {KernelArg::tensor(1), KernelArg::tensor(2), KernelArg::of_int(3)});
  ASSERT_FALSE(pack.ok());
  EXPECT_EQ(pack.error().code, ErrorCode::invalid_argument);
  EXPECT_NE(pack.error().message.find("kernel 'k' takes 4 parameters, launch passes 3"),
            std::string::npos)
      << pack.error().message;
}

TEST(KernelArgs, SizeAndKindMismatches) {
  auto msg = [](std::vector<KernelParam> layout, std::vector<KernelArg> args) {
    auto pack = marshal_kernel_args("k", layout, args);
    EXPECT_FALSE(pack.ok());
    return pack.ok() ? std::string() : pack.error().message;
  };
  EXPECT_NE(msg({param(0, 8), param(8, 8), param(16, 4)},
                {KernelArg::tensor(1), KernelArg::tensor(2), KernelArg::tensor(3)})
                .find("parameter 2 is 4 bytes, got a tensor (8-byte pointer)"),
            std::string::npos);
  EXPECT_NE(msg({param(0, 8, ParamKind::pointer, "x")}, {KernelArg::of_int(5)})
                .find("parameter 0 ('x') is a pointer (pass a tensor), got integer 5"),
            std::string::npos);
  EXPECT_NE(msg({param(0, 4, ParamKind::integer, "n")}, {KernelArg::of_float(2.5)})
                .find("parameter 0 ('n') is an integer, got float 2.5"),
            std::string::npos);
  EXPECT_NE(msg({param(0, 2)}, {KernelArg::of_float(1.0)})
                .find("a float goes to a 4-byte float or 8-byte double"),
            std::string::npos);
  EXPECT_NE(msg({param(0, 16)}, {KernelArg::of_int(1)}).find("only 1-, 2-, 4- and 8-byte integers"),
            std::string::npos);
  EXPECT_NE(msg({param(0, 2, ParamKind::other, "h")}, {KernelArg::of_float(1.0)})
                .find("cannot take float 1"),
            std::string::npos);
}

TEST(KernelArgs, IntegerRangesFollowTheDeclaredSignedness) {
  auto fits = [](KernelParam p, int64_t v) {
    return marshal_kernel_args("k", {p}, {KernelArg::of_int(v)}).ok();
  };
  EXPECT_TRUE(fits(param(0, 4), 4294967295));  // unknown signedness: unsigned reading
  EXPECT_TRUE(fits(param(0, 4), -2147483648));
  EXPECT_FALSE(fits(param(0, 4), 4294967296));
  EXPECT_FALSE(fits(param(0, 4, ParamKind::integer), 2147483648));  // int
  EXPECT_TRUE(fits(param(0, 4, ParamKind::integer, "", true), 2147483648));
  EXPECT_FALSE(fits(param(0, 4, ParamKind::integer, "", true), -1));
  EXPECT_FALSE(fits(param(0, 8, ParamKind::integer, "", true), -1));
  EXPECT_TRUE(fits(param(0, 1), 255));
  EXPECT_FALSE(fits(param(0, 1), 256));
  EXPECT_FALSE(fits(param(0, 2, ParamKind::integer), 40000));
}

TEST(KernelArgs, IntegerToDeclaredFloatIsConverted) {
  auto pack =
      marshal_kernel_args("k", {param(0, 4, ParamKind::floating), param(8, 8, ParamKind::floating)},
                          {KernelArg::of_int(3), KernelArg::of_int(-7)});
  ASSERT_TRUE(pack.ok()) << pack.error().message;
  EXPECT_EQ(read_at<float>(*pack, 0), 3.0f);
  EXPECT_EQ(read_at<double>(*pack, 8), -7.0);
}

TEST(KernelArgs, InconsistentLayoutIsInternal) {
  auto pack = marshal_kernel_args("k", {param(0, 8), param(4, 4)},
                                  {KernelArg::tensor(1), KernelArg::of_int(1)});
  ASSERT_FALSE(pack.ok());
  EXPECT_EQ(pack.error().code, ErrorCode::internal);
}

TEST(LaunchValidation, AcceptsWithinLimits) {
  DeviceLimits dev;
  dev.max_smem_per_block = 48 * 1024;
  dev.max_smem_per_block_optin = 227 * 1024;
  FunctionLimits fn{1024, 1024};
  LaunchConfig c;
  c.grid = {1000, 2, 1};
  c.block = {256, 4, 1};
  c.dynamic_smem_bytes = 100 * 1024;  // above the default: the launch opts in
  EXPECT_TRUE(validate_launch("k", c, dev, fn).ok());
}

TEST(LaunchValidation, RejectsBeyondLimitsWithReasons) {
  DeviceLimits dev;
  dev.max_smem_per_block_optin = 227 * 1024;
  FunctionLimits fn{512, 4096};
  auto why = [&](LaunchConfig c) {
    Status st = validate_launch("k", c, dev, fn);
    EXPECT_FALSE(st.ok());
    return st.ok() ? std::string() : st.error().message;
  };
  LaunchConfig c;
  c.block = {1024, 1, 1};
  EXPECT_NE(why(c).find("the block has 1024 threads; this kernel allows at most 512"),
            std::string::npos);
  c.block = {32, 32, 2};
  EXPECT_NE(why(c).find("the block has 2048 threads; the device allows at most 1024"),
            std::string::npos);
  c.block = {1, 1, 65};
  EXPECT_NE(why(c).find("block.z = 65 exceeds the device limit 64"), std::string::npos);
  c.block = {128, 1, 1};
  c.grid = {0, 1, 1};
  EXPECT_NE(why(c).find("grid.x must be >= 1"), std::string::npos);
  c.grid = {1, 65536, 1};
  EXPECT_NE(why(c).find("grid.y = 65536 exceeds the device limit 65535"), std::string::npos);
  c.grid = {1, 1, 1};
  c.dynamic_smem_bytes = 227 * 1024;
  EXPECT_NE(
      why(c).find("4096 static = 236544 bytes exceeds the device limit of 232448 bytes per block"),
      std::string::npos);
  c.dynamic_smem_bytes = -1;
  EXPECT_NE(why(c).find("smem must be >= 0"), std::string::npos);
}

}  // namespace
}  // namespace pf::cuda
