// The bridge between the evaluator's result JSON (opaque to the store) and
// the evaluation columns that filters and statistics use. The fields read
// here are documented in docs/result-fields.md.
#pragma once

#include "common/result.h"
#include "trajectories/records.h"

namespace pf::traj {

//! The failure score b when a result does not state it (PassNet default).
inline constexpr double kDefaultFailureScore = 0.1;

//! An EvaluationRecord whose summary columns are filled from `result`
//! (mode, as, es_curve, correct rate, geomean speedup, hidden AS, unstable,
//! hack flags, failure classes); a field of the wrong type is an error.
Result<EvaluationRecord> evaluation_from_result(EvalKind kind, const Json& result);

//! Whether an evaluation may count as a success: a full evaluation or
//! submission with an AS that is neither hack-flagged nor unstable.
//! include_flagged (export --include-flagged) also admits flagged, unstable
//! and compile-only evaluations that carry an AS.
bool counts_as_success(const EvaluationRecord& e, bool include_flagged);

//! Correct at t = -5 on every visible variant.
bool is_correct(const EvaluationRecord& e);

//! The per-variant entries of a result ([] when absent or malformed).
struct VariantOutcome {
  std::string name;
  bool hidden = false;
  bool correct = false;  // at t = -5
  std::optional<double> speedup;
  std::string failure_class;
  bool unstable = false;
};
std::vector<VariantOutcome> variant_outcomes(const Json& result);

//! b as stated by the result, else kDefaultFailureScore.
double failure_score(const Json& result);

}  // namespace pf::traj
