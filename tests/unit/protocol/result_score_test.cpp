// Task-level fields of a full result from its variants, with hand-computed
// values: AS, hidden AS, ES_t curve, flags, unstable and incomplete results.
#include "evaluator/protocol/result_score.h"

#include <gtest/gtest.h>

#include <cmath>

namespace pf::protocol {
namespace {

using nlohmann::json;

json variant(const std::string& name, bool hidden, json failure, json level, json speedup) {
  return {{"name", name},
          {"hidden", hidden},
          {"evaluated", true},
          {"failure_class", failure},
          {"first_passing_level", level},
          {"speedup", speedup},
          {"correct", failure.is_null() && !level.is_null()},
          {"unstable", false},
          {"flags", json::array()}};
}

double es_at(const json& curve, int t) {
  for (const auto& p : curve) {
    if (p["t"] == t) return p["es"].get<double>();
  }
  ADD_FAILURE() << "no t = " << t;
  return 0;
}

TEST(ResultScore, OneCorrectOneFailed) {
  json r = {{"mode", "full"},
            {"failure_class", nullptr},
            {"hack_flags", json::array()},
            {"variants",
             {variant("a", false, nullptr, -10, 2.0),
              variant("b", false, "accuracy", nullptr, nullptr)}}};
  score_result(r, ProtocolOptions{});
  // Every level: sqrt(2 * 0.1); the AS of a constant curve is that constant.
  const double each = std::sqrt(2.0 * 0.1);
  EXPECT_NEAR(r["as"].get<double>(), each, 1e-12);
  ASSERT_EQ(r["es_curve"].size(), 15u);
  EXPECT_NEAR(es_at(r["es_curve"], -10), each, 1e-12);
  EXPECT_NEAR(es_at(r["es_curve"], 4), each, 1e-12);
  EXPECT_TRUE(r["hidden_as"].is_null());
  EXPECT_DOUBLE_EQ(r["correct_rate"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(r["geomean_speedup"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(r["b"].get<double>(), 0.1);
  EXPECT_FALSE(r["unstable"].get<bool>());
  EXPECT_FALSE(r["incomplete"].get<bool>());
}

TEST(ResultScore, CorrectEverywhereScoresTheSpeedup) {
  json r = {{"variants", {variant("a", false, nullptr, -10, 1.5)}}};
  score_result(r, ProtocolOptions{});
  EXPECT_NEAR(r["as"].get<double>(), 1.5, 1e-9);
}

TEST(ResultScore, AccuracyAboveTheBaselineLevelIsScoredPerLevel) {
  // Close only from t = -2 on: b below, s from there (also at t >= 1).
  json r = {{"variants", {variant("a", false, "accuracy", -2, 2.0)}}};
  score_result(r, ProtocolOptions{});
  EXPECT_NEAR(es_at(r["es_curve"], -3), 0.1, 1e-12);
  EXPECT_NEAR(es_at(r["es_curve"], -2), 2.0, 1e-12);
  EXPECT_NEAR(es_at(r["es_curve"], 3), 2.0, 1e-12);
  // Hand-computed: weights of t = -10..-3 (0.001 x5 + 1 x3) get b, the rest s.
  const double wb = 0.005 + 3, ws = 0.8 + 0.64 + 0.512 + 0.4096 + 0.32768 + 0.262144 + 0.001;
  const double expected = std::exp((wb * std::log(0.1) + ws * std::log(2.0)) / (wb + ws));
  EXPECT_NEAR(r["as"].get<double>(), expected, 1e-12);
  EXPECT_DOUBLE_EQ(r["correct_rate"].get<double>(), 0.0);
}

TEST(ResultScore, WholeFailureScoresExactlyB) {
  json r = {{"failure_class", "compile_fail"},
            {"variants",
             {{{"name", "a"}, {"hidden", false}, {"evaluated", false}},
              {{"name", "h"}, {"hidden", true}, {"evaluated", false}}}}};
  ProtocolOptions o;
  o.scoring.b = 0.05;
  score_result(r, o);
  EXPECT_DOUBLE_EQ(r["as"].get<double>(), 0.05);
  EXPECT_DOUBLE_EQ(r["hidden_as"].get<double>(), 0.05);
  EXPECT_DOUBLE_EQ(es_at(r["es_curve"], 0), 0.05);
  EXPECT_FALSE(r["incomplete"].get<bool>());
}

TEST(ResultScore, HiddenScoredSeparately) {
  json r = {{"variants",
             {variant("a", false, nullptr, -10, 1.0),
              variant("h", true, "pass_miss", nullptr, nullptr)}}};
  score_result(r, ProtocolOptions{});
  EXPECT_NEAR(r["as"].get<double>(), 1.0, 1e-12);
  EXPECT_NEAR(r["hidden_as"].get<double>(), 0.1, 1e-12);
  EXPECT_DOUBLE_EQ(r["hidden_stats"]["correct_rate"].get<double>(), 0.0);
}

TEST(ResultScore, FlagsSkippedUnstableAndPending) {
  json a = variant("a", false, nullptr, -10, 2.0);
  a["flags"] = {
      {{"flag", "implausible_speedup"}, {"evidence", "0.1 ms < floor"}, {"blames_model", true}},
      {{"flag", "weak_task"}, {"evidence", "zeros pass"}, {"blames_model", false}}};
  json u = variant("u", false, "unstable", -10, 3.0);
  u["unstable"] = true;
  json s = variant("s", false, nullptr, nullptr, nullptr);
  s["skipped"] = "the eager baseline cannot run this variant";
  json p = {{"name", "p"}, {"hidden", false}, {"evaluated", false}};
  json r = {{"hack_flags", {"timer_read"}}, {"variants", {a, u, s, p}}};
  score_result(r, ProtocolOptions{});
  EXPECT_EQ(r["hack_flags"], json({"implausible_speedup", "timer_read"}));
  EXPECT_EQ(r["task_flags"], json({"weak_task"}));
  ASSERT_EQ(r["flags"].size(), 2u);
  EXPECT_EQ(r["flags"][0]["variant"], "a");
  EXPECT_EQ(r["flags"][0]["evidence"], "0.1 ms < floor");
  EXPECT_TRUE(r["unstable"].get<bool>());
  EXPECT_TRUE(r["incomplete"].get<bool>());
  // Only `a` is scored: unstable, skipped and pending variants are left out.
  EXPECT_NEAR(r["as"].get<double>(), 2.0, 1e-12);
  EXPECT_EQ(r["stats"]["variants"], 1);
}

TEST(ResultScore, CorrectWithoutSpeedupIsNotScoredAsCorrect) {
  json r = {{"variants", {variant("a", false, nullptr, -10, nullptr)}}};
  auto outcomes = variant_outcomes(r, false);
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_FALSE(outcomes[0].correct_at(4));
}

TEST(ResultScore, GraphnetModeForgivesAccuracyFromTOne) {
  json r = {{"variants",
             {variant("a", false, nullptr, -10, 1.0),
              variant("b", false, "accuracy", nullptr, nullptr)}}};
  ProtocolOptions o;
  o.scoring.mode = ScoringMode::graphnet;
  score_result(r, o);
  EXPECT_NEAR(es_at(r["es_curve"], 0), std::sqrt(0.1), 1e-12);
  EXPECT_NEAR(es_at(r["es_curve"], 1), 1.0, 1e-12);
  EXPECT_EQ(r["scoring_mode"], "graphnet");
}

// The real result h11_return_input (every variant returns its input, an
// output of the wrong shape): 0.1 strict, 0.1107 in PassNet's and GraphNet's
// scorers, which forgive shape mismatches from t = 3:
// 0.1^(1 - (0.262144 + 0.001) / 5.957424) = 0.11070590055298139.
TEST(ResultScore, H11ReturnInputInEveryMode) {
  json r = {{"variants",
             {variant("h11_return_input_v0", false, "shape_mismatch", nullptr, nullptr),
              variant("h11_return_input_v1", false, "shape_mismatch", nullptr, nullptr)}}};
  ProtocolOptions o;
  json strict = r;
  score_result(strict, o);
  EXPECT_NEAR(strict["as"].get<double>(), 0.1, 1e-15);
  EXPECT_EQ(strict["scoring_mode"], "strict");
  EXPECT_FALSE(strict.contains("graphnet_score"));
  o.scoring.mode = ScoringMode::passnet;
  json passnet = r;
  score_result(passnet, o);
  EXPECT_NEAR(passnet["as"].get<double>(), 0.11070590055298139, 1e-14);
  EXPECT_NEAR(es_at(passnet["es_curve"], 2), 0.1, 1e-15);
  EXPECT_NEAR(es_at(passnet["es_curve"], 3), 1.0, 1e-15);
  o.scoring.mode = ScoringMode::graphnet;
  json graphnet = r;
  score_result(graphnet, o);
  EXPECT_NEAR(graphnet["as"].get<double>(), 0.11070590055298139, 1e-14);
  // log10(0.1) * (1 - (0.48 + 0.48) / 5.333)
  EXPECT_NEAR(graphnet["graphnet_score"].get<double>(), -0.8199887492968307, 1e-14);
  EXPECT_TRUE(graphnet["hidden_graphnet_score"].is_null());
}

TEST(ResultScore, WholeFailureForgivenFromThreeOnlyInGraphnetMode) {
  json r = {{"failure_class", "compile_fail"},
            {"variants", {{{"name", "a"}, {"hidden", false}, {"evaluated", false}}}}};
  ProtocolOptions o;
  o.scoring.mode = ScoringMode::passnet;
  json passnet = r;
  score_result(passnet, o);
  EXPECT_DOUBLE_EQ(passnet["as"].get<double>(), 0.1);
  o.scoring.mode = ScoringMode::graphnet;
  score_result(r, o);
  EXPECT_NEAR(r["as"].get<double>(), 0.11070590055298139, 1e-14);
  EXPECT_NEAR(es_at(r["es_curve"], 3), 1.0, 1e-15);
}

TEST(ResultScore, PassnetModeReadsTheCandidateRelativeLevel) {
  // Close from t = 0 with rtol on |expected|, from t = -2 with rtol on |candidate|.
  json v = variant("a", false, nullptr, 0, 2.0);
  v["first_passing_level_rtol_candidate"] = -2;
  json never = variant("b", false, "accuracy", nullptr, nullptr);
  never["first_passing_level_rtol_candidate"] = nullptr;
  json r = {{"variants", {v, never}}};
  auto outcomes = variant_outcomes(r, false);
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_EQ(outcomes[0].first_passing_level, 0);
  EXPECT_EQ(outcomes[0].first_passing_level_rtol_candidate, -2);
  EXPECT_EQ(outcomes[1].first_passing_level_rtol_candidate, kMaxToleranceLevel + 1);
  ProtocolOptions o;
  o.scoring.mode = ScoringMode::passnet;
  score_result(r, o);
  EXPECT_NEAR(es_at(r["es_curve"], -2), std::sqrt(2.0 * 0.1), 1e-12);
  EXPECT_NEAR(es_at(r["es_curve"], -3), 0.1, 1e-12);
  o.scoring.mode = ScoringMode::strict;
  score_result(r, o);
  EXPECT_NEAR(es_at(r["es_curve"], -2), 0.1, 1e-12);
  EXPECT_NEAR(es_at(r["es_curve"], 0), std::sqrt(2.0 * 0.1), 1e-12);
}

}  // namespace
}  // namespace pf::protocol
