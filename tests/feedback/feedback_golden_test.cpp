// Golden feedback reports (prompts/default/feedback.md rendered by
// agent/loop/feedback_report.h) for the result kinds a model meets: compile
// error, pass_miss, accuracy failure, success, hack flag (dynamic and
// static), unstable timing, weak task. Each case (cases/<kind>.json) is a real
// compile-only evaluation of a workspace with the real NVRTC, turned into a
// full result by the protocol's own JSON writer (VariantRun::merge_into) and
// scorer (score_result) from the GPU outcomes the case lists per variant.
// PF_UPDATE_GOLDENS=1 rewrites cases/<kind>.txt.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "agent/loop/feedback_report.h"
#include "evaluator/passes/compile_only.h"
#include "evaluator/protocol/result_score.h"
#include "evaluator/protocol/variant_run.h"
#include "evaluator/tasks/task.h"
#include "prompts/prompt_variant.h"
#include "tests/support/paths.h"
#include "tests/unit/passes/pass_test_util.h"

namespace pf::feedback {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

fs::path src() {
  return pf::test::source_dir();
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

protocol::VariantRun run_of(const json& d, const TaskVariant& v) {
  protocol::VariantRun run;
  if (d.contains("failure")) run.failure = *parse_failure_class(d["failure"].get<std::string>());
  run.message = d.value("message", "");
  run.first_passing_level = d.value("level", kMaxToleranceLevel + 1);
  protocol::OutputReport o;
  o.dtype = dtype_name(v.inputs[0].dtype);
  o.shape = v.inputs[0].shape;
  o.comparison.first_passing_level = run.first_passing_level;
  o.comparison.max_abs_diff = d.value("max_abs", 0.0);
  o.comparison.max_rel_diff = d.value("max_rel", 0.0);
  o.poisoned = d.value("poisoned", 0);
  if (d.contains("first_mismatch")) {
    o.comparison.first_mismatch = d["first_mismatch"][0].get<int64_t>();
    o.comparison.first_mismatch_candidate = d["first_mismatch"][1].get<double>();
    o.comparison.first_mismatch_expected = d["first_mismatch"][2].get<double>();
  }
  run.outputs = {o};
  run.recheck = {o};
  if (d.contains("cand_us")) {
    protocol::TimingSummary t;
    t.candidate.device_median_ms = d["cand_us"].get<double>() / 1e3;
    t.candidate.e2e_median_ms = t.candidate.device_median_ms + 0.003;
    t.eager.device_median_ms = d["eager_us"].get<double>() / 1e3;
    t.eager.e2e_median_ms = t.eager.device_median_ms + 0.003;
    t.trials = 100;
    t.warmup = 25;
    t.attempts = d.value("unstable", false) ? 2 : 1;
    run.timing = t;
    run.speedup = d.value("speedup", 0.0);
    run.unstable = d.value("unstable", false);
  }
  for (const auto& f : d.value("flags", json::array())) {
    run.flags.push_back(
        {f[0].get<std::string>(), f[1].get<std::string>(), f.size() < 3 || f[2].get<bool>()});
  }
  return run;
}

Result<json> full_result(const json& c) {
  PF_ASSIGN(Task task, load_task_file(src() / c["task"].get<std::string>()));
  PF_ASSIGN(auto ws, passes::PassWorkspace::load(src() / c["workspace"].get<std::string>()));
  PF_ASSIGN(auto compile, passes::test::nvrtc_compile_function());
  passes::CompileOnlyOptions co;
  co.include_rewritten = false;
  PF_ASSIGN(auto evaluated,
            passes::evaluate_compile_only(task, ws, compile, OpRegistry::builtin(), co));
  json r = evaluated.to_json();
  r["mode"] = "full";
  // Timing-free, machine-independent fields only.
  if (r["compile"].is_object()) {
    for (auto& f : r["compile"]["files"]) f["compile_ms"] = 0;
  }
  for (size_t i = 0; i < task.variants.size() && i < r["variants"].size(); ++i) {
    json& v = r["variants"][i];
    const std::string name = task.variants[i].name;
    if (r["failure_class"].is_string()) {
      v["evaluated"] = false;
    } else if (v["failure_class"].is_string()) {
      v["evaluated"] = true;
      v["correct"] = false;
    } else {
      run_of(c["runs"].value(name, json::object()), task.variants[i]).merge_into(v);
    }
  }
  protocol::score_result(r, protocol::ProtocolOptions{});
  return r;
}

class FeedbackGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(FeedbackGolden, MatchesTheGoldenReport) {
  if (!passes::test::nvrtc_compile_function().ok()) GTEST_SKIP() << "NVRTC unavailable";
  fs::path dir = src() / "tests" / "feedback" / "cases";
  json c = json::parse(slurp(dir / (GetParam() + ".json")));
  auto r = full_result(c);
  ASSERT_TRUE(r.ok()) << r.error().message;
  auto prompts = prompts::PromptVariant::load(src() / "prompts", "default");
  ASSERT_TRUE(prompts.ok()) << prompts.error().message;
  auto text = agent::render_feedback(*r, *prompts, 8000);
  ASSERT_TRUE(text.ok()) << text.error().message;
  fs::path golden = dir / (GetParam() + ".txt");
  if (std::getenv("PF_UPDATE_GOLDENS") != nullptr) {
    std::ofstream(golden) << *text << "\n";
  }
  EXPECT_EQ(*text + "\n", slurp(golden)) << "PF_UPDATE_GOLDENS=1 rewrites " << golden;
  // Hidden variants' details never reach the model.
  EXPECT_EQ(text->find("hidden evidence"), std::string::npos);
  EXPECT_EQ(text->find("odd"), std::string::npos);
  // The bound holds however small it is.
  for (size_t bound : {2000u, 600u, 200u}) {
    auto small = agent::render_feedback(*r, *prompts, bound);
    ASSERT_TRUE(small.ok());
    EXPECT_LE(small->size(), bound) << GetParam();
  }
}

INSTANTIATE_TEST_SUITE_P(Kinds, FeedbackGolden,
                         ::testing::Values("compile_error", "pass_miss", "accuracy", "success",
                                           "hack_flag", "static_flag", "unstable", "weak_task"));

}  // namespace
}  // namespace pf::feedback
