#include "evaluator/dialect/literal.h"

#include <cmath>
#include <limits>

#include "common/strings.h"
#include "evaluator/dialect/spelling.h"
#include "evaluator/dialect/syntax_error.h"

namespace pf::dialect {
namespace {

bool is_numeric(const Arg& a) {
  return a.kind == Arg::Kind::integer || a.kind == Arg::Kind::real || a.kind == Arg::Kind::boolean;
}
double as_double(const Arg& a) {
  if (a.kind == Arg::Kind::real) return a.f;
  if (a.kind == Arg::Kind::boolean) return a.b ? 1.0 : 0.0;
  return static_cast<double>(a.i);
}
int64_t as_int(const Arg& a) {
  return a.kind == Arg::Kind::boolean ? (a.b ? 1 : 0) : a.i;
}

Error overflow() {
  return make_error(ErrorCode::invalid_argument, "integer arithmetic overflows 64 bits");
}

std::optional<Result<Arg>> fold_ints(Operator op, int64_t x, int64_t y) {
  int64_t r = 0;
  switch (op) {
    case Operator::add:
      if (__builtin_add_overflow(x, y, &r)) return Result<Arg>(overflow());
      return Result<Arg>(Arg::make_int(r));
    case Operator::sub:
      if (__builtin_sub_overflow(x, y, &r)) return Result<Arg>(overflow());
      return Result<Arg>(Arg::make_int(r));
    case Operator::mul:
      if (__builtin_mul_overflow(x, y, &r)) return Result<Arg>(overflow());
      return Result<Arg>(Arg::make_int(r));
    case Operator::floordiv:
    case Operator::mod: {
      if (y == 0)
        return Result<Arg>(make_error(ErrorCode::invalid_argument, "integer division by zero"));
      if (x == std::numeric_limits<int64_t>::min() && y == -1) return Result<Arg>(overflow());
      int64_t q = x / y, m = x % y;
      if (m != 0 && ((m < 0) != (y < 0))) {
        --q;
        m += y;
      }
      return Result<Arg>(Arg::make_int(op == Operator::floordiv ? q : m));
    }
    case Operator::pow: {
      if (y < 0)
        return Result<Arg>(
            Arg::make_real(std::pow(static_cast<double>(x), static_cast<double>(y))));
      int64_t acc = 1;
      for (int64_t k = 0; k < y; ++k) {
        if (__builtin_mul_overflow(acc, x, &acc)) return Result<Arg>(overflow());
        if (acc == 0 || acc == 1) break;
      }
      return Result<Arg>(Arg::make_int(acc));
    }
    default:
      return std::nullopt;
  }
}

}  // namespace

// `float('inf')`, `float('-inf')`, `float('nan')`: how Python spells the
// non-finite reals (and how the printer writes them).
std::optional<Arg> float_call(const Expr& e) {
  if (e.children.size() != 2 || !e.keywords.empty() || e.children[0].kind != Expr::Kind::name ||
      e.children[0].text != "float" || e.children[1].kind != Expr::Kind::string) {
    return std::nullopt;
  }
  const std::string& s = e.children[1].text;
  double inf = std::numeric_limits<double>::infinity();
  if (s == "inf" || s == "+inf" || s == "infinity") return Arg::make_real(inf);
  if (s == "-inf" || s == "-infinity") return Arg::make_real(-inf);
  if (s == "nan") return Arg::make_real(std::numeric_limits<double>::quiet_NaN());
  return std::nullopt;
}

std::optional<Arg> named_constant(std::string_view path) {
  if (path == "math.pi") return Arg::make_real(M_PI);
  if (path == "math.e") return Arg::make_real(M_E);
  if (path == "math.inf" || path == "torch.inf") {
    return Arg::make_real(std::numeric_limits<double>::infinity());
  }
  if (path == "math.nan" || path == "torch.nan") {
    return Arg::make_real(std::numeric_limits<double>::quiet_NaN());
  }
  if (path == "torch.pi") return Arg::make_real(M_PI);
  if (path == "torch.e") return Arg::make_real(M_E);
  if (path == "Ellipsis") return Arg::make_ellipsis();
  if (path == "torch.contiguous_format" || path == "torch.preserve_format" ||
      path == "torch.channels_last" || path == "torch.strided") {
    return Arg::make_string(std::string(path.substr(6)));
  }
  if (starts_with(path, "torch.")) {
    std::string_view member = path.substr(6);
    if (member.find('.') == std::string_view::npos) {
      if (auto dt = parse_dtype(member)) return Arg::make_dtype(*dt);
    }
  }
  return std::nullopt;
}

std::optional<Result<Arg>> fold_binary(Operator op, const Arg& l, const Arg& r) {
  if (!is_numeric(l) || !is_numeric(r)) return std::nullopt;
  bool ints = l.kind != Arg::Kind::real && r.kind != Arg::Kind::real;
  if (ints && op != Operator::truediv) return fold_ints(op, as_int(l), as_int(r));
  double x = as_double(l), y = as_double(r);
  switch (op) {
    case Operator::add:
      return Result<Arg>(Arg::make_real(x + y));
    case Operator::sub:
      return Result<Arg>(Arg::make_real(x - y));
    case Operator::mul:
      return Result<Arg>(Arg::make_real(x * y));
    case Operator::truediv:
      if (y == 0) return Result<Arg>(make_error(ErrorCode::invalid_argument, "division by zero"));
      return Result<Arg>(Arg::make_real(x / y));
    case Operator::floordiv:
      if (y == 0) return Result<Arg>(make_error(ErrorCode::invalid_argument, "division by zero"));
      return Result<Arg>(Arg::make_real(std::floor(x / y)));
    case Operator::mod: {
      if (y == 0) return Result<Arg>(make_error(ErrorCode::invalid_argument, "modulo by zero"));
      double m = std::fmod(x, y);
      if (m != 0 && ((m < 0) != (y < 0))) m += y;
      return Result<Arg>(Arg::make_real(m));
    }
    case Operator::pow:
      return Result<Arg>(Arg::make_real(std::pow(x, y)));
    default:
      return std::nullopt;
  }
}

std::optional<Arg> fold_unary(Operator op, const Arg& a) {
  switch (op) {
    case Operator::neg:
      if (a.kind == Arg::Kind::real) return Arg::make_real(-a.f);
      if ((a.kind == Arg::Kind::integer || a.kind == Arg::Kind::boolean) &&
          as_int(a) != std::numeric_limits<int64_t>::min()) {
        return Arg::make_int(-as_int(a));
      }
      return std::nullopt;
    case Operator::pos:
      if (a.kind == Arg::Kind::real || a.kind == Arg::Kind::integer) return a;
      if (a.kind == Arg::Kind::boolean) return Arg::make_int(as_int(a));
      return std::nullopt;
    case Operator::invert:
      if (a.kind == Arg::Kind::integer || a.kind == Arg::Kind::boolean)
        return Arg::make_int(~as_int(a));
      return std::nullopt;
    case Operator::not_:
      if (a.kind == Arg::Kind::boolean) return Arg::make_bool(!a.b);
      if (a.kind == Arg::Kind::none) return Arg::make_bool(true);
      if (a.kind == Arg::Kind::integer) return Arg::make_bool(a.i == 0);
      if (a.kind == Arg::Kind::real) return Arg::make_bool(a.f == 0);
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

Result<Arg> literal_value(const Expr& e, std::string_view file) {
  switch (e.kind) {
    case Expr::Kind::integer:
      return Arg::make_int(e.int_value);
    case Expr::Kind::real:
      return Arg::make_real(e.real_value);
    case Expr::Kind::string:
      return Arg::make_string(e.text);
    case Expr::Kind::boolean:
      return Arg::make_bool(e.bool_value);
    case Expr::Kind::none:
      return Arg::make_none();
    case Expr::Kind::ellipsis:
      return Arg::make_ellipsis();
    case Expr::Kind::tuple:
    case Expr::Kind::list: {
      std::vector<Arg> items;
      items.reserve(e.children.size());
      for (const auto& c : e.children) {
        PF_ASSIGN(Arg item, literal_value(c, file));
        items.push_back(std::move(item));
      }
      return e.kind == Expr::Kind::tuple ? Arg::make_tuple(std::move(items))
                                         : Arg::make_list(std::move(items));
    }
    case Expr::Kind::unary: {
      PF_ASSIGN(Arg operand, literal_value(e.children[0], file));
      if (auto folded = fold_unary(e.op, operand)) return *folded;
      break;
    }
    case Expr::Kind::binary: {
      PF_ASSIGN(Arg l, literal_value(e.children[0], file));
      PF_ASSIGN(Arg r, literal_value(e.children[1], file));
      if (auto folded = fold_binary(e.op, l, r)) {
        if (!folded->ok()) return syntax_error(file, e.loc, folded->error().message);
        return std::move(*folded).value();
      }
      break;
    }
    case Expr::Kind::attribute:
    case Expr::Kind::name:
      if (auto path = dotted_path(e)) {
        if (auto c = named_constant(*path)) return *c;
        return syntax_error(file, e.loc, "'" + *path + "' is not a literal");
      }
      break;
    case Expr::Kind::call:
      if (auto special = float_call(e)) return *special;
      break;
    default:
      break;
  }
  return syntax_error(file, e.loc, "expected a literal, got " + describe_expr(e));
}

}  // namespace pf::dialect
