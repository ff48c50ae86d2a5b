#include "evaluator/passes/interp_value.h"

#include "common/strings.h"

namespace pf::passes {

TensorMeta TensorMeta::contiguous(const TensorType& type) {
  return {type.dtype, type.shape, contiguous_strides(type.shape), 0};
}

RValue RValue::boolean(bool v) {
  RValue r;
  r.kind = Kind::boolean;
  r.b = v;
  return r;
}
RValue RValue::integer(int64_t v) {
  RValue r;
  r.kind = Kind::integer;
  r.i = v;
  return r;
}
RValue RValue::real(double v) {
  RValue r;
  r.kind = Kind::real;
  r.f = v;
  return r;
}
RValue RValue::string(std::string v) {
  RValue r;
  r.kind = Kind::string;
  r.s = std::move(v);
  return r;
}
RValue RValue::of_dtype(DType v) {
  RValue r;
  r.kind = Kind::dtype;
  r.dtype = v;
  return r;
}
RValue RValue::device(std::string v) {
  RValue r;
  r.kind = Kind::device;
  r.s = std::move(v);
  return r;
}
RValue RValue::of_tensor(int handle) {
  RValue r;
  r.kind = Kind::tensor;
  r.tensor = handle;
  return r;
}
RValue RValue::tuple(std::vector<RValue> items) {
  RValue r;
  r.kind = Kind::tuple;
  r.items = std::move(items);
  return r;
}
RValue RValue::opaque(std::string text) {
  RValue r;
  r.kind = Kind::opaque;
  r.s = std::move(text);
  return r;
}

const char* kind_phrase(RValue::Kind kind) {
  switch (kind) {
    case RValue::Kind::none:
      return "None";
    case RValue::Kind::boolean:
      return "a bool";
    case RValue::Kind::integer:
      return "an int";
    case RValue::Kind::real:
      return "a float";
    case RValue::Kind::string:
      return "a string";
    case RValue::Kind::dtype:
      return "a dtype";
    case RValue::Kind::device:
      return "a device";
    case RValue::Kind::tensor:
      return "a tensor";
    case RValue::Kind::tuple:
      return "a tuple";
    case RValue::Kind::opaque:
      return "a literal";
  }
  return "a value";
}

std::string render(const RValue& v, const std::vector<TensorMeta>& tensors) {
  switch (v.kind) {
    case RValue::Kind::none:
      return "None";
    case RValue::Kind::boolean:
      return v.b ? "True" : "False";
    case RValue::Kind::integer:
      return std::to_string(v.i);
    case RValue::Kind::real:
      return format_double(v.f);
    case RValue::Kind::string:
      return "'" + v.s + "'";
    case RValue::Kind::dtype:
      return std::string("torch.") + dtype_name(v.dtype);
    case RValue::Kind::device:
      return "device('" + v.s + "')";
    case RValue::Kind::tensor:
      if (v.tensor >= 0 && static_cast<size_t>(v.tensor) < tensors.size()) {
        return "tensor " + tensor_type_str(tensors[v.tensor].type());
      }
      return "tensor";
    case RValue::Kind::tuple: {
      std::vector<std::string> parts;
      for (const auto& item : v.items) parts.push_back(render(item, tensors));
      return "(" + join(parts, ", ") + (parts.size() == 1 ? ",)" : ")");
    }
    case RValue::Kind::opaque:
      return v.s;
  }
  return "?";
}

RValue literal_value(const Arg& a) {
  switch (a.kind) {
    case Arg::Kind::none:
      return RValue::none();
    case Arg::Kind::boolean:
      return RValue::boolean(a.b);
    case Arg::Kind::integer:
      return RValue::integer(a.i);
    case Arg::Kind::real:
      return RValue::real(a.f);
    case Arg::Kind::string:
      return RValue::string(a.s);
    case Arg::Kind::dtype:
      return RValue::of_dtype(a.dtype);
    case Arg::Kind::device:
      return RValue::device(a.s);
    case Arg::Kind::list:
    case Arg::Kind::tuple: {
      std::vector<RValue> items;
      for (const auto& item : a.items) items.push_back(literal_value(item));
      return RValue::tuple(std::move(items));
    }
    case Arg::Kind::ellipsis:
    case Arg::Kind::slice:
    case Arg::Kind::value:
      return RValue::opaque(arg_to_string(a, {}));
  }
  return RValue::none();
}

}  // namespace pf::passes
