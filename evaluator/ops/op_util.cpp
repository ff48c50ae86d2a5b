#include "evaluator/ops/op_util.h"

#include <cmath>
#include <limits>

#include "common/strings.h"
#include "evaluator/ops/type_promotion.h"

namespace pf {

ParamDef tensor_param(std::string name) {
  return ParamDef{std::move(name), ParamKind::tensor, std::nullopt};
}

ParamDef inplace_param() {
  return ParamDef{"inplace", ParamKind::ignored, Arg::make_bool(false)};
}

ParamDef param(std::string name, ParamKind kind, std::optional<Arg> default_value) {
  return ParamDef{std::move(name), kind, std::move(default_value)};
}

ParamDef kwarg(std::string name, ParamKind kind, Arg default_value) {
  ParamDef p{std::move(name), kind, std::move(default_value)};
  p.keyword_only = true;
  return p;
}

ParamDef ignored_param(std::string name, bool keyword_only) {
  ParamDef p{std::move(name), ParamKind::ignored, Arg::make_none()};
  p.keyword_only = keyword_only;
  return p;
}

std::vector<ParamDef> factory_kwargs() {
  return {kwarg("dtype", ParamKind::optional_dtype, Arg::make_none()), ignored_param("layout"),
          ignored_param("device"), ignored_param("pin_memory"), ignored_param("requires_grad")};
}

namespace {

Result<DType> unary_out_dtype(const UnaryOpDef& def, const BoundArgs<TensorType>& a) {
  DType in = a.tensor(0).dtype;
  switch (def.dtype_rule) {
    case UnaryDtype::floating:
      if (!is_floating(in)) {
        return a.error(0, std::string("expected a floating tensor, got ") + dtype_name(in));
      }
      return in;
    case UnaryDtype::float_promoting:
      return floating_or_default(in);
    case UnaryDtype::same:
      if (in == DType::boolean) return a.error(0, "bool tensors are not supported");
      return in;
    case UnaryDtype::same_with_bool:
      return in;
    case UnaryDtype::to_bool:
      return DType::boolean;
  }
  return in;
}

}  // namespace

OpInfo unary_op(UnaryOpDef def) {
  OpInfo op;
  op.name = def.name;
  op.aliases = def.aliases;
  op.doc = def.doc.empty() ? "elementwise " + def.name : def.doc;
  op.params.push_back(tensor_param("input"));
  for (auto& p : def.extra_params) op.params.push_back(p);
  auto shared = std::make_shared<const UnaryOpDef>(std::move(def));
  op.infer = [shared](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(DType out, unary_out_dtype(*shared, a));
    PF_TRY(shared->bind(a, floating_or_default(a.tensor(0).dtype)));
    return std::vector<TensorType>{{out, a.tensor(0).shape}};
  };
  op.cpu = [shared](const BoundArgs<Tensor>& a,
                    const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    DType in = x.dtype();
    Tensor y = Tensor::zeros(out[0].dtype, out[0].shape);
    int64_t n = x.numel();
    bool int_path = shared->int_fn && !is_floating(in) && !is_floating(out[0].dtype);
    if (int_path) {
      for (int64_t i = 0; i < n; ++i) {
        y.set_int(i, wrap_to_dtype(shared->int_fn(x.get_int(i)), out[0].dtype));
      }
      return std::vector<Tensor>{y};
    }
    // Integers promoted to a float are converted before the math, as PyTorch does.
    DType compute = is_floating(in) ? in : floating_or_default(in);
    PF_ASSIGN(ElementFn fn, shared->bind(a, compute));
    std::vector<double> v = x.to_doubles();
    for (int64_t i = 0; i < n; ++i) y.set(i, fn(round_to_dtype(v[i], compute)));
    return std::vector<Tensor>{y};
  };
  return op;
}

Status check_value_fits(const ArgReader& args, size_t i, double value, DType dtype) {
  double lo = 0, hi = 0;
  switch (dtype) {
    case DType::boolean:
    case DType::float64:
      return ok_status();
    case DType::float16:
      lo = -65504.0, hi = 65504.0;
      break;
    case DType::bfloat16:
      lo = -3.3895313892515355e38, hi = 3.3895313892515355e38;
      break;
    case DType::float32:
      lo = std::numeric_limits<float>::lowest(), hi = std::numeric_limits<float>::max();
      break;
    case DType::uint8:
      lo = 0, hi = 255;
      break;
    case DType::int8:
      lo = -128, hi = 127;
      break;
    case DType::int16:
      lo = -32768, hi = 32767;
      break;
    case DType::int32:
      lo = -2147483648.0, hi = 2147483647.0;
      break;
    case DType::int64:
      lo = -9.2233720368547758e18, hi = 9.2233720368547758e18;
      break;
  }
  if (std::isinf(value) && is_floating(dtype)) return ok_status();
  if (std::isnan(value) ? !is_floating(dtype) : (value < lo || value > hi)) {
    return args.error(i, "value " + format_double(value) + " cannot be converted to " +
                             dtype_name(dtype) + " without overflow (PyTorch raises here too)");
  }
  return ok_status();
}

UnaryBinder plain(std::function<double(double)> fn) {
  return
      [fn = std::move(fn)](const ArgReader&, DType) -> Result<ElementFn> { return ElementFn(fn); };
}

}  // namespace pf
