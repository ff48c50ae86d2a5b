// Running one registered GPU op from inside another (composites that
// PyTorch also builds from other ops: global average pooling is a mean,
// einsum is permutes, sums and a bmm). The call is normalised against the
// op's signature, typed by the CPU registry's shape rule and dispatched
// through the GPU registry (or the view probe for view ops), so a composite
// launches exactly what the op itself would.
#pragma once

#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "common/result.h"
#include "evaluator/core/ir.h"
#include "evaluator/gpu/device_tensor.h"
#include "evaluator/gpu/plan_builder.h"

namespace pf::gpu {

//! A tensor, or a literal argument (Arg::make_int(...), Arg::make_list(...)).
using CallArg = std::variant<DeviceTensor, Arg>;

//! The outputs of `op` called with these arguments (PyTorch spelling:
//! positional, then keywords).
Result<std::vector<DeviceTensor>> call_gpu_op(
    PlanBuilder& b, const std::string& op, std::vector<CallArg> positional,
    std::vector<std::pair<std::string, CallArg>> keywords = {});

//! call_gpu_op for a single-output op.
Result<DeviceTensor> call_gpu_op1(PlanBuilder& b, const std::string& op,
                                  std::vector<CallArg> positional,
                                  std::vector<std::pair<std::string, CallArg>> keywords = {});

//! Arg::make_list of ints.
Arg int_list(const std::vector<int64_t>& values);

}  // namespace pf::gpu
