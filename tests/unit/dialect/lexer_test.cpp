#include "evaluator/dialect/lexer.h"

#include <gtest/gtest.h>

namespace pf::dialect {
namespace {

std::vector<Token> lex_ok(std::string_view src) {
  auto r = lex(src, "t.py");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : std::vector<Token>{};
}

std::string kinds(const std::vector<Token>& tokens) {
  std::string out;
  for (const auto& t : tokens) {
    switch (t.kind) {
      case TokenKind::name:
        out += "N";
        break;
      case TokenKind::integer:
        out += "I";
        break;
      case TokenKind::real:
        out += "R";
        break;
      case TokenKind::string:
        out += "S";
        break;
      case TokenKind::op:
        out += t.text;
        break;
      case TokenKind::newline:
        out += ";";
        break;
      case TokenKind::indent:
        out += ">";
        break;
      case TokenKind::dedent:
        out += "<";
        break;
      case TokenKind::end:
        out += "$";
        break;
    }
    out += " ";
  }
  return out;
}

std::string lex_error(std::string_view src) {
  auto r = lex(src, "t.py");
  return r.ok() ? "(no error)" : r.error().message;
}

TEST(Lexer, IndentationNewlinesAndBrackets) {
  auto t = lex_ok("def f(a,\n      b):\n    x = a\n\n    # comment\n    return x\ny = 1");
  EXPECT_EQ(kinds(t), "N N ( N , N ) : ; > N = N ; N N ; < N = I ; $ ");
}

TEST(Lexer, TabsIndentLikeWeightMetaFiles) {
  auto t = lex_ok("class A:\n\tname = \"in_0\"\n\tshape = [1, 2]\n");
  EXPECT_EQ(kinds(t), "N N : ; > N = S ; N = [ I , I ] ; < $ ");
}

TEST(Lexer, LocationsAreOneBasedLineAndColumn) {
  auto t = lex_ok("a = 1\n  \n    \nbb  =  foo(x)\n");
  ASSERT_GE(t.size(), 6u);
  EXPECT_EQ(t[4].text, "bb");
  EXPECT_EQ(t[4].loc.line, 4);
  EXPECT_EQ(t[4].loc.column, 1);
  EXPECT_EQ(t[6].text, "foo");
  EXPECT_EQ(t[6].loc.column, 8);
}

TEST(Lexer, Numbers) {
  auto t = lex_ok("1e-06 -0.5 0x1F 1_000 3. .25 2E3 0 007.5");
  ASSERT_EQ(t[0].kind, TokenKind::real);
  EXPECT_DOUBLE_EQ(t[0].real_value, 1e-06);
  EXPECT_TRUE(t[1].is_op("-"));
  EXPECT_DOUBLE_EQ(t[2].real_value, 0.5);
  EXPECT_EQ(t[3].kind, TokenKind::integer);
  EXPECT_EQ(t[3].int_value, 31);
  EXPECT_EQ(t[4].int_value, 1000);
  EXPECT_DOUBLE_EQ(t[5].real_value, 3.0);
  EXPECT_DOUBLE_EQ(t[6].real_value, 0.25);
  EXPECT_DOUBLE_EQ(t[7].real_value, 2000.0);
  EXPECT_EQ(t[8].kind, TokenKind::integer);
  EXPECT_DOUBLE_EQ(t[9].real_value, 7.5);
}

TEST(Lexer, Strings) {
  auto t = lex_ok("'a\\'b' \"c\\n\" r'\\d' '''x\ny''' u'\\x41\\u00e9'");
  EXPECT_EQ(t[0].text, "a'b");
  EXPECT_EQ(t[1].text, "c\n");
  EXPECT_EQ(t[2].text, "\\d");
  EXPECT_EQ(t[3].text, "x\ny");
  EXPECT_EQ(t[4].text, "A\xC3\xA9");
}

TEST(Lexer, LineContinuationAndCrlf) {
  auto t = lex_ok("x = a + \\\n    b\r\ny = 2\r\n");
  EXPECT_EQ(kinds(t), "N = N + N ; N = I ; $ ");
}

TEST(Lexer, NoNewlineAtEndOfFile) {
  auto t = lex_ok("def f():\n    return (x,)");
  EXPECT_EQ(kinds(t), "N N ( ) : ; > N ( N , ) ; < $ ");
}

TEST(Lexer, LongestOperatorsFirst) {
  auto t = lex_ok("a **= b // c ... -> d != e");
  EXPECT_EQ(kinds(t), "N **= N // N ... -> N != N ; $ ");
}

TEST(Lexer, Errors) {
  EXPECT_EQ(lex_error("x = 'abc\n"),
            "t.py:1:5: unterminated string literal (it ends at the line end)");
  EXPECT_EQ(lex_error("x = '''abc\n"), "t.py:1:5: unterminated triple-quoted string literal");
  EXPECT_EQ(lex_error("x = a $ b"), "t.py:1:7: unexpected character '$'");
  EXPECT_EQ(lex_error("if x:\n        a\n    b\n"),
            "t.py:3:5: unindent does not match any outer indentation level");
  EXPECT_EQ(lex_error("x = 012"),
            "t.py:1:5: leading zeros in decimal integer literals are not permitted ('012')");
  EXPECT_EQ(lex_error("x = 99999999999999999999"),
            "t.py:1:5: integer literal '99999999999999999999' does not fit in 64 bits");
  EXPECT_EQ(lex_error("x = 3j"), "t.py:1:5: complex literals are not supported");
  EXPECT_EQ(lex_error("x = f'{a}'"), "t.py:1:5: f-strings are not supported; write a plain string");
  EXPECT_EQ(lex_error("x = a \\ b"),
            "t.py:1:7: unexpected '\\' (a line continuation must end its line)");
  EXPECT_EQ(
      lex_error("x = \xC3\xA9"),
      "t.py:1:5: unexpected character byte 0xC3 (non-ASCII text belongs in strings or comments)");
}

}  // namespace
}  // namespace pf::dialect
