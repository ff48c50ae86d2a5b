// Which kernels the baseline launches for cat of views, depthwise
// convolutions and tiny elementwise chains, where the launch count and
// kernel choice are the speed (PyTorch launches one batched cat per 64
// inputs, strided inputs too, and one depthwise kernel): the plan's steps,
// exactly, and the result against the CPU reference.
#include <gtest/gtest.h>

#include "evaluator/dialect/graph_builder.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/type_inference.h"
#include "tests/support/gpu.h"
#include "tests/unit/gpu/gpu_test_util.h"

namespace pf::gpu::test {
namespace {

struct PathCase {
  std::string params;
  std::string body;  // a function body with its own return line
  std::vector<Shape> inputs;
  DType dtype;
  std::string plan;  // Plan::describe() of the baseline
};

const std::vector<PathCase>& path_cases() {
  static const std::vector<PathCase> cases = {
      // Non-contiguous inputs: one strided batched cat, per 64 inputs.
      {"x",
       "t = x.transpose(1, 2)\n    return (torch.cat((t, t), -1),)",
       {{1, 8, 19}},
       DType::float32,
       "pf_cat_strided"},
      {"x, y",
       "return (torch.cat((y, x.permute(0, 2, 3, 1)), dim=-1),)",
       {{1, 24, 14, 14}, {1, 14, 14, 24}},
       DType::bfloat16,
       "pf_cat_strided"},
      {"x", "return (torch.stack((x.t(), x.t()), 0),)", {{6, 9}}, DType::int64, "pf_cat_strided"},
      {"x",
       "return (torch.cat(torch.unbind(x, 1), 0),)",
       {{3, 70, 2}},
       DType::boolean,
       "pf_cat_strided, pf_cat_strided"},
      // All contiguous: the contiguous kernel, as before.
      {"x, y", "return (torch.cat((x, y), 1),)", {{4, 8}, {4, 8}}, DType::float32, "pf_cat_vec"},
      // Depthwise: the row-blocked kernel when the width geometry has one.
      {"x, w, b",
       "return (torch.conv2d(x, w, b, (1, 1), (3, 3), (1, 1), 24),)",
       {{2, 24, 17, 19}, {24, 1, 7, 7}, {24}},
       DType::float32,
       "pf_conv_dw_k7_s1"},
      {"x, w, b",
       "return (torch.conv2d(x, w, b, 2, 1, 1, 16),)",
       {{1, 16, 9, 13}, {16, 1, 3, 3}, {16}},
       DType::bfloat16,
       "pf_conv_dw_k3_s2"},
      {"x, w",
       "return (torch.conv2d(x, w, None, 1, 2, 2, 8),)",
       {{1, 8, 10, 10}, {8, 1, 3, 3}},
       DType::float32,
       "pf_conv_dw_k3_s1_d2"},
      {"x, w",
       "return (torch.conv2d(x, w, None, 1, 3, 3, 8),)",
       {{1, 8, 10, 10}, {8, 1, 3, 3}},
       DType::float32,
       "pf_conv_direct_k3"},
      // Elementwise chains: vectorised unless the tensor is at most one
      // block of threads and has a tail (a size not a multiple of the
      // vector); then the strided kernel, one element per thread.
      {"x", "return (torch.exp(x / 8),)", {{16, 16}}, DType::float32, "pf_div_vec, pf_exp_vec"},
      {"x", "return (torch.exp(x / 8),)", {{8, 8}}, DType::float32, "pf_div_vec, pf_exp_vec"},
      {"x",
       "return (torch.exp(x / 8),)",
       {{11, 11}},
       DType::float32,
       "pf_div_strided, pf_exp_strided"},
      {"x",
       "return (torch.exp(x / 8),)",
       {{9, 13}},
       DType::float16,
       "pf_div_strided, pf_exp_strided"},
      {"x", "return (torch.exp(x / 8),)", {{45, 45}}, DType::float16, "pf_div_vec, pf_exp_vec"},
  };
  return cases;
}

Result<GraphRun> run_case(GpuRuntime& rt, const PathCase& c) {
  const std::string src = "import torch\n\ndef f(" + c.params + "):\n    " + c.body + "\n";
  PF_ASSIGN(Graph g, dialect::load_graph(src, "path.py", OpRegistry::builtin(), "f"));
  std::vector<TensorType> types;
  for (const auto& s : c.inputs) types.push_back({c.dtype, s});
  PF_TRY(infer_types(g, types, OpRegistry::builtin()));
  std::mt19937_64 rng(11);
  std::vector<HostInput> inputs;
  for (const auto& s : c.inputs) {
    inputs.push_back(random_input(c.dtype, s, Layout::contiguous, -1, 1, rng));
  }
  return run_both(rt, g, inputs);
}

TEST(LaunchPaths, CatOfViewsDepthwiseConvolutionsAndTinyChains) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  for (const auto& c : path_cases()) {
    auto run = run_case(*rt, c);
    ASSERT_TRUE(run.ok()) << c.body << ": " << run.error().message;
    EXPECT_EQ(compare_outputs(*run), "") << c.body;
    EXPECT_EQ(run->plan, c.plan) << c.body;
  }
}

}  // namespace
}  // namespace pf::gpu::test
