// Splits dialect source into tokens, Python style: INDENT/DEDENT from leading
// whitespace (spaces or tabs, a tab advancing to the next multiple of 8),
// newlines ignored inside brackets and after a backslash, comments dropped.
#pragma once

#include <string_view>
#include <vector>

#include "common/result.h"
#include "evaluator/dialect/token.h"

namespace pf::dialect {

//! Errors are parse_error values "file:line:col: message". The token list
//! always ends with NEWLINE (if the last line had content), DEDENTs back to
//! column 1, and END; inside an unclosed bracket it ends with END alone, so
//! the parser reports the bracket.
Result<std::vector<Token>> lex(std::string_view source, std::string_view file);

}  // namespace pf::dialect
