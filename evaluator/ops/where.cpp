// Selection: where(condition, input, other) and masked_fill(input, mask,
// value). Values are numbers or tensors, broadcast together; where promotes
// like arithmetic, masked_fill keeps the input's dtype and, as PyTorch,
// refuses a fill value the dtype cannot hold.
#include "evaluator/ops/elementwise.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"

namespace pf {
namespace {

Status expect_bool(const BoundArgs<TensorType>& a, size_t i) {
  DType t = a.tensor(i).dtype;
  if (t != DType::boolean) {
    return a.error(i, std::string("expected a bool tensor, got ") + dtype_name(t));
  }
  return ok_status();
}

// x.where(condition, y) puts the receiver in `input`'s place.
std::string where_overload(std::string_view spelling, std::vector<Arg>& positional,
                           std::vector<std::pair<std::string, Arg>>& keywords) {
  if (spelling != "Tensor.where" || positional.empty()) return "";
  Arg self = positional.front();
  positional.erase(positional.begin());
  if (positional.empty()) {
    keywords.emplace_back("input", std::move(self));
  } else {
    positional.insert(positional.begin() + 1, std::move(self));
  }
  return "";
}

OpInfo where_op() {
  OpInfo op;
  op.name = "where";
  op.aliases = {"torch.where", "Tensor.where"};
  op.params = {tensor_param("condition"), param("input", ParamKind::tensor_or_scalar),
               param("other", ParamKind::tensor_or_scalar)};
  op.overload = where_overload;
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_TRY(expect_bool(a, 0));
    PF_ASSIGN(DType t, promote_params(a, {1, 2}));
    PF_ASSIGN(Shape shape, broadcast_params(a, {0, 1, 2}));
    return std::vector<TensorType>{{t, shape}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Shape& shape = out[0].shape;
    DType t = out[0].dtype;
    Tensor cond = broadcast_to(a.tensor(0), shape);
    Operand x(a, 1, shape), y(a, 2, shape);
    Tensor result = Tensor::zeros(t, shape);
    for (int64_t i = 0, n = result.numel(); i < n; ++i) {
      const Operand& pick = cond.get(i) != 0 ? x : y;
      if (is_floating(t)) {
        result.set(i, pick.real(i, t));
      } else {
        result.set_int(i, pick.integer(i, t));
      }
    }
    return std::vector<Tensor>{result};
  };
  op.doc = "condition ? input : other, elementwise with broadcasting";
  return op;
}

OpInfo masked_fill_op() {
  OpInfo op;
  op.name = "masked_fill";
  op.aliases = {"torch.masked_fill", "Tensor.masked_fill", "Tensor.masked_fill_"};
  op.params = {tensor_param("input"), tensor_param("mask"),
               param("value", ParamKind::tensor_or_scalar)};
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_TRY(expect_bool(a, 1));
    DType t = a.tensor(0).dtype;
    if (a.is_tensor(2)) {
      const TensorType& v = a.tensor(2);
      if (!v.shape.empty()) {
        return a.error(
            2, "only a 0-dimensional value tensor is supported, got shape " + shape_str(v.shape));
      }
    } else {
      PF_ASSIGN(double v, a.real(2));
      PF_TRY(check_value_fits(a, 2, v, t));
    }
    PF_ASSIGN(Shape shape, broadcast_params(a, {0, 1}));
    return std::vector<TensorType>{{t, shape}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Shape& shape = out[0].shape;
    DType t = out[0].dtype;
    Tensor x = broadcast_to(a.tensor(0), shape);
    Tensor mask = broadcast_to(a.tensor(1), shape);
    const Arg& value_arg = a.arg(2);
    double value = 0;
    int64_t ivalue = 0;
    if (a.is_tensor(2)) {
      value = a.tensor(2).get(0);
      ivalue = a.tensor(2).get_int(0);
    } else {
      PF_ASSIGN(value, a.real(2));
      ivalue = value_arg.kind == Arg::Kind::integer ? value_arg.i : static_cast<int64_t>(value);
    }
    PF_TRY(check_value_fits(a, 2, value, t));
    Tensor result = Tensor::zeros(t, shape);
    for (int64_t i = 0, n = result.numel(); i < n; ++i) {
      bool fill = mask.get(i) != 0;
      if (is_floating(t)) {
        result.set(i, fill ? value : x.get(i));
      } else {
        result.set_int(i, fill ? wrap_to_dtype(ivalue, t) : x.get_int(i));
      }
    }
    return std::vector<Tensor>{result};
  };
  op.doc = "input with value where mask is true (value: number or 0-dim tensor)";
  return op;
}

}  // namespace

void register_where_ops(OpRegistry& r) {
  r.add(where_op());
  r.add(masked_fill_op());
}

}  // namespace pf
