#include <gtest/gtest.h>

#include "store_fixture.h"
#include "trajectories/run_stats.h"
#include "trajectories/stats_report.h"
#include "trajectories/trajectory_reader.h"

namespace pf::traj {
namespace {

using testing::EpisodeSpec;
using testing::TurnSpec;
using testing::VariantSpec;

TurnSpec eval(double as, std::vector<VariantSpec> v, std::optional<double> hidden_as,
              std::vector<std::string> flags = {}) {
  TurnSpec t;
  Json r = testing::make_result(as, v, flags);
  r["hidden_as"] = hidden_as ? Json(*hidden_as) : Json(nullptr);
  t.result = r;
  return t;
}

//! The constructed run of docs/stats.md's worked example; every expected
//! number below is computed by hand from it.
class StatsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = TrajectoryStore::open(dir_.path(), TrajectoryStore::OpenMode::create);
    ASSERT_TRUE(s.ok()) << s.error().message;
    auto& store = **s;
    const std::string run = "20250101T000000Z-00000abc";
    ASSERT_TRUE(store.create_run(testing::make_run(run)).ok());
    ASSERT_TRUE(store.upsert_task(testing::make_task("a")).ok());  // v0 v1 visible, v2 hidden
    ASSERT_TRUE(store.upsert_task(testing::make_task("b")).ok());
    const VariantSpec hidden{"v2", true, true, 1.0};

    EpisodeSpec a0{run, "a", 0};
    auto a0t1 = eval(0.1, {{"v0", false, false, 0, "accuracy"}, {"v1", false, false, 0, "accuracy"}, hidden},
                     0.1);
    auto a0t2 = eval(1.2, {{"v0", false, true, 2.0}, {"v1", false, true, 0.5}, hidden}, 0.9);
    a0t2.prompt_tokens = 300;
    a0.turns = {a0t1, a0t2};
    a0.started_at = "2025-01-01T00:00:00.000Z";
    a0.finished_at = "2025-01-01T00:30:00.000Z";
    testing::write_episode(store, a0);

    EpisodeSpec a1{run, "a", 1};
    a1.turns = {eval(0.3, {{"v0", false, true, 1.0}, {"v1", false, false, 0, "accuracy"}, hidden}, 0.2),
                eval(5.0, {{"v0", false, true, 5.0}, {"v1", false, true, 5.0}, hidden}, 5.0,
                     {"timer_read"})};
    a1.started_at = "2025-01-01T00:10:00.000Z";
    a1.finished_at = "2025-01-01T02:00:00.000Z";
    a1.exit_reason = "budget";
    testing::write_episode(store, a1);

    EpisodeSpec b0{run, "b", 0};
    TurnSpec check;
    check.kind = EvalKind::compile;
    check.result = Json{{"as", nullptr}, {"variants", Json::array()}};
    b0.turns = {check, eval(0.8, {{"v0", false, true, 1.25}, {"v1", false, true, 1.6}, hidden}, 0.7)};
    b0.started_at = "2025-01-01T00:20:00.000Z";
    b0.finished_at = "2025-01-01T01:00:00.000Z";
    testing::write_episode(store, b0);

    EpisodeSpec b1{run, "b", 1};
    TurnSpec compile_only;
    compile_only.result = testing::make_result(std::nullopt, {}, {}, "compile_only");
    compile_only.latency_ms = 250;
    b1.turns = {compile_only};
    b1.started_at = "2025-01-01T00:30:00.000Z";
    b1.finished_at = "2025-01-01T01:30:00.000Z";
    b1.exit_reason = "budget";
    testing::write_episode(store, b1);

    EpisodeSpec b2{run, "b", 2};
    b2.turns = {eval(0.1, {{"v0", false, false, 0, "runtime_fail"}, {"v1", false, true, 1.0}, hidden},
                     std::nullopt)};
    b2.started_at = "2025-01-01T01:00:00.000Z";
    b2.final_status = RunState::running;
    testing::write_episode(store, b2);

    auto reader = TrajectoryReader::open(dir_.path());
    ASSERT_TRUE(reader.ok());
    auto st = compute_stats(*reader, "runs/x");
    ASSERT_TRUE(st.ok()) << st.error().message;
    stats_ = *st;
  }

  testing::TempDir dir_;
  RunStats stats_;
};

TEST_F(StatsTest, RunLevelNumbersMatchTheHandComputation) {
  const auto& q = stats_.quality;
  EXPECT_EQ(stats_.episodes, 5);
  EXPECT_EQ(q.scored, 4);  // b2 is running
  EXPECT_EQ(q.without_success, 1);  // b1: compile-only only -> b = 0.1
  EXPECT_NEAR(q.mean_best_as, (1.2 + 0.3 + 0.8 + 0.1) / 4, 1e-12);
  EXPECT_NEAR(q.max_best_as, 1.2, 1e-12);
  EXPECT_NEAR(q.correct_rate, 0.5, 1e-12);  // a0 and b0
  // Visible variants: a0 (2.0 ok, 0.5 ok), a1 (1.0 ok, x), b0 (1.25 ok, 1.6 ok), b1 (x, x).
  EXPECT_EQ(q.variants, 8);
  const std::array<double, 6> fast = {5 / 8.0, 4 / 8.0, 3 / 8.0, 3 / 8.0, 2 / 8.0, 0};
  for (size_t i = 0; i < fast.size(); ++i) EXPECT_NEAR(q.fast_p[i], fast[i], 1e-12) << i;
  ASSERT_TRUE(q.geomean_speedup);
  EXPECT_NEAR(*q.geomean_speedup, std::pow(2.0 * 0.5 * 1.0 * 1.25 * 1.6, 1 / 5.0), 1e-12);
  ASSERT_TRUE(q.hidden_as);
  EXPECT_NEAR(*q.hidden_as, (0.9 + 0.2 + 0.7 + 0.1) / 4, 1e-12);
  EXPECT_EQ(q.reached_correct, 2);
  EXPECT_NEAR(*q.turns_to_first_correct, 2.0, 1e-12);  // a0 at turn 2, b0 at turn 2
  ASSERT_TRUE(q.es_curve);
  for (double es : *q.es_curve) EXPECT_NEAR(es, 0.6, 1e-12);

  EXPECT_EQ(stats_.failure_classes, (std::map<std::string, int64_t>{{"accuracy", 2}, {"runtime_fail", 1}}));
  EXPECT_EQ(stats_.hack_flags, (std::map<std::string, int64_t>{{"timer_read", 1}}));
  EXPECT_EQ(stats_.evaluations_full, 6);
  EXPECT_EQ(stats_.evaluations_compile_only, 1);
  EXPECT_EQ(stats_.compile_checks, 1);
  EXPECT_EQ(stats_.llm_calls, 8);
  EXPECT_NEAR(*stats_.prompt_tokens_per_turn, (7 * 100 + 300) / 8.0, 1e-12);
  EXPECT_NEAR(*stats_.completion_tokens_per_turn, 20, 1e-12);
  EXPECT_NEAR(*stats_.latency_ms_per_turn, (7 * 50 + 250) / 8.0, 1e-12);
  EXPECT_NEAR(stats_.turns_per_episode, 8 / 5.0, 1e-12);
  ASSERT_TRUE(stats_.wall_hours);
  EXPECT_NEAR(*stats_.wall_hours, 2.0, 1e-9);
  EXPECT_NEAR(*stats_.episodes_per_hour, 2.0, 1e-9);
  EXPECT_NEAR(*stats_.evaluations_per_hour, 3.5, 1e-9);
  EXPECT_EQ(stats_.status.at("running"), 1);
  EXPECT_EQ(stats_.exit_reasons.at("budget"), 2);
}

TEST_F(StatsTest, PerTaskNumbersMatchTheHandComputation) {
  ASSERT_EQ(stats_.tasks.size(), 2u);
  const auto& a = stats_.tasks[0];
  EXPECT_EQ(a.task_id, "a");
  EXPECT_EQ(a.episodes, 2);
  EXPECT_NEAR(a.quality.mean_best_as, 0.75, 1e-12);
  EXPECT_NEAR(a.quality.correct_rate, 0.5, 1e-12);
  EXPECT_NEAR(a.quality.fast_p[2], 1 / 4.0, 1e-12);  // only 2.0 is > 1
  const auto& b = stats_.tasks[1];
  EXPECT_EQ(b.episodes, 3);
  EXPECT_EQ(b.quality.scored, 2);
  EXPECT_NEAR(b.quality.mean_best_as, 0.45, 1e-12);
  EXPECT_NEAR(*b.quality.hidden_as, 0.4, 1e-12);  // 0.7 and b for b1
}

TEST_F(StatsTest, ReportsSayCompileOnlyLoudlyAndRenderJsonAndSvg) {
  auto table = stats_table({stats_, stats_});
  EXPECT_NE(table.find("WARNING: runs/x: 1 of 7 evaluations were COMPILE-ONLY"), std::string::npos)
      << table;
  EXPECT_NE(table.find("mean best AS"), std::string::npos);
  EXPECT_NE(table.find("0.6000"), std::string::npos);
  Json j = to_json(stats_);
  EXPECT_DOUBLE_EQ(j["quality"]["fast_p"]["1.2"].get<double>(), 3 / 8.0);
  EXPECT_EQ(j["evaluations"]["compile_only"], 1);
  EXPECT_EQ(j["tasks"].size(), 2u);
  EXPECT_EQ(j["quality"]["es_curve"].size(), 15u);
  std::string svg = es_curve_svg({stats_});
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("<polyline"), std::string::npos);
  EXPECT_NE(svg.find("log scale"), std::string::npos);
  EXPECT_NE(svg.find("runs/x"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

// Per-GPU utilisation over two sessions of one run (a run and its resume):
// busy time over the wall time of every session, the queue counted once per
// session; the rows survive reopening the store and show in table and JSON.
TEST(GpuUsageStats, SessionsAddUpPerGpu) {
  testing::TempDir dir;
  const std::string run = "20250101T000000Z-00000abc";
  {
    auto s = TrajectoryStore::open(dir.path(), TrajectoryStore::OpenMode::create);
    ASSERT_TRUE(s.ok()) << s.error().message;
    ASSERT_TRUE((*s)->create_run(testing::make_run(run)).ok());
    for (const auto& u :
         {GpuUsageRecord{run, "2025-01-01T00:00:00.000Z", "0", 100, 90, 400, 50, 6},
          GpuUsageRecord{run, "2025-01-01T00:00:00.000Z", "1", 100, 60, 300, 50, 6},
          GpuUsageRecord{run, "2025-01-01T01:00:00.000Z", "0", 100, 50, 200, 10, 2},
          GpuUsageRecord{run, "2025-01-01T01:00:00.000Z", "1", 100, 70, 250, 10, 2}}) {
      ASSERT_TRUE((*s)->record_gpu_usage(u).ok());
    }
    // Recording a session's GPU again replaces its row.
    ASSERT_TRUE(
        (*s)->record_gpu_usage({run, "2025-01-01T01:00:00.000Z", "1", 100, 80, 260, 10, 2}).ok());
  }
  auto reader = TrajectoryReader::open(dir.path());
  ASSERT_TRUE(reader.ok()) << reader.error().message;
  auto rows = reader->gpu_usage();
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  ASSERT_EQ(rows->size(), 4u);
  auto st = compute_stats(*reader, "runs/g");
  ASSERT_TRUE(st.ok()) << st.error().message;
  ASSERT_EQ(st->gpus.size(), 2u);
  EXPECT_EQ(st->gpus[0].device, "0");
  EXPECT_DOUBLE_EQ(st->gpus[0].busy_share, 140 / 200.0);
  EXPECT_EQ(st->gpus[0].requests, 600);
  EXPECT_DOUBLE_EQ(st->gpus[1].busy_share, 140 / 200.0);
  EXPECT_EQ(st->gpus[1].requests, 560);
  ASSERT_TRUE(st->gpu_queue_mean.has_value());
  EXPECT_DOUBLE_EQ(*st->gpu_queue_mean, 60 / 200.0);
  EXPECT_EQ(st->gpu_queue_max, 6);
  auto table = stats_table({*st});
  EXPECT_NE(table.find("GPU utilisation"), std::string::npos) << table;
  EXPECT_NE(table.find("70% (600)"), std::string::npos) << table;
  EXPECT_NE(table.find("0.30 / 6"), std::string::npos) << table;
  Json j = to_json(*st);
  EXPECT_EQ(j["gpus"][1]["requests"], 560);
  EXPECT_EQ(j["gpu_queue"]["max"], 6);
}

}  // namespace
}  // namespace pf::traj
