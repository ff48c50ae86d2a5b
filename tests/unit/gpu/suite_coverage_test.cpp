// The built-in suite (tasks/) against the GPU baseline's op support, without
// a GPU: every variant type-checks and uses only ops (dtypes, argument forms)
// the baseline runs. The baseline is every speedup's denominator, so a
// variant it cannot run cannot be scored; the failure lists what is missing.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "evaluator/gpu/graph_plan.h"
#include "evaluator/ops/op_registry.h"
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

}  // namespace
}  // namespace pf::gpu::test
