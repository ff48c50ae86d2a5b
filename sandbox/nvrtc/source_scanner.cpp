#include "sandbox/nvrtc/source_scanner.h"

#include <algorithm>
#include <cstring>

namespace pf::nvrtc {
namespace {

// One character of the spliced source and the original line it came from.
struct Char {
  char c;
  int line;
};

bool is_ident_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80;
}
bool is_ident_char(unsigned char c) {
  return is_ident_start(c) || (c >= '0' && c <= '9');
}
bool is_digit(unsigned char c) {
  return c >= '0' && c <= '9';
}
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\v' || c == '\f';
}

Error scan_error(std::string_view file, int line, const std::string& what) {
  return make_error(ErrorCode::parse_error,
                    std::string(file) + ":" + std::to_string(line) + ": " + what);
}

// Phases 1-2: line endings normalised to '\n', splices removed; each character
// keeps its original line number.
Result<std::vector<Char>> splice(std::string_view file, std::string_view src) {
  std::vector<Char> out;
  out.reserve(src.size());
  int line = 1;
  for (size_t i = 0; i < src.size(); ++i) {
    char c = src[i];
    if (c == '\0') return scan_error(file, line, "the source contains a NUL byte");
    if (c == '?' && i + 2 < src.size() && src[i + 1] == '?' &&
        std::strchr("=/'()!<>-", src[i + 2]) != nullptr) {
      return scan_error(file, line,
                        std::string("trigraph '??") + src[i + 2] +
                            "' is not allowed (write the character itself)");
    }
    // Splices as EDG does: backslash + LF and backslash + CRLF (not backslash +
    // spaces + newline, not backslash + lone CR).
    if (c == '\\' && i + 1 < src.size() && src[i + 1] == '\n') {
      i += 1;
      ++line;
      continue;
    }
    if (c == '\\' && i + 2 < src.size() && src[i + 1] == '\r' && src[i + 2] == '\n') {
      i += 2;
      ++line;
      continue;
    }
    if (c == '\r') {
      // CRLF is one newline. A lone CR is whitespace to EDG, even between '#'
      // and a directive name; no reading of it is safe to guess, so it is refused.
      if (i + 1 >= src.size() || src[i + 1] != '\n') {
        return scan_error(
            file, line,
            "a carriage return without a line feed is not allowed (use LF or CRLF line endings)");
      }
      ++i;
      c = '\n';
    }
    out.push_back({c, line});
    if (c == '\n') ++line;
  }
  return out;
}

bool is_raw_prefix(const std::string& id) {
  return id == "R" || id == "LR" || id == "uR" || id == "UR" || id == "u8R";
}
bool is_encoding_prefix(const std::string& id) {
  return id == "L" || id == "u" || id == "U" || id == "u8";
}

class Scanner {
 public:
  Scanner(std::string_view file, std::vector<Char> chars) : file_(file), s_(std::move(chars)) {}

  Result<std::vector<Token>> run() {
    while (i_ < s_.size()) {
      char c = s_[i_].c;
      if (c == '\n') {
        at_line_start_ = true;
        in_directive_ = false;
        want_header_ = false;
        directive_name_pending_ = false;
        ++i_;
        continue;
      }
      if (is_space(c)) {
        ++i_;
        continue;
      }
      if (c == '/' && peek(1) == '/') {
        while (i_ < s_.size() && s_[i_].c != '\n') ++i_;
        continue;
      }
      if (c == '/' && peek(1) == '*') {
        PF_TRY(block_comment());
        continue;
      }
      PF_TRY(token());
    }
    return std::move(tokens_);
  }

 private:
  char peek(size_t k) const { return i_ + k < s_.size() ? s_[i_ + k].c : '\0'; }

  Status block_comment() {
    int start = s_[i_].line;
    i_ += 2;
    while (i_ + 1 < s_.size() && !(s_[i_].c == '*' && s_[i_ + 1].c == '/')) {
      // Conservative: a directive may follow a comment that spans lines.
      if (s_[i_].c == '\n') at_line_start_ = true;
      ++i_;
    }
    if (i_ + 1 >= s_.size()) return scan_error(file_, start, "unterminated /* comment");
    i_ += 2;
    return ok_status();
  }

  void emit(TokenKind kind, std::string text, int line) {
    Token t{kind, std::move(text), line, false, in_directive_};
    if (at_line_start_ && kind == TokenKind::punctuator && t.text == "#") {
      t.starts_directive = true;
      t.in_directive = true;
      in_directive_ = true;
      directive_name_pending_ = true;
    } else if (directive_name_pending_) {
      directive_name_pending_ = false;
      want_header_ =
          kind == TokenKind::identifier && (t.text == "include" || t.text == "include_next" ||
                                            t.text == "import" || t.text == "embed");
    } else {
      want_header_ = false;
    }
    at_line_start_ = false;
    tokens_.push_back(std::move(t));
  }

  // Reads a quoted literal body up to `quote`; an unterminated one ends at the
  // end of its line, as the compiler's error recovery does.
  std::string quoted(char quote) {
    std::string text(1, quote);
    ++i_;
    while (i_ < s_.size() && s_[i_].c != '\n') {
      char c = s_[i_].c;
      if (c == '\\' && i_ + 1 < s_.size() && s_[i_ + 1].c != '\n') {
        text += c;
        text += s_[i_ + 1].c;
        i_ += 2;
        continue;
      }
      text += c;
      ++i_;
      if (c == quote) break;
    }
    return text;
  }

  Status raw_string(std::string prefix, int line) {
    // At the opening quote: R"delim( ... )delim"
    size_t j = i_ + 1;
    std::string delim;
    while (j < s_.size() && s_[j].c != '(') {
      char c = s_[j].c;
      if (c == ' ' || c == ')' || c == '\\' || c == '\t' || c == '\v' || c == '\f' || c == '\n' ||
          delim.size() >= 16) {
        return scan_error(file_, line, "malformed raw string literal delimiter");
      }
      delim += c;
      ++j;
    }
    if (j >= s_.size()) return scan_error(file_, line, "unterminated raw string literal");
    const std::string end = ")" + delim + "\"";
    std::string body;
    for (size_t k = j + 1; k < s_.size(); ++k) {
      body += s_[k].c;
      if (body.size() >= end.size() &&
          body.compare(body.size() - end.size(), end.size(), end) == 0) {
        i_ = k + 1;
        emit(TokenKind::string_literal, prefix + "\"" + delim + "(" + body, line);
        return ok_status();
      }
    }
    return scan_error(file_, line, "unterminated raw string literal");
  }

  Status token() {
    const int line = s_[i_].line;
    const char c = s_[i_].c;
    if (want_header_ && (c == '<' || c == '"')) {
      const char close = c == '<' ? '>' : '"';
      std::string text(1, c);
      ++i_;
      while (i_ < s_.size() && s_[i_].c != '\n') {
        text += s_[i_].c;
        ++i_;
        if (text.back() == close) break;
      }
      emit(TokenKind::header_name, std::move(text), line);
      return ok_status();
    }
    if (is_ident_start(static_cast<unsigned char>(c))) {
      std::string id;
      while (i_ < s_.size() && is_ident_char(static_cast<unsigned char>(s_[i_].c)))
        id += s_[i_++].c;
      if (i_ < s_.size() && s_[i_].c == '"' && is_raw_prefix(id)) return raw_string(id, line);
      if (i_ < s_.size() && (s_[i_].c == '"' || s_[i_].c == '\'') && is_encoding_prefix(id)) {
        char q = s_[i_].c;
        emit(q == '"' ? TokenKind::string_literal : TokenKind::char_literal, id + quoted(q), line);
        return ok_status();
      }
      // Bytes >= 0x80 only (a BOM, a non-ASCII space the compiler might skip):
      // a '#' after them may still begin a directive.
      const bool keep_line_start =
          at_line_start_ && !in_directive_ && std::all_of(id.begin(), id.end(), [](char ch) {
            return static_cast<unsigned char>(ch) >= 0x80;
          });
      emit(TokenKind::identifier, std::move(id), line);
      if (keep_line_start) at_line_start_ = true;
      return ok_status();
    }
    if (is_digit(static_cast<unsigned char>(c)) ||
        (c == '.' && is_digit(static_cast<unsigned char>(peek(1))))) {
      std::string num;
      while (i_ < s_.size()) {
        char d = s_[i_].c;
        if ((d == '+' || d == '-') && !num.empty() &&
            (num.back() == 'e' || num.back() == 'E' || num.back() == 'p' || num.back() == 'P')) {
          num += d;
        } else if (d == '\'' && is_ident_char(static_cast<unsigned char>(peek(1)))) {
          num += d;  // digit separator: 1'000'000
        } else if (is_ident_char(static_cast<unsigned char>(d)) || d == '.') {
          num += d;
        } else {
          break;
        }
        ++i_;
      }
      emit(TokenKind::number, std::move(num), line);
      return ok_status();
    }
    if (c == '"') {
      emit(TokenKind::string_literal, quoted('"'), line);
      return ok_status();
    }
    if (c == '\'') {
      emit(TokenKind::char_literal, quoted('\''), line);
      return ok_status();
    }
    if ((c == '#' && peek(1) == '#') ||
        (c == '%' && peek(1) == ':' && peek(2) == '%' && peek(3) == ':')) {
      i_ += c == '#' ? 2 : 4;
      emit(TokenKind::punctuator, "##", line);
      return ok_status();
    }
    if (c == '%' && peek(1) == ':') {
      i_ += 2;
      emit(TokenKind::punctuator, "#", line);
      return ok_status();
    }
    ++i_;
    emit(TokenKind::punctuator, std::string(1, c), line);
    return ok_status();
  }

  std::string_view file_;
  std::vector<Char> s_;
  size_t i_ = 0;
  std::vector<Token> tokens_;
  bool at_line_start_ = true;
  bool in_directive_ = false;
  bool directive_name_pending_ = false;
  bool want_header_ = false;
};

}  // namespace

Result<std::vector<Token>> scan_source(std::string_view file, std::string_view source) {
  PF_ASSIGN(auto chars, splice(file, source));
  return Scanner(file, std::move(chars)).run();
}

}  // namespace pf::nvrtc
