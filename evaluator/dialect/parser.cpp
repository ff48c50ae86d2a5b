// Statements, definitions and the module level. Expressions live in
// parser_expr.cpp; tokens come from lexer.cpp.
#include "evaluator/dialect/parser.h"

#include <algorithm>
#include <set>

#include "evaluator/dialect/lexer.h"
#include "evaluator/dialect/parser_impl.h"
#include "evaluator/dialect/syntax_error.h"

namespace pf::dialect {
namespace {

const std::pair<const char*, Operator> kAugOps[] = {
    {"+=", Operator::add},     {"-=", Operator::sub},       {"*=", Operator::mul},
    {"/=", Operator::truediv}, {"//=", Operator::floordiv}, {"%=", Operator::mod},
    {"**=", Operator::pow},    {"@=", Operator::matmul},    {"&=", Operator::and_},
    {"|=", Operator::or_},     {"^=", Operator::xor_},      {"<<=", Operator::lshift},
    {">>=", Operator::rshift}};

// Simple statements recognised only to be reported as unsupported.
const char* const kUnsupportedSimple[] = {"global", "nonlocal", "del",   "assert", "raise",
                                          "break",  "continue", "yield", "import", "from"};
// Compound statements recognised only to be reported as unsupported, with the
// clauses that continue them.
const char* const kUnsupportedCompound[] = {"for", "while", "with", "try", "async", "def", "class"};

template <size_t N>
bool one_of(const std::string& word, const char* const (&list)[N]) {
  return std::any_of(std::begin(list), std::end(list), [&](const char* w) { return word == w; });
}

// What an assignment target may be; returns a description of the offending
// construct, or "" when valid.
std::string invalid_target(const Expr& e, bool allow_tuple) {
  switch (e.kind) {
    case Expr::Kind::name:
    case Expr::Kind::attribute:
    case Expr::Kind::subscript:
      return "";
    case Expr::Kind::tuple:
    case Expr::Kind::list:
      if (!allow_tuple) return "a tuple";
      for (const auto& item : e.children) {
        std::string bad = invalid_target(item, true);
        if (!bad.empty()) return bad;
      }
      return "";
    case Expr::Kind::call:
      return "a function call";
    case Expr::Kind::integer:
    case Expr::Kind::real:
    case Expr::Kind::string:
    case Expr::Kind::boolean:
    case Expr::Kind::none:
    case Expr::Kind::ellipsis:
      return "a literal";
    default:
      return "an expression";
  }
}

const Expr* find_invalid_target(const Expr& e) {
  if (e.kind == Expr::Kind::tuple || e.kind == Expr::Kind::list) {
    for (const auto& item : e.children) {
      if (const Expr* bad = find_invalid_target(item)) return bad;
    }
    return nullptr;
  }
  return invalid_target(e, true).empty() ? nullptr : &e;
}

}  // namespace

bool is_keyword(std::string_view w) {
  static const std::set<std::string_view> kKeywords = {
      "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
      "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
      "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
      "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};
  return kKeywords.count(w) != 0;
}

Error Parser::error_at(const Token& t, const std::string& message) const {
  return syntax_error(file_, t.loc, message);
}

Error Parser::expected(const std::string& what) const {
  return error_at(peek(), "expected " + what + ", got " + describe_token(peek()));
}

Result<std::string> Parser::identifier(const char* what) {
  const Token& t = peek();
  if (t.kind != TokenKind::name || is_keyword(t.text)) return expected(what);
  next();
  return t.text;
}

Status Parser::end_of_statement() {
  if (peek().kind == TokenKind::newline) {
    next();
    return ok_status();
  }
  if (peek().kind == TokenKind::end || peek().kind == TokenKind::dedent) return ok_status();
  return expected("end of line");
}

Result<Module> Parser::module() {
  Module m;
  m.file = file_;
  while (true) {
    const Token& t = peek();
    if (t.kind == TokenKind::newline) {
      next();
      continue;
    }
    if (t.kind == TokenKind::end) break;
    if (t.kind == TokenKind::indent) return error_at(t, "unexpected indent");
    PF_TRY(top_level(m));
  }
  return m;
}

Status Parser::top_level(Module& m) {
  if (at_keyword("import") || at_keyword("from")) {
    PF_TRY(import_statement(m.imports));
    return end_of_statement();
  }
  if (at_keyword("class")) {
    PF_ASSIGN(ClassDef c, class_def());
    m.classes.push_back(std::move(c));
    return ok_status();
  }
  if (at_keyword("def") || peek().is_op("@")) {
    PF_ASSIGN(std::vector<Expr> decos, decorators());
    if (!at_keyword("def")) return expected("'def' after decorators");
    PF_ASSIGN(FunctionDef f, function_def(std::move(decos), ""));
    m.functions.push_back(std::move(f));
    return ok_status();
  }
  return statement(m.statements);
}

Status Parser::import_statement(std::vector<Import>& out) {
  const Token& kw = next();
  auto dotted = [&]() -> Result<std::string> {
    std::string path;
    while (peek().is_op(".") || peek().is_op("...")) path += next().text;  // relative imports
    if (!path.empty() && kw.is_name("from") && at_keyword("import")) return path;
    PF_ASSIGN(std::string part, identifier("a module name"));
    path += part;
    while (accept_op(".")) {
      PF_ASSIGN(std::string more, identifier("a module name after '.'"));
      path += "." + more;
    }
    return path;
  };
  auto alias = [&]() -> Result<std::string> {
    if (!at_keyword("as")) return std::string();
    next();
    return identifier("a name after 'as'");
  };
  if (kw.is_name("import")) {
    do {
      Import imp;
      imp.loc = peek().loc;
      PF_ASSIGN(imp.module, dotted());
      PF_ASSIGN(imp.alias, alias());
      out.push_back(std::move(imp));
    } while (accept_op(","));
    return ok_status();
  }
  PF_ASSIGN(std::string module, dotted());
  if (!at_keyword("import")) return expected("'import'");
  next();
  const Token* open = peek().is_op("(") ? &next() : nullptr;
  do {
    if (open != nullptr && peek().is_op(")")) break;
    Import imp;
    imp.loc = peek().loc;
    imp.module = module;
    if (accept_op("*")) {
      imp.name = "*";
    } else {
      PF_ASSIGN(imp.name, identifier("a name to import"));
      PF_ASSIGN(imp.alias, alias());
    }
    out.push_back(std::move(imp));
  } while (accept_op(","));
  if (open != nullptr) return close(*open, ")");
  return ok_status();
}

Result<std::vector<Expr>> Parser::decorators() {
  std::vector<Expr> out;
  while (accept_op("@")) {
    PF_ASSIGN(Expr d, expression());
    out.push_back(std::move(d));
    if (peek().kind != TokenKind::newline) return expected("end of line after decorator");
    next();
  }
  return out;
}

Result<FunctionDef> Parser::function_def(std::vector<Expr> decos, const std::string& class_name) {
  FunctionDef f;
  const Token& def = next();
  f.loc = def.loc;
  f.class_name = class_name;
  f.decorators = std::move(decos);
  PF_ASSIGN(f.name, identifier("a function name after 'def'"));
  if (!peek().is_op("(")) return expected("'(' after the function name");
  const Token& open = next();
  std::set<std::string> seen;
  while (!peek().is_op(")")) {
    const Token& t = peek();
    if (t.is_op("*") || t.is_op("**") || t.is_op("/")) {
      return error_at(t, std::string("'") + t.text +
                             "' parameters are not supported; list the parameters by name");
    }
    Param p;
    p.loc = t.loc;
    PF_ASSIGN(p.name, identifier("a parameter name"));
    if (!seen.insert(p.name).second) return error_at(t, "duplicate parameter '" + p.name + "'");
    if (accept_op(":")) {
      PF_ASSIGN(Expr ann, expression());
      p.annotation = std::move(ann);
    }
    if (accept_op("=")) {
      PF_ASSIGN(Expr dflt, expression());
      p.default_value = std::move(dflt);
    }
    f.params.push_back(std::move(p));
    if (!accept_op(",")) break;
  }
  PF_TRY(close(open, ")"));
  if (accept_op("->")) {
    PF_ASSIGN(Expr ret, expression());
    f.returns = std::move(ret);
  }
  PF_ASSIGN(f.body, block(def));
  return f;
}

Result<ClassDef> Parser::class_def() {
  ClassDef c;
  const Token& kw = next();
  c.loc = kw.loc;
  PF_ASSIGN(c.name, identifier("a class name after 'class'"));
  if (peek().is_op("(")) {
    const Token& open = next();
    while (!peek().is_op(")")) {
      PF_ASSIGN(Expr base, expression());
      c.bases.push_back(std::move(base));
      if (!accept_op(",")) break;
    }
    PF_TRY(close(open, ")"));
  }
  if (!accept_op(":")) return expected("':' after the class header");
  if (peek().kind != TokenKind::newline) {
    // `class X: pass` on one line.
    if (!at_keyword("pass")) return error_at(peek(), "a one-line class body may only be 'pass'");
    next();
    PF_TRY(end_of_statement());
    return c;
  }
  next();
  if (peek().kind != TokenKind::indent) {
    return error_at(peek(),
                    "expected an indented block after class definition at " + short_loc(kw.loc));
  }
  next();
  PF_TRY(class_body(c));
  return c;
}

Status Parser::class_body(ClassDef& c) {
  while (peek().kind != TokenKind::dedent && peek().kind != TokenKind::end) {
    const Token& t = peek();
    if (t.kind == TokenKind::newline) {
      next();
      continue;
    }
    if (t.is_name("def") || t.is_op("@")) {
      PF_ASSIGN(std::vector<Expr> decos, decorators());
      if (!at_keyword("def")) return expected("'def' after decorators");
      PF_ASSIGN(FunctionDef f, function_def(std::move(decos), c.name));
      c.methods.push_back(std::move(f));
      continue;
    }
    if (t.is_name("pass")) {
      next();
      PF_TRY(end_of_statement());
      continue;
    }
    if (t.kind == TokenKind::string) {  // docstring
      PF_ASSIGN(Expr doc, expression());
      PF_TRY(end_of_statement());
      continue;
    }
    if (t.kind == TokenKind::name && !is_keyword(t.text) &&
        (peek(1).is_op("=") || peek(1).is_op(":"))) {
      ClassAttribute a;
      a.name = t.text;
      a.loc = t.loc;
      next();
      if (accept_op(":")) {
        PF_ASSIGN(Expr annotation, expression());
      }
      if (!accept_op("=")) return expected("'=' in class attribute");
      PF_ASSIGN(a.value, expression_list());
      PF_TRY(end_of_statement());
      c.attributes.push_back(std::move(a));
      continue;
    }
    return error_at(t, "unsupported statement in class body (starts with " + describe_token(t) +
                           "): a class holds methods and 'name = value' attributes");
  }
  if (peek().kind == TokenKind::dedent) next();
  return ok_status();
}

Result<std::vector<Stmt>> Parser::block(const Token& header) {
  if (!accept_op(":")) return expected("':' after '" + header.text + "' header");
  PF_NEST_GUARD();
  std::vector<Stmt> body;
  if (peek().kind != TokenKind::newline) {
    PF_TRY(simple_statements(body));
    return body;
  }
  next();
  if (peek().kind != TokenKind::indent) {
    return error_at(peek(), "expected an indented block after '" + header.text + "' at " +
                                short_loc(header.loc));
  }
  next();
  while (peek().kind != TokenKind::dedent && peek().kind != TokenKind::end) {
    if (peek().kind == TokenKind::newline) {
      next();
      continue;
    }
    PF_TRY(statement(body));
  }
  if (peek().kind == TokenKind::dedent) next();
  return body;
}

Status Parser::statement(std::vector<Stmt>& out) {
  const Token& t = peek();
  if (t.is_name("if")) {
    PF_ASSIGN(Stmt s, if_statement());
    out.push_back(std::move(s));
    return ok_status();
  }
  if (t.is_op("@") || (t.kind == TokenKind::name && one_of(t.text, kUnsupportedCompound))) {
    if (t.is_op("@")) {
      PF_ASSIGN(std::vector<Expr> decos, decorators());
      (void)decos;
    }
    PF_ASSIGN(Stmt s, unsupported_compound(next()));
    out.push_back(std::move(s));
    return ok_status();
  }
  if (t.kind == TokenKind::name &&
      (t.text == "elif" || t.text == "else" || t.text == "except" || t.text == "finally")) {
    return error_at(t, "'" + t.text + "' without a matching statement before it");
  }
  if (t.kind == TokenKind::indent) return error_at(t, "unexpected indent");
  return simple_statements(out);
}

Status Parser::simple_statements(std::vector<Stmt>& out) {
  while (true) {
    PF_ASSIGN(Stmt s, simple_statement());
    out.push_back(std::move(s));
    if (!accept_op(";")) break;
    if (peek().kind == TokenKind::newline || peek().kind == TokenKind::end) break;
  }
  return end_of_statement();
}

Result<Stmt> Parser::simple_statement() {
  Stmt s;
  const Token& t = peek();
  s.loc = t.loc;
  if (t.is_name("pass")) {
    next();
    s.kind = Stmt::Kind::pass;
    return s;
  }
  if (t.is_name("return")) {
    next();
    s.kind = Stmt::Kind::return_stmt;
    if (peek().kind != TokenKind::newline && peek().kind != TokenKind::end && !peek().is_op(";")) {
      PF_ASSIGN(s.value, expression_list());
      s.has_value = true;
    }
    return s;
  }
  if (t.kind == TokenKind::name && one_of(t.text, kUnsupportedSimple)) {
    s.kind = Stmt::Kind::unsupported;
    s.keyword = t.text;
    while (peek().kind != TokenKind::newline && peek().kind != TokenKind::end) next();
    return s;
  }
  PF_ASSIGN(Expr first, expression_list());
  for (const auto& [spelling, op] : kAugOps) {
    if (!peek().is_op(spelling)) continue;
    const Token& at = next();
    if (first.kind == Expr::Kind::tuple || first.kind == Expr::Kind::list) {
      return error_at(at, "augmented assignment '" + std::string(spelling) +
                              "' needs a single target, not a tuple");
    }
    if (const Expr* bad = find_invalid_target(first)) {
      return syntax_error(file_, bad->loc, "cannot assign to " + invalid_target(*bad, true));
    }
    s.kind = Stmt::Kind::aug_assign;
    s.op = op;
    s.targets.push_back(std::move(first));
    PF_ASSIGN(s.value, expression_list());
    s.has_value = true;
    return s;
  }
  if (peek().is_op(":") && first.kind == Expr::Kind::name) {  // annotated `x: int = value`
    next();
    PF_ASSIGN(Expr annotation, expression());
    if (!accept_op("=")) {
      s.kind = Stmt::Kind::pass;  // a bare annotation binds nothing
      return s;
    }
    s.kind = Stmt::Kind::assign;
    s.targets.push_back(std::move(first));
    PF_ASSIGN(s.value, expression_list());
    s.has_value = true;
    return s;
  }
  if (!peek().is_op("=")) {
    s.kind = Stmt::Kind::expression;
    s.value = std::move(first);
    s.has_value = true;
    return s;
  }
  s.kind = Stmt::Kind::assign;
  Expr current = std::move(first);
  while (accept_op("=")) {
    if (const Expr* bad = find_invalid_target(current)) {
      return syntax_error(file_, bad->loc, "cannot assign to " + invalid_target(*bad, true));
    }
    s.targets.push_back(std::move(current));
    PF_ASSIGN(current, expression_list());
  }
  s.value = std::move(current);
  s.has_value = true;
  return s;
}

Result<Stmt> Parser::if_statement() {
  Stmt s;
  s.kind = Stmt::Kind::if_stmt;
  s.loc = peek().loc;
  do {
    const Token& kw = next();
    IfBranch branch;
    PF_ASSIGN(branch.condition, expression());
    PF_ASSIGN(branch.body, block(kw));
    s.branches.push_back(std::move(branch));
  } while (at_keyword("elif"));
  if (at_keyword("else")) {
    const Token& kw = next();
    PF_ASSIGN(s.orelse, block(kw));
  }
  return s;
}

Result<Stmt> Parser::unsupported_compound(const Token& keyword) {
  Stmt s;
  s.kind = Stmt::Kind::unsupported;
  s.keyword = keyword.text;
  s.loc = keyword.loc;
  bool first = true;
  auto continues = [&] {
    const Token& t = peek();
    if (t.kind != TokenKind::name) return false;
    if (keyword.text == "try") return t.text == "except" || t.text == "else" || t.text == "finally";
    if (keyword.text == "for" || keyword.text == "while") return t.text == "else";
    return false;
  };
  while (first || continues()) {
    const Token& header = first ? keyword : next();
    first = false;
    int depth = 0;
    while (!(depth == 0 && peek().is_op(":"))) {
      const Token& t = peek();
      if (t.kind == TokenKind::newline || t.kind == TokenKind::end) {
        return expected("':' to end the '" + header.text + "' header at " + short_loc(header.loc));
      }
      if (t.is_op("(") || t.is_op("[") || t.is_op("{")) ++depth;
      if (t.is_op(")") || t.is_op("]") || t.is_op("}")) --depth;
      next();
    }
    next();  // ':'
    PF_TRY(skip_block());
  }
  return s;
}

Status Parser::skip_block() {
  if (peek().kind != TokenKind::newline) {
    while (peek().kind != TokenKind::newline && peek().kind != TokenKind::end) next();
    return end_of_statement();
  }
  next();
  if (peek().kind != TokenKind::indent) return expected("an indented block");
  next();
  int depth = 1;
  while (depth > 0 && peek().kind != TokenKind::end) {
    if (peek().kind == TokenKind::indent) ++depth;
    if (peek().kind == TokenKind::dedent) --depth;
    next();
  }
  return ok_status();
}

Result<Module> parse_module(std::string_view source, std::string file) {
  PF_ASSIGN(std::vector<Token> tokens, lex(source, file));
  Parser parser(std::move(tokens), std::move(file));
  return parser.module();
}

Result<Expr> parse_expression(std::string_view source, std::string file) {
  PF_ASSIGN(std::vector<Token> tokens, lex(source, file));
  Parser parser(std::move(tokens), std::move(file));
  return parser.whole_expression();
}

}  // namespace pf::dialect
