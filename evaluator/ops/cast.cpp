// Dtype conversions: to (dtype / device / other tensor), type_as and the
// method casts (float, half, bfloat16, double, int, long, short, bool, ...).
// As in PyTorch, a conversion to the dtype a tensor already has returns the
// tensor itself (no copy) unless copy=True; a device is accepted and ignored.
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"

namespace pf {
namespace {

Tensor convert(const Tensor& x, DType dtype, bool copy) {
  if (x.dtype() == dtype && !copy) return x;
  return x.to_dtype(dtype);
}

// The legacy type names `x.type('torch.cuda.FloatTensor')` accepts.
std::optional<DType> legacy_tensor_type(std::string_view name) {
  static const std::pair<std::string_view, DType> kTypes[] = {
      {"FloatTensor", DType::float32}, {"DoubleTensor", DType::float64},
      {"HalfTensor", DType::float16},  {"BFloat16Tensor", DType::bfloat16},
      {"LongTensor", DType::int64},    {"IntTensor", DType::int32},
      {"ShortTensor", DType::int16},   {"CharTensor", DType::int8},
      {"ByteTensor", DType::uint8},    {"BoolTensor", DType::boolean}};
  for (std::string_view prefix : {"torch.cuda.", "torch."}) {
    if (name.substr(0, prefix.size()) != prefix) continue;
    for (const auto& [type, dt] : kTypes) {
      if (name.substr(prefix.size()) == type) return dt;
    }
  }
  return std::nullopt;
}

// x.type(dtype) converts like x.to(dtype); x.type() returns a string, which no
// graph can hold, so a call without a type gets an argument normalize rejects.
void type_overload(std::vector<Arg>& positional,
                   std::vector<std::pair<std::string, Arg>>& keywords) {
  Arg* type = positional.size() >= 2 ? &positional[1] : nullptr;
  for (auto& [key, value] : keywords) {
    if (key == "dtype") type = &value;
  }
  if (type == nullptr || type->is_none()) {
    keywords.emplace_back("dtype (Tensor.type() without a type returns a string)",
                          Arg::make_none());
    return;
  }
  if (type->kind == Arg::Kind::string) {
    if (auto dt = legacy_tensor_type(type->s)) *type = Arg::make_dtype(*dt);
  }
}

// x.to('cuda'), x.to(device, dtype), x.to(other): devices are dropped and a
// tensor argument makes the call type_as.
std::string to_overload(std::string_view spelling, std::vector<Arg>& positional,
                        std::vector<std::pair<std::string, Arg>>& keywords) {
  if (spelling == "Tensor.type") {
    type_overload(positional, keywords);
    return "";
  }
  if (positional.size() >= 2) {
    Arg::Kind k = positional[1].kind;
    if (k == Arg::Kind::device || k == Arg::Kind::string) {
      positional.erase(positional.begin() + 1);
    } else if (k == Arg::Kind::value) {
      positional.resize(2);
      keywords.clear();
      return "type_as";
    }
  }
  return "";
}

OpInfo to_op() {
  OpInfo op;
  op.name = "to";
  op.aliases = {"Tensor.to", "Tensor.type"};
  op.params = {tensor_param("input"),
               param("dtype", ParamKind::optional_dtype, Arg::make_none()),
               ParamDef{"non_blocking", ParamKind::ignored, Arg::make_bool(false)},
               param("copy", ParamKind::boolean, Arg::make_bool(false)),
               ignored_param("memory_format"),
               ignored_param("device")};
  op.may_alias = true;
  op.overload = to_overload;
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    TensorType t = a.tensor(0);
    if (!a.is_none(1)) {
      PF_ASSIGN(t.dtype, a.dtype(1));
    }
    PF_TRY(a.boolean(3));
    return std::vector<TensorType>{t};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(bool copy, a.boolean(3));
    return std::vector<Tensor>{convert(a.tensor(0), out[0].dtype, copy)};
  };
  op.doc = "converts to dtype (returns the input itself when it already has that dtype)";
  return op;
}

OpInfo type_as_op() {
  OpInfo op;
  op.name = "type_as";
  op.aliases = {"Tensor.type_as"};
  op.params = {tensor_param("input"), tensor_param("other")};
  op.may_alias = true;
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    return std::vector<TensorType>{{a.tensor(1).dtype, a.tensor(0).shape}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    return std::vector<Tensor>{convert(a.tensor(0), out[0].dtype, false)};
  };
  op.doc = "converts input to other's dtype";
  return op;
}

// x.half() etc.: canonicalised to to(x, dtype) by the overload hook; the op
// still works on its own for callers that skip OpRegistry::resolve.
OpInfo method_cast(const std::string& name, DType dtype) {
  OpInfo op;
  op.name = name;
  op.aliases = {"Tensor." + name};
  op.params = {tensor_param("input"), ignored_param("memory_format")};
  op.may_alias = true;
  op.overload = [dtype](std::string_view, std::vector<Arg>&,
                        std::vector<std::pair<std::string, Arg>>& keywords) -> std::string {
    keywords.emplace_back("dtype", Arg::make_dtype(dtype));
    return "to";
  };
  op.infer = [dtype](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    return std::vector<TensorType>{{dtype, a.tensor(0).shape}};
  };
  op.cpu = [dtype](const BoundArgs<Tensor>& a,
                   const std::vector<TensorType>&) -> Result<std::vector<Tensor>> {
    return std::vector<Tensor>{convert(a.tensor(0), dtype, false)};
  };
  op.doc = std::string("converts to ") + dtype_name(dtype);
  return op;
}

}  // namespace

void register_cast_ops(OpRegistry& r) {
  r.add(to_op());
  r.add(type_as_op());
  struct Method {
    const char* name;
    DType dtype;
  };
  for (auto [name, dtype] : {Method{"float", DType::float32}, Method{"half", DType::float16},
                             Method{"bfloat16", DType::bfloat16}, Method{"double", DType::float64},
                             Method{"int", DType::int32}, Method{"long", DType::int64},
                             Method{"short", DType::int16}, Method{"char", DType::int8},
                             Method{"byte", DType::uint8}, Method{"bool", DType::boolean}}) {
    r.add(method_cast(name, dtype));
  }
}

}  // namespace pf
