// The timing harness's statistics and stability rule on given samples (the
// device part of the harness is exercised by the GPU suite).
#include "evaluator/gpu/timing_stats.h"

#include <gtest/gtest.h>

#include "evaluator/gpu/caching_allocator.h"
#include "evaluator/gpu/timing.h"

namespace pf::gpu {
namespace {

TEST(TimingStats, MedianAndQuartilesInterpolateLikeNumpy) {
  SampleStats s = summarize({7, 1, 3, 5});
  EXPECT_EQ(s.n, 4u);
  EXPECT_DOUBLE_EQ(s.median, 4.0);
  EXPECT_DOUBLE_EQ(s.q1, 2.5);  // numpy.percentile([1,3,5,7], 25)
  EXPECT_DOUBLE_EQ(s.q3, 5.5);
  EXPECT_DOUBLE_EQ(s.iqr, 3.0);
  EXPECT_DOUBLE_EQ(s.mean, 4.0);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 7.0);
  SampleStats odd = summarize({10, 2, 6});
  EXPECT_DOUBLE_EQ(odd.median, 6.0);
  EXPECT_DOUBLE_EQ(odd.q1, 4.0);
  EXPECT_DOUBLE_EQ(odd.q3, 8.0);
  SampleStats empty = summarize({});
  EXPECT_EQ(empty.n, 0u);
  EXPECT_DOUBLE_EQ(empty.iqr_ratio(), 0.0);
}

TEST(TimingStats, UnstableWhenIqrExceedsTheRatio) {
  std::vector<double> tight(100, 10.0);
  for (int i = 0; i < 100; ++i) tight[i] += 0.01 * (i % 10);
  EXPECT_FALSE(is_unstable(summarize(tight), 0.2));
  std::vector<double> noisy;
  for (int i = 0; i < 100; ++i) noisy.push_back(i % 2 ? 10.0 : 14.0);
  SampleStats s = summarize(noisy);
  EXPECT_NEAR(s.iqr_ratio(), 4.0 / 12.0, 1e-12);
  EXPECT_TRUE(is_unstable(s, 0.2));
  EXPECT_FALSE(is_unstable(s, 0.5));
}

TEST(TimingStats, StabilityMetricSelectsTheSamples) {
  SideTiming side;
  for (int i = 0; i < 100; ++i) {
    side.device_ms.push_back(1.0);
    side.e2e_ms.push_back(i % 2 ? 1.0 : 2.0);
  }
  side.device = summarize(side.device_ms);
  side.e2e = summarize(side.e2e_ms);
  TimingOptions o;
  o.stability = StabilityMetric::end_to_end;
  EXPECT_TRUE(side_unstable(side, o));
  o.stability = StabilityMetric::device;
  EXPECT_FALSE(side_unstable(side, o));
  o.stability = StabilityMetric::both;
  EXPECT_TRUE(side_unstable(side, o));
  o.max_iqr_ratio = 1.0;
  EXPECT_FALSE(side_unstable(side, o));
}

TEST(TimingStats, JsonCarriesSamplesAndSummaries) {
  TimingResult r;
  r.a.name = "candidate";
  r.a.e2e_ms = {1, 2, 3};
  r.a.e2e = summarize(r.a.e2e_ms);
  r.b.name = "eager";
  auto j = r.to_json(true);
  EXPECT_EQ(j["a"]["name"], "candidate");
  EXPECT_EQ(j["a"]["e2e_samples_ms"].size(), 3u);
  EXPECT_DOUBLE_EQ(j["a"]["e2e_ms"]["median"].get<double>(), 2.0);
  EXPECT_FALSE(r.to_json(false)["a"].contains("e2e_samples_ms"));
}

TEST(CachingAllocator, SizeClassesBoundSlack) {
  EXPECT_EQ(CachingAllocator::size_class(0), 512u);
  EXPECT_EQ(CachingAllocator::size_class(1), 512u);
  EXPECT_EQ(CachingAllocator::size_class(513), 1024u);
  EXPECT_EQ(CachingAllocator::size_class(1 << 20), size_t{1} << 20);
  EXPECT_EQ(CachingAllocator::size_class((1 << 20) + 1), (size_t{1} << 20) + (size_t{1} << 18));
  for (size_t bytes : {size_t{3000000}, size_t{123456789}, size_t{1} << 30}) {
    size_t c = CachingAllocator::size_class(bytes);
    EXPECT_GE(c, bytes);
    EXPECT_LE(static_cast<double>(c), 1.25 * static_cast<double>(bytes) + 512);
  }
}

}  // namespace
}  // namespace pf::gpu
