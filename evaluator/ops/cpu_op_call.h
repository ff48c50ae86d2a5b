// Running one registered CPU op from inside another: references of ops that
// PyTorch itself writes as compositions in Python (F.lp_pool2d is avg_pool2d
// of pow, F.local_response_norm an avg_pool3d of squares). The call is
// normalised against the op's signature, typed by its shape rule and run by
// its CPU reference, as the CPU executor runs a node; the GPU twin is
// gpu/gpu_op_call.h.
#pragma once

#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "common/result.h"
#include "evaluator/core/ir.h"
#include "evaluator/core/tensor.h"

namespace pf {

//! A tensor, or a literal argument (Arg::make_int(...), Arg::make_list(...)).
using CpuCallArg = std::variant<Tensor, Arg>;
//! The same for type inference: a tensor's type, or a literal.
using TypeCallArg = std::variant<TensorType, Arg>;

//! The single output of `op` called with these arguments (PyTorch spelling:
//! positional, then keywords).
Result<Tensor> call_cpu_op1(const std::string& op, std::vector<CpuCallArg> positional,
                            std::vector<std::pair<std::string, CpuCallArg>> keywords = {});

//! The type of that output: the same call through the op's shape rule only,
//! so a composite's inference agrees with what its parts compute.
Result<TensorType> infer_op1(const std::string& op, std::vector<TypeCallArg> positional,
                             std::vector<std::pair<std::string, TypeCallArg>> keywords = {});

}  // namespace pf
