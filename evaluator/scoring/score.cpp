#include "evaluator/scoring/score.h"

#include <algorithm>
#include <cmath>

namespace pf {
namespace {

// One variant as the mode sees it.
struct Judged {
  FailureClass failure = FailureClass::none;
  int level = kMaxToleranceLevel + 1;  // first passing level under the mode's allclose
  double speedup = 0;
};

std::optional<Judged> judge(const VariantOutcome& v, ScoringMode mode) {
  Judged j{v.failure, v.first_passing_level, v.speedup};
  if (rtol_on_candidate(mode) && v.first_passing_level_rtol_candidate) {
    j.level = *v.first_passing_level_rtol_candidate;
  }
  if (j.failure == FailureClass::unstable) {
    switch (unstable_rule(mode)) {
      case UnstableRule::excluded:
        return std::nullopt;
      case UnstableRule::failed:
        return j;
      case UnstableRule::scored:
        j.failure = FailureClass::none;
        break;
    }
  }
  // Close somewhere but never timed (e.g. close only under the other operand
  // order): nothing to score it by, so it counts as not close.
  if (j.failure == FailureClass::none && j.speedup <= 0) j.level = kMaxToleranceLevel + 1;
  return j;
}

double weighted_log10(const std::array<double, kNumToleranceLevels>& es,
                      const std::array<double, kNumToleranceLevels>& w) {
  double sum = 0;
  for (int i = 0; i < kNumToleranceLevels; ++i) sum += w[i] * std::log10(es[i]);
  return sum;
}

std::array<double, kNumToleranceLevels> normalised(std::array<double, kNumToleranceLevels> raw) {
  double sum = 0;
  for (double w : raw) sum += w;
  for (double& w : raw) w /= sum;
  return raw;
}

}  // namespace

double rectified_speedup(double s, double p) { return s >= 1 ? s : std::pow(s, p + 1); }

const std::array<double, kNumToleranceLevels>& as_weights() {
  static const std::array<double, kNumToleranceLevels> weights =
      normalised({0.001, 0.001, 0.001, 0.001, 0.001,            // t = -10 ... -6
                  1, 1, 1,                                      // -5, -4, -3
                  0.8, 0.64, 0.512, 0.4096, 0.32768, 0.262144,  // -2 ... 3
                  0.001});                                      // 4
  return weights;
}

const std::array<double, kNumToleranceLevels>& graphnet_weights() {
  static const std::array<double, kNumToleranceLevels> weights =
      normalised({0.001, 0.001, 0.001, 0.13, 0.40,                       // t = -10 ... -6
                  0.48, 0.48, 0.48, 0.48, 0.48, 0.48, 0.48, 0.48, 0.48,  // -5 ... 3
                  0.48});                                                // 4
  return weights;
}

std::optional<Score> score_variants(const std::vector<VariantOutcome>& variants,
                                    const ScoringOptions& options) {
  std::vector<Judged> scored;
  for (const auto& v : variants) {
    if (auto j = judge(v, options.mode)) scored.push_back(*j);
  }
  if (scored.empty()) return std::nullopt;
  Score score;
  score.variants = static_cast<int>(scored.size());
  for (int t = kMinToleranceLevel; t <= kMaxToleranceLevel; ++t) {
    double log_sum = 0;
    for (const Judged& v : scored) {
      // t >= 1 judges every variant by its t = 1 status.
      const int judged_at = std::min(t, 1);
      double s_hat;
      if (v.failure == FailureClass::none && judged_at >= v.level) {
        s_hat = rectified_speedup(v.speedup, options.p);
      } else if (t >= 1) {
        FailureClass cls = v.failure == FailureClass::none ? FailureClass::accuracy : v.failure;
        std::optional<int> from = forgiven_from(cls, options.mode);
        s_hat = from && t >= *from ? 1.0 : options.b;
      } else {
        s_hat = options.b;
      }
      log_sum += std::log(s_hat);
    }
    score.es[level_index(t)] = std::exp(log_sum / static_cast<double>(scored.size()));
  }
  score.as = std::pow(10.0, weighted_log10(score.es, as_weights()));
  score.graphnet_score = weighted_log10(score.es, graphnet_weights());
  return score;
}

ScoreStats score_stats(const std::vector<VariantOutcome>& variants) {
  ScoreStats st;
  double log_sum = 0;
  int correct = 0;
  for (const auto& v : variants) {
    if (v.failure == FailureClass::unstable) continue;
    ++st.variants;
    if (!v.correct_at(kBaselineToleranceLevel)) continue;
    ++correct;
    log_sum += std::log(v.speedup);
    for (size_t k = 0; k < kFastP.size(); ++k) {
      if (v.speedup > kFastP[k]) st.fast_p[k] += 1;
    }
  }
  if (st.variants == 0) return st;
  st.correct_rate = static_cast<double>(correct) / st.variants;
  if (correct > 0) st.geomean_speedup_correct = std::exp(log_sum / correct);
  for (double& f : st.fast_p) f /= st.variants;
  return st;
}

}  // namespace pf
