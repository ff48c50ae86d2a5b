// The built-in suite (tasks/) against the GPU baseline's op support, without
// a GPU: every variant type-checks and uses only ops (dtypes, argument forms)
// the baseline runs. The baseline is every speedup's denominator, so a
// variant it cannot run cannot be scored; the failure lists what is missing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "evaluator/gpu/graph_plan.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/scoring/tolerance.h"
#include "evaluator/tasks/importer.h"
#include "evaluator/tasks/task_suite.h"
#include "tests/support/paths.h"

namespace pf::gpu::test {
namespace {

// Needs no GPU: every suite variant type-checks and uses only ops (and
// dtypes, and argument forms) the GPU baseline supports.
TEST(SuiteCoverage, EveryVariantUsesOnlyGpuSupportedOps) {
  const OpRegistry& reg = OpRegistry::builtin();
  auto listed = list_task_files(pf::test::source_dir() / "tasks");
  ASSERT_TRUE(listed.ok()) << listed.error().message;
  const auto& files = *listed;
  ASSERT_FALSE(files.empty()) << "no task files under tasks/";
  int variants = 0, supported = 0;
  std::map<std::string, std::vector<std::string>> missing;  // message -> variants
  for (const auto& file : files) {
    auto task = load_task_file(file);
    ASSERT_TRUE(task.ok()) << task.error().message;
    for (const auto& v : task->variants) {
      auto graph = typed_variant_graph(v, reg);
      ASSERT_TRUE(graph.ok()) << task->id << " / " << v.name << ": " << graph.error().message;
      ++variants;
      auto m = unsupported_ops(*graph);
      if (m.empty()) ++supported;
      for (const auto& msg : m) missing[msg].push_back(task->id + "/" + v.name);
    }
  }
  std::printf("[coverage] tasks/: %d of %d variants use only GPU-supported ops\n", supported,
              variants);
  for (const auto& [msg, vs] : missing) {
    std::printf("[coverage]   %4zu x %s (e.g. %s)\n", vs.size(), msg.c_str(), vs.front().c_str());
  }
  EXPECT_EQ(supported, variants) << "suite variants the GPU baseline cannot run (listed above)";
}

// tests/data/pytorch_levels.json relaxes the graph suites per variant; a key
// that names no variant (a renamed task, a re-imported corpus) would silently
// relax nothing, a level outside the table would relax everything.
TEST(SuiteCoverage, PytorchLevelsNameSuiteOrCorpusVariantsAboveTheBaselineLevel) {
  std::ifstream in(pf::test::source_dir() / "tests/data/pytorch_levels.json");
  ASSERT_TRUE(in) << "tests/data/pytorch_levels.json missing (tests/gpu/pytorch_levels.py)";
  auto doc = nlohmann::json::parse(in, nullptr, false);
  ASSERT_TRUE(doc.is_object() && doc.contains("levels"));
  std::set<std::string> known;
  auto listed = list_task_files(pf::test::source_dir() / "tasks");
  ASSERT_TRUE(listed.ok()) << listed.error().message;
  for (const auto& file : *listed) {
    auto task = load_task_file(file);
    ASSERT_TRUE(task.ok()) << task.error().message;
    for (const auto& v : task->variants) known.insert(task->id + "/" + v.name);
  }
  // Keys naming corpus variants outside the built-in suite are checked only
  // where the corpus is (PF_CORPUS_DIR).
  const auto corpus = pf::test::optional_corpus_dir();
  const bool have_corpus = !corpus.empty() && std::filesystem::is_directory(corpus);
  if (have_corpus) {
    for (const char* part : {"graphnet-slices", "graphnet-slices-more", "passnet-fusible"}) {
      auto imported = import_tasks(corpus / part, ImportOptions{}, OpRegistry::builtin());
      ASSERT_TRUE(imported.ok()) << imported.error().message;
      for (const auto& ti : *imported) {
        if (!ti.task) continue;
        for (const auto& v : ti.task->variants) known.insert(ti.task->id + "/" + v.name);
      }
    }
  }
  int checked = 0;
  for (const auto& [key, level] : doc["levels"].items()) {
    ASSERT_TRUE(level.is_number_integer()) << key;
    EXPECT_GT(level.get<int>(), kBaselineToleranceLevel) << key;
    EXPECT_LE(level.get<int>(), kMaxToleranceLevel + 1) << key;
    if (have_corpus || known.count(key)) {
      EXPECT_TRUE(known.count(key)) << key << " names no suite or corpus variant";
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
}

}  // namespace
}  // namespace pf::gpu::test
