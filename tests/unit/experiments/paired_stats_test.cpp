#include "experiments/paired_stats.h"

#include <gtest/gtest.h>

#include <cmath>

namespace pf::experiments {
namespace {

TEST(SignTest, ExactBinomialTails) {
  // 8 positive, 2 negative of 10: P(X <= 2) = (1 + 10 + 45) / 1024; two-sided doubles it.
  auto r = sign_test({1, 2, 3, 4, 5, 6, 7, 8, -1, -2});
  EXPECT_EQ(r.positive, 8);
  EXPECT_EQ(r.negative, 2);
  EXPECT_NEAR(r.p, 2 * 56.0 / 1024, 1e-12);
  // 5 of 5 positive: 2 / 32. Zeros are dropped.
  auto all = sign_test({0.5, 0, 1, 2, 3, 4});
  EXPECT_EQ(all.zeros, 1);
  EXPECT_NEAR(all.p, 0.0625, 1e-12);
  // Balanced signs: the two tails overlap, p capped at 1.
  EXPECT_DOUBLE_EQ(sign_test({1, -1, 2, -2}).p, 1.0);
  EXPECT_DOUBLE_EQ(sign_test({}).p, 1.0);
  // Large n stays finite: 100 of 100 positive.
  EXPECT_NEAR(binomial_two_sided_p(0, 100), 2 * std::pow(0.5, 100), 1e-40);
}

TEST(Wilcoxon, ExactSmallSamplesMatchTheTables) {
  // n = 10, W- = 8: subsets of {1..10} with sum <= 8 number 25, so
  // P(W <= 8) = 25/1024 = 0.0244 (the table's critical value at 0.05 two-sided).
  std::vector<double> d = {-1, 2, 3, 4, -7, 5, 6, 8, 9, 10};
  // |d| are 1..10, so ranks equal |d|; the negatives -1 and -7 give W- = 8.
  auto r = wilcoxon_signed_rank(d);
  EXPECT_TRUE(r.exact);
  EXPECT_EQ(r.n, 10);
  EXPECT_DOUBLE_EQ(r.w_minus, 1 + 7);
  EXPECT_DOUBLE_EQ(r.w_plus, 55 - 8);
  EXPECT_NEAR(r.p, 2 * 25.0 / 1024, 1e-12);
  // All positive, n = 5: 2 / 32.
  EXPECT_NEAR(wilcoxon_signed_rank({1, 2, 3, 4, 5}).p, 0.0625, 1e-12);
  // All positive, n = 8: 2 / 256.
  EXPECT_NEAR(wilcoxon_signed_rank({1, 2, 3, 4, 5, 6, 7, 8}).p, 2.0 / 256, 1e-12);
}

TEST(Wilcoxon, ZerosDroppedAndTiesGetMidranks) {
  // |d| = 1, 1, 2, 3, 3, 3 -> mid-ranks 1.5, 1.5, 3, 5, 5, 5; W- = 3 (the -2).
  // Subsets of the ranks with sum <= 3: {}, {1.5}, {1.5}, {1.5, 1.5}, {3} = 5 of 64.
  auto r = wilcoxon_signed_rank({1, 1, -2, 3, 3, 3, 0, 0});
  EXPECT_EQ(r.zeros, 2);
  EXPECT_EQ(r.n, 6);
  EXPECT_DOUBLE_EQ(r.w_minus, 3);
  EXPECT_DOUBLE_EQ(r.w_plus, 18);
  EXPECT_NEAR(r.p, 2 * 5.0 / 64, 1e-12);
  auto none = wilcoxon_signed_rank({0, 0, 0});
  EXPECT_EQ(none.n, 0);
  EXPECT_DOUBLE_EQ(none.p, 1.0);
}

TEST(Wilcoxon, NormalApproximationForLargeSamples) {
  // n = 60, ranks 1..10 negative: W- = 55, mean 60*61/4 = 915,
  // var 60*61*121/24 = 18452.5, z = (55 - 915 + 0.5) / sqrt(18452.5) = -6.3274.
  std::vector<double> d;
  for (int i = 1; i <= 60; ++i) d.push_back(i <= 10 ? -i : i);
  auto r = wilcoxon_signed_rank(d);
  EXPECT_FALSE(r.exact);
  EXPECT_NEAR(r.z, (55 - 915 + 0.5) / std::sqrt(18452.5), 1e-12);
  EXPECT_NEAR(r.z, -6.3273, 1e-4);
  EXPECT_NEAR(r.p, 2.495e-10, 0.01e-10);
  // The approximation agrees with the exact distribution at moderate n.
  std::vector<double> e;
  for (int i = 1; i <= 30; ++i) e.push_back(i % 3 == 0 ? -i : i);
  double exact = wilcoxon_signed_rank(e, 50).p;
  double approx = wilcoxon_signed_rank(e, 0).p;
  EXPECT_NEAR(exact, approx, 0.01);
}

TEST(Wilcoxon, TieCorrectionLowersTheVariance) {
  // 40 differences: 20 of +1, 20 of -1 (one tie group of 40, mid-rank 20.5).
  // var = 40*41*81/24 - (40^3 - 40)/48 = 5535 - 1332.5 = 4202.5; W+ = W- = 410 = mean.
  std::vector<double> d(40, 1.0);
  for (int i = 0; i < 20; ++i) d[static_cast<size_t>(i)] = -1;
  auto r = wilcoxon_signed_rank(d, 0);
  EXPECT_DOUBLE_EQ(r.w_plus, 410);
  EXPECT_DOUBLE_EQ(r.p, 1.0);
  // 30 of +1, 10 of -1: W- = 205, z = (205 - 410 + 0.5) / sqrt(4202.5).
  for (int i = 10; i < 20; ++i) d[static_cast<size_t>(i)] = 1;
  auto s = wilcoxon_signed_rank(d, 0);
  EXPECT_NEAR(s.z, (205 - 410 + 0.5) / std::sqrt(4202.5), 1e-12);
}

TEST(Bootstrap, DeterministicAndCentredOnTheMean) {
  std::vector<double> d;
  for (int i = 0; i < 100; ++i) d.push_back(i % 2);  // mean 0.5, sd ~0.5
  auto a = bootstrap_mean_ci(d);
  auto b = bootstrap_mean_ci(d);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->lo, b->lo);
  EXPECT_EQ(a->hi, b->hi);
  // Normal theory: 0.5 +- 1.96 * 0.5 / 10.
  EXPECT_NEAR(a->lo, 0.5 - 0.098, 0.015);
  EXPECT_NEAR(a->hi, 0.5 + 0.098, 0.015);
  auto constant = bootstrap_mean_ci({0.25, 0.25, 0.25});
  EXPECT_DOUBLE_EQ(constant->lo, 0.25);
  EXPECT_DOUBLE_EQ(constant->hi, 0.25);
  EXPECT_FALSE(bootstrap_mean_ci({}).has_value());
  std::vector<double> spread;
  for (int i = 0; i < 30; ++i) spread.push_back(0.01 * i * i);
  EXPECT_NE(bootstrap_mean_ci(spread, 0.95, 10'000, 7)->lo, bootstrap_mean_ci(spread)->lo);
}

TEST(SampleSize, MatchesPairedTTables) {
  // Paired t, alpha 0.05 two-sided, power 0.8: d = 0.5 sd needs 34, d = 1 sd needs 10,
  // d = 0.2 sd needs 199 (Cohen's tables; normal approximation + z^2/2).
  EXPECT_EQ(tasks_needed(0.5, 1.0), 34);
  EXPECT_EQ(tasks_needed(0.1, 0.1), 10);
  EXPECT_EQ(tasks_needed(0.02, 0.1), 199);
  EXPECT_FALSE(tasks_needed(0, 1).has_value());
  EXPECT_FALSE(tasks_needed(0.1, 0).has_value());
}

TEST(Moments, MeanAndSampleSd) {
  EXPECT_DOUBLE_EQ(mean_of({1, 2, 3, 4}), 2.5);
  EXPECT_NEAR(sd_of({1, 2, 3, 4}), std::sqrt(5.0 / 3), 1e-12);
  EXPECT_DOUBLE_EQ(sd_of({3}), 0);
}

}  // namespace
}  // namespace pf::experiments
