#include "evaluator/tasks/weight_meta.h"

#include <limits>

#include "evaluator/dialect/literal.h"
#include "evaluator/dialect/parser.h"

namespace pf {
namespace {

std::string where(const std::string& file, const SourceLoc& loc) {
  return file + ":" + std::to_string(loc.line);
}

Result<std::optional<double>> number_or_none(const Arg& a, const std::string& at,
                                             const std::string& field) {
  if (a.is_none()) return std::optional<double>();
  if (a.kind == Arg::Kind::integer) return std::optional<double>(static_cast<double>(a.i));
  if (a.kind == Arg::Kind::real) return std::optional<double>(a.f);
  if (a.kind == Arg::Kind::boolean) return std::optional<double>(a.b ? 1.0 : 0.0);
  return make_error(ErrorCode::invalid_argument, at + ": '" + field + "' must be a number or None");
}

// Flattens nested lists of numbers (data may be written nested).
Status flatten_numbers(const Arg& a, std::vector<double>& out, const std::string& at) {
  if (a.is_sequence()) {
    for (const auto& item : a.items) PF_TRY(flatten_numbers(item, out, at));
    return ok_status();
  }
  PF_ASSIGN(auto v, number_or_none(a, at, "data"));
  if (!v) return make_error(ErrorCode::invalid_argument, at + ": 'data' holds a None");
  out.push_back(*v);
  return ok_status();
}

// GraphNet writes each stored value with Python's "%f" formatting, which spells
// the non-finite ones as bare `inf`, `-inf` and `nan` (an attention mask holds
// -inf); elsewhere those names are not literals.
Result<Arg> data_value(const dialect::Expr& e, const std::string& file) {
  using Kind = dialect::Expr::Kind;
  if (e.kind == Kind::name && (e.text == "inf" || e.text == "nan")) {
    return Arg::make_real(e.text == "inf" ? std::numeric_limits<double>::infinity()
                                          : std::numeric_limits<double>::quiet_NaN());
  }
  if (e.kind == Kind::unary && (e.op == dialect::Operator::neg || e.op == dialect::Operator::pos) &&
      e.children[0].kind == Kind::name) {
    PF_ASSIGN(Arg v, data_value(e.children[0], file));
    if (e.op == dialect::Operator::neg) v.f = -v.f;
    return v;
  }
  if (e.kind == Kind::list || e.kind == Kind::tuple) {
    std::vector<Arg> items;
    items.reserve(e.children.size());
    for (const auto& c : e.children) {
      PF_ASSIGN(Arg item, data_value(c, file));
      items.push_back(std::move(item));
    }
    return e.kind == Kind::tuple ? Arg::make_tuple(std::move(items))
                                 : Arg::make_list(std::move(items));
  }
  return dialect::literal_value(e, file);
}

}  // namespace

Result<std::vector<InputMeta>> parse_weight_meta(std::string_view source, const std::string& file) {
  PF_ASSIGN(dialect::Module module, dialect::parse_module(source, file));
  std::vector<InputMeta> out;
  for (const auto& cls : module.classes) {
    InputMeta meta;
    bool has_shape = false, has_dtype = false;
    for (const auto& attr : cls.attributes) {
      std::string at = where(file, attr.loc);
      const std::string& key = attr.name;
      bool numeric =
          key == "data" || key == "mean" || key == "std" || key == "min_val" || key == "max_val";
      PF_ASSIGN(Arg v,
                numeric ? data_value(attr.value, file) : dialect::literal_value(attr.value, file));
      if (key == "name" || key == "original_name") {
        if (v.kind != Arg::Kind::string) {
          return make_error(ErrorCode::invalid_argument, at + ": '" + key + "' must be a string");
        }
        (key == "name" ? meta.name : meta.original_name) = v.s;
      } else if (key == "shape") {
        if (!v.is_sequence()) {
          return make_error(ErrorCode::invalid_argument, at + ": 'shape' must be a list of ints");
        }
        for (const auto& d : v.items) {
          if (d.kind != Arg::Kind::integer || d.i < 0) {
            return make_error(ErrorCode::invalid_argument,
                              at + ": 'shape' must hold non-negative ints");
          }
          meta.shape.push_back(d.i);
        }
        has_shape = true;
      } else if (key == "dtype") {
        auto dt = v.kind == Arg::Kind::string ? parse_dtype(v.s)
                  : v.kind == Arg::Kind::dtype ? std::optional<DType>(v.dtype)
                                                : std::nullopt;
        if (!dt) return make_error(ErrorCode::invalid_argument, at + ": unknown dtype");
        meta.dtype = *dt;
        has_dtype = true;
      } else if (key == "mean") {
        PF_ASSIGN(meta.mean, number_or_none(v, at, key));
      } else if (key == "std") {
        PF_ASSIGN(meta.std, number_or_none(v, at, key));
      } else if (key == "min_val") {
        PF_ASSIGN(meta.min_val, number_or_none(v, at, key));
      } else if (key == "max_val") {
        PF_ASSIGN(meta.max_val, number_or_none(v, at, key));
      } else if (key == "data") {
        if (v.is_none()) continue;
        std::vector<double> values;
        PF_TRY(flatten_numbers(v, values, at));
        meta.data = std::move(values);
      }
      // device and any other attribute carry nothing synthesis needs.
    }
    std::string at = where(file, cls.loc);
    if (meta.name.empty() || !has_shape || !has_dtype) {
      return make_error(ErrorCode::invalid_argument,
                        at + ": class " + cls.name + " lacks name, shape or dtype");
    }
    if (meta.data && static_cast<int64_t>(meta.data->size()) != shape_numel(meta.shape)) {
      // A scalar `data` for a 1-element shape is common; anything else is broken.
      return make_error(ErrorCode::invalid_argument,
                        at + ": class " + cls.name + ": " + std::to_string(meta.data->size()) +
                            " data values for shape " + shape_str(meta.shape));
    }
    out.push_back(std::move(meta));
  }
  return out;
}

}  // namespace pf
