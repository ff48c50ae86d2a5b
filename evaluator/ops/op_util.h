// Building blocks shared by op families: parameter shorthands and the unary
// elementwise skeleton (shape rule + dtype rule + CPU loop) most ops are made
// of. Binary/ternary elementwise helpers live in elementwise.h.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "evaluator/ops/op_info.h"

namespace pf {

ParamDef tensor_param(std::string name);
ParamDef inplace_param();  // `inplace=` is accepted and has no effect on the IR
//! A positional-or-keyword parameter; no default means required.
ParamDef param(std::string name, ParamKind kind, std::optional<Arg> default_value = std::nullopt);
//! A keyword-only parameter (after `*` in PyTorch's signature).
ParamDef kwarg(std::string name, ParamKind kind, Arg default_value);
//! Accepted and dropped: device=, layout=, pin_memory=, memory_format=, ...
ParamDef ignored_param(std::string name, bool keyword_only = true);
//! The keyword-only tail of factory functions: dtype=None plus ignored
//! layout/device/pin_memory/requires_grad.
std::vector<ParamDef> factory_kwargs();

enum class UnaryDtype : uint8_t {
  floating,         // floating inputs only; output dtype = input dtype
  float_promoting,  // bool/integer inputs compute in and return the default float (torch.exp)
  same,             // any dtype but bool, kept (torch.neg); integers go through int_fn
  same_with_bool,   // any dtype kept, bool included (torch.sign, torch.nan_to_num)
  to_bool,          // any dtype in, bool out (torch.isnan)
};

using ElementFn = std::function<double(double)>;
using IntElementFn = std::function<int64_t(int64_t)>;
//! Reads and checks the op's literal parameters once, returning the element
//! function for the dtype the op computes in; runs at type inference too, so
//! bad parameters fail early.
using UnaryBinder = std::function<Result<ElementFn>(const ArgReader&, DType compute)>;

struct UnaryOpDef {
  std::string name;
  std::vector<std::string> aliases;
  std::vector<ParamDef> extra_params;  // after `input`
  UnaryDtype dtype_rule = UnaryDtype::floating;
  UnaryBinder bind;
  //! Exact integer (and bool) path for rules that keep integer dtypes; null
  //! means integer inputs compute through the float function (or are rejected
  //! under `floating`).
  IntElementFn int_fn;
  std::string doc;  // default: "elementwise <name>"
};

OpInfo unary_op(UnaryOpDef def);

//! PyTorch's checked conversion of a fill value (c10::checked_convert): a
//! finite value outside `dtype`'s range (or NaN for an integer dtype) is an
//! error naming the op and parameter i.
Status check_value_fits(const ArgReader& args, size_t i, double value, DType dtype);

//! A binder for element functions without parameters.
UnaryBinder plain(std::function<double(double)> fn);

}  // namespace pf
