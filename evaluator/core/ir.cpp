#include "evaluator/core/ir.h"

#include <algorithm>
#include <cmath>

#include "common/strings.h"

namespace pf {

Arg Arg::make_bool(bool v) {
  Arg a;
  a.kind = Kind::boolean;
  a.b = v;
  return a;
}
Arg Arg::make_int(int64_t v) {
  Arg a;
  a.kind = Kind::integer;
  a.i = v;
  return a;
}
Arg Arg::make_real(double v) {
  Arg a;
  a.kind = Kind::real;
  a.f = v;
  return a;
}
Arg Arg::make_string(std::string v) {
  Arg a;
  a.kind = Kind::string;
  a.s = std::move(v);
  return a;
}
Arg Arg::make_dtype(DType v) {
  Arg a;
  a.kind = Kind::dtype;
  a.dtype = v;
  return a;
}
Arg Arg::make_device(std::string v) {
  Arg a;
  a.kind = Kind::device;
  a.s = std::move(v);
  return a;
}
Arg Arg::make_ellipsis() {
  Arg a;
  a.kind = Kind::ellipsis;
  return a;
}
Arg Arg::make_slice(Arg start, Arg stop, Arg step) {
  Arg a;
  a.kind = Kind::slice;
  a.items = {std::move(start), std::move(stop), std::move(step)};
  return a;
}
Arg Arg::make_list(std::vector<Arg> items) {
  Arg a;
  a.kind = Kind::list;
  a.items = std::move(items);
  return a;
}
Arg Arg::make_tuple(std::vector<Arg> items) {
  Arg a;
  a.kind = Kind::tuple;
  a.items = std::move(items);
  return a;
}
Arg Arg::make_value(ValueId v) {
  Arg a;
  a.kind = Kind::value;
  a.value = v;
  return a;
}

bool Arg::references_values() const {
  if (kind == Kind::value) return true;
  return std::any_of(items.begin(), items.end(),
                     [](const Arg& a) { return a.references_values(); });
}

bool Arg::operator==(const Arg& o) const {
  if (kind != o.kind) return false;
  switch (kind) {
    case Kind::none:
    case Kind::ellipsis: return true;
    case Kind::boolean: return b == o.b;
    case Kind::integer: return i == o.i;
    case Kind::real: return f == o.f || (std::isnan(f) && std::isnan(o.f));  // float('nan') literals
    case Kind::string:
    case Kind::device: return s == o.s;
    case Kind::dtype: return dtype == o.dtype;
    case Kind::value: return value == o.value;
    case Kind::slice:
    case Kind::list:
    case Kind::tuple: return items == o.items;
  }
  return false;
}

std::string arg_to_string(const Arg& a, const std::vector<std::string>& names) {
  auto seq = [&](const char* open, const char* close, bool trailing_comma) {
    std::string out = open;
    for (size_t k = 0; k < a.items.size(); ++k) {
      if (k) out += ", ";
      out += arg_to_string(a.items[k], names);
    }
    if (trailing_comma && a.items.size() == 1) out += ",";
    return out + close;
  };
  switch (a.kind) {
    case Arg::Kind::none: return "None";
    case Arg::Kind::boolean: return a.b ? "True" : "False";
    case Arg::Kind::integer: return std::to_string(a.i);
    case Arg::Kind::real: return format_double(a.f);
    case Arg::Kind::string: return "'" + a.s + "'";
    case Arg::Kind::dtype: return std::string("torch.") + dtype_name(a.dtype);
    case Arg::Kind::device: return "'" + a.s + "'";
    case Arg::Kind::ellipsis: return "...";
    case Arg::Kind::slice: {
      auto part = [&](const Arg& x) { return x.is_none() ? std::string() : arg_to_string(x, names); };
      std::string out = part(a.items[0]) + ":" + part(a.items[1]);
      if (!a.items[2].is_none()) out += ":" + part(a.items[2]);
      return out;
    }
    case Arg::Kind::list: return seq("[", "]", false);
    case Arg::Kind::tuple: return seq("(", ")", true);
    case Arg::Kind::value:
      if (a.value >= 0 && static_cast<size_t>(a.value) < names.size()) return names[a.value];
      return "<value " + std::to_string(a.value) + ">";
  }
  return "?";
}

std::string tensor_type_str(const TensorType& t) {
  return std::string(dtype_name(t.dtype)) + shape_str(t.shape);
}

ValueId Graph::add_value(std::string name, bool is_list, int producer) {
  Value v;
  v.name = std::move(name);
  v.is_list = is_list;
  v.producer = producer;
  values.push_back(std::move(v));
  return static_cast<ValueId>(values.size() - 1);
}

namespace {
void collect_values(const Arg& a, std::vector<ValueId>& out) {
  if (a.kind == Arg::Kind::value) out.push_back(a.value);
  for (const auto& item : a.items) collect_values(item, out);
}
}  // namespace

std::vector<ValueId> Graph::node_operands(const Node& node) {
  std::vector<ValueId> out;
  for (const auto& a : node.args) collect_values(a, out);
  return out;
}

std::vector<int> Graph::users(ValueId v) const {
  std::vector<int> out;
  for (size_t n = 0; n < nodes.size(); ++n) {
    auto ops = node_operands(nodes[n]);
    if (std::find(ops.begin(), ops.end(), v) != ops.end()) out.push_back(static_cast<int>(n));
  }
  return out;
}

std::vector<std::string> Graph::value_names() const {
  std::vector<std::string> out;
  out.reserve(values.size());
  for (const auto& v : values) out.push_back(v.name);
  return out;
}

bool Graph::operator==(const Graph& o) const {
  if (name != o.name || inputs != o.inputs || outputs != o.outputs ||
      values.size() != o.values.size() || nodes.size() != o.nodes.size()) {
    return false;
  }
  for (size_t k = 0; k < values.size(); ++k) {
    const auto& a = values[k];
    const auto& b = o.values[k];
    if (a.name != b.name || a.is_list != b.is_list || a.producer != b.producer ||
        a.types != b.types) {
      return false;
    }
  }
  for (size_t k = 0; k < nodes.size(); ++k) {
    if (nodes[k].op != o.nodes[k].op || nodes[k].args != o.nodes[k].args ||
        nodes[k].output != o.nodes[k].output) {
      return false;
    }
  }
  return true;
}

}  // namespace pf
