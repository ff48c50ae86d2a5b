#include "evaluator/scoring/score.h"

#include <cmath>

namespace pf {
namespace {

// The class a failed variant counts as for forgiveness at level t >= 1.
bool forgiven(FailureClass c, int t, ScoringMode mode) {
  if (mode == ScoringMode::passnet) return false;
  switch (c) {
    case FailureClass::accuracy: return t >= 1;
    case FailureClass::runtime_fail:
    case FailureClass::timeout:
    case FailureClass::resource_limit:
    case FailureClass::shape_mismatch:
    case FailureClass::dtype_mismatch:
    case FailureClass::compile_fail: return t >= 3;
    default: return false;  // pass_miss and integrity are never forgiven
  }
}

}  // namespace

double rectified_speedup(double s, double p) { return s >= 1 ? s : std::pow(s, p + 1); }

const std::array<double, kNumToleranceLevels>& as_weights() {
  static const std::array<double, kNumToleranceLevels> weights = [] {
    std::array<double, kNumToleranceLevels> raw = {
        0.001, 0.001, 0.001, 0.001, 0.001,  // t = -10 ... -6
        1, 1, 1,                            // -5, -4, -3
        0.8, 0.64, 0.512, 0.4096, 0.32768, 0.262144,  // -2 ... 3
        0.001};                             // 4
    double sum = 0;
    for (double w : raw) sum += w;
    for (double& w : raw) w /= sum;
    return raw;
  }();
  return weights;
}

std::optional<Score> score_variants(const std::vector<VariantOutcome>& variants,
                                    const ScoringOptions& options) {
  std::vector<const VariantOutcome*> scored;
  for (const auto& v : variants) {
    if (v.failure != FailureClass::unstable) scored.push_back(&v);
  }
  if (scored.empty()) return std::nullopt;
  Score score;
  score.variants = static_cast<int>(scored.size());
  for (int t = kMinToleranceLevel; t <= kMaxToleranceLevel; ++t) {
    double log_sum = 0;
    for (const VariantOutcome* v : scored) {
      // t >= 1 judges every variant by its t = 1 status.
      int judged_at = std::min(t, 1);
      double s_hat;
      if (v->correct_at(judged_at)) {
        s_hat = rectified_speedup(v->speedup, options.p);
      } else if (t >= 1) {
        FailureClass cls = v->failure == FailureClass::none ? FailureClass::accuracy : v->failure;
        s_hat = forgiven(cls, t, options.mode) ? 1.0 : options.b;
      } else {
        s_hat = options.b;
      }
      log_sum += std::log(s_hat);
    }
    score.es[level_index(t)] = std::exp(log_sum / static_cast<double>(scored.size()));
  }
  double log_as = 0;
  const auto& w = as_weights();
  for (int i = 0; i < kNumToleranceLevels; ++i) log_as += w[i] * std::log(score.es[i]);
  score.as = std::exp(log_as);
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
