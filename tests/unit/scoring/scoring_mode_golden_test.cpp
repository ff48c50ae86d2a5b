// Golden cases for the three scoring modes, derived by hand from the upstream
// formulas (docs/evaluation.md "Scoring modes"), not from this code:
//   ES_t = geomean over variants of s_hat_t; t < 1: rect(speedup) if close at t,
//   else b; t >= 1: the t = 1 status, a failure there scores 1 from the level
//   its reference forgives it (PassNet: accuracy 1, shape/dtype/pass_miss 3,
//   crashes never; GraphNet: accuracy 1, everything else 3), b below it.
//   AS = 10^(sum_t w_t log10 ES_t), w = PassNet's weights / 5.957424;
//   GraphNet's score = sum_t g_t log10 ES_t, g = GraphNet's weights / 5.333.
// A lone failure forgiven from level f has AS = b^(1 - sum_{t >= f} w_t):
//   f = 1: 0.1^(1 - 1.000744 / 5.957424) = 0.14720716782174490
//   f = 3: 0.1^(1 - 0.263144 / 5.957424) = 0.11070590055298139
// and GraphNet score log10(b) * (1 - sum_{t >= f} g_t):
//   f = 1: -(1 - 1.92 / 5.333) = -0.63997749859366190
//   f = 3: -(1 - 0.96 / 5.333) = -0.81998874929683070
#include <gtest/gtest.h>

#include <string>

#include "evaluator/scoring/output_compare.h"
#include "evaluator/scoring/score.h"

namespace pf {
namespace {

constexpr double kForgivenFrom1 = 0.14720716782174490;
constexpr double kForgivenFrom3 = 0.11070590055298139;
constexpr double kGraphnetFrom1 = -0.63997749859366190;
constexpr double kGraphnetFrom3 = -0.81998874929683070;

ScoringOptions mode(ScoringMode m, double b = 0.1) {
  ScoringOptions o;
  o.mode = m;
  o.b = b;
  return o;
}

VariantOutcome correct(double speedup, int from_level) {
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

// Expected ES_t of a lone failing variant in the three t regions (t < 1,
// 1 <= t < 3, t >= 3): 'b' or '1' per region, per mode.
struct ClassCase {
  const char* name;
  VariantOutcome outcome;
  const char* strict;
  const char* passnet;
  const char* graphnet;
};

std::vector<ClassCase> class_cases() {
  return {
      // Close only from t = 2: a t = 1 accuracy failure (PassNet and GraphNet forgive
      // accuracy from t = 1).
      {"accuracy (close from t = 2)", correct(1.5, 2), "bbb", "b11", "b11"},
      {"accuracy (never close)", failed(FailureClass::accuracy), "bbb", "b11", "b11"},
      // PassNet: no "[Shape] match:True" line -> shape_mismatch, its runtime bucket (t >= 3);
      // a dtype mismatch ends the same way. GraphNet: mismatches from t = 3.
      {"shape_mismatch", failed(FailureClass::shape_mismatch), "bbb", "bb1", "bb1"},
      {"dtype_mismatch", failed(FailureClass::dtype_mismatch), "bbb", "bb1", "bb1"},
      // PassNet: its own pass_miss status, runtime bucket. GraphNet: an unknown name is an
      // execution failure (t >= 3).
      {"pass_miss", failed(FailureClass::pass_miss), "bbb", "bb1", "bb1"},
      // PassNet: any failure of the compiled run is logged as eager_fail, never tolerated.
      // GraphNet: compile and execution failures from t = 3.
      {"compile_fail", failed(FailureClass::compile_fail), "bbb", "bbb", "bb1"},
      {"runtime_fail", failed(FailureClass::runtime_fail), "bbb", "bbb", "bb1"},
      {"timeout", failed(FailureClass::timeout), "bbb", "bbb", "bb1"},
      // No upstream counterpart: never forgiven anywhere.
      {"integrity", failed(FailureClass::integrity), "bbb", "bbb", "bbb"},
  };
}

double expected_as(const std::string& regions) {
  if (regions == "b11") return kForgivenFrom1;
  if (regions == "bb1") return kForgivenFrom3;
  return 0.1;
}

double expected_graphnet_score(const std::string& regions) {
  if (regions == "b11") return kGraphnetFrom1;
  if (regions == "bb1") return kGraphnetFrom3;
  return -1.0;
}

TEST(ScoringModeGolden, EveryFailureClassInEveryRegionAndMode) {
  const int region_levels[3][3] = {{-10, -5, 0}, {1, 2, 2}, {3, 4, 4}};
  for (const ClassCase& c : class_cases()) {
    for (ScoringMode m : {ScoringMode::strict, ScoringMode::passnet, ScoringMode::graphnet}) {
      const std::string regions = m == ScoringMode::strict    ? c.strict
                                  : m == ScoringMode::passnet ? c.passnet
                                                              : c.graphnet;
      SCOPED_TRACE(std::string(c.name) + " in " + scoring_mode_name(m));
      auto s = score_variants({c.outcome}, mode(m));
      ASSERT_TRUE(s);
      for (int r = 0; r < 3; ++r) {
        const double want = regions[r] == '1' ? 1.0 : 0.1;
        for (int t : region_levels[r]) EXPECT_DOUBLE_EQ(s->es[level_index(t)], want) << "t " << t;
      }
      EXPECT_NEAR(s->as, expected_as(regions), 1e-14);
      EXPECT_NEAR(s->graphnet_score, expected_graphnet_score(regions), 1e-14);
    }
  }
}

// The real result h11_return_input: every variant returns an output of the
// wrong shape. 0.1 strict; PassNet's scorer forgives it from t = 3.
TEST(ScoringModeGolden, ShapeMismatchOfH11ReturnInput) {
  std::vector<VariantOutcome> all(4, failed(FailureClass::shape_mismatch));
  EXPECT_NEAR(score_variants(all, mode(ScoringMode::strict))->as, 0.1, 1e-15);
  EXPECT_NEAR(score_variants(all, mode(ScoringMode::passnet))->as, 0.1107059, 5e-8);
  EXPECT_NEAR(score_variants(all, mode(ScoringMode::graphnet))->as, 0.1107059, 5e-8);
  // With b = 0.001 as PassNet's entry script passes it: 0.001^(1 - 0.263144 / 5.957424).
  EXPECT_NEAR(score_variants(all, mode(ScoringMode::passnet, 0.001))->as, 0.0013567889793652892,
              1e-15);
}

// A 2x correct variant (close from t = -5) beside one failure: ES_t = b for
// t < -5, sqrt(2 b) up to the level the failure is forgiven, sqrt(2) from there.
TEST(ScoringModeGolden, CorrectVariantBesideEachKindOfFailure) {
  struct Mixed {
    FailureClass failure;
    double strict, passnet, graphnet;
  };
  const double never = 0.4466517375405162, from1 = 0.5419179125353509, from3 = 0.4699529848901739;
  for (const Mixed& m : {Mixed{FailureClass::accuracy, never, from1, from1},
                         Mixed{FailureClass::shape_mismatch, never, from3, from3},
                         Mixed{FailureClass::runtime_fail, never, never, from3},
                         Mixed{FailureClass::integrity, never, never, never}}) {
    SCOPED_TRACE(failure_class_name(m.failure));
    std::vector<VariantOutcome> vs = {correct(2.0, -5), failed(m.failure)};
    EXPECT_NEAR(score_variants(vs, mode(ScoringMode::strict))->as, m.strict, 1e-14);
    EXPECT_NEAR(score_variants(vs, mode(ScoringMode::passnet))->as, m.passnet, 1e-14);
    EXPECT_NEAR(score_variants(vs, mode(ScoringMode::graphnet))->as, m.graphnet, 1e-14);
  }
}

// Unstable timing: strict leaves the variant out; PassNet's timing check
// raises, which its log parser reads as eager_fail (b everywhere, counted);
// GraphNet has no check and scores the measured speedup.
TEST(ScoringModeGolden, UnstableVariantCountsAsEachReferenceCountsIt) {
  VariantOutcome noisy = correct(0.5, -5);
  noisy.failure = FailureClass::unstable;
  std::vector<VariantOutcome> vs = {correct(2.0, -5), noisy};
  auto strict = score_variants(vs, mode(ScoringMode::strict));
  EXPECT_EQ(strict->variants, 1);
  EXPECT_NEAR(strict->as, 1.9949777464796223, 1e-13);  // 2 from t = -5, b below
  auto passnet = score_variants(vs, mode(ScoringMode::passnet));
  EXPECT_EQ(passnet->variants, 2);
  EXPECT_NEAR(passnet->as, 0.4466517375405162, 1e-14);  // sqrt(2 b) from t = -5
  auto graphnet = score_variants(vs, mode(ScoringMode::graphnet));
  EXPECT_EQ(graphnet->variants, 2);
  EXPECT_NEAR(graphnet->as, 0.9980693319685221, 1e-14);  // sqrt(2 * 0.5) from t = -5
  EXPECT_NEAR(graphnet->graphnet_score, -0.09994374648415527, 1e-14);
}

// float64 at t = -1: atol = rtol = 0.0398; at t = 0: 1. Expected 0, candidate
// 0.041: |c - e| = 0.041 > 0.0398 + 0.0398 * 0 (ours fails t = -1) but
// <= 0.0398 + 0.0398 * 0.041 = 0.04143 (PassNet's torch.allclose(expected,
// compiled) passes), and 0.041 > 0.00158 * 1.041 at t = -2.
TEST(ScoringModeGolden, PassnetPutsRtolOnTheCandidate) {
  Tensor e = Tensor::from_doubles(DType::float64, {1}, {0.0});
  Tensor c = Tensor::from_doubles(DType::float64, {1}, {0.041});
  OutputComparison r = compare_output(c, e);
  EXPECT_EQ(r.first_passing_level, 0);
  EXPECT_EQ(r.first_passing_level_rtol_candidate, -1);
  // The other way round the candidate side is the stricter one.
  OutputComparison swapped = compare_output(e, c);
  EXPECT_EQ(swapped.first_passing_level, -1);
  EXPECT_EQ(swapped.first_passing_level_rtol_candidate, 0);

  // A 2x variant close from t = 0 (ours) or t = -1 (PassNet's order).
  VariantOutcome v = correct(2.0, r.first_passing_level);
  v.first_passing_level_rtol_candidate = r.first_passing_level_rtol_candidate;
  EXPECT_NEAR(score_variants({v}, mode(ScoringMode::strict))->as, 0.2139416168444911, 1e-14);
  EXPECT_NEAR(score_variants({v}, mode(ScoringMode::graphnet))->as, 0.2139416168444911, 1e-14);
  EXPECT_NEAR(score_variants({v}, mode(ScoringMode::passnet))->as, 0.2951641463777498, 1e-14);
  // A result recorded before the second level existed: PassNet falls back to ours.
  v.first_passing_level_rtol_candidate.reset();
  EXPECT_NEAR(score_variants({v}, mode(ScoringMode::passnet))->as, 0.2139416168444911, 1e-14);
}

TEST(ScoringModeGolden, GraphnetAggregateScoreOfAUniformSpeedup) {
  // Every level at 2x: sum_t g_t log10 2 = log10 2; AS = 2.
  auto s = score_variants({correct(2.0, kMinToleranceLevel)}, mode(ScoringMode::graphnet));
  EXPECT_NEAR(s->graphnet_score, 0.3010299956639812, 1e-14);
  EXPECT_NEAR(s->as, 2.0, 1e-14);
  double sum = 0;
  for (double g : graphnet_weights()) sum += g;
  EXPECT_NEAR(sum, 1.0, 1e-12);
  EXPECT_NEAR(graphnet_weights()[level_index(-7)], 0.13 / 5.333, 1e-15);
  EXPECT_NEAR(graphnet_weights()[level_index(4)], 0.48 / 5.333, 1e-15);
}

TEST(ScoringModeNames, RoundTripAndRejectUnknown) {
  for (ScoringMode m : {ScoringMode::strict, ScoringMode::passnet, ScoringMode::graphnet}) {
    EXPECT_EQ(parse_scoring_mode(scoring_mode_name(m)), m);
  }
  EXPECT_FALSE(parse_scoring_mode("PassNet"));
  EXPECT_FALSE(parse_scoring_mode(""));
}

}  // namespace
}  // namespace pf
