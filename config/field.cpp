#include "config/field.h"

#include <algorithm>
#include <cmath>

#include "common/strings.h"

namespace pf {
namespace {

using nlohmann::json;

Error type_error(const char* expected, const json& got) {
  std::string what;
  switch (got.type()) {
    case json::value_t::string: what = "the string " + got.dump(); break;
    case json::value_t::boolean: what = std::string("the boolean ") + got.dump(); break;
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: what = "the integer " + got.dump(); break;
    case json::value_t::number_float: what = "the float " + got.dump(); break;
    case json::value_t::array: what = "an array"; break;
    case json::value_t::object: what = "a table"; break;
    case json::value_t::null: what = "no value"; break;
    default: what = "an unsupported value"; break;
  }
  return make_error(ErrorCode::invalid_argument, std::string("expected ") + expected + ", got " + what);
}

std::string format_bound(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<int64_t>(v));
  return format_double(v);
}

Status check_range(double v, const Range& range) {
  if (!std::isfinite(v)) return make_error(ErrorCode::invalid_argument, "must be a finite number");
  if (v >= range.min && v <= range.max) return ok_status();
  std::string bounds;
  if (std::isinf(range.max)) {
    bounds = "must be at least " + format_bound(range.min);
  } else if (std::isinf(range.min)) {
    bounds = "must be at most " + format_bound(range.max);
  } else {
    bounds = "must be between " + format_bound(range.min) + " and " + format_bound(range.max);
  }
  return make_error(ErrorCode::invalid_argument, bounds + ", got " + format_bound(v));
}

Result<int64_t> to_integer(const json& v, const Range& range) {
  if (!v.is_number_integer()) return type_error("an integer", v);
  int64_t i = v.get<int64_t>();
  if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
    return make_error(ErrorCode::invalid_argument, "integer out of range");
  }
  PF_TRY(check_range(static_cast<double>(i), range));
  return i;
}

Result<double> to_number(const json& v, const Range& range) {
  if (!v.is_number()) return type_error("a number", v);
  double d = v.get<double>();
  PF_TRY(check_range(d, range));
  return d;
}

Result<std::vector<std::string>> to_string_list(const json& v) {
  if (v.is_string()) return std::vector<std::string>{v.get<std::string>()};
  if (!v.is_array()) return type_error("a list of strings", v);
  std::vector<std::string> out;
  for (const auto& e : v) {
    if (!e.is_string()) return type_error("a list of strings", e);
    out.push_back(e.get<std::string>());
  }
  return out;
}

Result<GpuSelection> to_gpus(const json& v) {
  constexpr const char* kExpected = "\"all\" or a list of GPU indices such as [0, 1]";
  if (v.is_string()) {
    if (v.get<std::string>() == "all") return GpuSelection{};
    return type_error(kExpected, v);
  }
  json list = v.is_number_integer() ? json::array({v}) : v;
  if (!list.is_array() || list.empty()) return type_error(kExpected, v);
  GpuSelection out{false, {}};
  for (const auto& e : list) {
    PF_ASSIGN(int64_t index, to_integer(e, Range{0, 1023}));
    if (std::find(out.indices.begin(), out.indices.end(), index) != out.indices.end()) {
      return make_error(ErrorCode::invalid_argument, "GPU " + std::to_string(index) + " listed twice");
    }
    out.indices.push_back(static_cast<int>(index));
  }
  return out;
}

}  // namespace

const char* field_type_name(FieldType type) {
  switch (type) {
    case FieldType::integer: return "integer";
    case FieldType::number: return "number";
    case FieldType::boolean: return "boolean";
    case FieldType::string: return "string";
    case FieldType::string_list: return "list of strings";
    case FieldType::choice: return "choice";
    case FieldType::gpus: return "\"all\" or list of integers";
    case FieldType::table: return "table";
  }
  return "?";
}

Field& FieldListBuilder::push(const char* name, const char* doc, FieldType type) {
  Field& f = fields_.emplace_back();
  f.section = section_;
  f.name = name;
  f.doc = doc;
  f.type = type;
  return f;
}

void FieldListBuilder::add(const char* name, int& member, const char* doc, Range range) {
  Field& f = push(name, doc, FieldType::integer);
  range.min = std::max<double>(range.min, INT32_MIN);
  range.max = std::min<double>(range.max, INT32_MAX);
  f.range = range;
  f.set = [&member, range](const json& v) -> Status {
    PF_ASSIGN(int64_t i, to_integer(v, range));
    member = static_cast<int>(i);
    return ok_status();
  };
  f.get = [&member] { return json(member); };
}

void FieldListBuilder::add(const char* name, int64_t& member, const char* doc, Range range) {
  Field& f = push(name, doc, FieldType::integer);
  f.range = range;
  f.set = [&member, range](const json& v) -> Status {
    PF_ASSIGN(member, to_integer(v, range));
    return ok_status();
  };
  f.get = [&member] { return json(member); };
}

void FieldListBuilder::add(const char* name, std::optional<int64_t>& member, const char* doc,
                           Range range) {
  Field& f = push(name, doc, FieldType::integer);
  f.range = range;
  f.optional = true;
  f.set = [&member, range](const json& v) -> Status {
    if (v.is_null()) {
      member.reset();
      return ok_status();
    }
    PF_ASSIGN(member, to_integer(v, range));
    return ok_status();
  };
  f.get = [&member] { return member ? json(*member) : json(nullptr); };
}

void FieldListBuilder::add(const char* name, double& member, const char* doc, Range range) {
  Field& f = push(name, doc, FieldType::number);
  f.range = range;
  f.set = [&member, range](const json& v) -> Status {
    PF_ASSIGN(member, to_number(v, range));
    return ok_status();
  };
  f.get = [&member] { return json(member); };
}

void FieldListBuilder::add(const char* name, std::optional<double>& member, const char* doc,
                           Range range) {
  Field& f = push(name, doc, FieldType::number);
  f.range = range;
  f.optional = true;
  f.set = [&member, range](const json& v) -> Status {
    if (v.is_null()) {
      member.reset();
      return ok_status();
    }
    PF_ASSIGN(member, to_number(v, range));
    return ok_status();
  };
  f.get = [&member] { return member ? json(*member) : json(nullptr); };
}

void FieldListBuilder::add(const char* name, bool& member, const char* doc) {
  Field& f = push(name, doc, FieldType::boolean);
  f.set = [&member](const json& v) -> Status {
    if (!v.is_boolean()) return type_error("true or false", v);
    member = v.get<bool>();
    return ok_status();
  };
  f.get = [&member] { return json(member); };
}

void FieldListBuilder::add(const char* name, std::string& member, const char* doc) {
  Field& f = push(name, doc, FieldType::string);
  f.set = [&member](const json& v) -> Status {
    if (!v.is_string()) return type_error("a string", v);
    member = v.get<std::string>();
    return ok_status();
  };
  f.get = [&member] { return json(member); };
}

void FieldListBuilder::add(const char* name, std::vector<std::string>& member, const char* doc) {
  Field& f = push(name, doc, FieldType::string_list);
  f.set = [&member](const json& v) -> Status {
    PF_ASSIGN(member, to_string_list(v));
    return ok_status();
  };
  f.get = [&member] { return json(member); };
}

void FieldListBuilder::add(const char* name, GpuSelection& member, const char* doc) {
  Field& f = push(name, doc, FieldType::gpus);
  f.set = [&member](const json& v) -> Status {
    PF_ASSIGN(member, to_gpus(v));
    return ok_status();
  };
  f.get = [&member] { return member.all ? json("all") : json(member.indices); };
}

void FieldListBuilder::add(const char* name, json& table, const char* doc) {
  Field& f = push(name, doc, FieldType::table);
  f.set = [&table](const json& v) -> Status {
    if (!v.is_object()) return type_error("a table", v);
    table = v;
    return ok_status();
  };
  f.get = [&table] { return table; };
}

void FieldListBuilder::add_choice_impl(const char* name, const char* doc,
                                       std::vector<std::string> names,
                                       std::function<void(size_t)> set_index,
                                       std::function<size_t()> get_index) {
  Field& f = push(name, doc, FieldType::choice);
  f.choices = names;
  f.set = [names, set_index](const json& v) -> Status {
    // compile_only = true reads naturally; its choices include "true"/"false".
    std::string s = v.is_boolean() ? v.dump() : v.is_string() ? v.get<std::string>() : "";
    if (!v.is_string() && !v.is_boolean()) return type_error(("one of " + join(names, ", ")).c_str(), v);
    auto it = std::find(names.begin(), names.end(), s);
    if (it != names.end()) {
      set_index(static_cast<size_t>(it - names.begin()));
      return ok_status();
    }
    std::string msg = "must be one of " + join(names, ", ") + ", got '" + s + "'";
    std::string near = closest_match(s, names);
    if (!near.empty()) msg += " (did you mean '" + near + "'?)";
    return make_error(ErrorCode::invalid_argument, msg);
  };
  f.get = [names, get_index] { return json(names[get_index()]); };
}

std::string toml_literal(const json& value) {
  switch (value.type()) {
    case json::value_t::number_float: return format_double(value.get<double>());
    case json::value_t::array: {
      std::vector<std::string> parts;
      for (const auto& e : value) parts.push_back(toml_literal(e));
      return "[" + join(parts, ", ") + "]";
    }
    case json::value_t::object: {
      std::vector<std::string> parts;
      for (const auto& [k, v] : value.items()) parts.push_back(json(k).dump() + " = " + toml_literal(v));
      return parts.empty() ? "{}" : "{ " + join(parts, ", ") + " }";
    }
    default: return value.dump();  // JSON strings, integers and booleans are valid TOML
  }
}

}  // namespace pf
