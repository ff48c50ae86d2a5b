// Every variant of every task of the built-in suite (tasks/): one test per
// task runs each variant as one baseline plan on synthesised inputs, drawn by
// the informative-inputs rule (docs/tasks.md "Degenerate variants"), and
// compares with the CPU reference at t = -5, printing a coverage line. suite_coverage_test.cpp
// checks, without a GPU, that every variant uses only GPU-supported ops.
#include <gtest/gtest.h>

#include <filesystem>

#include "evaluator/gpu/graph_plan.h"
#include "evaluator/ops/cpu_executor.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/tasks/importer.h"
#include "evaluator/tasks/informative_inputs.h"
#include "evaluator/tasks/synthesis.h"
#include "evaluator/tasks/task_suite.h"
#include "tests/support/gpu.h"
#include "tests/support/paths.h"
#include "tests/unit/gpu/float64_oracle.h"
#include "tests/unit/gpu/gpu_test_util.h"

namespace pf::gpu::test {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> suite_files() {
  auto files = list_task_files(pf::test::source_dir() / "tasks");
  return files.ok() ? *files : std::vector<fs::path>{};
}

class SuiteTask : public ::testing::TestWithParam<fs::path> {};

TEST_P(SuiteTask, VariantsMatchCpuReference) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  const OpRegistry& reg = OpRegistry::builtin();
  auto task = load_task_file(GetParam());
  ASSERT_TRUE(task.ok()) << task.error().message;
  int run = 0, passed = 0, skipped = 0;
  for (const TaskVariant& v : task->variants) {
    auto graph = typed_variant_graph(v, reg);
    ASSERT_TRUE(graph.ok()) << v.name << ": " << graph.error().message;
    auto missing = unsupported_ops(*graph);
    if (!missing.empty()) {
      ++skipped;
      std::printf("  skip %s: %s\n", v.name.c_str(), missing.front().c_str());
      continue;
    }
    // The inputs `passforge tasks check` validates: the informative-inputs
    // rule with the CPU reference, so a bool threshold (sigmoid(x) < 0.5)
    // is not judged on elements sitting at it.
    const Graph& g = *graph;
    OutputRunner cpu = [&g, &reg](const std::vector<Tensor>& in) {
      return run_graph_cpu(g, in, reg);
    };
    auto draw = draw_informative_inputs(v, SynthesisOptions{}, cpu);
    ASSERT_TRUE(draw.ok()) << v.name << ": " << draw.error().message;
    if (!draw->informative) {
      ++skipped;
      std::printf("  skip %s: degenerate (%s)\n", v.name.c_str(), draw->summary().c_str());
      continue;
    }
    std::vector<HostInput> inputs;
    for (const Tensor& t : draw->inputs) {
      inputs.push_back(input_view(t, t.shape(), t.strides(), t.offset()));
    }
    ++run;
    auto result = run_both(*rt, *graph, inputs, nullptr, &draw->outputs);
    if (!result.ok()) {
      ADD_FAILURE() << task->id << " / " << v.name << ": " << result.error().message;
      continue;
    }
    result->pytorch_level = pytorch_level(task->id, v.name);
    std::string diff = compare_outputs(*result, v, draw->inputs);
    EXPECT_EQ(diff, "") << task->id << " / " << v.name << "\nplan: " << result->plan;
    if (diff.empty()) ++passed;
  }
  std::printf("[coverage] %s: %d variants run (%d passed), %d skipped\n", task->id.c_str(), run,
              passed, skipped);
}

std::string task_name(const ::testing::TestParamInfo<fs::path>& info) {
  std::string n = info.param.stem().string();
  for (char& ch : n) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return n;
}

INSTANTIATE_TEST_SUITE_P(Suite, SuiteTask, ::testing::ValuesIn(suite_files()), task_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(SuiteTask);

}  // namespace
}  // namespace pf::gpu::test
