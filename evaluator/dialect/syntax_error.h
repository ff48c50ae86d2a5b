// The one error form of the dialect: "file:line:col: message" (parse_error).
#pragma once

#include <string>
#include <string_view>

#include "common/result.h"
#include "evaluator/core/ir.h"

namespace pf::dialect {

inline std::string format_loc(std::string_view file, SourceLoc loc) {
  return std::string(file.empty() ? "<input>" : file) + ":" + std::to_string(loc.line) + ":" +
         std::to_string(loc.column);
}

inline Error syntax_error(std::string_view file, SourceLoc loc, const std::string& message) {
  return make_error(ErrorCode::parse_error, format_loc(file, loc) + ": " + message);
}

//! "7:9": a location inside a message about another location.
inline std::string short_loc(SourceLoc loc) {
  return std::to_string(loc.line) + ":" + std::to_string(loc.column);
}

}  // namespace pf::dialect
