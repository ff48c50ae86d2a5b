#include "tests/unit/dialect/test_registry.h"

namespace pf::testing {
namespace {

ParamDef req(std::string name, ParamKind kind) {
  return ParamDef{std::move(name), kind, std::nullopt};
}
ParamDef opt(std::string name, ParamKind kind, Arg dflt) {
  return ParamDef{std::move(name), kind, std::move(dflt)};
}
ParamDef kwonly(ParamDef p) {
  p.keyword_only = true;
  return p;
}
ParamDef varargs(ParamDef p) {
  p.varargs = true;
  return p;
}

OpInfo op(std::string name, std::vector<std::string> aliases, std::vector<ParamDef> params) {
  OpInfo o;
  o.name = std::move(name);
  o.aliases = std::move(aliases);
  o.params = std::move(params);
  return o;
}

OpRegistry build() {
  using K = ParamKind;
  OpRegistry r;
  Arg none = Arg::make_none();
  auto binary = [&](std::string name, std::vector<std::string> aliases, bool alpha) {
    std::vector<ParamDef> p = {req("input", K::tensor_or_scalar),
                               req("other", K::tensor_or_scalar)};
    if (alpha) p.push_back(kwonly(opt("alpha", K::scalar, Arg::make_int(1))));
    r.add(op(std::move(name), std::move(aliases), std::move(p)));
  };
  binary("add", {"operator.add", "torch.add", "Tensor.add", "operator.iadd", "Tensor.add_"}, true);
  binary("sub", {"operator.sub", "torch.sub", "Tensor.sub", "operator.isub"}, true);
  binary("mul", {"operator.mul", "torch.mul", "Tensor.mul", "operator.imul"}, false);
  binary("pow", {"operator.pow", "torch.pow", "Tensor.pow"}, false);
  binary("lt", {"operator.lt", "torch.lt", "Tensor.lt"}, false);
  binary("and_", {"operator.and_", "torch.bitwise_and"}, false);
  binary("matmul", {"torch.matmul", "operator.matmul", "Tensor.matmul"}, false);
  r.add(op("div", {"operator.truediv", "torch.div", "Tensor.div", "operator.itruediv"},
           {req("input", K::tensor_or_scalar), req("other", K::tensor_or_scalar),
            kwonly(opt("rounding_mode", K::optional_string, none))}));
  r.add(op("neg", {"operator.neg", "torch.neg", "Tensor.neg"}, {req("input", K::tensor)}));
  r.add(op("rsqrt", {"torch.rsqrt", "Tensor.rsqrt"}, {req("input", K::tensor)}));
  r.add(op("relu", {"torch.relu", "Tensor.relu", "torch.nn.functional.relu", "torch._C._nn.relu"},
           {req("input", K::tensor), opt("inplace", K::ignored, Arg::make_bool(false))}));
  r.add(op(
      "gelu", {"torch._C._nn.gelu", "torch.nn.functional.gelu"},
      {req("input", K::tensor), kwonly(opt("approximate", K::string, Arg::make_string("none")))}));
  r.add(op("clamp", {"torch.clamp", "Tensor.clamp"},
           {req("input", K::tensor), opt("min", K::optional_scalar, none),
            opt("max", K::optional_scalar, none)}));
  OpInfo getitem =
      op("getitem", {"operator.getitem"}, {req("input", K::tensor), req("indices", K::indices)});
  getitem.is_view = true;
  r.add(std::move(getitem));
  r.add(op("setitem", {"operator.setitem", "Tensor.__setitem__"},
           {req("input", K::tensor), req("index", K::indices), req("value", K::tensor_or_scalar)}));
  r.add(op("clone", {"torch.clone", "Tensor.clone"},
           {req("input", K::tensor), kwonly(opt("memory_format", K::ignored, none))}));
  OpInfo view =
      op("view", {"Tensor.view"}, {req("input", K::tensor), varargs(req("size", K::int_list))});
  view.is_view = true;
  r.add(std::move(view));
  r.add(op("permute", {"torch.permute", "Tensor.permute"},
           {req("input", K::tensor), varargs(req("dims", K::int_list))}));
  r.add(op("reshape", {"Tensor.reshape", "torch.reshape"},
           {req("input", K::tensor), varargs(req("shape", K::int_list))}));
  OpInfo split = op("split", {"torch.functional.split", "torch.split", "Tensor.split"},
                    {req("tensor", K::tensor), req("split_size_or_sections", K::int_list),
                     opt("dim", K::integer, Arg::make_int(0))});
  split.returns_list = true;
  split.is_view = true;
  r.add(std::move(split));
  OpInfo unbind = op("unbind", {"Tensor.unbind", "torch.unbind"},
                     {req("input", K::tensor), opt("dim", K::integer, Arg::make_int(0))});
  unbind.returns_list = true;
  unbind.is_view = true;
  r.add(std::move(unbind));
  r.add(op("tuple_get", {}, {req("input", K::tensor_list), req("index", K::integer)}));
  r.add(op("cat", {"torch.cat", "torch.concat"},
           {req("tensors", K::tensor_list), opt("dim", K::integer, Arg::make_int(0))}));
  r.add(op("layer_norm", {"torch.nn.functional.layer_norm"},
           {req("input", K::tensor), req("normalized_shape", K::int_list),
            opt("weight", K::optional_tensor, none), opt("bias", K::optional_tensor, none),
            opt("eps", K::real, Arg::make_real(1e-5))}));
  r.add(op(
      "softmax", {"torch.nn.functional.softmax", "torch.softmax", "Tensor.softmax"},
      {req("input", K::tensor), opt("dim", K::optional_integer, none),
       opt("_stacklevel", K::ignored, Arg::make_int(3)), opt("dtype", K::optional_dtype, none)}));
  OpInfo to = op("to", {"Tensor.to"},
                 {req("input", K::tensor), opt("dtype", K::optional_dtype, none),
                  kwonly(opt("device", K::ignored, none))});
  to.may_alias = true;
  r.add(std::move(to));
  r.add(op("arange", {"torch.arange"},
           {req("end", K::scalar), kwonly(opt("dtype", K::optional_dtype, none)),
            kwonly(opt("device", K::ignored, none))}));
  r.add(op(
      "linear", {"torch._C._nn.linear", "torch.nn.functional.linear"},
      {req("input", K::tensor), req("weight", K::tensor), opt("bias", K::optional_tensor, none)}));
  r.add(op("dropout", {"torch.nn.functional.dropout"},
           {req("input", K::tensor), opt("p", K::real, Arg::make_real(0.5)),
            opt("training", K::boolean, Arg::make_bool(true)),
            opt("inplace", K::ignored, Arg::make_bool(false))}));
  r.add(op(
      "conv2d", {"torch.conv2d", "torch.nn.functional.conv2d"},
      {req("input", K::tensor), req("weight", K::tensor), opt("bias", K::optional_tensor, none),
       opt("stride", K::int_list, Arg::make_int(1)), opt("padding", K::int_list, Arg::make_int(0)),
       opt("dilation", K::int_list, Arg::make_int(1)),
       opt("groups", K::integer, Arg::make_int(1))}));
  r.add(op("pad", {"torch.nn.functional.pad", "torch._C._nn.pad"},
           {req("input", K::tensor), req("pad", K::int_list),
            opt("mode", K::string, Arg::make_string("constant")),
            opt("value", K::optional_real, none)}));
  r.add(
      op("full", {"torch.full"},
         {req("size", K::int_list), req("fill_value", K::scalar),
          kwonly(opt("dtype", K::optional_dtype, none)), kwonly(opt("device", K::ignored, none))}));
  return r;
}

}  // namespace

const OpRegistry& dialect_test_registry() {
  static const OpRegistry registry = build();
  return registry;
}

}  // namespace pf::testing
