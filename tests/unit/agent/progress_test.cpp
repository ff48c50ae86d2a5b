// The progress a run shows: one line per finished or interrupted episode and
// the status line (done/total counts earlier sessions; compile-only runs say
// "passed", never "correct").
#include "agent/scheduler/progress.h"

#include <gtest/gtest.h>

#include "agent/scheduler/gpu_load.h"

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

sandbox::PoolLoad gpu_load(double wall, double busy0, double busy1, uint64_t waiting) {
  sandbox::PoolLoad l;
  l.wall_s = wall;
  l.waiting = waiting;
  l.slots = {{"0", true, 10, busy0}, {"1", false, 8, busy1}};
  return l;
}

TEST(Progress, GpuLoadTextIsTheBusyShareOfTheWindow) {
  const auto start = gpu_load(10, 5, 1, 0);
  const auto now = gpu_load(20, 14, 2, 3);
  EXPECT_EQ(gpu_load_text(now, nullptr), "GPU 0 70% busy, GPU 1 10% busy, 3 queued");
  EXPECT_EQ(gpu_load_text(now, &start), "GPU 0 90% busy, GPU 1 10% busy, 3 queued");
}

TEST(Progress, GpuLoadWindowDropsOldSamplesAndTheLineShowsIt) {
  std::vector<sandbox::PoolLoad> loads = {gpu_load(1, 1, 0, 0), gpu_load(2, 2, 0, 1),
                                          gpu_load(3, 2, 1, 2)};
  size_t next = 0;
  GpuLoadWindow window([&] { return loads[next++]; }, std::chrono::milliseconds(0));
  EXPECT_EQ(window.text(), "GPU 0 100% busy, GPU 1 0% busy, 0 queued");
  EXPECT_EQ(window.text(), "GPU 0 100% busy, GPU 1 0% busy, 1 queued");
  // A zero window keeps only the newest sample: the last second alone.
  EXPECT_EQ(window.text(), "GPU 0 0% busy, GPU 1 100% busy, 2 queued");

  ProgressTracker p(2, 0, traj::EvalMode::full);
  p.set_load_text([] { return std::string("GPU 0 50% busy, 0 queued"); });
  EXPECT_NE(p.line().find("; GPU 0 50% busy, 0 queued"), std::string::npos) << p.line();
}

}  // namespace
}  // namespace pf::agent
