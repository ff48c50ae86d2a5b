// torch.tensordot as the matrix product PyTorch makes of it: a permuted to
// (free dims, contracted dims) as an [m, k] matrix times b permuted to
// (free dims, contracted dims) as [n, k], transposed. The CPU reference and
// the GPU baseline share this plan.
#pragma once

#include <cstdint>
#include <vector>

#include "common/result.h"
#include "evaluator/core/shape.h"
#include "evaluator/ops/bound_args.h"

namespace pf {

struct TensordotPlan {
  std::vector<int64_t> perm_a, perm_bt;
  int64_t m = 1, k = 1, n = 1;
  Shape out;  // a's free dims, then b's
};

//! The plan for tensordot(a, b, dims) with `dims` argument 2: an int n (a's
//! last n dims with b's first n) or two lists of dims (or two ints).
Result<TensordotPlan> tensordot_plan(const ArgReader& args, const Shape& a, const Shape& b);

}  // namespace pf
