#include "evaluator/ops/op_util.h"

namespace pf {

ParamDef tensor_param(std::string name) {
  return ParamDef{std::move(name), ParamKind::tensor, std::nullopt};
}

ParamDef inplace_param() {
  return ParamDef{"inplace", ParamKind::ignored, Arg::make_bool(false)};
}

OpInfo unary_float_op(std::string name, std::vector<std::string> aliases,
                      std::vector<ParamDef> extra_params, UnaryFn fn) {
  OpInfo op;
  op.name = std::move(name);
  op.aliases = std::move(aliases);
  op.params.push_back(tensor_param("input"));
  for (auto& p : extra_params) op.params.push_back(std::move(p));
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& t = a.tensor(0);
    if (!is_floating(t.dtype)) {
      return a.error(0, std::string("expected a floating tensor, got ") + dtype_name(t.dtype));
    }
    return std::vector<TensorType>{t};
  };
  op.cpu = [fn](const BoundArgs<Tensor>& a,
                const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    std::vector<double> v = a.tensor(0).to_doubles();
    for (double& x : v) x = fn(x, a);
    return std::vector<Tensor>{Tensor::from_doubles(out[0].dtype, out[0].shape, v)};
  };
  return op;
}

}  // namespace pf
