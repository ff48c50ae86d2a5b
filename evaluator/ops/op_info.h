// One op's entry in the registry: signature, aliases, shape and
// dtype rule, view semantics and the CPU reference, together.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"
#include "evaluator/core/ir.h"
#include "evaluator/core/tensor.h"
#include "evaluator/ops/bound_args.h"

namespace pf {

enum class ParamKind : uint8_t {
  tensor,
  optional_tensor,
  tensor_list,        // a list/tuple of tensors, or a tensor-list value
  tensor_or_scalar,   // operands of elementwise ops: `x + 1`, `2 * x`
  integer,
  optional_integer,
  int_list,           // accepts a single int too (`dim=1` or `dim=(1, 2)`)
  optional_int_list,
  real,               // any Python number
  optional_real,
  scalar,             // number or bool (fill values)
  optional_scalar,
  boolean,
  string,
  optional_string,
  dtype,
  optional_dtype,
  indices,            // getitem's index expression (ints, slices, None, ..., tensors)
  ignored,            // accepted and dropped (inplace=, device=, ...): no effect on the result
};

struct ParamDef {
  std::string name;
  ParamKind kind = ParamKind::tensor;
  std::optional<Arg> default_value;  // nullopt: required
  //! Collects the remaining positional arguments (`x.view(2, 3)`); a single
  //! list/tuple (or value, in patterns) argument is taken as the whole list.
  bool varargs = false;
  bool keyword_only = false;
  //! PyTorch's signature has no default here though ours does (batch_norm's
  //! running stats take None): the printer writes it even when it is ours,
  //! so that printed sources stay valid PyTorch.
  bool required_in_pytorch = false;
};

using InferFn = std::function<Result<std::vector<TensorType>>(const BoundArgs<TensorType>&)>;
//! Computes the outputs; `out` are the inferred output types. View ops return
//! views of their input (Tensor::view_of), everything else fresh tensors.
using CpuFn = std::function<Result<std::vector<Tensor>>(const BoundArgs<Tensor>&,
                                                        const std::vector<TensorType>& out)>;

//! Rewrites a call whose spelling several PyTorch overloads share and names
//! the op that handles it ("" = the op the spelling found). Runs on the raw
//! call before OpRegistry::normalize; see OpRegistry::resolve.
using OverloadFn = std::function<std::string(std::string_view spelling, std::vector<Arg>& positional,
                                             std::vector<std::pair<std::string, Arg>>& keywords)>;

struct OpInfo {
  std::string name;                  // canonical: "add", "layer_norm", "conv2d"
  //! Spellings as written in source: "torch.add", "Tensor.add",
  //! "torch.nn.functional.relu", "torch._C._nn.gelu", "operator.add".
  //! The first is the one printers use.
  std::vector<std::string> aliases;
  std::vector<ParamDef> params;
  bool returns_list = false;          // output is a tuple of tensors
  bool is_view = false;               // output aliases the first tensor argument
  //! The output is sometimes the input itself, as in PyTorch: `to` without a
  //! dtype change, `contiguous` of a contiguous tensor. Consumers must not
  //! assume a fresh buffer.
  bool may_alias = false;
  OverloadFn overload;                // optional: torch.max(x) vs torch.max(x, 1) vs torch.max(x, y)
  InferFn infer;
  CpuFn cpu;
  std::string doc;                    // one line, shown in prompts and errors
};

}  // namespace pf
