#include "sandbox/nvrtc/source_policy.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "common/strings.h"
#include "sandbox/nvrtc/bundled_headers.h"
#include "sandbox/nvrtc/source_scanner.h"

namespace pf::nvrtc {
namespace {

constexpr std::array<std::string_view, 13> kAllowedDirectives = {
    "define",   "undef", "if",    "ifdef", "ifndef",  "elif",  "elifdef",
    "elifndef", "else",  "endif", "error", "warning", "pragma"};

// #pragma names with no file-system or diagnostic-location effect.
constexpr std::array<std::string_view, 17> kAllowedPragmas = {
    "unroll",        "nounroll",         "once",
    "pack",          "push_macro",       "pop_macro",
    "message",       "nv_diag_suppress", "nv_diag_warning",
    "nv_diag_error", "nv_diag_default",  "nv_diag_once",
    "diag_suppress", "diag_warning",     "diag_error",
    "diag_default",  "diag_once"};

template <size_t N>
bool contains(const std::array<std::string_view, N>& list, std::string_view s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

std::string allowed_headers_text() {
  return "<cuda_fp16.h> and <cuda_bf16.h>";
}

std::string allowed_pragmas_text() {
  return "unroll, nounroll, once, pack, push_macro, pop_macro, message and the diag_* / "
         "nv_diag_* pragmas";
}

Error at(const std::string& file, int line, const std::string& what) {
  return make_error(ErrorCode::invalid_argument, file + ":" + std::to_string(line) + ": " + what);
}

// The first word of a pragma's text ("unroll 4" -> "unroll").
std::string pragma_word(std::string_view text) {
  text = trim(text);
  size_t n = 0;
  while (n < text.size() && (std::isalnum(static_cast<unsigned char>(text[n])) || text[n] == '_'))
    ++n;
  return std::string(text.substr(0, n));
}

Status check_pragma(const std::string& file, int line, const std::string& word, const char* form) {
  if (word.empty() || contains(kAllowedPragmas, word)) return ok_status();
  return at(file, line,
            std::string(form) + " " + word +
                " is not allowed; allowed pragmas: " + allowed_pragmas_text());
}

// The string literal's content for _Pragma("..."): plain or L-prefixed only.
std::string pragma_string_content(const std::string& literal) {
  size_t open = literal.find('"');
  if (open == std::string::npos || literal.size() < open + 2) return {};
  std::string body = literal.substr(open + 1, literal.size() - open - 2);
  std::string out;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '\\' && i + 1 < body.size()) ++i;
    out += body[i];
  }
  return out;
}

Status check_directive(const std::string& file, const std::vector<Token>& t, size_t i) {
  // t[i] is the '#'.
  const int line = t[i].line;
  if (i + 1 >= t.size() || !t[i + 1].in_directive || t[i + 1].starts_directive) {
    return ok_status();  // the null directive
  }
  const Token& name = t[i + 1];
  if (name.kind == TokenKind::number) {
    return at(file, line, "line markers (# <number> \"file\") are not allowed");
  }
  if (name.kind != TokenKind::identifier) {
    return at(file, line, "'#" + name.text + "' is not a preprocessing directive");
  }
  if (name.text == "include") {
    const Token* h = i + 2 < t.size() && t[i + 2].in_directive && !t[i + 2].starts_directive
                         ? &t[i + 2]
                         : nullptr;
    if (h == nullptr || h->kind != TokenKind::header_name) {
      return at(
          file, line,
          "#include must name a header literally, e.g. #include <cuda_fp16.h>; macro-expanded "
          "includes are not allowed");
    }
    const std::string inner = h->text.size() >= 2 ? h->text.substr(1, h->text.size() - 2) : "";
    const bool closed =
        h->text.size() >= 2 && h->text.back() == (h->text.front() == '<' ? '>' : '"');
    if (!closed || !is_bundled_header(inner)) {
      return at(file, line,
                "#include " + h->text + " is not allowed: kernels may include only " +
                    allowed_headers_text() + " (NVRTC compiles without file-system access)");
    }
    return ok_status();
  }
  if (name.text == "line") {
    return at(file, line, "#line is not allowed (diagnostics must name the real file and line)");
  }
  if (name.text == "pragma") {
    std::string word;
    if (i + 2 < t.size() && t[i + 2].in_directive && !t[i + 2].starts_directive)
      word = t[i + 2].text;
    if (i + 2 < t.size() && t[i + 2].in_directive && t[i + 2].kind != TokenKind::identifier &&
        !t[i + 2].starts_directive) {
      return at(file, line,
                "#pragma " + word + " is not allowed; allowed pragmas: " + allowed_pragmas_text());
    }
    return check_pragma(file, line, word, "#pragma");
  }
  if (!contains(kAllowedDirectives, name.text)) {
    std::string hint = name.text == "include_next" || name.text == "import" || name.text == "embed"
                           ? " (kernels may include only " + allowed_headers_text() + ")"
                           : "";
    return at(file, line, "#" + name.text + " is not allowed" + hint);
  }
  return ok_status();
}

}  // namespace

Status check_source_name(const std::string& name) {
  auto bad = [&](const std::string& why) {
    return make_error(ErrorCode::invalid_argument, "kernel file name '" + name + "' " + why);
  };
  if (name.empty() || name.size() > 200) return bad("must have 1 to 200 characters");
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '-' &&
        c != '/') {
      return bad("may contain only letters, digits, '_', '.', '-' and '/'");
    }
  }
  if (name.front() == '/') return bad("must be relative to the pass workspace (kernels/x.cu)");
  for (const auto& part : split(name, '/')) {
    if (part.empty() || part == "." || part == "..")
      return bad("must not contain empty, '.' or '..' parts");
  }
  if (!ends_with(name, ".cu")) return bad("must end in .cu");
  return ok_status();
}

Status check_source(const std::string& name, const std::string& source,
                    const SourceLimits& limits) {
  PF_TRY(check_source_name(name));
  if (source.size() > limits.max_file_bytes) {
    return make_error(ErrorCode::invalid_argument,
                      name + ": " + std::to_string(source.size()) + " bytes exceeds the limit of " +
                          std::to_string(limits.max_file_bytes) + " bytes per kernel file");
  }
  auto tokens = scan_source(name, source);
  if (!tokens.ok()) return make_error(ErrorCode::invalid_argument, tokens.error().message);
  const auto& t = *tokens;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i].starts_directive) {
      PF_TRY(check_directive(name, t, i));
      continue;
    }
    if (t[i].kind != TokenKind::identifier) continue;
    const std::string& id = t[i].text;
    if (id == "__has_include" || id == "__has_include_next" || id == "__has_embed") {
      return at(name, t[i].line, id + " is not allowed (kernels cannot probe the file system)");
    }
    if (id == "__pragma") {
      return at(name, t[i].line, "__pragma is not allowed; use #pragma");
    }
    if (id == "_Pragma") {
      bool literal = i + 3 < t.size() && t[i + 1].text == "(" &&
                     t[i + 2].kind == TokenKind::string_literal && t[i + 3].text == ")" &&
                     (starts_with(t[i + 2].text, "\"") || starts_with(t[i + 2].text, "L\""));
      if (!literal) {
        return at(name, t[i].line,
                  "_Pragma must be given a plain string literal, e.g. _Pragma(\"unroll\")");
      }
      PF_TRY(check_pragma(name, t[i].line, pragma_word(pragma_string_content(t[i + 2].text)),
                          "_Pragma"));
    }
  }
  return ok_status();
}

Status check_sources(const std::map<std::string, std::string>& files, const SourceLimits& limits) {
  if (files.empty()) {
    return make_error(ErrorCode::invalid_argument,
                      "no kernel files to compile (expected kernels/<name>.cu)");
  }
  if (files.size() > limits.max_files) {
    return make_error(ErrorCode::invalid_argument, std::to_string(files.size()) +
                                                       " kernel files exceed the limit of " +
                                                       std::to_string(limits.max_files));
  }
  size_t total = 0;
  std::string problems;
  for (const auto& [name, source] : files) {
    total += source.size();
    Status st = check_source(name, source, limits);
    if (!st.ok()) problems += (problems.empty() ? "" : "\n") + st.error().message;
  }
  if (total > limits.max_total_bytes) {
    problems += (problems.empty() ? "" : "\n") + std::to_string(total) +
                " bytes of kernel source exceed the limit of " +
                std::to_string(limits.max_total_bytes);
  }
  if (!problems.empty()) return make_error(ErrorCode::invalid_argument, problems);
  return ok_status();
}

}  // namespace pf::nvrtc
