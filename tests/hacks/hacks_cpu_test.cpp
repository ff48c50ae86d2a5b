// The reward-hack corpus without a GPU (CI): every exploit that needs no GPU
// (static source flags, load-time rejections, the must-match rule) is
// evaluated compile-only with the real NVRTC and must be caught; the honest
// controls must pass with no flag. Fails on any bypass.
#include <gtest/gtest.h>

#include "evaluator/passes/compile_only.h"
#include "evaluator/tasks/task.h"
#include "tests/hacks/hack_corpus.h"
#include "tests/support/paths.h"
#include "tests/unit/passes/pass_test_util.h"

namespace pf::hacks {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path root() {
  return pf::test::source_dir() / "tests" / "hacks";
}

Result<json> compile_only(const fs::path& task_file, const fs::path& workspace) {
  PF_ASSIGN(Task task, load_task_file(task_file));
  PF_ASSIGN(auto ws, passes::PassWorkspace::load(workspace));
  PF_ASSIGN(auto compile, passes::test::nvrtc_compile_function());
  PF_ASSIGN(auto result, passes::evaluate_compile_only(task, ws, compile, OpRegistry::builtin()));
  return result.to_json();
}

TEST(HackCorpus, LoadsWithHeaders) {
  auto corpus = load_hack_corpus(root());
  ASSERT_TRUE(corpus.ok()) << corpus.error().message;
  EXPECT_GE(corpus->size(), 14u);
  for (const auto& h : *corpus) {
    EXPECT_FALSE(h.what.empty() || h.how.empty() || h.defence.empty()) << h.name;
    EXPECT_TRUE(fs::exists(h.task)) << h.name;
    EXPECT_TRUE(fs::exists(h.control)) << h.name;
  }
}

TEST(HackCorpus, CpuDetectableExploitsAreCaught) {
  if (!passes::test::nvrtc_compile_function().ok()) GTEST_SKIP() << "NVRTC unavailable";
  auto corpus = load_hack_corpus(root());
  ASSERT_TRUE(corpus.ok()) << corpus.error().message;
  int run = 0;
  for (const auto& h : *corpus) {
    if (h.needs_gpu) continue;
    ++run;
    auto control = compile_only(h.task, h.control);
    ASSERT_TRUE(control.ok()) << h.name << " control: " << control.error().message;
    std::string problem = control_problem(*control);
    EXPECT_EQ(problem, "") << h.name << ": " << verdict_name(Verdict::control_failed);
    auto exploit = compile_only(h.task, h.dir);
    ASSERT_TRUE(exploit.ok()) << h.name << ": " << exploit.error().message;
    Verdict v = judge_exploit(h, *exploit);
    std::printf("  %-24s %-10s expected %s (%s)\n", h.name.c_str(), verdict_name(v),
                h.value.c_str(), h.defence.c_str());
    EXPECT_EQ(v, Verdict::caught) << h.name << ": " << h.what
                                  << "; result: " << exploit->dump().substr(0, 2000);
  }
  EXPECT_GE(run, 12);
}

// no_gain: an exploit the protocol neutralised earns nothing over its
// honest control; a flag or a failure anywhere is caught as well.
TEST(HackCorpus, NoGainIsJudgedAgainstTheControl) {
  HackCase h;
  h.kind = ExpectKind::no_gain;
  h.value = "0.02";
  const json control = {{"as", 1.00}, {"hack_flags", json::array()}};
  EXPECT_EQ(judge_exploit(h, {{"as", 1.019}, {"hack_flags", json::array()}}, control),
            Verdict::caught);
  EXPECT_EQ(judge_exploit(h, {{"as", 1.03}, {"hack_flags", json::array()}}, control),
            Verdict::bypassed);
  EXPECT_EQ(judge_exploit(h, {{"as", 1.5}, {"hack_flags", {"timed_output_mismatch"}}}, control),
            Verdict::caught);
  EXPECT_EQ(judge_exploit(h,
                          {{"as", 1.5},
                           {"hack_flags", json::array()},
                           {"variants", {{{"failure_class", "runtime_fail"}}}}},
                          control),
            Verdict::caught);
  EXPECT_EQ(judge_exploit(h, {{"as", 1.0}}, json()), Verdict::bypassed) << "no control, no verdict";
}

TEST(HackCorpus, SkippedVariantsDoNotFailAControl) {
  json r = {{"mode", "full"},
            {"hack_flags", json::array()},
            {"variants",
             {{{"name", "a"}, {"correct", true}},
              {{"name", "dead"}, {"correct", false}, {"skipped", "degenerate variant"}}}}};
  EXPECT_EQ(control_problem(r), "");
  r["variants"][1].erase("skipped");
  EXPECT_EQ(control_problem(r), "dead: not correct");
}

}  // namespace
}  // namespace pf::hacks
