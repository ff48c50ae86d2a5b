// Batched rounds of the timing harness on a device: with the device clock and
// replayed graphs a round's trials are enqueued back to back (each with its
// own events, re-poisoning and flush) and the host waits once per round. The
// checks still see each round's last outputs complete, the preparer's
// stream-ordered re-poisoning lands before the trial it prepares, and no host
// clock is read. Skips without a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "evaluator/gpu/graph_plan.h"
#include "evaluator/gpu/plan_builder.h"
#include "evaluator/gpu/timing.h"
#include "tests/support/gpu.h"
#include "tests/unit/gpu/gpu_test_util.h"

namespace pf::gpu::test {
namespace {

struct TwoPlans {
  std::vector<Plan> plans;
  std::vector<DeviceTensor> outs;
  std::vector<Tensor> expected;
};

// exp(x) * 2 on two input sets, and what each plan's output must hold.
TwoPlans exp_plans(GpuRuntime& rt) {
  Graph g =
      typed_graph("def f(x):\n    return (torch.exp(x) * 2,)\n", {{DType::float32, {1 << 16}}});
  std::mt19937_64 rng(5);
  TwoPlans p;
  for (int set = 0; set < 2; ++set) {
    HostInput x = random_input(DType::float32, {1 << 16}, Layout::contiguous, -1, 1, rng);
    auto dx = upload_input(rt, x);
    EXPECT_TRUE(dx.ok());
    PlanBuilder b(rt);
    auto o = build_graph_plan(g, {*dx}, b);
    EXPECT_TRUE(o.ok()) << o.error().message;
    p.outs.push_back((*o)[0]);
    p.plans.push_back(b.finish());
    EXPECT_TRUE(p.plans.back().run(rt.stream()).ok());
    auto h = rt.download(p.outs.back());
    EXPECT_TRUE(h.ok());
    p.expected.push_back(std::move(*h));
  }
  return p;
}

TimingOptions device_clock() {
  TimingOptions o;
  o.warmup = 3;
  o.trials = 23;
  o.check_every = 5;
  o.remeasures = 0;
  o.stability = StabilityMetric::device;
  return o;
}

TEST(BatchedTiming, OneWaitPerRoundChecksCompleteOutputs) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  TwoPlans p = exp_plans(*rt);
  auto harness = TimingHarness::create(*rt);
  ASSERT_TRUE(harness.ok()) << harness.error().message;
  // Before every trial of side 0 its output is poisoned on the stream, as
  // the protocol re-poisons the candidate's outputs; the checks must find the
  // values of the trial that ran after it, never the poison.
  std::vector<std::pair<int, size_t>> prepared;
  auto prepare = [&](int side, size_t plan) -> Status {
    prepared.emplace_back(side, plan);
    if (side != 0) return ok_status();
    return p.outs[plan].storage()->buffer().poison({cuda::PoisonKind::nan_f32}, rt->stream());
  };
  std::vector<int> checked_trials;
  auto checker = [&](int side, int trial, size_t plan) -> Status {
    if (side != 0) return ok_status();
    checked_trials.push_back(trial);
    PF_ASSIGN(Tensor h, rt->download(p.outs[plan]));
    for (int64_t i = 0; i < h.numel(); i += 997) {
      if (std::isnan(h.get(i)) || h.get(i) != p.expected[plan].get(i)) {
        return make_error(ErrorCode::internal, "output of trial " + std::to_string(trial) +
                                                   " not complete at its check");
      }
    }
    return ok_status();
  };
  TimingOptions o = device_clock();
  auto r = (*harness)->time_interleaved(Runnable{"a", {&p.plans[0], &p.plans[1]}},
                                        Runnable{"b", {&p.plans[1], &p.plans[0]}}, o, checker,
                                        prepare);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->batched);
  EXPECT_EQ(r->a.launch, "graph");
  EXPECT_EQ(r->trials, 23);
  EXPECT_EQ(r->a.device_ms.size(), 23u);
  EXPECT_EQ(r->b.device_ms.size(), 23u);
  EXPECT_TRUE(r->a.e2e_ms.empty()) << "no host clock per trial in batched rounds";
  EXPECT_TRUE(r->to_json(false)["a"]["e2e_ms"].is_null());
  for (double ms : r->a.device_ms) EXPECT_GT(ms, 0.0);
  // Rounds of 5: checks after trials 4, 9, 14, 19 and the last, 22.
  EXPECT_EQ(checked_trials, (std::vector<int>{4, 9, 14, 19, 22}));
  EXPECT_EQ(prepared.size(), 2u * (3 + 23));
  EXPECT_EQ(prepared[3], (std::pair<int, size_t>{1, 1}));  // warm-up 1 of b: plan 1
  std::printf("batched: a %.4f ms, b %.4f ms (device medians)\n", r->a.device.median,
              r->b.device.median);

  // The same protocol synchronised per trial: the end-to-end clock, or
  // stream launches, or batching switched off; both clocks read.
  for (int variant = 0; variant < 3; ++variant) {
    TimingOptions s = device_clock();
    if (variant == 0) s.stability = StabilityMetric::end_to_end;
    if (variant == 1) s.graph_replay = false;
    if (variant == 2) s.batch_rounds = false;
    checked_trials.clear();
    prepared.clear();
    auto u = (*harness)->time_interleaved(Runnable{"a", {&p.plans[0], &p.plans[1]}},
                                          Runnable{"b", {&p.plans[1], &p.plans[0]}}, s, checker,
                                          prepare);
    ASSERT_TRUE(u.ok()) << u.error().message;
    EXPECT_FALSE(u->batched) << variant;
    EXPECT_EQ(u->a.e2e_ms.size(), 23u) << variant;
    EXPECT_EQ(checked_trials, (std::vector<int>{4, 9, 14, 19, 22})) << variant;
    // Each trial prepared once, in the order the trials run.
    ASSERT_EQ(prepared.size(), 2u * (3 + 23)) << variant;
    EXPECT_EQ(prepared[6 + 3], (std::pair<int, size_t>{1, 1})) << variant;  // trial 1 of b: plan 1
    EXPECT_EQ(prepared[6 + 4], (std::pair<int, size_t>{0, 0})) << variant;  // trial 2 of a: plan 0
  }
}

// A check that fails inside a batched round stops the measurement with the
// trial it was after, as in per-trial mode.
TEST(BatchedTiming, AFailedCheckStopsTheMeasurement) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  TwoPlans p = exp_plans(*rt);
  auto harness = TimingHarness::create(*rt);
  ASSERT_TRUE(harness.ok()) << harness.error().message;
  int checks = 0;
  auto r = (*harness)->time_interleaved(
      Runnable{"a", {&p.plans[0]}}, Runnable{"b", {&p.plans[1]}}, device_clock(),
      [&](int, int trial, size_t) -> Status {
        ++checks;
        if (trial < 9) return ok_status();
        return make_error(ErrorCode::internal, "mismatch");
      });
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("after timed trial 9"), std::string::npos)
      << r.error().message;
  EXPECT_EQ(checks, 3);  // both sides after trial 4, then side a after trial 9
}

}  // namespace
}  // namespace pf::gpu::test
