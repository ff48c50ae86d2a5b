// The differential op test: every case of op_cases.cpp, for
// every dtype it lists, in four layouts of its first input (contiguous,
// transposed, strided, unaligned offset), on the GPU baseline versus the CPU
// reference, at the dtype-baseline tolerance t = -5 (-2 for half-precision
// accumulating ops, NaN equal to NaN: compare_outputs). Outputs are poisoned
// before the run and buffer guards checked after it.
//
// PF_GPU_OP_TIMING=1 also prints each case's device time (median of 50
// L2-flushed runs, contiguous inputs). The case checks (every case builds and
// type-checks, every GPU op has a case) need no GPU and run in CI.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <set>

#include "common/sha256.h"
#include "evaluator/dialect/graph_builder.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/graph_plan.h"
#include "evaluator/gpu/timing.h"
#include "evaluator/ops/cpu_executor.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/type_inference.h"
#include "tests/support/gpu.h"
#include "tests/unit/gpu/gpu_test_util.h"
#include "tests/unit/gpu/op_cases.h"

namespace pf::gpu::test {
namespace {

Result<Graph> case_graph(const OpCase& c, DType t) {
  const OpRegistry& reg = OpRegistry::builtin();
  PF_ASSIGN(Graph g, dialect::load_graph(case_source(c, t), "case.py", reg, "f"));
  std::vector<TensorType> types;
  for (const auto& in : c.inputs) types.push_back({input_dtype(in, t), in.shape});
  PF_TRY(infer_types(g, types, reg));
  return g;
}

TEST(OpDiffCases, EveryCaseBuildsAndTypeChecks) {
  for (const auto& c : op_cases()) {
    for (DType t : c.dtypes) {
      auto g = case_graph(c, t);
      EXPECT_TRUE(g.ok()) << c.op << " " << dtype_name(t) << ":\n"
                          << case_source(c, t) << (g.ok() ? "" : g.error().message);
    }
  }
}

uint64_t case_seed(const OpCase& c);

// The CPU half of every case on the inputs the device run draws (contiguous
// layout), so a case the reference refuses (colliding index_put indices, a
// short masked_scatter source) shows here, without a GPU.
TEST(OpDiffCases, EveryCaseRunsOnTheCpuReference) {
  for (const auto& c : op_cases()) {
    for (DType t : c.dtypes) {
      auto g = case_graph(c, t);
      if (!g.ok()) continue;  // EveryCaseBuildsAndTypeChecks reports it
      std::mt19937_64 rng(case_seed(c) + static_cast<size_t>(t) * 10 +
                          static_cast<size_t>(Layout::contiguous));
      std::vector<Tensor> inputs;
      for (const CaseInput& ci : c.inputs) {
        const DType dt = input_dtype(ci, t);
        const bool integral = !is_floating(dt);
        inputs.push_back(random_input(dt, ci.shape, Layout::contiguous,
                                      integral ? static_cast<double>(ci.ilo) : ci.lo,
                                      integral ? static_cast<double>(ci.ihi) : ci.hi, rng)
                             .view);
      }
      auto out = run_graph_cpu(*g, inputs, OpRegistry::builtin());
      EXPECT_TRUE(out.ok()) << c.op << " [" << c.body << "] " << dtype_name(t) << ": "
                            << (out.ok() ? "" : out.error().message);
    }
  }
}

TEST(OpDiffCases, EveryGpuOpHasACase) {
  std::set<std::string> covered;
  for (const auto& c : op_cases()) {
    auto g = case_graph(c, c.dtypes.front());
    if (!g.ok()) continue;
    for (const auto& n : g->nodes) covered.insert(n.op);
  }
  std::set<std::string> unreachable(unreachable_ops().begin(), unreachable_ops().end());
  for (const auto& op : GpuOpRegistry::builtin().names()) {
    if (unreachable.count(op)) continue;
    EXPECT_TRUE(covered.count(op))
        << "GPU op '" << op << "' has no case in tests/unit/gpu/op_cases.cpp";
  }
}

// A graph the importer accepts must also run on the GPU baseline, or its
// variant cannot be evaluated: every CPU op has a GPU op or runs through the
// view probe.
TEST(OpDiffCases, EveryCpuOpRunsOnTheGpu) {
  const GpuOpRegistry& gpu = GpuOpRegistry::builtin();
  for (const auto& op : OpRegistry::builtin().names()) {
    Status st = gpu.supports(op, {});
    EXPECT_TRUE(st.ok()) << st.error().message;
  }
}

// The window kernels (convolutions, pooling, fold) take their geometry as
// 32-bit ints. A graph whose stride, padding or dilation does not fit (the
// CPU reference computes it in 64 bits; these type-check, output sizes
// small) must be reported unsupported, not computed with truncated values.
TEST(OpDiffCases, GeometryBeyondIntIsUnsupported) {
  const OpRegistry& reg = OpRegistry::builtin();
  const std::string big = "34359738368", bigger = "137438953472";  // 2^35, 2^37
  struct Call {
    std::string body;
    Shape input;
  };
  const std::vector<Call> calls = {
      {"torch.nn.functional.fold(x, (4, 5), 2, 1, " + big + ", " + bigger + ")", {1, 8, 1}},
      {"torch.nn.functional.unfold(x, 2, 1, " + big + ", " + bigger + ")", {1, 2, 4, 5}},
      {"torch.nn.functional.max_pool3d(x, 2, " + big + ")", {1, 1, 4, 4, 4}},
      {"torch.nn.functional.avg_pool2d(x, 2, " + big + ")", {1, 1, 4, 4}},
      {"torch.nn.functional.conv3d(x, x, None, " + big + ")", {1, 1, 2, 2, 2}},
      {"torch.nn.functional.conv2d(x, x, None, 1, 0, " + big + ")", {1, 1, 1, 1}},
  };
  for (const auto& c : calls) {
    const std::string src = "import torch\n\ndef f(x):\n    return " + c.body + "\n";
    auto g = dialect::load_graph(src, "big.py", reg, "f");
    ASSERT_TRUE(g.ok()) << c.body << ": " << g.error().message;
    ASSERT_TRUE(infer_types(*g, {{DType::float32, c.input}}, reg).ok()) << c.body;
    const Node& node = g->nodes.back();
    Status st = GpuOpRegistry::builtin().supports_node(*g, node);
    ASSERT_FALSE(st.ok()) << c.body;
    EXPECT_EQ(st.error().code, ErrorCode::unsupported) << st.error().message;
    EXPECT_NE(st.error().message.find("32-bit"), std::string::npos) << st.error().message;
  }
}

// A case's inputs are drawn from its own text, not its place in the list:
// adding a case must not change what the others are tested on.
uint64_t case_seed(const OpCase& c) {
  return std::stoull(sha256_hex(c.op + "\n" + c.params + "\n" + c.body).substr(0, 12), nullptr,
                     16) *
         1000;
}

class OpDiff : public ::testing::TestWithParam<size_t> {};

TEST_P(OpDiff, GpuMatchesCpuReference) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  const OpCase& c = op_cases()[GetParam()];
  const bool timing = std::getenv("PF_GPU_OP_TIMING") != nullptr;
  for (DType t : c.dtypes) {
    auto graph = case_graph(c, t);
    ASSERT_TRUE(graph.ok()) << graph.error().message;
    for (const auto& node : graph->nodes) {
      auto st = GpuOpRegistry::builtin().supports_node(*graph, node);
      EXPECT_TRUE(st.ok()) << st.error().message;
    }
    if (HasFailure()) return;
    std::vector<Layout> layouts = {Layout::contiguous};
    if (!c.inputs.empty())
      layouts = {Layout::contiguous, Layout::transposed, Layout::strided, Layout::offset};
    for (Layout layout : layouts) {
      std::mt19937_64 rng(case_seed(c) + static_cast<size_t>(t) * 10 + static_cast<size_t>(layout));
      std::vector<HostInput> inputs;
      for (size_t i = 0; i < c.inputs.size(); ++i) {
        const CaseInput& ci = c.inputs[i];
        DType dt = input_dtype(ci, t);
        bool integral = !is_floating(dt);
        inputs.push_back(random_input(dt, ci.shape, i == 0 ? layout : Layout::contiguous,
                                      integral ? static_cast<double>(ci.ilo) : ci.lo,
                                      integral ? static_cast<double>(ci.ihi) : ci.hi, rng));
      }
      Plan plan;
      auto run = run_both(*rt, *graph, inputs, &plan);
      const std::string what = c.op + " [" + c.body + "] " + dtype_name(t) + " layout " +
                               std::to_string(static_cast<int>(layout));
      ASSERT_TRUE(run.ok()) << what << ": " << run.error().message;
      std::string diff = compare_outputs(*run);
      EXPECT_EQ(diff, "") << what;
      if (timing && layout == Layout::contiguous) {
        auto harness = TimingHarness::create(*rt);
        ASSERT_TRUE(harness.ok()) << harness.error().message;
        TimingOptions o;
        o.warmup = 5;
        o.trials = 50;
        auto side = (*harness)->time_single(Runnable{"case", {&plan}}, o);
        ASSERT_TRUE(side.ok()) << side.error().message;
        std::printf("[op-timing] %-14s %-9s %9.2f us  (%s)  %s\n", c.op.c_str(), dtype_name(t),
                    side->device.median * 1000.0, run->plan.c_str(), c.body.c_str());
      }
    }
  }
}

std::string case_name(const ::testing::TestParamInfo<size_t>& info) {
  return std::to_string(info.param) + "_" + op_cases()[info.param].op;
}

std::vector<size_t> case_indices() {
  std::vector<size_t> out;
  for (size_t i = 0; i < op_cases().size(); ++i) out.push_back(i);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Cases, OpDiff, ::testing::ValuesIn(case_indices()), case_name);

}  // namespace
}  // namespace pf::gpu::test
