// Tokens of the graph dialect (the Python subset of docs/design.md "The graph
// dialect"), as produced by the lexer and consumed by the parser.
#pragma once

#include <cstdint>
#include <string>

#include "evaluator/core/ir.h"

namespace pf::dialect {

enum class TokenKind : uint8_t {
  name,     // identifiers and keywords alike; the parser tells them apart
  integer,  // int_value holds the value
  real,     // real_value holds the value
  string,   // text holds the decoded contents
  op,       // punctuation and operators: text is the spelling ("**=", "(", "...")
  newline,  // end of a logical line
  indent,
  dedent,
  end,  // end of input
};

struct Token {
  TokenKind kind = TokenKind::end;
  std::string text;
  int64_t int_value = 0;
  double real_value = 0;
  SourceLoc loc;

  bool is_op(const char* spelling) const { return kind == TokenKind::op && text == spelling; }
  bool is_name(const char* word) const { return kind == TokenKind::name && text == word; }
};

//! "'('", "name 'foo'", "end of line": how a token is named in error messages.
std::string describe_token(const Token& token);

}  // namespace pf::dialect
