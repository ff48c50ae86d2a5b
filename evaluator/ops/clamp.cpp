// clamp/clip(input, min=None, max=None), clamp_min, clamp_max: bounds are
// numbers or tensors (broadcast), the result dtype promotes over input and
// bounds as PyTorch 1.13 does, and a NaN anywhere gives NaN.
#include <cmath>
#include <optional>

#include "evaluator/ops/elementwise.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"

namespace pf {
namespace {

// The operand parameters of a call that are present (input and non-None bounds).
std::vector<size_t> present(const ArgReader& a, size_t n_params) {
  std::vector<size_t> out = {0};
  for (size_t i = 1; i < n_params; ++i) {
    if (!a.is_none(i)) out.push_back(i);
  }
  return out;
}

Result<std::vector<TensorType>> infer_clamp(const BoundArgs<TensorType>& a, size_t n_params) {
  std::vector<size_t> params = present(a, n_params);
  if (params.size() == 1) {
    return make_error(ErrorCode::invalid_argument,
                      a.op() + ": at least one of 'min' or 'max' must not be None");
  }
  std::vector<OperandType> types;
  Shape shape;
  for (size_t p : params) {
    PF_ASSIGN(OperandType t, operand_type(a, p));
    types.push_back(t);
    auto merged = broadcast_shapes(shape, operand_shape(a, p));
    if (!merged.ok()) {
      return a.error(p, "shape " + shape_str(operand_shape(a, p)) + " does not broadcast with " +
                            shape_str(shape));
    }
    shape = *merged;
  }
  return std::vector<TensorType>{{result_type(types), shape}};
}

// lower/upper: parameter indices of the bounds (0 = absent).
Result<std::vector<Tensor>> run_clamp(const BoundArgs<Tensor>& a, const TensorType& out,
                                      size_t lower, size_t upper) {
  DType t = out.dtype;
  Operand x(a, 0, out.shape);
  std::optional<Operand> lo, hi;
  if (lower && !a.is_none(lower)) lo.emplace(a, lower, out.shape);
  if (upper && !a.is_none(upper)) hi.emplace(a, upper, out.shape);
  Tensor result = Tensor::zeros(t, out.shape);
  for (int64_t i = 0, n = result.numel(); i < n; ++i) {
    if (is_floating(t)) {
      double v = x.real(i, t);
      double l = lo ? lo->real(i, t) : -INFINITY;
      double h = hi ? hi->real(i, t) : INFINITY;
      double r =
          std::isnan(v) || std::isnan(l) || std::isnan(h) ? NAN : std::min(std::max(v, l), h);
      result.set(i, r);
    } else {
      int64_t v = x.integer(i, t);
      if (lo) v = std::max(v, lo->integer(i, t));
      if (hi) v = std::min(v, hi->integer(i, t));
      result.set_int(i, v);
    }
  }
  return std::vector<Tensor>{result};
}

ParamDef bound(const char* name, bool required) {
  return required ? param(name, ParamKind::tensor_or_scalar)
                  : param(name, ParamKind::tensor_or_scalar, Arg::make_none());
}

OpInfo clamp_op() {
  OpInfo op;
  op.name = "clamp";
  op.aliases = {"torch.clamp",   "torch.clip",   "Tensor.clamp", "Tensor.clip",
                "Tensor.clamp_", "Tensor.clip_", "torch.clamp_", "torch.clip_"};
  op.params = {tensor_param("input"), bound("min", false), bound("max", false)};
  op.infer = [](const BoundArgs<TensorType>& a) { return infer_clamp(a, 3); };
  op.cpu = [](const BoundArgs<Tensor>& a, const std::vector<TensorType>& out) {
    return run_clamp(a, out[0], 1, 2);
  };
  op.doc = "min(max(input, min), max); either bound may be None, a number or a tensor";
  return op;
}

OpInfo one_sided(const std::string& name, bool is_min) {
  OpInfo op;
  op.name = name;
  op.aliases = {"torch." + name, "Tensor." + name, "Tensor." + name + "_", "torch." + name + "_"};
  op.params = {tensor_param("input"), bound(is_min ? "min" : "max", true)};
  op.infer = [](const BoundArgs<TensorType>& a) { return infer_clamp(a, 2); };
  op.cpu = [is_min](const BoundArgs<Tensor>& a, const std::vector<TensorType>& out) {
    return run_clamp(a, out[0], is_min ? 1 : 0, is_min ? 0 : 1);
  };
  op.doc = is_min ? "max(input, min)" : "min(input, max)";
  return op;
}

}  // namespace

void register_clamp_ops(OpRegistry& r) {
  r.add(clamp_op());
  r.add(one_sided("clamp_min", true));
  r.add(one_sided("clamp_max", false));
}

}  // namespace pf
