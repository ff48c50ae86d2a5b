// The float64 result tests/gpu/pytorch_levels.py judges PyTorch's CUDA result
// against, for the graph suites' second opinion (gpu_test_util.h GraphRun::oracle).
//
// The CPU reference rounds every op's output to the op's dtype, as eager
// PyTorch does. A GPU result of the same graph rounds the same intermediates
// too, and where an intermediate sits near a rounding boundary the two round
// it opposite ways: against each other they then differ by twice what either
// differs from the exact result (a float16 batch norm feeding a GELU misses
// t = -5 by one ulp). PyTorch's own level in tests/data/pytorch_levels.json is
// measured against the graph computed in float64 throughout; ours is measured
// the same way before anything is excused.
#pragma once

#include <vector>

#include "common/result.h"
#include "evaluator/core/tensor.h"
#include "evaluator/tasks/task.h"
#include "tests/unit/gpu/gpu_test_util.h"

namespace pf::gpu::test {

//! The variant typed with its floating inputs in float64 (casts the graph
//! makes itself stay) and run by the CPU reference on `inputs` converted to
//! float64; each output converted to the dtype of the matching `like`.
Result<std::vector<Tensor>> float64_oracle(const TaskVariant& variant,
                                           const std::vector<Tensor>& inputs,
                                           const std::vector<Tensor>& like);

//! compare_outputs(run); where an output misses its level, once more with the
//! float64 oracle of `variant` on `inputs` as the second opinion.
std::string compare_outputs(GraphRun& run, const TaskVariant& variant,
                            const std::vector<Tensor>& inputs);

}  // namespace pf::gpu::test
