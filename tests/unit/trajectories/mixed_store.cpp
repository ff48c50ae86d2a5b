#include "mixed_store.h"

#include <gtest/gtest.h>

#include "store_fixture.h"

namespace pf::traj::testing {
namespace {

std::vector<VariantSpec> all_correct(double speedup) {
  return {{"v0", false, true, speedup}, {"v1", false, true, speedup}, {"v2", true, true, speedup}};
}

//! A full-mode result as a GPU run writes its variants: every variant
//! evaluated, correct ones passing at t = -5 or better.
Json gpu_result(double as, std::vector<VariantSpec> variants,
                const std::vector<std::string>& flags = {}) {
  Json r = make_result(as, variants, flags);
  r["hidden_as"] = as;
  for (auto& v : r["variants"]) {
    v["evaluated"] = true;
    v["first_passing_level"] = v["correct"].get<bool>() ? Json(-6) : Json(nullptr);
    v["skipped"] = Json::array();
  }
  return r;
}

TurnSpec eval(const std::string& text, const Json& result, EvalKind kind, const std::string& ws) {
  TurnSpec t;
  t.assistant = text;
  t.result = result;
  t.kind = kind;
  t.workspace = {{"passes/P.py", ws}};
  t.feedback = kind == EvalKind::submit ? "submitted" : "evaluated";
  return t;
}

TurnSpec submit(const std::string& text, const Json& result, const std::string& ws) {
  return eval(text, result, EvalKind::submit, ws);
}

TurnSpec write(const std::string& text) {
  TurnSpec t;
  t.assistant = text;
  return t;
}

}  // namespace

std::string mixed_episode(const std::string& task, int sample) {
  return std::string(kMixedRun) + ":" + task + ":s" + std::to_string(sample);
}

std::string mixed_levels_json() {
  return R"({"what": "test levels", "levels": {"a/v1": -3, "other/v0": -2}})";
}

void write_mixed_store(TrajectoryStore& store) {
  const std::string run = kMixedRun;
  EXPECT_TRUE(store.create_run(make_run(run)).ok());
  for (const char* t : {"a", "b", "c"}) EXPECT_TRUE(store.upsert_task(make_task(t)).ok());
  auto episode = [&](const std::string& task, int sample, std::vector<TurnSpec> turns,
                     RunState status = RunState::finished) {
    EpisodeSpec e{run, task, sample};
    if (task == "b") e.mode = AgentMode::chat;
    e.turns = std::move(turns);
    e.final_status = status;
    write_episode(store, e);
  };
  auto wrong = [](int which, double as) {
    auto v = all_correct(as);
    v[which].correct = false;
    v[which].failure_class = "accuracy";
    return v;
  };

  TurnSpec closing = write("a0 done: the pass is submitted");
  episode("a", 0,
          {write("a0 write"),
           eval("a0 evaluate", gpu_result(0.9, all_correct(0.9)), EvalKind::evaluate, "a0-1"),
           submit("a0 submit", gpu_result(1.5, all_correct(1.5)), "a0-2"), closing});
  episode("a", 1, {submit("a1 submit", gpu_result(1.59, wrong(1, 1.59)), "a1")});
  episode("a", 2, {submit("a2 submit", gpu_result(1.2, wrong(2, 1.2)), "a2")});
  episode("a", 3, {submit("a3 submit", gpu_result(2.0, all_correct(2.0), {"timer_read"}), "a3")});
  auto unstable = all_correct(1.3);
  unstable[0].unstable = true;
  unstable[0].failure_class = "unstable";
  episode("a", 4, {submit("a4 submit", gpu_result(1.3, unstable), "a4")});
  Json co =
      make_result(std::nullopt, {{"v0", false, true}, {"v1", false, true}, {"v2", true, true}}, {},
                  "compile_only");
  for (auto& v : co["variants"]) v.erase("correct");
  episode("a", 5, {submit("a5 submit", co, "a5")});
  episode("a", 6,
          {eval("a6 evaluate", gpu_result(1.4, all_correct(1.4)), EvalKind::evaluate, "a6-1"),
           submit("a6 submit", gpu_result(1.1, wrong(0, 1.1)), "a6-2")});
  episode("a", 7,
          {eval("a7 evaluate", gpu_result(1.6, all_correct(1.6)), EvalKind::evaluate, "a7")});
  episode("a", 8, {submit("a8 submit", gpu_result(1.7, all_correct(1.7)), "a8")},
          RunState::running);
  Json level = gpu_result(1.25, wrong(1, 1.25));
  level["variants"][1]["first_passing_level"] = -3;
  episode("a", 9, {submit("a9 submit", level, "a9")});

  episode("b", 0, {submit("b0 answer", gpu_result(1.3, all_correct(1.3)), "b-same")});
  episode("b", 1, {submit("b1 answer", gpu_result(1.1, all_correct(1.1)), "b-same")});

  episode("c", 0, {submit("c0 submit", gpu_result(1.05, all_correct(1.05)), "c0")});
  auto hidden_unstable = all_correct(1.2);
  hidden_unstable[2].unstable = true;
  episode("c", 1, {submit("c1 submit", gpu_result(1.2, hidden_unstable), "c1")});
}

}  // namespace pf::traj::testing
