// The progress a run shows: one line per finished or interrupted episode and
// the status line (done/total counts earlier sessions; compile-only runs say
// "passed", never "correct").
#include "agent/scheduler/progress.h"

#include <gtest/gtest.h>

namespace pf::agent {
namespace {

EpisodeResult result(const std::string& task, int64_t sample, ExitReason exit, int64_t turns) {
  EpisodeResult r;
  r.task_id = task;
  r.sample = sample;
  r.exit_reason = exit;
  r.turns = turns;
  r.prompt_tokens = 1000;
  r.completion_tokens = 500;
  return r;
}

TEST(Progress, CompileOnlyEpisodeLinesAndStatus) {
  ProgressTracker p(4, 1, traj::EvalMode::compile_only);
  p.episode_started();
  p.episode_started();
  p.episode_started();
  auto ok = result("relu-add", 0, ExitReason::submitted, 7);
  ok.best_compile_share = 1.0;
  ok.correct = true;
  p.episode_finished(ok);
  auto stopped = result("relu-add", 1, ExitReason::interrupted, 2);
  p.episode_finished(stopped);
  auto failed = result("mm-gelu", 0, ExitReason::endpoint_error, 1);
  failed.detail = "HTTP 401: bad key";
  p.episode_finished(failed);

  auto events = p.take_events();
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0], "[2/4] relu-add s0: submitted after 7 turns, compile share 1.000 (passed)");
  EXPECT_EQ(events[1], "relu-add s1: interrupted after 2 turns (resumable)");
  EXPECT_EQ(events[2],
            "[3/4] mm-gelu s0: endpoint_error after 1 turn, no evaluation (HTTP 401: bad key)");
  EXPECT_TRUE(p.take_events().empty()) << "each line is taken once";

  EXPECT_EQ(p.done(), 3u) << "the interrupted episode is not done";
  const std::string line = p.line();
  EXPECT_EQ(line.rfind("3/4 done, 0 running, mean best compile share 1.000, passed 50%", 0), 0u)
      << line;
  EXPECT_NE(line.find("ETA "), std::string::npos) << line;
}

TEST(Progress, FullModeSaysCorrectAndBestAs) {
  ProgressTracker p(1, 0, traj::EvalMode::full);
  p.episode_started();
  EXPECT_EQ(p.line().rfind("0/1 done, 1 running", 0), 0u) << p.line();
  auto r = result("t", 0, ExitReason::max_steps, 20);
  r.best_as = 0.8125;
  r.correct = true;
  p.episode_finished(r);
  auto events = p.take_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0], "[1/1] t s0: max_steps after 20 turns, best AS 0.812 (correct)");
  EXPECT_NE(p.line().find("mean best AS 0.812, correct 100%"), std::string::npos) << p.line();
  EXPECT_EQ(p.line().find("ETA"), std::string::npos) << "nothing left to estimate";
}

TEST(Progress, Durations) {
  EXPECT_EQ(format_duration(44.6), "45s");
  EXPECT_EQ(format_duration(190), "3m10s");
  EXPECT_EQ(format_duration(7500), "2h05m");
  EXPECT_EQ(format_duration(-3), "0s");
}

}  // namespace
}  // namespace pf::agent
