// ES_t and AS as PassNet/GraphNet define them (docs/design.md "Scoring"), under
// the forgiveness rules of a scoring mode (scoring_mode.h), GraphNet's
// aggregate score, and the task- and run-level statistics reported beside them.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "evaluator/scoring/failure_class.h"
#include "evaluator/scoring/scoring_mode.h"
#include "evaluator/scoring/tolerance.h"

namespace pf {

struct ScoringOptions {
  double b = 0.1;  // the score of a failed variant
  double p = 0;    // slowdown penalty exponent: rect(s) = s^(p+1) for s < 1
  ScoringMode mode = ScoringMode::strict;
};

//! What scoring needs to know about one evaluated variant.
struct VariantOutcome {
  std::string name;
  bool hidden = false;
  //! Why the variant failed outright (before any tolerance applies); `none`
  //! when it ran and its outputs were compared.
  FailureClass failure = FailureClass::none;
  //! Lowest tolerance level at which all outputs are close (meaningful when
  //! failure == none); above kMaxToleranceLevel means never.
  int first_passing_level = kMaxToleranceLevel + 1;
  //! The same with rtol relative to |candidate| (PassNet's operand order);
  //! nullopt for results recorded before it was measured.
  std::optional<int> first_passing_level_rtol_candidate;
  double speedup = 0;  // median(eager) / median(candidate) on the timing clock

  bool correct_at(int level) const {
    return failure == FailureClass::none && level >= first_passing_level;
  }
};

struct Score {
  std::array<double, kNumToleranceLevels> es{};  // ES_t, index level_index(t)
  double as = 0;
  //! GraphNet's aggregate score: sum_t w_t log10 ES_t with graphnet_weights()
  //! (a logarithm: 0 is eager's speed, log10 b everywhere failed).
  double graphnet_score = 0;
  int variants = 0;  // variants scored (strict: unstable ones excluded)
};

double rectified_speedup(double s, double p);

//! Normalised AS weights (t = -10 ... 4), PassNet's aggregate_es_scores.py.
const std::array<double, kNumToleranceLevels>& as_weights();
//! Normalised weights of GraphNet's aggregate_es_scores.py (t = -10 ... 4).
const std::array<double, kNumToleranceLevels>& graphnet_weights();

//! Scores a set of variants; nullopt when none is scorable (empty, or strict
//! with every variant unstable).
std::optional<Score> score_variants(const std::vector<VariantOutcome>& variants,
                                    const ScoringOptions& options);

//! Statistics reported with every score (docs/design.md "Scoring", last bullet).
struct ScoreStats {
  int variants = 0;
  double correct_rate = 0;            // share correct at t = -5
  std::optional<double> geomean_speedup_correct;  // over variants correct at t = -5
  //! share of variants correct at t = -5 and faster than p, for kFastP
  std::array<double, 6> fast_p{};
};

inline constexpr std::array<double, 6> kFastP = {0, 0.8, 1, 1.2, 1.5, 2};

ScoreStats score_stats(const std::vector<VariantOutcome>& variants);

}  // namespace pf
