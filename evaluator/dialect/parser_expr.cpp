// Expressions, by Python's precedence climbing: conditional, or, and, not,
// comparisons, | ^ & << >> + - * / // % @, unary, **, then primaries with
// their trailers (attribute, call, subscript).
#include <limits>
#include <set>

#include "evaluator/dialect/parser_impl.h"
#include "evaluator/dialect/syntax_error.h"

namespace pf::dialect {
namespace {

Expr make(Expr::Kind kind, SourceLoc loc) {
  Expr e;
  e.kind = kind;
  e.loc = loc;
  return e;
}

bool starts_expression(const Token& t) {
  switch (t.kind) {
    case TokenKind::integer:
    case TokenKind::real:
    case TokenKind::string:
      return true;
    case TokenKind::name:
      return !is_keyword(t.text) || t.text == "True" || t.text == "False" || t.text == "None" ||
             t.text == "not" || t.text == "lambda" || t.text == "yield" || t.text == "await";
    case TokenKind::op:
      return t.text == "(" || t.text == "[" || t.text == "{" || t.text == "-" || t.text == "+" ||
             t.text == "~" || t.text == "..." || t.text == "*";
    default:
      return false;
  }
}

struct LevelOp {
  int level;  // 0 binds loosest
  const char* spelling;
  Operator op;
};

const LevelOp kLevelOps[] = {
    {0, "|", Operator::or_},       {1, "^", Operator::xor_},    {2, "&", Operator::and_},
    {3, "<<", Operator::lshift},   {3, ">>", Operator::rshift}, {4, "+", Operator::add},
    {4, "-", Operator::sub},       {5, "*", Operator::mul},     {5, "/", Operator::truediv},
    {5, "//", Operator::floordiv}, {5, "%", Operator::mod},     {5, "@", Operator::matmul},
};
constexpr int kNumLevels = 6;

}  // namespace

Result<Expr> Parser::whole_expression() {
  PF_ASSIGN(Expr e, expression_list());
  while (peek().kind == TokenKind::newline) next();
  if (peek().kind != TokenKind::end) return expected("end of input");
  return e;
}

Result<Expr> Parser::expression_list() {
  SourceLoc at = peek().loc;
  PF_ASSIGN(Expr first, expression());
  if (!peek().is_op(",")) return first;
  Expr tuple = make(Expr::Kind::tuple, at);
  tuple.children.push_back(std::move(first));
  while (accept_op(",")) {
    if (!starts_expression(peek())) break;
    PF_ASSIGN(Expr item, expression());
    tuple.children.push_back(std::move(item));
  }
  return tuple;
}

Result<Expr> Parser::expression() {
  PF_NEST_GUARD();
  if (at_keyword("lambda")) return lambda(next());
  PF_ASSIGN(Expr body, disjunction());
  if (!at_keyword("if")) return body;
  SourceLoc at = body.loc;
  next();
  PF_ASSIGN(Expr test, disjunction());
  if (!at_keyword("else")) return expected("'else' in conditional expression");
  next();
  PF_ASSIGN(Expr orelse, expression());
  Expr e = make(Expr::Kind::conditional, at);
  e.children = {std::move(body), std::move(test), std::move(orelse)};
  return e;
}

Result<Expr> Parser::lambda(const Token& keyword) {
  Expr e = make(Expr::Kind::unsupported, keyword.loc);
  e.text = "lambda";
  int depth = 0;
  while (!(depth == 0 && peek().is_op(":"))) {
    const Token& t = peek();
    if (t.kind == TokenKind::newline || t.kind == TokenKind::end) {
      return expected("':' after lambda parameters");
    }
    if (t.is_op("(") || t.is_op("[") || t.is_op("{")) ++depth;
    if (t.is_op(")") || t.is_op("]") || t.is_op("}")) --depth;
    next();
  }
  next();
  PF_ASSIGN(Expr body, expression());
  e.children.push_back(std::move(body));
  return e;
}

Result<Expr> Parser::disjunction() {
  PF_ASSIGN(Expr first, conjunction());
  if (!at_keyword("or")) return first;
  Expr e = make(Expr::Kind::bool_op, peek().loc);
  e.op = Operator::bool_or;
  e.children.push_back(std::move(first));
  while (at_keyword("or")) {
    next();
    PF_ASSIGN(Expr item, conjunction());
    e.children.push_back(std::move(item));
  }
  return e;
}

Result<Expr> Parser::conjunction() {
  PF_ASSIGN(Expr first, inversion());
  if (!at_keyword("and")) return first;
  Expr e = make(Expr::Kind::bool_op, peek().loc);
  e.op = Operator::bool_and;
  e.children.push_back(std::move(first));
  while (at_keyword("and")) {
    next();
    PF_ASSIGN(Expr item, inversion());
    e.children.push_back(std::move(item));
  }
  return e;
}

Result<Expr> Parser::inversion() {
  if (!at_keyword("not")) return comparison();
  PF_NEST_GUARD();
  Expr e = make(Expr::Kind::unary, next().loc);
  e.op = Operator::not_;
  PF_ASSIGN(Expr operand, inversion());
  e.children.push_back(std::move(operand));
  return e;
}

Result<Expr> Parser::comparison() {
  PF_ASSIGN(Expr first, binary_level(0));
  Expr e = make(Expr::Kind::compare, first.loc);
  e.children.push_back(std::move(first));
  while (true) {
    const Token& t = peek();
    std::optional<Operator> op;
    int width = 1;
    if (t.kind == TokenKind::op) {
      static const std::pair<const char*, Operator> kOps[] = {
          {"<", Operator::lt},  {"<=", Operator::le}, {">", Operator::gt},
          {">=", Operator::ge}, {"==", Operator::eq}, {"!=", Operator::ne}};
      for (const auto& [s, o] : kOps) {
        if (t.text == s) op = o;
      }
    } else if (t.is_name("in")) {
      op = Operator::in;
    } else if (t.is_name("is")) {
      op = peek(1).is_name("not") ? Operator::is_not : Operator::is;
      width = op == Operator::is_not ? 2 : 1;
    } else if (t.is_name("not") && peek(1).is_name("in")) {
      op = Operator::not_in;
      width = 2;
    }
    if (!op) break;
    if (e.compare_ops.empty()) e.loc = t.loc;
    for (int k = 0; k < width; ++k) next();
    e.compare_ops.push_back(*op);
    PF_ASSIGN(Expr right, binary_level(0));
    e.children.push_back(std::move(right));
  }
  if (e.compare_ops.empty()) return std::move(e.children[0]);
  return e;
}

Result<Expr> Parser::binary_level(int level) {
  if (level == kNumLevels) return factor();
  PF_ASSIGN(Expr left, binary_level(level + 1));
  ChainDepth chain(*this);
  while (true) {
    const Token& t = peek();
    std::optional<Operator> op;
    if (t.kind == TokenKind::op) {
      for (const auto& lo : kLevelOps) {
        if (lo.level == level && t.text == lo.spelling) op = lo.op;
      }
    }
    if (!op) return left;
    PF_TRY(chain.link(peek()));
    Expr e = make(Expr::Kind::binary, next().loc);
    e.op = *op;
    PF_ASSIGN(Expr right, binary_level(level + 1));
    e.children.push_back(std::move(left));
    e.children.push_back(std::move(right));
    left = std::move(e);
  }
}

Result<Expr> Parser::factor() {
  const Token& t = peek();
  std::optional<Operator> op;
  if (t.is_op("-")) op = Operator::neg;
  if (t.is_op("+")) op = Operator::pos;
  if (t.is_op("~")) op = Operator::invert;
  if (!op) return power();
  const Token& after = peek(1);
  if (*op == Operator::neg && after.kind == TokenKind::integer &&
      after.int_value == std::numeric_limits<int64_t>::min() && !peek(2).is_op("**")) {
    Expr e = make(Expr::Kind::integer, next().loc);  // -9223372036854775808
    e.int_value = next().int_value;
    return e;
  }
  PF_NEST_GUARD();
  Expr e = make(Expr::Kind::unary, next().loc);
  e.op = *op;
  PF_ASSIGN(Expr operand, factor());
  e.children.push_back(std::move(operand));
  return e;
}

Result<Expr> Parser::power() {
  PF_ASSIGN(Expr base, primary());
  if (!peek().is_op("**")) return base;
  PF_NEST_GUARD();
  Expr e = make(Expr::Kind::binary, next().loc);
  e.op = Operator::pow;
  PF_ASSIGN(Expr exponent, factor());  // right-associative, and `x ** -1` is valid
  e.children.push_back(std::move(base));
  e.children.push_back(std::move(exponent));
  return e;
}

Result<Expr> Parser::primary() {
  PF_ASSIGN(Expr e, atom());
  ChainDepth chain(*this);
  while (true) {
    if (peek().is_op(".") || peek().is_op("(") || peek().is_op("[")) PF_TRY(chain.link(peek()));
    if (peek().is_op(".")) {
      next();
      SourceLoc at = e.loc;
      PF_ASSIGN(std::string member, identifier("an attribute name after '.'"));
      Expr a = make(Expr::Kind::attribute, at);
      a.text = std::move(member);
      a.children.push_back(std::move(e));
      e = std::move(a);
    } else if (peek().is_op("(")) {
      const Token& open = next();
      Expr c = make(Expr::Kind::call, e.loc);
      c.children.push_back(std::move(e));
      PF_TRY(call_arguments(c, open));
      e = std::move(c);
    } else if (peek().is_op("[")) {
      const Token& open = next();
      PF_ASSIGN(Expr index, subscript_list(open));
      Expr s = make(Expr::Kind::subscript, e.loc);
      s.children.push_back(std::move(e));
      s.children.push_back(std::move(index));
      e = std::move(s);
    } else {
      return e;
    }
  }
}

Status Parser::call_arguments(Expr& call, const Token& open) {
  std::set<std::string> seen;
  while (!peek().is_op(")")) {
    const Token& t = peek();
    if (t.is_op("*") || t.is_op("**")) {
      return error_at(t, std::string("'") + t.text +
                             "' argument unpacking is not supported in calls; " +
                             "write the arguments out");
    }
    if (t.kind == TokenKind::name && !is_keyword(t.text) && peek(1).is_op("=")) {
      Keyword kw;
      kw.name = t.text;
      kw.loc = t.loc;
      next();
      next();
      if (!seen.insert(kw.name).second) {
        return error_at(t, "keyword argument '" + kw.name + "' repeated");
      }
      PF_ASSIGN(kw.value, expression());
      call.keywords.push_back(std::move(kw));
    } else {
      if (!call.keywords.empty()) {
        return error_at(t, "positional argument follows keyword argument");
      }
      PF_ASSIGN(Expr arg, expression());
      call.children.push_back(std::move(arg));
    }
    if (at_keyword("for")) return error_at(peek(), "generator expressions are not supported");
    if (!accept_op(",")) break;
  }
  return close(open, ")");
}

Result<Expr> Parser::subscript_list(const Token& open) {
  if (peek().is_op("]")) return error_at(peek(), "empty subscript '[]'");
  PF_ASSIGN(Expr first, subscript_item());
  if (!peek().is_op(",")) {
    PF_TRY(close(open, "]"));
    return first;
  }
  Expr tuple = make(Expr::Kind::tuple, first.loc);
  tuple.children.push_back(std::move(first));
  while (accept_op(",")) {
    if (peek().is_op("]")) break;
    PF_ASSIGN(Expr item, subscript_item());
    tuple.children.push_back(std::move(item));
  }
  PF_TRY(close(open, "]"));
  return tuple;
}

Result<Expr> Parser::subscript_item() {
  auto omitted = [](SourceLoc at) { return make(Expr::Kind::none, at); };
  auto part_follows = [&] {
    return !(peek().is_op(":") || peek().is_op(",") || peek().is_op("]"));
  };
  SourceLoc at = peek().loc;
  Expr lo = omitted(at);
  if (!peek().is_op(":")) {
    PF_ASSIGN(lo, expression());
    if (!peek().is_op(":")) return lo;
  }
  Expr s = make(Expr::Kind::slice, at);
  next();  // ':'
  Expr hi = omitted(peek().loc);
  if (part_follows()) {
    PF_ASSIGN(hi, expression());
  }
  Expr step = omitted(peek().loc);
  if (accept_op(":") && part_follows()) {
    PF_ASSIGN(step, expression());
  }
  s.children = {std::move(lo), std::move(hi), std::move(step)};
  return s;
}

Result<Expr> Parser::atom() {
  const Token& t = peek();
  switch (t.kind) {
    case TokenKind::integer: {
      if (t.int_value < 0) {
        return error_at(t, "integer literal '" + t.text + "' does not fit in 64 bits");
      }
      Expr e = make(Expr::Kind::integer, next().loc);
      e.int_value = t.int_value;
      return e;
    }
    case TokenKind::real: {
      Expr e = make(Expr::Kind::real, next().loc);
      e.real_value = t.real_value;
      return e;
    }
    case TokenKind::string: {
      Expr e = make(Expr::Kind::string, t.loc);
      while (peek().kind == TokenKind::string) e.text += next().text;
      return e;
    }
    case TokenKind::name: {
      if (t.text == "True" || t.text == "False") {
        Expr e = make(Expr::Kind::boolean, next().loc);
        e.bool_value = t.text == "True";
        return e;
      }
      if (t.text == "None") return make(Expr::Kind::none, next().loc);
      if (t.text == "yield" || t.text == "await") {
        Expr e = make(Expr::Kind::unsupported, next().loc);
        e.text = t.text;
        if (starts_expression(peek())) {
          PF_ASSIGN(Expr operand, expression_list());
          e.children.push_back(std::move(operand));
        }
        return e;
      }
      if (is_keyword(t.text)) return error_at(t, "unexpected keyword '" + t.text + "'");
      Expr e = make(Expr::Kind::name, next().loc);
      e.text = t.text;
      return e;
    }
    case TokenKind::op:
      if (t.text == "...") return make(Expr::Kind::ellipsis, next().loc);
      if (t.text == "(") return parenthesized(next());
      if (t.text == "[") return list_display(next());
      if (t.text == "{") return error_at(t, "dict and set literals are not supported");
      if (t.text == "*") return error_at(t, "'*' unpacking is not supported");
      break;
    default:
      break;
  }
  return expected("an expression");
}

Result<Expr> Parser::parenthesized(const Token& open) {
  PF_NEST_GUARD();
  if (accept_op(")")) return make(Expr::Kind::tuple, open.loc);
  PF_ASSIGN(Expr first, expression());
  if (at_keyword("for")) return error_at(peek(), "generator expressions are not supported");
  if (!peek().is_op(",")) {
    PF_TRY(close(open, ")"));
    first.parenthesized = true;
    return first;
  }
  Expr tuple = make(Expr::Kind::tuple, open.loc);
  tuple.parenthesized = true;
  tuple.children.push_back(std::move(first));
  while (accept_op(",")) {
    if (peek().is_op(")")) break;
    PF_ASSIGN(Expr item, expression());
    tuple.children.push_back(std::move(item));
  }
  PF_TRY(close(open, ")"));
  return tuple;
}

Result<Expr> Parser::list_display(const Token& open) {
  PF_NEST_GUARD();
  Expr list = make(Expr::Kind::list, open.loc);
  while (!peek().is_op("]")) {
    PF_ASSIGN(Expr item, expression());
    if (at_keyword("for")) return error_at(peek(), "list comprehensions are not supported");
    list.children.push_back(std::move(item));
    if (!accept_op(",")) break;
  }
  PF_TRY(close(open, "]"));
  return list;
}

Status Parser::close(const Token& open, const char* closer) {
  if (accept_op(closer)) return ok_status();
  return error_at(peek(), std::string("expected '") + closer + "' to close '" + open.text +
                              "' opened at " + short_loc(open.loc) + ", got " +
                              describe_token(peek()));
}

}  // namespace pf::dialect
