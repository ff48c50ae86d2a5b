// Statements, expressions and operators of the replacement interpreter.
// Calls (launch, allocations, metadata, builtins) are in interpreter_calls.cpp.
#include "evaluator/passes/interpreter.h"

#include <algorithm>
#include <cstdint>

#include "evaluator/dialect/syntax_error.h"
#include "evaluator/passes/interpreter_impl.h"
#include "evaluator/passes/replacement_language.h"

namespace pf::passes {

using dialect::Expr;
using dialect::Operator;
using dialect::Stmt;

namespace {

constexpr const char* kNoFloatMath =
    "arithmetic on floats is not allowed in replacement bodies: floats can only be passed to "
    "kernels (do float math in the kernel)";

// Python's floor division and modulo on int64 (b != 0 checked by the caller).
int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
int64_t floor_mod(int64_t a, int64_t b) {
  return a - floor_div(a, b) * b;
}

}  // namespace

KernelTable kernel_table(const std::vector<cuda::KernelInfo>& kernels) {
  KernelTable t;
  for (const auto& k : kernels) t.emplace(k.name, k);
  return t;
}

ReplacementInterpreter::ReplacementInterpreter(const LoadedPass& pass, const KernelTable& kernels,
                                               ReplacementBackend& backend,
                                               InterpreterLimits limits)
    : pass_(pass), kernels_(kernels), backend_(backend), limits_(limits) {}

Result<ReplacementRun> ReplacementInterpreter::run(std::vector<TensorMeta> tensors,
                                                   const std::vector<RValue>& args,
                                                   const std::vector<TensorType>& expected) {
  failure_ = FailureClass::runtime_fail;
  ReplacementRun out;
  out.tensors = std::move(tensors);
  Run run(pass_, kernels_, backend_, limits_, out);
  auto executed = run.execute(args);
  if (!executed.ok()) {
    if (run.limit_hit()) failure_ = FailureClass::resource_limit;
    return std::move(executed).error();
  }
  RValue returned = std::move(executed).value();
  SourceLoc loc = run.return_loc;
  std::vector<RValue> items;
  if (returned.kind == RValue::Kind::tuple) {
    items = returned.items;
  } else {
    items.push_back(returned);
  }
  if (items.size() != expected.size()) {
    return run.error(loc, "the replacement returns " + std::to_string(items.size()) +
                              " value(s); the pattern returns " + std::to_string(expected.size()));
  }
  for (size_t k = 0; k < items.size(); ++k) {
    const Value& pv = pass_.pattern.values[pass_.pattern.outputs[k]];
    std::string which = "output " + std::to_string(k + 1) + " ('" + pv.name + "')";
    if (!items[k].is_tensor()) {
      return run.error(loc, which + " is " + kind_phrase(items[k].kind) +
                                "; the replacement must return tensors");
    }
    const TensorMeta& t = out.tensors[items[k].tensor];
    std::string want = tensor_type_str(expected[k]);
    if (t.dtype != expected[k].dtype) {
      failure_ = FailureClass::dtype_mismatch;
      return run.error(loc, which + " is " + tensor_type_str(t.type()) +
                                "; the pattern's output is " + want + " (allocate it with dtype=)");
    }
    if (t.shape != expected[k].shape) {
      failure_ = FailureClass::shape_mismatch;
      return run.error(
          loc, which + " is " + tensor_type_str(t.type()) + "; the pattern's output is " + want);
    }
    out.outputs.push_back(items[k].tensor);
  }
  failure_ = FailureClass::none;
  return out;
}

Error Run::error(SourceLoc loc, const std::string& message) const {
  return make_error(ErrorCode::invalid_argument,
                    dialect::format_loc(pass_.file, loc) + ": " + message);
}

Error Run::limit_error(SourceLoc loc, const std::string& message) {
  limit_hit_ = true;
  return error(loc, message);
}

namespace {

// 1 + the items, recursively; stops counting once past `cap`.
int64_t value_cells(const RValue& v, int64_t cap) {
  int64_t n = 1;
  for (const auto& item : v.items) {
    if (n > cap) break;
    n += value_cells(item, cap - n);
  }
  return n;
}

}  // namespace

Status Run::charge(const RValue& v, SourceLoc loc) {
  if (v.kind != RValue::Kind::tuple) {
    ++value_cells_;
    return ok_status();
  }
  if (static_cast<int64_t>(v.items.size()) > limits_.max_tuple_items) {
    return limit_error(loc, "a tuple of " + std::to_string(v.items.size()) +
                                " items exceeds the interpreter's limit of " +
                                std::to_string(limits_.max_tuple_items) + " items per tuple");
  }
  value_cells_ += value_cells(v, limits_.max_value_cells - value_cells_);
  if (value_cells_ > limits_.max_value_cells) {
    return limit_error(loc, "the replacement's values exceed the interpreter's limit of " +
                                std::to_string(limits_.max_value_cells) +
                                " value cells per call (each tuple item counts, and every use "
                                "of a name copies its value)");
  }
  return ok_status();
}

Result<int64_t> Run::to_int(const RValue& v, const std::string& what, SourceLoc loc) const {
  if (v.is_int()) return v.as_int();
  return error(loc, what + " must be an int, got " + kind_phrase(v.kind) + " (" + show(v) + ")");
}

Result<const TensorMeta*> Run::to_tensor(const RValue& v, const std::string& what,
                                         SourceLoc loc) const {
  if (v.is_tensor()) return &out_.tensors[v.tensor];
  return error(loc, what + " must be a tensor, got " + kind_phrase(v.kind) + " (" + show(v) + ")");
}

Result<RValue> Run::execute(const std::vector<RValue>& args) {
  std::vector<std::string> names;
  for (size_t k = 0; k < pass_.replacement.params.size(); ++k) {
    const auto& p = pass_.replacement.params[k];
    if (k == 0 && p.name == "self") continue;
    names.push_back(p.name);
  }
  if (names.size() != args.size()) {
    return error(pass_.replacement.loc, "the replacement takes " + std::to_string(names.size()) +
                                            " parameters, the match binds " +
                                            std::to_string(args.size()));
  }
  for (size_t k = 0; k < names.size(); ++k) locals_[names[k]] = args[k];
  PF_ASSIGN(auto returned, block(pass_.replacement.body));
  if (!returned) {
    return error(pass_.replacement.loc,
                 "the replacement ended without a return (does every branch return?)");
  }
  return *returned;
}

Result<std::optional<RValue>> Run::block(const std::vector<Stmt>& body) {
  for (const auto& s : body) {
    PF_ASSIGN(auto returned, statement(s));
    if (returned) return returned;
  }
  return std::optional<RValue>();
}

Result<std::optional<RValue>> Run::statement(const Stmt& s) {
  switch (s.kind) {
    case Stmt::Kind::assign: {
      PF_ASSIGN(RValue v, eval(s.value));
      for (const auto& t : s.targets) PF_TRY(assign(t, v));
      return std::optional<RValue>();
    }
    case Stmt::Kind::aug_assign: {
      PF_ASSIGN(RValue current, eval(s.targets[0]));
      PF_ASSIGN(RValue rhs, eval(s.value));
      PF_ASSIGN(RValue v, binary(s.op, current, rhs, s.loc));
      PF_TRY(assign(s.targets[0], v));
      return std::optional<RValue>();
    }
    case Stmt::Kind::expression: {
      const Expr& v = s.value;
      if (v.kind == Expr::Kind::string || v.kind == Expr::Kind::ellipsis ||
          v.kind == Expr::Kind::none || v.is_literal_number()) {
        return std::optional<RValue>();
      }
      PF_ASSIGN(RValue ignored, eval(v));
      (void)ignored;
      return std::optional<RValue>();
    }
    case Stmt::Kind::return_stmt: {
      return_loc = s.loc;
      if (!s.has_value) return error(s.loc, "return needs the pattern's outputs");
      PF_ASSIGN(RValue v, eval(s.value));
      return std::optional<RValue>(std::move(v));
    }
    case Stmt::Kind::if_stmt: {
      for (const auto& b : s.branches) {
        PF_ASSIGN(RValue c, eval(b.condition));
        PF_ASSIGN(bool taken, truth(c, b.condition.loc));
        if (taken) return block(b.body);
      }
      return block(s.orelse);
    }
    case Stmt::Kind::pass:
      return std::optional<RValue>();
    case Stmt::Kind::unsupported:
      break;
  }
  return error(s.loc, "'" + s.keyword + "' statements are not allowed in replacement bodies");
}

Status Run::assign(const Expr& t, const RValue& v) {
  if (t.kind == Expr::Kind::name) {
    locals_[t.text] = v;
    return ok_status();
  }
  if (t.kind == Expr::Kind::tuple || t.kind == Expr::Kind::list) {
    if (v.kind != RValue::Kind::tuple) {
      return error(t.loc, "cannot unpack " + std::string(kind_phrase(v.kind)) + " into " +
                              std::to_string(t.children.size()) + " names");
    }
    if (v.items.size() != t.children.size()) {
      return error(t.loc, "cannot unpack " + std::to_string(v.items.size()) + " values into " +
                              std::to_string(t.children.size()) + " names");
    }
    for (size_t k = 0; k < v.items.size(); ++k) PF_TRY(assign(t.children[k], v.items[k]));
    return ok_status();
  }
  return error(t.loc, "cannot assign to " + dialect::describe_expr(t));
}

Result<bool> Run::truth(const RValue& v, SourceLoc loc) {
  switch (v.kind) {
    case RValue::Kind::none:
      return false;
    case RValue::Kind::boolean:
      return v.b;
    case RValue::Kind::integer:
      return v.i != 0;
    case RValue::Kind::real:
      return v.f != 0;
    case RValue::Kind::string:
      return !v.s.empty();
    case RValue::Kind::tuple:
      return !v.items.empty();
    case RValue::Kind::dtype:
    case RValue::Kind::device:
      return true;
    case RValue::Kind::tensor:
    case RValue::Kind::opaque:
      break;
  }
  return error(loc, std::string("the truth value of ") + kind_phrase(v.kind) +
                        " is not defined here; compare metadata instead (x.numel() > 0, ...)");
}

Result<RValue> Run::eval(const Expr& e) {
  PF_ASSIGN(RValue v, eval_uncharged(e));
  PF_TRY(charge(v, e.loc));
  return v;
}

Result<RValue> Run::eval_uncharged(const Expr& e) {
  switch (e.kind) {
    case Expr::Kind::name: {
      auto it = locals_.find(e.text);
      if (it == locals_.end()) {
        return error(e.loc, "name '" + e.text +
                                "' is not defined here (assigned only in a branch "
                                "that did not run?)");
      }
      return it->second;
    }
    case Expr::Kind::attribute:
      return attribute(e);
    case Expr::Kind::call:
      return call(e);
    case Expr::Kind::subscript:
      return subscript(e);
    case Expr::Kind::integer:
      return RValue::integer(e.int_value);
    case Expr::Kind::real:
      return RValue::real(e.real_value);
    case Expr::Kind::string:
      return RValue::string(e.text);
    case Expr::Kind::boolean:
      return RValue::boolean(e.bool_value);
    case Expr::Kind::none:
      return RValue::none();
    case Expr::Kind::tuple:
    case Expr::Kind::list: {
      std::vector<RValue> items;
      for (const auto& c : e.children) {
        PF_ASSIGN(RValue v, eval(c));
        items.push_back(std::move(v));
      }
      return RValue::tuple(std::move(items));
    }
    case Expr::Kind::unary:
      return unary(e);
    case Expr::Kind::binary: {
      PF_ASSIGN(RValue a, eval(e.children[0]));
      PF_ASSIGN(RValue b, eval(e.children[1]));
      return binary(e.op, a, b, e.loc);
    }
    case Expr::Kind::compare:
      return compare(e);
    case Expr::Kind::bool_op: {
      // Python: the first operand that decides, as itself.
      RValue v;
      for (const auto& c : e.children) {
        PF_ASSIGN(v, eval(c));
        PF_ASSIGN(bool t, truth(v, c.loc));
        if (e.op == Operator::bool_and ? !t : t) return v;
      }
      return v;
    }
    case Expr::Kind::conditional: {
      PF_ASSIGN(RValue c, eval(e.children[1]));
      PF_ASSIGN(bool t, truth(c, e.children[1].loc));
      return eval(e.children[t ? 0 : 2]);
    }
    case Expr::Kind::slice:
    case Expr::Kind::ellipsis:
    case Expr::Kind::unsupported:
      break;
  }
  return error(e.loc, dialect::describe_expr(e) + " is not allowed in replacement bodies");
}

Result<RValue> Run::unary(const Expr& e) {
  PF_ASSIGN(RValue v, eval(e.children[0]));
  switch (e.op) {
    case Operator::not_: {
      PF_ASSIGN(bool t, truth(v, e.loc));
      return RValue::boolean(!t);
    }
    case Operator::neg:
      if (v.kind == RValue::Kind::real) return RValue::real(-v.f);  // literal eps: -1e-5
      if (v.is_int()) {
        if (v.as_int() == INT64_MIN) return error(e.loc, "integer overflow in '-'");
        return RValue::integer(-v.as_int());
      }
      break;
    case Operator::pos:
      if (v.is_int()) return RValue::integer(v.as_int());
      if (v.kind == RValue::Kind::real) return v;
      break;
    default:
      break;
  }
  if (v.is_tensor()) {
    return error(e.loc,
                 "replacement bodies cannot compute on tensors; write a kernel and launch it");
  }
  return error(e.loc, std::string("operator '") + dialect::operator_symbol(e.op) +
                          "' does not apply to " + kind_phrase(v.kind));
}

Result<RValue> Run::binary(Operator op, const RValue& a, const RValue& b, SourceLoc loc) {
  if (a.is_tensor() || b.is_tensor()) {
    return error(loc, "replacement bodies cannot compute on tensors; write a kernel and launch it");
  }
  if (op == Operator::add && a.kind == RValue::Kind::tuple && b.kind == RValue::Kind::tuple) {
    RValue out = a;
    out.items.insert(out.items.end(), b.items.begin(), b.items.end());
    return out;
  }
  if (a.kind == RValue::Kind::real || b.kind == RValue::Kind::real) return error(loc, kNoFloatMath);
  std::string sym = dialect::operator_symbol(op);
  if (!a.is_int() || !b.is_int()) {
    return error(loc, "operator '" + sym + "' needs ints, got " + kind_phrase(a.kind) + " and " +
                          kind_phrase(b.kind) + " (" + show(a) + ", " + show(b) + ")");
  }
  int64_t x = a.as_int(), y = b.as_int(), r = 0;
  bool overflow = false;
  switch (op) {
    case Operator::add:
      overflow = __builtin_add_overflow(x, y, &r);
      break;
    case Operator::sub:
      overflow = __builtin_sub_overflow(x, y, &r);
      break;
    case Operator::mul:
      overflow = __builtin_mul_overflow(x, y, &r);
      break;
    case Operator::floordiv:
    case Operator::mod:
      if (y == 0) return error(loc, "integer division by zero ('" + sym + "')");
      if (x == INT64_MIN && y == -1) {
        overflow = true;
        break;
      }
      r = op == Operator::floordiv ? floor_div(x, y) : floor_mod(x, y);
      break;
    default:
      return error(loc, "operator '" + sym +
                            "' is not allowed: replacement bodies do integer "
                            "arithmetic with + - * // % cdiv min max");
  }
  if (overflow) return error(loc, "integer overflow in '" + sym + "'");
  return RValue::integer(r);
}

Result<bool> Run::compare_pair(Operator op, const RValue& a, const RValue& b, SourceLoc loc) {
  if (op == Operator::is || op == Operator::is_not) {
    bool same = a.kind == RValue::Kind::none && b.kind == RValue::Kind::none;
    return op == Operator::is ? same : !same;
  }
  if (a.is_tensor() || b.is_tensor()) {
    return error(loc, "tensors cannot be compared; compare their metadata (x.shape, x.dtype, ...)");
  }
  bool numeric =
      (a.is_int() || a.kind == RValue::Kind::real) && (b.is_int() || b.kind == RValue::Kind::real);
  if (numeric) {
    bool ints = a.is_int() && b.is_int();
    auto less = [&](const RValue& p, const RValue& q) {
      return ints ? p.as_int() < q.as_int()
                  : (p.is_int() ? static_cast<double>(p.as_int()) : p.f) <
                        (q.is_int() ? static_cast<double>(q.as_int()) : q.f);
    };
    switch (op) {
      case Operator::lt:
        return less(a, b);
      case Operator::gt:
        return less(b, a);
      case Operator::le:
        return !less(b, a);
      case Operator::ge:
        return !less(a, b);
      case Operator::eq:
        return !less(a, b) && !less(b, a);
      case Operator::ne:
        return less(a, b) || less(b, a);
      default:
        break;
    }
  } else if (op == Operator::eq || op == Operator::ne) {
    bool eq = a.kind == b.kind;
    if (eq) {
      switch (a.kind) {
        case RValue::Kind::dtype:
          eq = a.dtype == b.dtype;
          break;
        case RValue::Kind::string:
        case RValue::Kind::device:
        case RValue::Kind::opaque:
          eq = a.s == b.s;
          break;
        case RValue::Kind::tuple:
          eq = a.items.size() == b.items.size();
          for (size_t k = 0; eq && k < a.items.size(); ++k) {
            PF_ASSIGN(eq, compare_pair(Operator::eq, a.items[k], b.items[k], loc));
          }
          break;
        default:
          break;  // none == none
      }
    }
    return op == Operator::eq ? eq : !eq;
  }
  return error(loc, std::string("cannot order ") + kind_phrase(a.kind) + " and " +
                        kind_phrase(b.kind) + " with '" + dialect::operator_symbol(op) + "'");
}

Result<RValue> Run::compare(const Expr& e) {
  PF_ASSIGN(RValue left, eval(e.children[0]));
  for (size_t k = 0; k < e.compare_ops.size(); ++k) {
    PF_ASSIGN(RValue right, eval(e.children[k + 1]));
    PF_ASSIGN(bool holds, compare_pair(e.compare_ops[k], left, right, e.loc));
    if (!holds) return RValue::boolean(false);
    left = std::move(right);
  }
  return RValue::boolean(true);
}

Result<RValue> Run::subscript(const Expr& e) {
  PF_ASSIGN(RValue base, eval(e.children[0]));
  if (base.is_tensor()) {
    return error(e.loc,
                 "subscripting a tensor is not allowed: replacement bodies cannot read or "
                 "slice tensors; pass it to a kernel");
  }
  if (base.kind != RValue::Kind::tuple) {
    return error(e.loc, std::string("cannot subscript ") + kind_phrase(base.kind));
  }
  const Expr& index = e.children[1];
  auto n = static_cast<int64_t>(base.items.size());
  if (index.kind == Expr::Kind::slice) {
    std::array<std::optional<int64_t>, 3> parts;
    for (size_t k = 0; k < 3; ++k) {
      if (index.children[k].kind == Expr::Kind::none) continue;
      PF_ASSIGN(RValue v, eval(index.children[k]));
      if (v.kind == RValue::Kind::none) continue;
      PF_ASSIGN(parts[k], to_int(v, "a slice bound", index.loc));
    }
    int64_t step = parts[2].value_or(1);
    if (step == 0) return error(index.loc, "slice step cannot be zero");
    auto clamp = [&](std::optional<int64_t> p, int64_t dflt) {
      if (!p) return dflt;
      int64_t i = *p < 0 ? *p + n : *p;
      return step > 0 ? std::clamp<int64_t>(i, 0, n) : std::clamp<int64_t>(i, -1, n - 1);
    };
    int64_t start = clamp(parts[0], step > 0 ? 0 : n - 1);
    int64_t stop = clamp(parts[1], step > 0 ? n : -1);
    std::vector<RValue> items;
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
      items.push_back(base.items[i]);
    return RValue::tuple(std::move(items));
  }
  PF_ASSIGN(RValue iv, eval(index));
  PF_ASSIGN(int64_t i, to_int(iv, "a tuple index", index.loc));
  if (i < -n || i >= n) {
    return error(index.loc, "index " + std::to_string(i) + " is out of range for a tuple of " +
                                std::to_string(n) + " (" + show(base) + ")");
  }
  return base.items[i < 0 ? i + n : i];
}

Result<RValue> Run::attribute(const Expr& e) {
  const Expr& obj = e.children[0];
  if (obj.kind == Expr::Kind::name && obj.text == "torch") {
    if (auto dt = parse_dtype("torch." + e.text)) return RValue::of_dtype(*dt);
    return error(e.loc, "'torch." + e.text + "' is not available in replacement bodies");
  }
  PF_ASSIGN(RValue v, eval(obj));
  if (!lang::is_metadata_attribute(e.text)) {
    return error(e.loc, "attribute '." + e.text +
                            "' is not allowed; replacement bodies read only "
                            "metadata: " +
                            lang::allowed_metadata_text());
  }
  PF_ASSIGN(const TensorMeta* t, to_tensor(v, "the object of ." + e.text, e.loc));
  if (e.text == "shape") {
    std::vector<RValue> dims;
    for (int64_t d : t->shape) dims.push_back(RValue::integer(d));
    return RValue::tuple(std::move(dims));
  }
  if (e.text == "dtype") return RValue::of_dtype(t->dtype);
  if (e.text == "ndim") return RValue::integer(static_cast<int64_t>(t->shape.size()));
  return RValue::device("cuda");
}

}  // namespace pf::passes
