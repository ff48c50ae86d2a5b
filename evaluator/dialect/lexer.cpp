#include "evaluator/dialect/lexer.h"

#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <limits>

#include "evaluator/dialect/syntax_error.h"

namespace pf::dialect {
namespace {

constexpr int kTabStop = 8;

bool is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_ident_char(char c) {
  return is_ident_start(c) || is_digit(c);
}

// Longest first, so "**=" wins over "**" and "*".
constexpr const char* kOperators[] = {
    "**=", "//=", ">>=", "<<=", "...", "**", "//", "==", "!=", "<=", ">=", "->",
    "+=",  "-=",  "*=",  "/=",  "%=",  "@=", "&=", "|=", "^=", "<<", ">>", ":=",
    "+",   "-",   "*",   "/",   "%",   "@",  "&",  "|",  "^",  "~",  "<",  ">",
    "(",   ")",   "[",   "]",   "{",   "}",  ",",  ":",  ".",  ";",  "="};

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

class Lexer {
 public:
  Lexer(std::string_view src, std::string_view file) : src_(src), file_(file) {}

  Result<std::vector<Token>> run() {
    indents_.push_back(0);
    while (true) {
      if (at_line_start_ && brackets_ == 0) {
        PF_ASSIGN(bool more, handle_indentation());
        if (!more) break;
      }
      skip_inline_space();
      if (pos_ >= src_.size()) break;
      char c = src_[pos_];
      if (c == '#') {
        while (pos_ < src_.size() && src_[pos_] != '\n' && src_[pos_] != '\r') ++pos_;
        continue;
      }
      if (c == '\n' || c == '\r') {
        bool inside_brackets = brackets_ > 0;
        if (!inside_brackets) push(TokenKind::newline, "", loc());
        consume_newline();
        // A line continued inside brackets has no indentation of its own; the
        // bracket closing on it must not make the rest of it a new line.
        if (inside_brackets) at_line_start_ = false;
        continue;
      }
      if (c == '\\') {
        SourceLoc at = loc();
        ++pos_;
        if (pos_ < src_.size() && (src_[pos_] == '\n' || src_[pos_] == '\r')) {
          consume_newline();
          at_line_start_ = false;  // a continuation line has no indentation of its own
          continue;
        }
        return syntax_error(file_, at, "unexpected '\\' (a line continuation must end its line)");
      }
      PF_TRY(lex_token());
    }
    SourceLoc eof = loc();
    // Inside an unclosed bracket the parser should see the end of the file.
    if (brackets_ == 0 && !tokens_.empty() && tokens_.back().kind != TokenKind::newline &&
        tokens_.back().kind != TokenKind::dedent && tokens_.back().kind != TokenKind::indent) {
      push(TokenKind::newline, "", eof);
    }
    while (brackets_ == 0 && indents_.size() > 1) {
      indents_.pop_back();
      push(TokenKind::dedent, "", eof);
    }
    push(TokenKind::end, "", eof);
    return std::move(tokens_);
  }

 private:
  SourceLoc loc() const { return SourceLoc{line_, static_cast<int>(pos_ - line_start_) + 1}; }

  void push(TokenKind kind, std::string text, SourceLoc at) {
    Token t;
    t.kind = kind;
    t.text = std::move(text);
    t.loc = at;
    tokens_.push_back(std::move(t));
  }

  void consume_newline() {
    if (src_[pos_] == '\r' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '\n') ++pos_;
    ++pos_;
    ++line_;
    line_start_ = pos_;
    at_line_start_ = true;
  }

  void skip_inline_space() {
    while (pos_ < src_.size() && (src_[pos_] == ' ' || src_[pos_] == '\t' || src_[pos_] == '\f')) {
      ++pos_;
    }
  }

  // Measures the indentation of the next line with content and emits
  // INDENT/DEDENT tokens. Blank and comment-only lines do not count.
  // Returns false at end of input.
  Result<bool> handle_indentation() {
    while (true) {
      int width = 0;
      while (pos_ < src_.size() &&
             (src_[pos_] == ' ' || src_[pos_] == '\t' || src_[pos_] == '\f')) {
        if (src_[pos_] == '\t') {
          width = (width / kTabStop + 1) * kTabStop;
        } else if (src_[pos_] == ' ') {
          ++width;
        }
        ++pos_;
      }
      if (pos_ >= src_.size()) return false;
      char c = src_[pos_];
      if (c == '#') {
        while (pos_ < src_.size() && src_[pos_] != '\n' && src_[pos_] != '\r') ++pos_;
        if (pos_ >= src_.size()) return false;
        consume_newline();
        continue;
      }
      if (c == '\n' || c == '\r') {
        consume_newline();
        continue;
      }
      at_line_start_ = false;
      SourceLoc at = loc();
      if (width > indents_.back()) {
        indents_.push_back(width);
        push(TokenKind::indent, "", at);
      } else {
        while (width < indents_.back()) {
          indents_.pop_back();
          push(TokenKind::dedent, "", at);
        }
        if (width != indents_.back()) {
          return syntax_error(file_, at, "unindent does not match any outer indentation level");
        }
      }
      return true;
    }
  }

  Status lex_token() {
    char c = src_[pos_];
    if (is_ident_start(c)) return lex_name_or_prefixed_string();
    if (is_digit(c) || (c == '.' && pos_ + 1 < src_.size() && is_digit(src_[pos_ + 1]))) {
      return lex_number();
    }
    if (c == '\'' || c == '"') return lex_string(pos_, false);
    for (const char* op : kOperators) {
      size_t n = std::strlen(op);
      if (src_.compare(pos_, n, op) == 0) {
        SourceLoc at = loc();
        track_brackets(op[0], at);
        pos_ += n;
        push(TokenKind::op, op, at);
        return ok_status();
      }
    }
    std::string shown;
    auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7F) {
      shown = std::string("'") + c + "'";
    } else {
      char buf[16];
      std::snprintf(buf, sizeof buf, "byte 0x%02X", u);
      shown = buf;
    }
    return syntax_error(file_, loc(),
                        "unexpected character " + shown +
                            (u >= 0x80 ? " (non-ASCII text belongs in strings or comments)" : ""));
  }

  // Bracket depth only decides whether newlines count; matching brackets is
  // the parser's job, so its messages name both ends.
  void track_brackets(char c, SourceLoc) {
    if (c == '(' || c == '[' || c == '{') ++brackets_;
    if ((c == ')' || c == ']' || c == '}') && brackets_ > 0) --brackets_;
  }

  Status lex_name_or_prefixed_string() {
    size_t start = pos_;
    while (pos_ < src_.size() && is_ident_char(src_[pos_])) ++pos_;
    std::string_view word = src_.substr(start, pos_ - start);
    if (pos_ < src_.size() && (src_[pos_] == '\'' || src_[pos_] == '"') && word.size() <= 2) {
      bool raw = false, valid = true, bytes = false, fmt = false;
      for (char p : word) {
        char l = static_cast<char>(p | 0x20);
        if (l == 'r')
          raw = true;
        else if (l == 'b')
          bytes = true;
        else if (l == 'f')
          fmt = true;
        else if (l != 'u')
          valid = false;
      }
      if (valid) {
        SourceLoc at{line_, static_cast<int>(start - line_start_) + 1};
        if (fmt)
          return syntax_error(file_, at, "f-strings are not supported; write a plain string");
        if (bytes) return syntax_error(file_, at, "bytes literals are not supported");
        return lex_string(start, raw);
      }
    }
    push(TokenKind::name, std::string(word),
         SourceLoc{line_, static_cast<int>(start - line_start_) + 1});
    return ok_status();
  }

  Status lex_number() {
    SourceLoc at = loc();
    size_t start = pos_;
    auto digits = [&](auto pred) {
      while (pos_ < src_.size() && (pred(src_[pos_]) || src_[pos_] == '_')) ++pos_;
    };
    bool real = false;
    int base = 10;
    if (src_[pos_] == '0' && pos_ + 1 < src_.size() &&
        std::strchr("xXoObB", src_[pos_ + 1]) != nullptr) {
      char b = static_cast<char>(src_[pos_ + 1] | 0x20);
      base = b == 'x' ? 16 : b == 'o' ? 8 : 2;
      pos_ += 2;
      digits([](char ch) { return std::isxdigit(static_cast<unsigned char>(ch)) != 0; });
    } else {
      digits(is_digit);
      if (pos_ < src_.size() && src_[pos_] == '.') {
        real = true;
        ++pos_;
        digits(is_digit);
      }
      if (pos_ < src_.size() && (src_[pos_] == 'e' || src_[pos_] == 'E')) {
        size_t save = pos_;
        ++pos_;
        if (pos_ < src_.size() && (src_[pos_] == '+' || src_[pos_] == '-')) ++pos_;
        if (pos_ < src_.size() && is_digit(src_[pos_])) {
          real = true;
          digits(is_digit);
        } else {
          pos_ = save;
        }
      }
    }
    std::string spelled(src_.substr(start, pos_ - start));
    if (pos_ < src_.size() && (is_ident_char(src_[pos_]) || src_[pos_] == '.')) {
      if (src_[pos_] == 'j' || src_[pos_] == 'J') {
        return syntax_error(file_, at, "complex literals are not supported");
      }
      return syntax_error(file_, at, "invalid number literal '" + spelled + src_[pos_] + "...'");
    }
    std::string text;
    for (char ch : spelled) {
      if (ch != '_') text += ch;
    }
    Token t;
    t.loc = at;
    t.text = spelled;
    if (real) {
      double v = 0;
      auto res = std::from_chars(text.data(), text.data() + text.size(), v);
      if (res.ec == std::errc::result_out_of_range) {
        // As Python: too large is infinity, too small is zero.
        bool tiny = text.find("e-") != std::string::npos || text.find("E-") != std::string::npos;
        v = tiny ? 0.0 : std::numeric_limits<double>::infinity();
      } else if (res.ec != std::errc() || res.ptr != text.data() + text.size()) {
        return syntax_error(file_, at, "invalid number literal '" + spelled + "'");
      }
      t.kind = TokenKind::real;
      t.real_value = v;
    } else {
      const char* first = text.data() + (base == 10 ? 0 : 2);
      const char* last = text.data() + text.size();
      if (first == last) return syntax_error(file_, at, "invalid number literal '" + spelled + "'");
      if (base == 10 && text.size() > 1 && text[0] == '0' &&
          text.find_first_not_of('0') != std::string::npos) {
        return syntax_error(
            file_, at,
            "leading zeros in decimal integer literals are not permitted ('" + spelled + "')");
      }
      uint64_t u = 0;
      auto res = std::from_chars(first, last, u, base);
      // 2**63 is kept (as INT64_MIN) for the parser: only `-9223372036854775808`
      // may use it.
      constexpr uint64_t kMinMagnitude = uint64_t{1} << 63;
      if (res.ec == std::errc::result_out_of_range || u > kMinMagnitude) {
        return syntax_error(file_, at, "integer literal '" + spelled + "' does not fit in 64 bits");
      }
      if (res.ec != std::errc() || res.ptr != last) {
        return syntax_error(file_, at, "invalid number literal '" + spelled + "'");
      }
      t.kind = TokenKind::integer;
      t.int_value =
          u == kMinMagnitude ? std::numeric_limits<int64_t>::min() : static_cast<int64_t>(u);
    }
    tokens_.push_back(std::move(t));
    return ok_status();
  }

  Status lex_string(size_t start, bool raw) {
    SourceLoc at{line_, static_cast<int>(start - line_start_) + 1};
    char q = src_[pos_];
    bool triple = src_.compare(pos_, 3, std::string(3, q)) == 0;
    pos_ += triple ? 3 : 1;
    std::string out;
    while (true) {
      if (pos_ >= src_.size()) {
        return syntax_error(
            file_, at,
            std::string("unterminated ") + (triple ? "triple-quoted " : "") + "string literal");
      }
      char c = src_[pos_];
      if (c == q && (!triple || src_.compare(pos_, 3, std::string(3, q)) == 0)) {
        pos_ += triple ? 3 : 1;
        break;
      }
      if (c == '\n' || c == '\r') {
        if (!triple)
          return syntax_error(file_, at, "unterminated string literal (it ends at the line end)");
        out += '\n';
        consume_newline();
        at_line_start_ = false;
        continue;
      }
      if (c == '\\' && pos_ + 1 < src_.size()) {
        PF_TRY(escape(out, raw));
        continue;
      }
      out += c;
      ++pos_;
    }
    Token t;
    t.kind = TokenKind::string;
    t.text = std::move(out);
    t.loc = at;
    tokens_.push_back(std::move(t));
    return ok_status();
  }

  // At a backslash inside a string: appends the escaped character(s).
  Status escape(std::string& out, bool raw) {
    SourceLoc at = loc();
    char e = src_[pos_ + 1];
    if (e == '\n' || e == '\r') {
      ++pos_;
      if (raw) out += '\\';
      if (raw) out += '\n';
      consume_newline();
      at_line_start_ = false;
      return ok_status();
    }
    if (raw) {
      out += '\\';
      out += e;
      pos_ += 2;
      return ok_status();
    }
    pos_ += 2;
    switch (e) {
      case '\\':
        out += '\\';
        return ok_status();
      case '\'':
        out += '\'';
        return ok_status();
      case '"':
        out += '"';
        return ok_status();
      case 'n':
        out += '\n';
        return ok_status();
      case 't':
        out += '\t';
        return ok_status();
      case 'r':
        out += '\r';
        return ok_status();
      case 'a':
        out += '\a';
        return ok_status();
      case 'b':
        out += '\b';
        return ok_status();
      case 'f':
        out += '\f';
        return ok_status();
      case 'v':
        out += '\v';
        return ok_status();
      default:
        break;
    }
    if (e >= '0' && e <= '7') {
      uint32_t v = static_cast<uint32_t>(e - '0');
      for (int k = 0; k < 2 && pos_ < src_.size() && src_[pos_] >= '0' && src_[pos_] <= '7'; ++k) {
        v = v * 8 + static_cast<uint32_t>(src_[pos_++] - '0');
      }
      append_utf8(out, v);
      return ok_status();
    }
    int hex = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
    if (hex == 0) {
      out += '\\';
      out += e;
      return ok_status();
    }
    uint32_t v = 0;
    for (int k = 0; k < hex; ++k) {
      if (pos_ >= src_.size() || !std::isxdigit(static_cast<unsigned char>(src_[pos_]))) {
        return syntax_error(file_, at,
                            std::string("truncated \\") + e + " escape in string literal");
      }
      char h = src_[pos_++];
      v = v * 16 + static_cast<uint32_t>(is_digit(h) ? h - '0' : (h | 0x20) - 'a' + 10);
    }
    if (v > 0x10FFFF) return syntax_error(file_, at, "invalid unicode escape in string literal");
    append_utf8(out, v);
    return ok_status();
  }

  std::string_view src_;
  std::string_view file_;
  size_t pos_ = 0;
  size_t line_start_ = 0;
  int line_ = 1;
  bool at_line_start_ = true;
  int brackets_ = 0;
  std::vector<int> indents_;
  std::vector<Token> tokens_;
};

}  // namespace

std::string describe_token(const Token& t) {
  switch (t.kind) {
    case TokenKind::name:
      return "'" + t.text + "'";
    case TokenKind::integer:
    case TokenKind::real:
      return "number " + t.text;
    case TokenKind::string:
      return "a string";
    case TokenKind::op:
      return "'" + t.text + "'";
    case TokenKind::newline:
      return "end of line";
    case TokenKind::indent:
      return "an indented block";
    case TokenKind::dedent:
      return "the end of the block";
    case TokenKind::end:
      return "end of file";
  }
  return "?";
}

Result<std::vector<Token>> lex(std::string_view source, std::string_view file) {
  return Lexer(source, file).run();
}

}  // namespace pf::dialect
