#include "evaluator/scoring/score.h"

#include <gtest/gtest.h>

#include <cmath>

namespace pf {
namespace {

VariantOutcome correct(double speedup, int from_level = kBaselineToleranceLevel) {
  VariantOutcome v;
  v.first_passing_level = from_level;
  v.speedup = speedup;
  return v;
}

VariantOutcome failed(FailureClass c) {
  VariantOutcome v;
  v.failure = c;
  return v;
}

TEST(Score, WeightsNormalise) {
  double sum = 0;
  for (double w : as_weights()) sum += w;
  EXPECT_NEAR(sum, 1.0, 1e-12);
  // raw weight of t = -5 is 1 out of a raw total of 5.957424
  EXPECT_NEAR(as_weights()[level_index(-5)], 1.0 / 5.957424, 1e-12);
}

TEST(Score, AllFailuresScoreExactlyB) {
  ScoringOptions opt;
  auto s = score_variants({failed(FailureClass::compile_fail), failed(FailureClass::pass_miss)}, opt);
  ASSERT_TRUE(s);
  for (double es : s->es) EXPECT_DOUBLE_EQ(es, 0.1);
  EXPECT_NEAR(s->as, 0.1, 1e-15);
}

TEST(Score, OneCorrectAtTwoTimesAndOneFailure) {
  // Hand-computed: ES_t = 0.1 for t < -5 (both fail), sqrt(2 * 0.1) from t = -5 on;
  // AS = exp(sum_t w_t log ES_t) = 0.4466517375...
  auto s = score_variants({correct(2.0), failed(FailureClass::runtime_fail)}, ScoringOptions{});
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->es[level_index(-6)], 0.1);
  EXPECT_NEAR(s->es[level_index(-5)], std::sqrt(0.2), 1e-12);
  EXPECT_NEAR(s->es[level_index(4)], std::sqrt(0.2), 1e-12);
  EXPECT_NEAR(s->as, 0.4466517375405161, 1e-12);
}

TEST(Score, CorrectPassScoresAboutPoint998TimesSpeedup) {
  auto s = score_variants({correct(1.7), correct(1.7)}, ScoringOptions{});
  ASSERT_TRUE(s);
  EXPECT_NEAR(s->as, 1.6959623985761423, 1e-12);
  EXPECT_NEAR(s->as / 1.7, 0.998, 0.001);
}

TEST(Score, SlowdownPenaltyExponent) {
  EXPECT_DOUBLE_EQ(rectified_speedup(0.5, 0), 0.5);
  EXPECT_DOUBLE_EQ(rectified_speedup(0.5, 1), 0.25);
  EXPECT_DOUBLE_EQ(rectified_speedup(2.0, 1), 2.0);
  ScoringOptions opt;
  opt.p = 1;
  auto s = score_variants({correct(0.5, kMinToleranceLevel)}, opt);
  EXPECT_NEAR(s->as, 0.25, 1e-12);
}

TEST(Score, AccuracyFailureJudgedAtLevelOneAndForgivenOnlyOutsideStrictMode) {
  // Outputs close only from t = 2: a failure at t = 1, so every t >= 1 uses that status.
  VariantOutcome v = correct(1.5, 2);
  auto strict = score_variants({v}, ScoringOptions{});
  EXPECT_DOUBLE_EQ(strict->es[level_index(3)], 0.1);
  EXPECT_NEAR(strict->as, 0.1, 1e-15);
  ScoringOptions graphnet;
  graphnet.mode = ScoringMode::graphnet;
  auto g = score_variants({v}, graphnet);
  EXPECT_DOUBLE_EQ(g->es[level_index(0)], 0.1);
  EXPECT_DOUBLE_EQ(g->es[level_index(1)], 1.0);
  EXPECT_DOUBLE_EQ(g->es[level_index(4)], 1.0);
  EXPECT_NEAR(g->as, 0.14720716782174495, 1e-12);
}

TEST(Score, GraphnetForgivesRuntimeFailuresFromLevelThree) {
  ScoringOptions graphnet;
  graphnet.mode = ScoringMode::graphnet;
  auto g = score_variants({failed(FailureClass::runtime_fail)}, graphnet);
  EXPECT_DOUBLE_EQ(g->es[level_index(2)], 0.1);
  EXPECT_DOUBLE_EQ(g->es[level_index(3)], 1.0);
  auto cheat = score_variants({failed(FailureClass::integrity)}, graphnet);
  EXPECT_DOUBLE_EQ(cheat->es[level_index(4)], 0.1);
}

TEST(Score, UnstableVariantsAreExcludedInStrictMode) {
  auto s = score_variants({correct(2.0), failed(FailureClass::unstable)}, ScoringOptions{});
  EXPECT_EQ(s->variants, 1);
  EXPECT_FALSE(score_variants({failed(FailureClass::unstable)}, ScoringOptions{}));
}

TEST(ScoreStats, CorrectnessGeomeanAndFastP) {
  auto st = score_stats({correct(2.0), correct(0.5), failed(FailureClass::accuracy),
                         correct(1.0, 0) /* correct only from t = 0 */});
  EXPECT_EQ(st.variants, 4);
  EXPECT_DOUBLE_EQ(st.correct_rate, 0.5);
  EXPECT_NEAR(*st.geomean_speedup_correct, 1.0, 1e-12);  // sqrt(2 * 0.5)
  EXPECT_DOUBLE_EQ(st.fast_p[0], 0.5);   // p = 0: both correct ones
  EXPECT_DOUBLE_EQ(st.fast_p[2], 0.25);  // p = 1: only the 2x one
  EXPECT_DOUBLE_EQ(st.fast_p[5], 0.0);   // p = 2: strictly faster than 2
}

}  // namespace
}  // namespace pf
