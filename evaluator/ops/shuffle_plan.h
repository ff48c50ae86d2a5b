// pixel_shuffle, pixel_unshuffle and channel_shuffle move elements only: a
// split of the input's dims, a permutation, a merge. PyTorch computes them
// that way (reshape, permute, contiguous copy); the CPU reference and the GPU
// baseline share this plan of the three steps.
#pragma once

#include <cstdint>
#include <vector>

#include "common/result.h"
#include "evaluator/core/shape.h"
#include "evaluator/ops/bound_args.h"

namespace pf {

struct ShufflePlan {
  Shape split;                // the input (contiguous) viewed with its dims split
  std::vector<int64_t> perm;  // then permuted
  Shape out;                  // then copied and viewed with this shape
};

//! The plan for op "pixel_shuffle" / "pixel_unshuffle" (argument 1: the
//! factor) or "channel_shuffle" (argument 1: groups) on an input of `shape`;
//! errors read like PyTorch's.
Result<ShufflePlan> shuffle_plan(const ArgReader& a, const Shape& shape);

}  // namespace pf
