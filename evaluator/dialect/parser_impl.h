// Internal: the recursive-descent parser shared by parser.cpp (statements)
// and parser_expr.cpp (expressions). Not part of the module's interface.
#pragma once

#include <string>
#include <vector>

#include "common/result.h"
#include "evaluator/dialect/ast.h"
#include "evaluator/dialect/token.h"

namespace pf::dialect {

//! Bound on syntax-tree depth (nesting, operator chains, trailers), so that
//! hostile input ("((((...", "a+a+a+...", "x.a.a.a...") fails with a message
//! instead of exhausting the stack of the parser or of any tree walker.
inline constexpr int kMaxDepth = 500;

class Parser {
 public:
  Parser(std::vector<Token> tokens, std::string file)
      : tokens_(std::move(tokens)), file_(std::move(file)) {}

  Result<Module> module();
  Result<Expr> whole_expression();

 private:
  // statements (parser.cpp)
  Status top_level(Module& m);
  Result<std::vector<Stmt>> block(const Token& header);
  Status statement(std::vector<Stmt>& out);
  Status simple_statements(std::vector<Stmt>& out);
  Result<Stmt> simple_statement();
  Result<Stmt> if_statement();
  Result<Stmt> unsupported_compound(const Token& keyword);
  Result<FunctionDef> function_def(std::vector<Expr> decorators, const std::string& class_name);
  Result<ClassDef> class_def();
  Status class_body(ClassDef& c);
  Status import_statement(std::vector<Import>& out);
  Result<std::vector<Expr>> decorators();
  Status skip_block();
  Status end_of_statement();

  // expressions (parser_expr.cpp)
  Result<Expr> expression_list();
  Result<Expr> expression();
  Result<Expr> disjunction();
  Result<Expr> conjunction();
  Result<Expr> inversion();
  Result<Expr> comparison();
  Result<Expr> binary_level(int level);
  Result<Expr> factor();
  Result<Expr> power();
  Result<Expr> primary();
  Result<Expr> atom();
  Result<Expr> parenthesized(const Token& open);
  Result<Expr> list_display(const Token& open);
  Status call_arguments(Expr& call, const Token& open);
  Result<Expr> subscript_list(const Token& open);
  Result<Expr> subscript_item();
  Result<Expr> lambda(const Token& keyword);
  Status close(const Token& open, const char* closer);

  // tokens
  const Token& peek(size_t ahead = 0) const {
    size_t k = pos_ + ahead;
    return k < tokens_.size() ? tokens_[k] : tokens_.back();
  }
  const Token& next() {
    const Token& t = peek();
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
  }
  bool accept_op(const char* spelling) {
    if (!peek().is_op(spelling)) return false;
    next();
    return true;
  }
  bool at_keyword(const char* word) const { return peek().is_name(word); }
  Error error_at(const Token& t, const std::string& message) const;
  //! "expected X, got Y" at the current token.
  Error expected(const std::string& what) const;
  Result<std::string> identifier(const char* what);

  //! Each link of a left-associative chain (a + b + c, x.f().g) adds one
  //! level to the tree; the levels are given back when the chain ends.
  class ChainDepth {
   public:
    explicit ChainDepth(Parser& p) : p_(p) {}
    ~ChainDepth() { p_.depth_ -= added_; }
    ChainDepth(const ChainDepth&) = delete;
    ChainDepth& operator=(const ChainDepth&) = delete;
    Status link(const Token& at) {
      if (p_.depth_ + 1 > kMaxDepth) return p_.too_deep(at);
      ++p_.depth_;
      ++added_;
      return ok_status();
    }

   private:
    Parser& p_;
    int added_ = 0;
  };
  Error too_deep(const Token& at) const {
    return error_at(
        at, "expression nested too deeply (more than " + std::to_string(kMaxDepth) + " levels)");
  }

  std::vector<Token> tokens_;
  std::string file_;
  size_t pos_ = 0;
  int depth_ = 0;  // expression nesting, bounded so hostile input cannot exhaust the stack
};

//! Python keywords: never valid as names.
bool is_keyword(std::string_view word);

}  // namespace pf::dialect

//! Inside a Parser member returning Result/Status: one more nesting level
//! until the end of the enclosing scope, or an error past kMaxDepth.
#define PF_NEST_GUARD()                                \
  if (depth_ + 1 > kMaxDepth) return too_deep(peek()); \
  ++depth_;                                            \
  struct DepthRestore {                                \
    int& d;                                            \
    ~DepthRestore() { --d; }                           \
  } depth_restore_ {                                   \
    depth_                                             \
  }
