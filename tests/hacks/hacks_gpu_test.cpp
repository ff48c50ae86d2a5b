// The whole reward-hack corpus on a GPU (label gpu; skips without one):
// every exploit evaluated with the full protocol must be caught (the flag or
// failure class its hack.json names), every honest control must be correct
// with no hack flag; an exploit expected to gain nothing must not score above
// its control's AS by more than its hack.json allows. Prints one verdict line
// per exploit (AS beside the control's); fails on any bypass.
#include <gtest/gtest.h>

#include <map>

#include "evaluator/protocol/protocol_options.h"
#include "evaluator/tasks/task.h"
#include "tests/hacks/hack_corpus.h"
#include "tests/support/gpu.h"
#include "tests/support/paths.h"
#include "tests/unit/protocol/protocol_test_util.h"

namespace pf::hacks {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// `second` with its AS replaced by the mean of both results' (null when
// either has none), for a verdict on two evaluations.
json mean_as(const json& first, const json& second) {
  json out = second;
  const json a = first.value("as", json());
  const json b = second.value("as", json());
  out["as"] = a.is_number() && b.is_number() ? json((a.get<double>() + b.get<double>()) / 2)
                                             : json();
  return out;
}

TEST(HackCorpusGpu, EveryExploitIsCaughtAndNoControlIsFlagged) {
  PF_REQUIRE_GPU();
  auto corpus = load_hack_corpus(pf::test::source_dir() / "tests" / "hacks");
  ASSERT_TRUE(corpus.ok()) << corpus.error().message;
  std::map<fs::path, json> controls;
  std::map<fs::path, std::pair<fs::path, fs::path>> control_sources;  // key -> (task, control)
  int bypasses = 0;
  for (const auto& h : *corpus) {
    auto task = load_task_file(h.task);
    ASSERT_TRUE(task.ok()) << h.name << ": " << task.error().message;
    const fs::path control_key = h.control / h.task.filename();
    if (!controls.count(control_key)) {
      auto control = protocol::test::evaluate_full_here(*task, h.control);
      ASSERT_TRUE(control.ok()) << h.control << ": " << control.error().message;
      std::string problem = control_problem(*control);
      controls[control_key] = *control;
      control_sources[control_key] = {h.task, h.control};
      std::printf("  control %-16s %s\n%s", h.control.filename().c_str(),
                  problem.empty() ? "passes" : verdict_name(Verdict::control_failed),
                  protocol::test::describe_result(*control).c_str());
      EXPECT_EQ(problem, "") << h.control;
    }
    json merged = protocol::options_to_json(protocol::test::quick_options());
    merged.update(h.options);
    auto options = protocol::options_from_json(merged);
    ASSERT_TRUE(options.ok()) << h.name << ": " << options.error().message;
    auto r = protocol::test::evaluate_full_here(*task, h.dir, *options);
    ASSERT_TRUE(r.ok()) << h.name << ": " << r.error().message;
    ASSERT_FALSE(r->contains("fatal")) << h.name << " lost the CUDA context: " << (*r)["fatal"];
    Verdict v = judge_exploit(h, *r, controls[control_key]);
    if (v == Verdict::bypassed && h.kind == ExpectKind::no_gain) {
      // A no-gain verdict compares two timed scores, each reproducible to
      // about 1.5 % (the control's own AS moved that much between two
      // evaluations of one H200 run), against a 2 % allowance: a bypass is
      // confirmed by a second pair of evaluations, control first, and judged
      // on the means of both pairs. A real gain shows in both.
      auto control2 = protocol::test::evaluate_full_here(*task, h.control);
      ASSERT_TRUE(control2.ok()) << h.control << ": " << control2.error().message;
      auto r2 = protocol::test::evaluate_full_here(*task, h.dir, *options);
      ASSERT_TRUE(r2.ok()) << h.name << ": " << r2.error().message;
      std::printf("  %-26s again: AS %s (control %s)\n", h.name.c_str(),
                  r2->value("as", json()).dump().c_str(),
                  control2->value("as", json()).dump().c_str());
      json control_mean = mean_as(controls[control_key], *control2);
      json exploit_mean = mean_as(*r, *r2);
      v = judge_exploit(h, exploit_mean, control_mean);
    }
    bypasses += v != Verdict::caught;
    std::printf("  %-26s %-10s expected %s %s; AS %s (control %s); flags %s\n%s", h.name.c_str(),
                verdict_name(v), h.kind == ExpectKind::no_gain ? "no gain above" : "",
                h.value.c_str(), r->value("as", json()).dump().c_str(),
                controls[control_key].value("as", json()).dump().c_str(),
                r->value("flags", json::array()).dump().c_str(),
                protocol::test::describe_result(*r).c_str());
    EXPECT_EQ(v, Verdict::caught) << h.name << ": " << h.what;
  }
  EXPECT_EQ(bypasses, 0);
  // The same process again, after every exploit ran in it (out-of-bounds
  // writes, poisoned and leftover buffers): an honest pass is still judged on
  // its own work alone, as in a long-lived worker.
  for (const auto& [key, source] : control_sources) {
    auto task = load_task_file(source.first);
    ASSERT_TRUE(task.ok()) << task.error().message;
    auto again = protocol::test::evaluate_full_here(*task, source.second);
    ASSERT_TRUE(again.ok()) << source.second << ": " << again.error().message;
    std::string problem = control_problem(*again);
    std::printf("  control %-16s after the exploits: %s\n%s", source.second.filename().c_str(),
                problem.empty() ? "passes" : problem.c_str(),
                protocol::test::describe_result(*again).c_str());
    EXPECT_EQ(problem, "") << source.second << " after the exploits";
  }
}

}  // namespace
}  // namespace pf::hacks
