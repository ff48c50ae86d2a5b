// A conservative lexer for CUDA C++ source, enough to find every
// preprocessing directive, identifier and literal the way the compiler would
// (translation phases 1-3): backslash-newline splices are removed, comments
// skipped, string / character / raw-string literals and pp-numbers (with digit
// separators) kept whole, and `%:` read as `#`.
//
// Where the compiler's reading could differ, the scanner errs on the side of
// seeing *more* code: a newline inside a block comment starts a new line (EDG
// treats `/*\n*/ #include` as a directive), an unterminated string or
// character literal ends at the end of its line, backslash + spaces + newline
// is not a splice (EDG's reading, checked), and a '#' after only non-ASCII
// bytes (a BOM, an exotic space) may still begin a directive. Where no reading
// is safe to guess the source is refused: unterminated block comments and raw
// strings, trigraphs, NUL bytes and a CR without LF (EDG takes it for
// whitespace, so treating it as a newline would end a directive early; a
// differential fuzz against NVRTC found that).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace pf::nvrtc {

enum class TokenKind {
  identifier,
  number,
  string_literal,  // including raw strings; `text` is the literal as written
  char_literal,
  header_name,  // <...> or "..." right after #include / #include_next / #import / #embed
  punctuator,   // one character, or "##" / "#" (digraphs normalised)
};

struct Token {
  TokenKind kind = TokenKind::punctuator;
  std::string text;
  int line = 0;                   // 1-based, in the original source
  bool starts_directive = false;  // this '#' begins a preprocessing directive
  bool in_directive = false;      // part of a directive line (including its '#')
};

//! Tokens of `source`; errors are parse_error "file:line: ...".
Result<std::vector<Token>> scan_source(std::string_view file, std::string_view source);

}  // namespace pf::nvrtc
