// The geometry shared by reductions (sum, amax, var, softmax, cumsum, ...):
// which dims are reduced, the output shape, and a view of the input whose
// row-major order lists each output element's group contiguously.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "evaluator/core/tensor.h"
#include "evaluator/ops/bound_args.h"
#include "evaluator/ops/op_info.h"

namespace pf {

struct Reduction {
  std::vector<bool> reduced;  // per input dim
  Shape out_shape;            // reduced dims dropped, or kept as 1 with keepdim
  int64_t groups = 1;         // number of output elements
  int64_t group_size = 1;     // elements reduced into each
};

//! dims: nullopt or an empty list reduces every dim (PyTorch's dim=None /
//! dim=[] for sum and mean). Errors name the op and parameter `dim_param`:
//! out-of-range and repeated dims.
Result<Reduction> plan_reduction(const ArgReader& args, size_t dim_param, const Shape& shape,
                                 const std::optional<std::vector<int64_t>>& dims, bool keepdim);

//! Reads an optional int-list `dim` parameter (None -> nullopt).
Result<std::optional<std::vector<int64_t>>> read_dims(const ArgReader& args, size_t i);

//! A view of x (no copy) with the reduced dims moved last, flattened to
//! [groups, group_size] order: element g * group_size + k is the k-th value
//! of output element g.
Tensor grouped_view(const Tensor& x, const Reduction& r);

//! The values of each group widened to double, group after group.
std::vector<double> grouped_values(const Tensor& x, const Reduction& r);

//! A reduction along one dim (softmax, cumsum, max(dim)): as plan_reduction,
//! with the dim read from parameter `dim_param`.
Result<Reduction> plan_dim(const ArgReader& args, size_t dim_param, const Shape& shape,
                           bool keepdim);

//! A reduction op whose parameters start (input, dim, keepdim, ...) (or just
//! (input) when `whole`): the
//! output dtype rule and the fold over each group's values. Used by sum,
//! mean, prod, amax, logsumexp, all, ...
struct ReduceOpDef {
  std::string name;
  std::vector<std::string> aliases;
  std::vector<ParamDef> params;  // input, dim, keepdim first
  //! The output dtype from the input's (and e.g. a dtype= parameter).
  std::function<Result<DType>(const ArgReader&, DType input)> out_dtype;
  //! Folds one group (values converted to double). `out` is the output dtype.
  std::function<double(const double* values, int64_t n, DType out)> fold;
  //! Exact 64-bit fold used when the output dtype is an integer or bool; null
  //! folds integers through `fold` in double.
  std::function<int64_t(const int64_t* values, int64_t n)> int_fold;
  //! Reductions without an identity (amax) reject reducing an empty dim.
  bool needs_nonempty = false;
  //! Values are rounded to the output dtype before folding (mean(x, dtype=)).
  bool convert_first = false;
  //! No dim/keepdim parameters: always reduces the whole tensor to 0-dim (max(x)).
  bool whole = false;
  std::string doc;
};

OpInfo reduce_op(ReduceOpDef def);

}  // namespace pf
