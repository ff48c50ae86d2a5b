// The timing harness's adaptive trial count on a device: it stops at the
// minimum (whole rounds, the last trial re-checked) when the medians are
// precise, runs to the maximum when they cannot be, and does not stop on a
// side whose time changes while it is measured. The sides are plans of one
// host step that spins for a set time (stream launches: the host clock sees
// it), so their times are known. Skips without a GPU.
#include <gtest/gtest.h>

#include <chrono>

#include "evaluator/gpu/plan_builder.h"
#include "evaluator/gpu/timing.h"
#include "tests/support/gpu.h"
#include "tests/unit/gpu/gpu_test_util.h"

namespace pf::gpu::test {
namespace {

void spin_us(int us) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(us);
  while (std::chrono::steady_clock::now() < until) {
  }
}

// A plan whose one step spins for spin(call number) microseconds.
Plan spinning_plan(GpuRuntime& rt, std::function<int(int)> spin) {
  PlanBuilder b(rt);
  auto calls = std::make_shared<int>(0);
  b.add_library_call("spin", [calls, spin = std::move(spin)](CUstream) {
    spin_us(spin((*calls)++));
    return ok_status();
  });
  return b.finish();
}

TimingOptions adaptive_options() {
  TimingOptions o;
  o.warmup = 2;
  o.trials = 100;
  o.flush_l2 = false;
  o.graph_replay = false;
  o.check_every = 5;
  o.min_trials = 20;
  o.precision = 0.2;
  o.remeasures = 0;
  return o;
}

// Loose enough that two steady sides meet it at their minimums (the first
// test says why the clock may take a while to settle); B's own minimum 10.
TimingOptions steady_options() {
  TimingOptions o = adaptive_options();
  o.precision = 0.5;
  o.warmup = 50;
  o.min_trials_b = 10;
  return o;
}

TEST(AdaptiveTiming, StopsAtARoundEndWhenPreciseAndChecksTheLastTrial) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  auto harness = TimingHarness::create(*rt);
  ASSERT_TRUE(harness.ok()) << harness.error().message;
  Plan a = spinning_plan(*rt, [](int) { return 200; });
  Plan b = spinning_plan(*rt, [](int) { return 400; });
  std::vector<int> checked;
  auto checker = [&](int side, int trial, size_t) -> Status {
    if (side == 0) checked.push_back(trial);
    return ok_status();
  };
  TimingOptions o = adaptive_options();
  // The spin kernels count clock cycles: while the SM clock settles their
  // time drifts and the steadiness check rightly keeps measuring (on the
  // H200 one run stopped at 25 trials, another at 70 with two warm-ups).
  // Where it stops is timing_stopping_test's to pin down on synthetic
  // samples; here: at a round's end, early, with every round checked.
  o.warmup = 50;
  auto r = (*harness)->time_interleaved({"a", {&a}}, {"b", {&b}}, o, checker);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->stopped_early);
  EXPECT_GE(r->trials, 20);
  EXPECT_LT(r->trials, 100);
  EXPECT_EQ(r->trials % 5, 0) << "stops only at the end of a round";
  EXPECT_EQ(r->a.e2e_ms.size(), static_cast<size_t>(r->trials));
  std::vector<int> every_round;
  for (int t = 4; t < r->trials; t += 5) every_round.push_back(t);
  EXPECT_EQ(checked, every_round);  // the last trial is one of them
  EXPECT_LE(r->a.e2e_precision.relative_half_width, 0.2);
  EXPECT_NEAR(r->b.e2e.median / r->a.e2e.median, 2.0, 0.5);
  std::printf("adaptive: %d trials, precision a %.4f b %.4f\n", r->trials,
              r->a.e2e_precision.relative_half_width, r->b.e2e_precision.relative_half_width);

  // A precision no sample reaches: the maximum, as with a fixed count.
  o.precision = 1e-9;
  o.trials = 33;
  checked.clear();
  auto full = (*harness)->time_interleaved({"a", {&a}}, {"b", {&b}}, o, checker);
  ASSERT_TRUE(full.ok()) << full.error().message;
  EXPECT_FALSE(full->stopped_early);
  EXPECT_EQ(full->trials, 33);
  EXPECT_EQ(checked.back(), 32);
  // Precision 0: the fixed count, whatever the samples.
  o.precision = 0;
  auto fixed = (*harness)->time_interleaved({"a", {&a}}, {"b", {&b}}, o);
  ASSERT_TRUE(fixed.ok()) << fixed.error().message;
  EXPECT_EQ(fixed->trials, 33);
  EXPECT_FALSE(fixed->stopped_early);
}

// B has its own minimum (the baseline's, which no check reads): with both
// sides steady it stops at 10 trials and A, whose minimum covers its checks,
// runs on alone to 20; A's rounds are still checked, B's only while it runs.
TEST(AdaptiveTiming, BStopsAtItsOwnMinimumAndARunsOnAlone) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  auto harness = TimingHarness::create(*rt);
  ASSERT_TRUE(harness.ok()) << harness.error().message;
  Plan a = spinning_plan(*rt, [](int) { return 300; });
  Plan b = spinning_plan(*rt, [](int) { return 300; });
  std::vector<int> checked[2];
  auto checker = [&](int side, int trial, size_t) -> Status {
    checked[side].push_back(trial);
    return ok_status();
  };
  TimingOptions o = steady_options();
  // The first measurements of a fresh process may run while the GPU's clock
  // still ramps up from idle (345 MHz on the H200), and then even 50 %
  // precision is not met by the minimum; the rule is judged on the first of
  // three measurements that ran at a settled clock (both sides stopped).
  Result<TimingResult> r = make_error(ErrorCode::internal, "not measured");
  for (int attempt = 0; attempt < 3; ++attempt) {
    checked[0].clear();
    checked[1].clear();
    r = (*harness)->time_interleaved({"a", {&a}}, {"b", {&b}}, o, checker);
    ASSERT_TRUE(r.ok()) << r.error().message;
    if (r->stopped_early) break;
  }
  EXPECT_EQ(r->b.trials(), 10);
  EXPECT_EQ(r->a.trials(), 20);
  EXPECT_EQ(r->trials, 20);
  EXPECT_TRUE(r->stopped_early);
  EXPECT_EQ(checked[0], (std::vector<int>{4, 9, 14, 19}));
  EXPECT_EQ(checked[1], (std::vector<int>{4, 9}));
  EXPECT_EQ(r->to_json(false)["b"]["trials"], 10);
  // Without its own minimum B has A's (each side still stops on its own).
  o.min_trials_b = 0;
  auto same = (*harness)->time_interleaved({"a", {&a}}, {"b", {&b}}, o, checker);
  ASSERT_TRUE(same.ok()) << same.error().message;
  EXPECT_GE(same->b.trials(), 20);
  EXPECT_GE(same->a.trials(), 20);
}

// A prior for B (the baseline pool's samples of earlier evaluations): one
// round of fresh trials when they agree with it; dropped, and B measured
// afresh from its own minimum, when they do not; ignored when it was
// launched another way.
TEST(AdaptiveTiming, BWithAPriorRunsOneRoundWhileTheFreshTrialsAgree) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  auto harness = TimingHarness::create(*rt);
  ASSERT_TRUE(harness.ok()) << harness.error().message;
  Plan a = spinning_plan(*rt, [](int) { return 300; });
  Plan b = spinning_plan(*rt, [](int) { return 300; });
  TimingOptions o = steady_options();
  auto first = (*harness)->time_interleaved({"a", {&a}}, {"b", {&b}}, o);
  ASSERT_TRUE(first.ok()) << first.error().message;
  PriorSamples prior{first->b.device_ms, first->b.e2e_ms, first->b.launch};
  ASSERT_EQ(prior.launch, "stream");

  auto agreed = (*harness)->time_interleaved({"a", {&a}}, {"b", {&b}}, o, nullptr, nullptr, &prior);
  ASSERT_TRUE(agreed.ok()) << agreed.error().message;
  EXPECT_EQ(agreed->b.prior, static_cast<int>(prior.device_ms.size()));
  EXPECT_FALSE(agreed->b.prior_dropped);
  EXPECT_EQ(agreed->b.trials(), 5);
  EXPECT_EQ(agreed->b.e2e_ms.size(), prior.e2e_ms.size() + 5);
  EXPECT_EQ(agreed->to_json(false)["b"]["prior"], agreed->b.prior);

  // A prior three times as slow as B is now: the fresh median is outside
  // its interval, even widened by the loose precision.
  PriorSamples slow = prior;
  for (double& ms : slow.device_ms) ms *= 3;
  for (double& ms : slow.e2e_ms) ms *= 3;
  auto dropped = (*harness)->time_interleaved({"a", {&a}}, {"b", {&b}}, o, nullptr, nullptr, &slow);
  ASSERT_TRUE(dropped.ok()) << dropped.error().message;
  EXPECT_TRUE(dropped->b.prior_dropped);
  EXPECT_EQ(dropped->b.prior, 0);
  EXPECT_GE(dropped->b.trials(), 10);
  EXPECT_EQ(dropped->b.e2e_ms.size(), static_cast<size_t>(dropped->b.trials()));
  EXPECT_LT(dropped->b.e2e.median, 2 * first->b.e2e.median);

  PriorSamples graphed = prior;
  graphed.launch = "graph";
  auto ignored =
      (*harness)->time_interleaved({"a", {&a}}, {"b", {&b}}, o, nullptr, nullptr, &graphed);
  ASSERT_TRUE(ignored.ok()) << ignored.error().message;
  EXPECT_EQ(ignored->b.prior, 0);
  EXPECT_FALSE(ignored->b.prior_dropped);
  EXPECT_GE(ignored->b.trials(), 10);
}

// A side that is slow for its first 12 timed trials and fast after: until
// the slow phase is the minority of the first half of the trials, the
// interval is wide or the halves disagree, so the harness cannot stop at
// 20, 25, ... 40 trials; it ends on the fast time, as a fixed count would.
TEST(AdaptiveTiming, DoesNotStopWhileTheTimeDrifts) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  auto harness = TimingHarness::create(*rt);
  ASSERT_TRUE(harness.ok()) << harness.error().message;
  TimingOptions o = adaptive_options();
  const int slow_calls = o.warmup + 12;
  Plan drifting =
      spinning_plan(*rt, [slow_calls](int call) { return call < slow_calls ? 2000 : 200; });
  Plan steady = spinning_plan(*rt, [](int) { return 400; });
  auto r = (*harness)->time_interleaved({"drifting", {&drifting}}, {"steady", {&steady}}, o);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_GT(r->trials, 40);
  EXPECT_LT(r->a.e2e.median, 1.0);  // ms: the fast phase
  std::printf("drifting side: stopped after %d trials (early: %d), median %.3f ms\n", r->trials,
              r->stopped_early, r->a.e2e.median);
}

}  // namespace
}  // namespace pf::gpu::test
