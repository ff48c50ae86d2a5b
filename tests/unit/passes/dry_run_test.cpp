// The dry run: call operands get the geometry the GPU baseline gives them
// (views keep their strides), launches are validated against the device and
// the kernel's estimated limits, and failures keep their class.
#include "evaluator/passes/dry_run.h"

#include <gtest/gtest.h>

#include "evaluator/ops/op_registry.h"
#include "evaluator/passes/rewriter.h"
#include "tests/unit/passes/pass_test_util.h"

namespace pf::passes::test {
namespace {

const OpRegistry& reg() {
  return OpRegistry::builtin();
}

KernelTable copy_kernel(int registers = 32, long long smem = 0) {
  cuda::KernelInfo k;
  k.name = "copy";
  k.registers = registers;
  k.static_smem_bytes = smem;
  for (size_t i = 0; i < 2; ++i) {
    cuda::KernelParam p;
    p.offset = 8 * i;
    p.size = 8;
    p.kind = cuda::ParamKind::pointer;
    k.params.push_back(p);
  }
  cuda::KernelParam n;
  n.offset = 16;
  n.size = 8;
  n.kind = cuda::ParamKind::integer;
  k.params.push_back(n);
  return kernel_table({k});
}

std::vector<CallDryRun> dry(const std::string& graph_src, const TensorType& input,
                            const std::string& body, const KernelTable& kernels) {
  Graph g = typed_graph(graph_src, {input});
  auto p = pass_from("def pattern(x):\n    return torch.relu(x)\ndef replacement(x):\n" + body);
  EXPECT_TRUE(p.ok()) << p.error().message;
  if (!p.ok()) return {};
  std::vector<LoadedPass> passes = {*p};
  RewriteResult r = apply_passes(g, passes, reg());
  return dry_run(r.graph, passes, kernels, reg());
}

const char* kStrideProbe =
    "    out = torch.empty_like(x)\n"
    "    n = x.stride(0) * 1000 + x.stride(1) * 10 + (1 if x.is_contiguous() else 0)\n"
    "    launch(\"copy\", grid=1, block=32, args=(x, out, n))\n"
    "    return out\n";

TEST(DryRun, ViewsKeepTheirStrides) {
  TensorType in{DType::float32, {4, 6}};
  auto calls =
      dry("def forward(in_0):\n    t = in_0.transpose(0, 1)\n    u = torch.relu(t)\n"
          "    return (u,)\n",
          in, kStrideProbe, copy_kernel());
  ASSERT_EQ(calls.size(), 1u);
  ASSERT_TRUE(calls[0].ok()) << calls[0].error;
  ASSERT_EQ(calls[0].launches.size(), 1u);
  // transpose of a contiguous [4, 6]: strides (1, 6), not contiguous.
  EXPECT_EQ(calls[0].launches[0].args[2], "1060");
  EXPECT_EQ(calls[0].launches[0].args[0], "tensor float32[6, 4]");

  auto plain = dry("def forward(in_0):\n    u = torch.relu(in_0 + 1)\n    return (u,)\n", in,
                   kStrideProbe, copy_kernel());
  ASSERT_TRUE(plain[0].ok()) << plain[0].error;
  EXPECT_EQ(plain[0].launches[0].args[2], "6011");
}

TEST(DryRun, RegisterHeavyKernelsLimitTheBlock) {
  TensorType in{DType::float32, {8}};
  // 255 registers per thread: at most 256 threads per block.
  EXPECT_EQ(estimated_function_limits(copy_kernel(255).begin()->second).max_threads_per_block, 256);
  EXPECT_EQ(estimated_function_limits(copy_kernel(32).begin()->second).max_threads_per_block, 1024);
  auto calls = dry("def forward(in_0):\n    u = torch.relu(in_0)\n    return (u,)\n", in,
                   "    out = torch.empty_like(x)\n"
                   "    launch(\"copy\", grid=1, block=512, args=(x, out, 8))\n    return out\n",
                   copy_kernel(255));
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].failure, FailureClass::runtime_fail);
  EXPECT_NE(calls[0].error.find("passes/Fuse.py:5:5: "), std::string::npos) << calls[0].error;
  EXPECT_NE(calls[0].error.find("256"), std::string::npos) << calls[0].error;
}

TEST(DryRun, SharedMemoryAgainstTheSm90Limits) {
  cuda::DeviceLimits l = sm90_device_limits();
  EXPECT_EQ(l.max_smem_per_block, 48 * 1024);
  EXPECT_EQ(l.max_smem_per_block_optin, 227 * 1024);
  TensorType in{DType::float32, {8}};
  auto launch_with = [&](int64_t smem) {
    return dry("def forward(in_0):\n    u = torch.relu(in_0)\n    return (u,)\n", in,
               "    out = torch.empty_like(x)\n"
               "    launch(\"copy\", grid=1, block=32, smem=" +
                   std::to_string(smem) + ", args=(x, out, 8))\n    return out\n",
               copy_kernel(32, 1024));
  };
  EXPECT_TRUE(launch_with(100 * 1024)[0].ok());  // above 48 KiB: the launch opts in
  auto too_much = launch_with(227 * 1024);       // plus 1 KiB static: over the opt-in limit
  EXPECT_EQ(too_much[0].failure, FailureClass::runtime_fail);
  EXPECT_NE(too_much[0].error.find("shared memory"), std::string::npos) << too_much[0].error;
}

TEST(DryRun, EveryCallIsRunAndLaterOnesSeeEarlierOutputs) {
  TensorType in{DType::float32, {2, 3}};
  auto calls =
      dry("def forward(in_0):\n    a = torch.relu(in_0)\n    b = a.transpose(0, 1)\n"
          "    c = torch.relu(b)\n    return (c,)\n",
          in, kStrideProbe, copy_kernel());
  ASSERT_EQ(calls.size(), 2u);
  ASSERT_TRUE(calls[0].ok() && calls[1].ok()) << calls[0].error << calls[1].error;
  EXPECT_EQ(calls[0].launches[0].args[2], "3011");
  // The second call's operand is a transposed view of the first call's (contiguous) output.
  EXPECT_EQ(calls[1].launches[0].args[2], "1030");
}

}  // namespace
}  // namespace pf::passes::test
