// Both convolution paths on the GPU: with cuDNN (what the baseline uses when
// it loads; the plan must then hold the cuDNN call, and depthwise
// convolutions PyTorch's depthwise kernel) and with cuDNN disabled (the
// direct kernels every convolution falls back to). Each against the CPU
// reference at t = -5 (-2 for float16/bfloat16: compare_outputs), for every
// floating dtype.
#include <gtest/gtest.h>

#include "evaluator/dialect/graph_builder.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/type_inference.h"
#include "tests/support/gpu.h"
#include "tests/support/paths.h"
#include "tests/unit/gpu/gpu_test_util.h"

namespace pf::gpu::test {
namespace {

struct ConvCase {
  std::string body;  // returns the conv of x, w (and b)
  std::vector<Shape> inputs;
  bool depthwise = false;
};

const std::vector<ConvCase>& conv_cases() {
  static const std::vector<ConvCase> cases = {
      {"torch.conv2d(x, w, b, 1, 1)", {{2, 8, 12, 10}, {16, 8, 3, 3}, {16}}},
      {"torch.conv2d(x, w, None, 2, 0)", {{1, 16, 9, 9}, {4, 16, 1, 1}}},
      {"torch.conv1d(x, w, b, 2)", {{2, 6, 33}, {5, 6, 3}, {5}}},
      {"torch.nn.functional.conv_transpose2d(x, w, b, 2, 1, 1)", {{1, 6, 5, 7}, {6, 4, 3, 3}, {4}}},
      {"torch.conv2d(x, w, b, 1, 1, 1, 12)", {{2, 12, 10, 10}, {12, 1, 3, 3}, {12}}, true},
      // 3-d: cuDNN's N-d descriptors over 5-d tensors; depthwise (even fp16
      // with >= 32 channels) PyTorch's conv_depthwise3d, our direct kernel.
      {"torch.conv3d(x, w, b, (1, 2, 1), 1)", {{2, 4, 6, 9, 8}, {8, 4, 3, 3, 3}, {8}}},
      {"torch.conv_transpose3d(x, w, None, 2, 1, 1)", {{1, 6, 3, 4, 5}, {6, 4, 3, 3, 3}}},
      {"torch.conv3d(x, w, b, 1, 1, 1, 32)", {{1, 32, 4, 6, 6}, {32, 1, 3, 3, 3}, {32}}, true},
  };
  return cases;
}

// A runtime on the test context with cuDNN disabled (the fallback path);
// never destroyed, like runtime() (gpu_test_util.cpp says why).
GpuRuntime* runtime_without_cudnn() {
  static GpuRuntime* rt = nullptr;
  if (!rt) {
    cuda::CudaContext* ctx = pf::test::gpu_context();
    if (ctx == nullptr) return nullptr;
    GpuRuntimeOptions options;
    options.kernel_cache_dir = pf::test::binary_dir() / "nvrtc-cache";
    options.use_cudnn = false;
    auto r = GpuRuntime::create(ctx->driver_ptr(), ctx->properties(), options);
    if (!r.ok()) {
      ADD_FAILURE() << r.error().message;
      return nullptr;
    }
    rt = r->release();
  }
  return rt;
}

Result<GraphRun> run_case(GpuRuntime& rt, const ConvCase& c, DType t) {
  const std::string params = c.inputs.size() == 3 ? "x, w, b" : "x, w";
  const std::string src = "import torch\n\ndef f(" + params + "):\n    return " + c.body + "\n";
  PF_ASSIGN(Graph g, dialect::load_graph(src, "conv.py", OpRegistry::builtin(), "f"));
  std::vector<TensorType> types;
  for (const auto& s : c.inputs) types.push_back({t, s});
  PF_TRY(infer_types(g, types, OpRegistry::builtin()));
  std::mt19937_64 rng(7);
  std::vector<HostInput> inputs;
  for (const auto& s : c.inputs)
    inputs.push_back(random_input(t, s, Layout::contiguous, -1, 1, rng));
  return run_both(rt, g, inputs);
}

TEST(ConvPaths, CudnnWhenItLoadsDepthwiseKernelOtherwise) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  auto cudnn = rt->cudnn();
  if (!cudnn.ok()) GTEST_SKIP() << "cuDNN not loadable here: " << cudnn.error().message;
  std::printf("[conv] cuDNN %zu from %s\n", (*cudnn)->lib->version(),
              (*cudnn)->lib->path().c_str());
  for (const auto& c : conv_cases()) {
    for (DType t : {DType::float16, DType::bfloat16, DType::float32, DType::float64}) {
      auto run = run_case(*rt, c, t);
      ASSERT_TRUE(run.ok()) << c.body << " " << dtype_name(t) << ": " << run.error().message;
      EXPECT_EQ(compare_outputs(*run), "") << c.body << " " << dtype_name(t);
      const bool used_cudnn = run->plan.find("cudnnConvolution") != std::string::npos;
      EXPECT_EQ(used_cudnn, !c.depthwise) << c.body << " " << dtype_name(t) << ": " << run->plan;
    }
  }
}

TEST(ConvPaths, DirectKernelsWithoutCudnn) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime_without_cudnn();
  ASSERT_NE(rt, nullptr);
  for (const auto& c : conv_cases()) {
    for (DType t : {DType::float16, DType::bfloat16, DType::float32, DType::float64}) {
      auto run = run_case(*rt, c, t);
      ASSERT_TRUE(run.ok()) << c.body << " " << dtype_name(t) << ": " << run.error().message;
      EXPECT_EQ(compare_outputs(*run), "") << c.body << " " << dtype_name(t);
      EXPECT_EQ(run->plan.find("cudnn"), std::string::npos) << run->plan;
      EXPECT_NE(run->plan.find("pf_conv"), std::string::npos) << run->plan;
    }
  }
}

}  // namespace
}  // namespace pf::gpu::test
