// PassNet/GraphNet tolerance levels: t = -10 ... 4, per output dtype, values
// rounded to three significant figures (docs/design.md "Scoring").
#pragma once

#include <array>

#include "evaluator/core/dtype.h"

namespace pf {

inline constexpr int kMinToleranceLevel = -10;
inline constexpr int kMaxToleranceLevel = 4;
inline constexpr int kNumToleranceLevels = kMaxToleranceLevel - kMinToleranceLevel + 1;
//! The "dtype baseline" level used for correctness rates (fp32: rtol 1.3e-6, atol 1e-5).
inline constexpr int kBaselineToleranceLevel = -5;

inline constexpr int level_index(int t) { return t - kMinToleranceLevel; }

struct Tolerance {
  double rtol = 0;
  double atol = 0;
  bool exact = false;  // integer and bool outputs compare exactly at every level
};

Tolerance tolerance_for(DType dtype, int level);

//! Rounds to `digits` significant figures (10^(1.1772*-5) -> 1.3e-06).
double round_significant(double v, int digits);

}  // namespace pf
