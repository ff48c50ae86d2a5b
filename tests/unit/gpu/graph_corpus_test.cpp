// Every variant of every corpus task (PassBench layout: the GraphNet slices
// under tests/data/graphnet-slices, or, when PF_CORPUS_DIR names a corpus,
// its graphnet-slices/ and passnet-fusible/) whose ops the GPU baseline
// supports: built as one plan, run on synthesised inputs (docs/design.md
// "Evaluation protocol" 3) and compared with the CPU reference at t = -5. One
// test per task; each prints a line per variant and a coverage line
// (variants run / skipped, with the missing ops), and the last test prints
// the corpus total.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "evaluator/gpu/graph_plan.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/tasks/importer.h"
#include "evaluator/tasks/synthesis.h"
#include "tests/support/gpu.h"
#include "tests/support/paths.h"
#include "tests/unit/gpu/float64_oracle.h"
#include "tests/unit/gpu/gpu_test_util.h"

namespace pf::gpu::test {
namespace {

namespace fs = std::filesystem;

struct Totals {
  int run = 0, passed = 0, skipped = 0;
  std::map<std::string, int> missing;  // unsupported-op message -> variants
};

Totals& totals() {
  static Totals t;
  return t;
}

std::vector<fs::path> task_dirs() {
  std::vector<fs::path> out;
  const fs::path root = pf::test::optional_corpus_dir();
  std::vector<fs::path> parts = {pf::test::graphnet_slices_dir()};
  if (!root.empty()) parts = {root / "graphnet-slices", root / "passnet-fusible"};
  std::error_code ec;
  for (const auto& dir : parts) {
    if (!fs::is_directory(dir, ec)) continue;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      if (e.is_directory() && fs::exists(e.path() / "graph_list.txt")) out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

class CorpusTask : public ::testing::TestWithParam<fs::path> {};

TEST_P(CorpusTask, VariantsMatchCpuReference) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  const OpRegistry& reg = OpRegistry::builtin();
  auto imported = import_tasks(GetParam(), ImportOptions{}, reg);
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  ASSERT_EQ(imported->size(), 1u);
  const TaskImport& ti = (*imported)[0];
  ASSERT_TRUE(ti.task.has_value()) << ti.error;
  int run = 0, skipped = 0;
  for (const TaskVariant& v : ti.task->variants) {
    auto graph = typed_variant_graph(v, reg);
    ASSERT_TRUE(graph.ok()) << v.name << ": " << graph.error().message;
    auto missing = unsupported_ops(*graph);
    if (!missing.empty()) {
      ++skipped;
      ++totals().skipped;
      for (const auto& m : missing) ++totals().missing[m];
      std::printf("  skip %s: %s\n", v.name.c_str(), missing.front().c_str());
      continue;
    }
    std::vector<HostInput> inputs;
    const std::vector<Tensor> host = synthesize_inputs(v, SynthesisOptions{});
    inputs.reserve(host.size());
    for (const Tensor& t : host) {
      inputs.push_back(input_view(t, t.shape(), t.strides(), t.offset()));
    }
    ++run;
    ++totals().run;
    auto result = run_both(*rt, *graph, inputs);
    if (!result.ok()) {
      ADD_FAILURE() << ti.task->id << " / " << v.name << ": " << result.error().message;
      continue;
    }
    result->pytorch_level = pytorch_level(ti.task->id, v.name);
    std::string diff = compare_outputs(*result, v, host);
    EXPECT_EQ(diff, "") << ti.task->id << " / " << v.name;
    if (diff.empty()) ++totals().passed;
    std::printf("  %s %s (%s)\n", diff.empty() ? "ok  " : "FAIL", v.name.c_str(),
                result->plan.c_str());
  }
  std::printf("[coverage] %s: %d variants run, %d skipped\n", ti.task->id.c_str(), run, skipped);
}

std::string task_name(const ::testing::TestParamInfo<fs::path>& info) {
  std::string n =
      info.param.parent_path().filename().string() + "_" + info.param.filename().string();
  for (char& ch : n) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return n;
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusTask, ::testing::ValuesIn(task_dirs()), task_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CorpusTask);

// Needs no GPU: every corpus variant type-checks, and the ops the GPU
// baseline lacks are listed (variants by missing op).
TEST(CorpusCoverage, VariantsTypeCheckAndMissingOpsAreListed) {
  const OpRegistry& reg = OpRegistry::builtin();
  int variants = 0, supported = 0;
  std::map<std::string, int> missing;
  for (const auto& dir : task_dirs()) {
    auto imported = import_tasks(dir, ImportOptions{}, reg);
    ASSERT_TRUE(imported.ok()) << imported.error().message;
    for (const auto& ti : *imported) {
      ASSERT_TRUE(ti.task.has_value()) << dir << ": " << ti.error;
      for (const auto& v : ti.task->variants) {
        auto graph = typed_variant_graph(v, reg);
        ASSERT_TRUE(graph.ok()) << v.name << ": " << graph.error().message;
        ++variants;
        auto m = unsupported_ops(*graph);
        if (m.empty()) ++supported;
        for (const auto& msg : m) ++missing[msg];
      }
    }
  }
  EXPECT_GT(variants, 0) << "no corpus task found";
  std::printf("[coverage] corpus: %d of %d variants use only GPU-supported ops\n", supported,
              variants);
  for (const auto& [msg, n] : missing) std::printf("[coverage]   %4d x %s\n", n, msg.c_str());
}

// Runs last (gtest runs suites in definition order within a process).
TEST(CorpusTotals, PrintCoverage) {
  PF_REQUIRE_GPU();
  const Totals& t = totals();
  std::printf("[coverage] corpus: %d variants run (%d passed), %d skipped\n", t.run, t.passed,
              t.skipped);
  for (const auto& [msg, n] : t.missing) std::printf("[coverage]   %4d x %s\n", n, msg.c_str());
}

}  // namespace
}  // namespace pf::gpu::test
