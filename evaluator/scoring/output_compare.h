// Compares one candidate output with the expected (eager) output at every
// tolerance level in one pass, plus the error magnitudes the feedback shows.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "evaluator/core/tensor.h"
#include "evaluator/scoring/tolerance.h"

namespace pf {

struct OutputComparison {
  bool shape_ok = true;
  bool dtype_ok = true;
  //! Lowest level t at which every element is close; kMaxToleranceLevel + 1
  //! when even t = 4 fails (or shape/dtype differ).
  int first_passing_level = kMinToleranceLevel;
  //! The same with rtol relative to |candidate|, as PassNet's
  //! torch.allclose(expected, compiled) measures it (scoring_mode.h).
  int first_passing_level_rtol_candidate = kMinToleranceLevel;
  double max_abs_diff = 0;
  double mean_abs_diff = 0;
  double max_rel_diff = 0;   // |c - e| / |e| over elements with e != 0
  int64_t nan_mismatches = 0;  // NaN in one of the two where the other is not NaN, or both NaN
  //! First element (row-major) not close at the dtype baseline level; -1 if none.
  int64_t first_mismatch = -1;
  double first_mismatch_candidate = 0;
  double first_mismatch_expected = 0;

  bool correct_at(int level) const {
    return shape_ok && dtype_ok && level >= first_passing_level;
  }
};

//! allclose per docs/design.md: |c - e| <= atol + rtol * |e| elementwise, exact
//! equality passes (so inf == inf), NaN never equals anything; also the level
//! with rtol * |c| in place of rtol * |e|.
OutputComparison compare_output(const Tensor& candidate, const Tensor& expected);

//! "[2, 0, 5]" index of a row-major element in a shape (for feedback).
std::string format_index(int64_t flat, const Shape& shape);

}  // namespace pf
