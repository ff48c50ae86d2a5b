// The reference passes (examples/passes/<task-id>/) compile and match every
// variant of their corpus task, float32 variants' float16/bfloat16 copies
// included, and every replacement call dry-runs on every variant's shapes.
// These are the evaluator's regression tests and the demo answers; the GPU
// suite (reference_gpu_test.cpp) checks their outputs.
#include <gtest/gtest.h>

#include "evaluator/ops/op_registry.h"
#include "evaluator/passes/workspace.h"
#include "tests/unit/passes/pass_test_util.h"

namespace pf::passes::test {
namespace {

namespace fs = std::filesystem;

class ReferencePass : public ::testing::TestWithParam<fs::path> {};

TEST_P(ReferencePass, CompilesAndMatchesEveryVariant) {
  std::string id = GetParam().filename().string();
  auto compile = nvrtc_compile_function();
  if (!compile.ok()) GTEST_SKIP() << "NVRTC unavailable: " << compile.error().message;
  auto task = corpus_task(id, true);
  ASSERT_TRUE(task.ok()) << task.error().message;
  auto ws = PassWorkspace::load(GetParam());
  ASSERT_TRUE(ws.ok()) << ws.error().message;
  auto result = evaluate_compile_only(*task, *ws, *compile, OpRegistry::builtin());
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(result->failure, FailureClass::none) << result->message;
  EXPECT_TRUE(result->hack_flags.empty());
  ASSERT_EQ(result->variants.size(), task->variants.size());
  for (const auto& v : result->variants) {
    EXPECT_EQ(v.failure, FailureClass::none) << v.name << ": " << v.message << "\n" << v.rewritten;
    for (const auto& call : v.calls) {
      for (const auto& l : call.launches) {
        std::printf("  %-60s %s %s\n", v.name.substr(0, 60).c_str(), l.kernel.c_str(),
                    l.config.describe().c_str());
      }
    }
  }
}

std::string dir_name(const ::testing::TestParamInfo<fs::path>& info) {
  std::string n = info.param.filename().string();
  for (char& c : n) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return n;
}

INSTANTIATE_TEST_SUITE_P(Examples, ReferencePass, ::testing::ValuesIn(reference_pass_dirs()),
                         dir_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ReferencePass);

}  // namespace
}  // namespace pf::passes::test
