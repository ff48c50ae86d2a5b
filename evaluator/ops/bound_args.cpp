#include "evaluator/ops/bound_args.h"

namespace pf {
namespace {

const char* kind_word(const Arg& a) {
  switch (a.kind) {
    case Arg::Kind::none: return "None";
    case Arg::Kind::boolean: return "a bool";
    case Arg::Kind::integer: return "an int";
    case Arg::Kind::real: return "a float";
    case Arg::Kind::string: return "a string";
    case Arg::Kind::dtype: return "a dtype";
    case Arg::Kind::device: return "a device";
    case Arg::Kind::ellipsis: return "...";
    case Arg::Kind::slice: return "a slice";
    case Arg::Kind::list: return "a list";
    case Arg::Kind::tuple: return "a tuple";
    case Arg::Kind::value: return "a tensor";
  }
  return "?";
}

}  // namespace

std::string ArgReader::param_name(size_t i) const {
  return param_names_ && i < param_names_->size() ? (*param_names_)[i] : std::to_string(i);
}

Error ArgReader::error(size_t i, const std::string& message) const {
  return make_error(ErrorCode::invalid_argument,
                    node_.op + ": parameter '" + param_name(i) + "': " + message);
}

Result<int64_t> ArgReader::integer(size_t i) const {
  const Arg& a = arg(i);
  if (a.kind == Arg::Kind::integer) return a.i;
  if (a.kind == Arg::Kind::boolean) return a.b ? 1 : 0;
  return error(i, std::string("expected an int, got ") + kind_word(a));
}

Result<double> ArgReader::real(size_t i) const {
  const Arg& a = arg(i);
  if (a.kind == Arg::Kind::real) return a.f;
  if (a.kind == Arg::Kind::integer) return static_cast<double>(a.i);
  if (a.kind == Arg::Kind::boolean) return a.b ? 1.0 : 0.0;
  return error(i, std::string("expected a number, got ") + kind_word(a));
}

Result<bool> ArgReader::boolean(size_t i) const {
  const Arg& a = arg(i);
  if (a.kind == Arg::Kind::boolean) return a.b;
  if (a.kind == Arg::Kind::integer) return a.i != 0;
  return error(i, std::string("expected a bool, got ") + kind_word(a));
}

Result<std::string> ArgReader::string(size_t i) const {
  const Arg& a = arg(i);
  if (a.kind == Arg::Kind::string) return a.s;
  return error(i, std::string("expected a string, got ") + kind_word(a));
}

Result<DType> ArgReader::dtype(size_t i) const {
  const Arg& a = arg(i);
  if (a.kind == Arg::Kind::dtype) return a.dtype;
  return error(i, std::string("expected a dtype, got ") + kind_word(a));
}

Result<std::vector<int64_t>> ArgReader::ints(size_t i) const {
  const Arg& a = arg(i);
  if (a.kind == Arg::Kind::integer) return std::vector<int64_t>{a.i};
  if (!a.is_sequence()) return error(i, std::string("expected ints, got ") + kind_word(a));
  std::vector<int64_t> out;
  for (const auto& item : a.items) {
    if (item.kind != Arg::Kind::integer) {
      return error(i, std::string("expected ints, found ") + kind_word(item) + " in the list");
    }
    out.push_back(item.i);
  }
  return out;
}

std::optional<int64_t> ArgReader::optional_integer(size_t i) const {
  const Arg& a = arg(i);
  if (a.kind == Arg::Kind::integer) return a.i;
  return std::nullopt;
}

}  // namespace pf
