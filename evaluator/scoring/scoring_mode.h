// Which reference the ES_t / AS arithmetic reproduces (docs/evaluation.md
// "Scoring modes"): which failures are forgiven at t >= 1, how unstable
// variants count and which allclose operand order decides a variant's level.
#pragma once

#include <optional>
#include <string_view>

#include "common/scoring_mode.h"
#include "evaluator/scoring/failure_class.h"

namespace pf {

const char* scoring_mode_name(ScoringMode mode);
//! Today's names only; stores written before the modes were renamed are
//! migrated when opened (trajectories/schema.cpp).
std::optional<ScoringMode> parse_scoring_mode(std::string_view name);

//! The lowest level t >= 1 at which a variant failing at t = 1 with class `c`
//! scores 1 instead of b; nullopt: never forgiven. `none` stands for a variant
//! that ran but whose outputs are not close at t = 1 (an accuracy failure).
std::optional<int> forgiven_from(FailureClass c, ScoringMode mode);

//! How a variant whose timing stayed too noisy counts.
enum class UnstableRule {
  excluded,  // left out of the score (strict)
  failed,    // b at every level, never forgiven (PassNet raises, logged as eager_fail)
  scored,    // scored by its level and measured speedup (GraphNet has no check)
};
UnstableRule unstable_rule(ScoringMode mode);

//! PassNet's allclose takes rtol relative to |compiled| (torch.allclose with
//! the compiled output second); strict and GraphNet relative to |expected|.
inline bool rtol_on_candidate(ScoringMode mode) {
  return mode == ScoringMode::passnet;
}

}  // namespace pf
