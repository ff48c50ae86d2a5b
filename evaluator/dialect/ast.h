// The syntax tree of the graph dialect. Shared by the graph builder (task
// graphs, patterns), the replacement interpreter (walks replacement bodies
// directly) and the importer (weight_meta.py classes). Every node carries
// its 1-based line:column; trees are plain copyable values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "evaluator/core/ir.h"

namespace pf::dialect {

//! Python operators, named as in Python's `operator` module where one exists
//! (operator_name gives "add", "and_", "xor", ...).
enum class Operator : uint8_t {
  // binary arithmetic and bitwise
  add,
  sub,
  mul,
  truediv,
  floordiv,
  mod,
  pow,
  matmul,
  lshift,
  rshift,
  and_,
  or_,
  xor_,
  // unary
  neg,
  pos,
  invert,
  not_,
  // comparisons
  lt,
  le,
  gt,
  ge,
  eq,
  ne,
  in,
  not_in,
  is,
  is_not,
  // boolean `and` / `or`
  bool_and,
  bool_or,
};

//! "add", "truediv", "and_", "not_in", ...: the operator-module name (the op
//! registry alias is "operator." + this); bool_and/bool_or give "and"/"or".
const char* operator_name(Operator op);
//! Source spelling: "+", "//", "not in", "and", ...
const char* operator_symbol(Operator op);

struct Keyword;

struct Expr {
  enum class Kind : uint8_t {
    name,       // text: the identifier (True/False/None are literals, not names)
    attribute,  // children[0].text: `object.text`
    call,       // children[0] is the callee, children[1..] positional args; keywords
    subscript,  // children[0][children[1]]; `a[i, j]` has a tuple index
    slice,      // `lo:hi:step` inside a subscript; children = {lo, hi, step}, omitted = none
    integer,    // int_value
    real,       // real_value
    string,     // text: decoded contents (adjacent literals are joined)
    boolean,    // bool_value
    none,
    ellipsis,     // `...`
    tuple,        // children: items (also bare `a, b` in assignments and returns)
    list,         // children: items
    unary,        // op (neg, pos, invert, not_), children[0]
    binary,       // op, children = {left, right}
    compare,      // compare_ops[k] relates children[k] and children[k+1] (chains allowed)
    bool_op,      // op (bool_and/bool_or), children: two or more operands
    conditional,  // `a if c else b`: children = {a, c, b}
    unsupported,  // text: the keyword ("lambda", "yield", "await"); children: parsed parts
  };

  Kind kind = Kind::none;
  SourceLoc loc;
  std::string text;
  int64_t int_value = 0;
  double real_value = 0;
  bool bool_value = false;
  //! True for `(a)`: lets a printer or checker distinguish `(a, b)` from `a, b`.
  bool parenthesized = false;
  Operator op = Operator::add;
  std::vector<Operator> compare_ops;
  std::vector<Expr> children;
  std::vector<Keyword> keywords;  // call only, in source order

  bool is_literal_number() const { return kind == Kind::integer || kind == Kind::real; }
};

struct Keyword {
  std::string name;
  SourceLoc loc;
  Expr value;
};

struct Stmt;

struct IfBranch {
  Expr condition;
  std::vector<Stmt> body;
};

struct Stmt {
  enum class Kind : uint8_t {
    assign,       // targets[0] = targets[1] = ... = value (chained form has several)
    aug_assign,   // targets[0] <op>= value
    expression,   // value evaluated for effect (or a docstring)
    return_stmt,  // `return value`; has_value false for a bare `return`
    if_stmt,      // branches: the `if` and each `elif`; orelse: the `else` body
    pass,
    //! A statement the dialect recognises but does not support (for, while,
    //! with, try, import inside a function, global, nested def/class, del,
    //! assert, raise, break, continue, ...). keyword names it; its body is
    //! skipped so consumers can report exactly what and where.
    unsupported,
  };

  Kind kind = Kind::pass;
  SourceLoc loc;
  std::vector<Expr> targets;  // name, tuple/list of names, attribute or subscript
  Expr value;
  bool has_value = false;
  Operator op = Operator::add;  // aug_assign
  std::vector<IfBranch> branches;
  std::vector<Stmt> orelse;
  std::string keyword;  // unsupported
};

struct Param {
  std::string name;
  SourceLoc loc;
  std::optional<Expr> annotation;
  std::optional<Expr> default_value;
};

struct FunctionDef {
  std::string name;
  SourceLoc loc;                 // of the `def` keyword
  std::string class_name;        // enclosing class, "" at top level
  std::vector<Expr> decorators;  // `@x` lines, in order
  std::vector<Param> params;     // includes `self` for methods
  std::optional<Expr> returns;   // `-> annotation`
  std::vector<Stmt> body;
};

//! `name = value` in a class body (weight_meta.py metadata).
struct ClassAttribute {
  std::string name;
  SourceLoc loc;
  Expr value;
};

struct ClassDef {
  std::string name;
  SourceLoc loc;
  std::vector<Expr> bases;
  std::vector<FunctionDef> methods;
  std::vector<ClassAttribute> attributes;
};

//! `import a.b as c` -> {module "a.b", name "", alias "c"};
//! `from a.b import c as d` -> {module "a.b", name "c", alias "d"}.
//! alias is "" when no `as` was written.
struct Import {
  std::string module;
  std::string name;
  std::string alias;
  SourceLoc loc;
};

struct Module {
  std::string file;  // as given to parse_module; prefixes error messages
  std::vector<Import> imports;
  std::vector<ClassDef> classes;
  std::vector<FunctionDef> functions;  // top-level defs
  std::vector<Stmt> statements;        // any other top-level statement
};

//! How an expression is named in messages: "a call to 'torch.relu'",
//! "name 'x'", "a lambda", "a conditional expression", ...
std::string describe_expr(const Expr& expr);

}  // namespace pf::dialect
