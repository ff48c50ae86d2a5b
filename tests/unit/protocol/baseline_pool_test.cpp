// The worker's baseline pool: samples come back as stored, only the most
// recent ones are kept, and the key separates every difference in the work
// a trial measures (graph, variant, timing options, device).
#include "evaluator/protocol/baseline_pool.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/unit/passes/pass_test_util.h"

namespace pf::protocol {
namespace {

using passes::test::typed_graph;

gpu::SideTiming side_with(int n, double first) {
  gpu::SideTiming s;
  for (int i = 0; i < n; ++i) {
    s.device_ms.push_back(first + i);
    s.e2e_ms.push_back(2 * (first + i));
  }
  s.launch = "graph";
  return s;
}

TEST(BaselinePool, KeepsTheMostRecentSamplesPerKey) {
  BaselinePool pool;
  EXPECT_FALSE(pool.find("k").has_value());
  pool.insert("k", side_with(3, 1));
  auto got = pool.find("k");
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->device_ms, (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(got->e2e_ms, (std::vector<double>{2, 4, 6}));
  EXPECT_EQ(got->launch, "graph");
  // A later measurement (its prior first, then its fresh trials) replaces
  // the entry, keeping its last kMaxSamples samples.
  const int n = static_cast<int>(BaselinePool::kMaxSamples) + 7;
  pool.insert("k", side_with(n, 100));
  got = pool.find("k");
  ASSERT_TRUE(got.has_value());
  ASSERT_EQ(got->device_ms.size(), BaselinePool::kMaxSamples);
  EXPECT_EQ(got->device_ms.front(), 107);
  EXPECT_EQ(got->device_ms.back(), 100 + n - 1);
  EXPECT_EQ(got->e2e_ms.back(), 2.0 * (100 + n - 1));
  EXPECT_EQ(pool.size(), 1u);
}

TEST(BaselinePool, DriftGuardEmptiesThePoolWhenFreshMediansMoveTogether) {
  BaselinePool pool;
  pool.insert("a", side_with(5, 1));
  pool.insert("b", side_with(5, 1));
  // Fresh medians 3 % slower than their priors, variant after variant: the
  // window says nothing until it holds kDriftMinimum ratios, then it empties
  // the pool (3 % is beyond a 2 % precision).
  for (size_t i = 0; i + 1 < BaselinePool::kDriftMinimum; ++i) {
    EXPECT_FALSE(pool.observe(1.03, 0.02)) << i;
  }
  EXPECT_EQ(pool.size(), 2u);
  EXPECT_TRUE(pool.observe(1.03, 0.02));
  EXPECT_EQ(pool.size(), 0u);
  EXPECT_FALSE(pool.find("a").has_value());
  EXPECT_EQ(pool.drift_resets(), 1u);
  // The window starts again: one more ratio alone says nothing.
  EXPECT_FALSE(pool.observe(1.03, 0.02));
  EXPECT_EQ(pool.drift_resets(), 1u);
}

TEST(BaselinePool, DriftGuardKeepsThePoolWhileRatiosCentreOnOne) {
  BaselinePool pool;
  pool.insert("a", side_with(5, 1));
  // Noisy single ratios, up to 5 % either way, centred on 1; and a steady
  // 1.5 % drift, inside a 2 % precision. Invalid ratios are ignored.
  const double noisy[] = {0.95, 1.05, 0.97, 1.03, 1.0, 0.99, 1.01, 1.04, 0.96};
  for (int i = 0; i < 300; ++i) EXPECT_FALSE(pool.observe(noisy[i % 9], 0.02)) << i;
  for (int i = 0; i < 300; ++i) EXPECT_FALSE(pool.observe(0.985, 0.02)) << i;
  for (double bad : {0.0, -1.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
    for (int i = 0; i < 100; ++i) EXPECT_FALSE(pool.observe(bad, 0.02));
  }
  EXPECT_EQ(pool.size(), 1u);
  EXPECT_EQ(pool.drift_resets(), 0u);
  // A drift past the bound, arriving in a full window of ratios at 0.985, is
  // caught by the observation that makes it half the window: the median is
  // then (0.97 + 0.985) / 2, 2.25 % off.
  int observed = 1;
  while (!pool.observe(0.97, 0.02)) {
    ++observed;
    ASSERT_LT(observed, static_cast<int>(BaselinePool::kDriftWindow));
  }
  EXPECT_EQ(observed, static_cast<int>(BaselinePool::kDriftWindow) / 2);
  EXPECT_EQ(pool.size(), 0u);
}

TEST(BaselinePool, KeySeparatesGraphVariantOptionsAndDevice) {
  const OpRegistry& reg = OpRegistry::builtin();
  Graph add = typed_graph("def forward(in_0, in_1):\n    t = in_0 + in_1\n    return (t,)\n",
                          {{DType::float32, {64}}, {DType::float32, {64}}});
  Graph mul = typed_graph("def forward(in_0, in_1):\n    t = in_0 * in_1\n    return (t,)\n",
                          {{DType::float32, {64}}, {DType::float32, {64}}});
  TaskVariant v;
  v.name = "v0";
  for (const char* name : {"in_0", "in_1"}) {
    InputMeta in;
    in.name = name;
    in.shape = {64};
    v.inputs.push_back(in);
  }
  gpu::TimingOptions o;
  const std::string base = BaselinePool::key(add, reg, v, o, "H200 #0");
  EXPECT_EQ(base, BaselinePool::key(add, reg, v, o, "H200 #0"));
  EXPECT_NE(base, BaselinePool::key(mul, reg, v, o, "H200 #0"));
  EXPECT_NE(base, BaselinePool::key(add, reg, v, o, "H200 #1"));
  TaskVariant renamed = v;
  renamed.name = "v1";
  EXPECT_NE(base, BaselinePool::key(add, reg, renamed, o, "H200 #0"));
  for (int change = 0; change < 5; ++change) {
    gpu::TimingOptions p = o;
    if (change == 0) p.warmup += 1;
    if (change == 1) p.flush_l2 = !p.flush_l2;
    if (change == 2) p.graph_replay = !p.graph_replay;
    if (change == 3) p.batch_rounds = !p.batch_rounds;
    if (change == 4) p.stability = gpu::StabilityMetric::device;
    EXPECT_NE(base, BaselinePool::key(add, reg, v, p, "H200 #0")) << change;
  }
  // What does not change a trial does not split the pool.
  gpu::TimingOptions q = o;
  q.precision = 0.05;
  q.trials = 7;
  EXPECT_EQ(base, BaselinePool::key(add, reg, v, q, "H200 #0"));
}

}  // namespace
}  // namespace pf::protocol
