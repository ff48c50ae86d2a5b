// Which reference the ES_t / AS arithmetic reproduces (docs/evaluation.md
// "Scoring modes"). Only the enumeration lives here, below both the
// configuration (which reads it from TOML) and the scorer (which gives it
// meaning: evaluator/scoring/scoring_mode.h), so the two share one type.
#pragma once

namespace pf {

enum class ScoringMode {
  strict,    // nothing is ever forgiven; unstable variants left out (training data)
  passnet,   // PaddlePaddle/PassNet's scorer as its entry script runs it
  graphnet,  // PaddlePaddle/GraphNet's scorer, plus its aggregate score
};

}  // namespace pf
