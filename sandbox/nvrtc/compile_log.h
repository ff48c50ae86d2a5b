// NVRTC's log, cleaned for a reader (often an LLM): diagnostics split into
// errors and warnings, each with its file (program-relative, as the program
// was named: "kernels/x.cu"), line and text; only the first N of each kept,
// long template backtraces shortened, NVRTC's own summary lines dropped and
// the whole trimmed to a byte limit with a note saying what was left out.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace pf::nvrtc {

struct LogLimits {
  size_t max_errors = 10;
  size_t max_warnings = 5;
  size_t max_lines_per_diagnostic = 12;
  size_t max_bytes = 8 * 1024;  // per section (errors, warnings)
};

struct Diagnostic {
  std::string file;  // "" when the message names no file (e.g. NVRTC option errors)
  int line = 0;
  std::string severity;  // "error", "warning", "remark"
  std::string message;   // the first line's message
  std::string text;      // the full block, source excerpt included
};

struct CleanLog {
  std::vector<Diagnostic> errors;    // the first max_errors
  std::vector<Diagnostic> warnings;  // the first max_warnings
  size_t total_errors = 0;
  size_t total_warnings = 0;
  std::string errors_text;    // rendered, trimmed
  std::string warnings_text;  // rendered, trimmed

  bool empty() const { return total_errors == 0 && total_warnings == 0; }
  nlohmann::json to_json() const;
};

CleanLog clean_compile_log(std::string_view raw, const LogLimits& limits = {});

//! `text` cut to at most `max_bytes` at a line boundary where possible, with
//! "... (N more bytes)" appended when cut.
std::string trim_to_bytes(const std::string& text, size_t max_bytes);

}  // namespace pf::nvrtc
