// Building blocks shared by op families: parameter shorthands and the
// elementwise skeletons (shape rule + CPU loop) most ops are made of.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "evaluator/ops/op_info.h"

namespace pf {

ParamDef tensor_param(std::string name);
ParamDef inplace_param();  // `inplace=` is accepted and has no effect on the IR

//! f(x, args) maps one element (in float64); extra parameters follow `self`
//! and are read through args (their indices start at 1).
using UnaryFn = std::function<double(double, const ArgReader&)>;

//! A unary elementwise op on floating tensors whose output has the input's
//! shape and dtype (integer inputs are rejected, as PyTorch does for most).
OpInfo unary_float_op(std::string name, std::vector<std::string> aliases,
                      std::vector<ParamDef> extra_params, UnaryFn fn);

}  // namespace pf
