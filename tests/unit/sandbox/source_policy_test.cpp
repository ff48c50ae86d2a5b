// The kernel source policy: every way of reaching the file system through the
// preprocessor is rejected with file:line, ordinary CUDA passes.
#include "sandbox/nvrtc/source_policy.h"

#include <gtest/gtest.h>

#include "sandbox/nvrtc/source_scanner.h"

namespace pf::nvrtc {
namespace {

const SourceLimits kLimits;

Status check(const std::string& src) {
  return check_source("kernels/a.cu", src, kLimits);
}

void expect_rejected(const std::string& src, const std::string& needle) {
  Status st = check(src);
  ASSERT_FALSE(st.ok()) << "accepted:\n" << src;
  EXPECT_NE(st.error().message.find(needle), std::string::npos)
      << "message: " << st.error().message << "\nexpected to contain: " << needle;
  EXPECT_EQ(st.error().code, ErrorCode::invalid_argument);
}

TEST(SourcePolicy, AcceptsOrdinaryKernels) {
  const char* src = R"(#include <cuda_fp16.h>
#include "cuda_bf16.h"
#define CDIV(a, b) (((a) + (b) - 1) / (b))
#pragma once
// a comment with #include "/etc/passwd" in it
/* and #include <stdio.h> in a block */
extern "C" __global__ void k(const __half* x, float* y, int n) {
  const char* s = "#include \"/etc/passwd\"";
  const char* r = R"raw(
#include "/etc/shadow"
)raw";
  int big = 1'000'000;
  char c = '#';
#pragma unroll 4
  for (int i = 0; i < 4; ++i) y[i] = __half2float(x[i]) + s[0] + r[0] + c + big;
  _Pragma("unroll") for (int i = 0; i < n; ++i) y[i] += 1.f;
}
#if defined(FOO)
#error "FOO must not be defined"
#endif
)";
  Status st = check(src);
  EXPECT_TRUE(st.ok()) << st.error().message;
}

TEST(SourcePolicy, RejectsFileSystemIncludes) {
  expect_rejected("#include \"/etc/passwd\"\n",
                  "kernels/a.cu:1: #include \"/etc/passwd\" is not allowed");
  expect_rejected("\n#include <stdio.h>\n", "kernels/a.cu:2: #include <stdio.h> is not allowed");
  expect_rejected("#include \"../../secret.h\"\n", "not allowed");
  expect_rejected("#include \"kernels/other.cu\"\n", "not allowed");
  expect_rejected("  #  include <cuda/std/cstdint>\n", "<cuda/std/cstdint> is not allowed");
  expect_rejected("#include <cuda_fp16.h\n", "is not allowed");  // unterminated header name
}

TEST(SourcePolicy, RejectsIncludeTricks) {
  // Macro-expanded include.
  expect_rejected("#define F \"/etc/passwd\"\n#include F\n",
                  "kernels/a.cu:2: #include must name a header literally");
  // Spliced with backslash-newline.
  expect_rejected("#inc\\\nlude \"/etc/passwd\"\n", "kernels/a.cu:1: #include \"/etc/passwd\"");
  expect_rejected("#include \\\n\"/etc/passwd\"\n", "not allowed");
  // Digraph directive introducer.
  expect_rejected("%:include \"/etc/passwd\"\n", "not allowed");
  // After a block comment spanning lines (EDG reads this as a directive).
  expect_rejected("/*\n*/ #include \"/etc/passwd\"\n", "kernels/a.cu:2:");
  // Comment between directive and header name, across a line.
  expect_rejected("#include /*\n*/ \"/etc/passwd\"\n", "not allowed");
  // A // comment is not continued by backslash + space + newline (EDG).
  expect_rejected("// note \\ \n#include \"/etc/passwd\"\n", "kernels/a.cu:2:");
  // CRLF line endings, lone CR.
  expect_rejected("int a;\r\n#include \"/etc/passwd\"\r\n", "kernels/a.cu:2:");
  expect_rejected("// x\r#include \"/etc/passwd\"\n", "a carriage return without a line feed");
  // A lone CR is whitespace to EDG: "%:<CR>include" is a directive (found by fuzzing).
  expect_rejected("%:\rinclude \"/etc/passwd\"\n", "a carriage return without a line feed");
  // UTF-8 BOM before the directive.
  expect_rejected("\xEF\xBB\xBF#include \"/etc/passwd\"\n", "not allowed");
  // Trigraphs (disabled in C++17, rejected outright).
  expect_rejected("?\?=include \"/etc/passwd\"\n", "trigraph");
  // An unterminated string ends at its line; the next line is still checked.
  expect_rejected("const char* s = \"abc\n#include \"/etc/passwd\"\n", "kernels/a.cu:2:");
  // A digit separator is not a character literal that could hide a line.
  expect_rejected("int a = 1'0;\n#include <stdio.h>\n", "kernels/a.cu:2:");
}

TEST(SourcePolicy, RejectsOtherDirectives) {
  expect_rejected("#include_next <cuda_fp16.h>\n", "#include_next is not allowed");
  expect_rejected("#import \"x.h\"\n", "#import is not allowed");
  expect_rejected("#embed \"/etc/passwd\"\n", "#embed is not allowed");
  expect_rejected("#line 10 \"other.cu\"\n", "#line is not allowed");
  expect_rejected("# 10 \"other.cu\"\n", "line markers");
  expect_rejected("#ident \"x\"\n", "#ident is not allowed");
  expect_rejected("#assert machine(x)\n", "#assert is not allowed");
}

TEST(SourcePolicy, RejectsFileSystemProbesAndPragmas) {
  expect_rejected("#if __has_include(\"/etc/passwd\")\n#endif\n", "__has_include is not allowed");
  expect_rejected("#define H __has_include\n", "__has_include is not allowed");
  expect_rejected("#if __has_include_next(<x>)\n#endif\n", "__has_include_next is not allowed");
  expect_rejected("#pragma include_alias(\"a.h\", \"/etc/passwd\")\n",
                  "#pragma include_alias is not allowed");
  expect_rejected("#pragma GCC dependency \"/etc/passwd\"\n", "#pragma GCC is not allowed");
  expect_rejected("_Pragma(\"include_alias(\\\"a.h\\\", \\\"/etc/passwd\\\")\")\n",
                  "_Pragma include_alias");
  expect_rejected("#define P(x) _Pragma(#x)\n", "_Pragma must be given a plain string literal");
  expect_rejected("__pragma(once)\n", "__pragma is not allowed");
}

TEST(SourcePolicy, RejectsUnreadableSource) {
  expect_rejected("/* never closed\n#include <cuda_fp16.h>\n",
                  "kernels/a.cu:1: unterminated /* comment");
  expect_rejected("auto s = R\"x(never closed\n", "unterminated raw string");
  expect_rejected(std::string("int a;\0#include \"/etc/passwd\"\n", 30), "NUL byte");
}

TEST(SourcePolicy, LimitsAndNames) {
  SourceLimits small;
  small.max_file_bytes = 10;
  Status st = check_source("kernels/a.cu", std::string(11, ' '), small);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("11 bytes exceeds the limit of 10"), std::string::npos);

  EXPECT_TRUE(check_source_name("kernels/ln_gelu.cu").ok());
  EXPECT_FALSE(check_source_name("/etc/passwd.cu").ok());
  EXPECT_FALSE(check_source_name("kernels/../../x.cu").ok());
  EXPECT_FALSE(check_source_name("kernels/a.cuh").ok());
  EXPECT_FALSE(check_source_name("kernels/a b.cu").ok());
  EXPECT_FALSE(check_source_name("kernels/a\n.cu").ok());

  std::map<std::string, std::string> files;
  SourceLimits two;
  two.max_files = 2;
  for (int i = 0; i < 3; ++i) files["kernels/k" + std::to_string(i) + ".cu"] = "int x;";
  st = check_sources(files, two);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("3 kernel files exceed the limit of 2"), std::string::npos);
  EXPECT_FALSE(check_sources({}, two).ok());
}

TEST(SourceScanner, TokensCarryLinesAndDirectives) {
  auto t = scan_source("a.cu", "int a;\n  # define X \\\n  1\nfloat b = 1.5e+3f;\n");
  ASSERT_TRUE(t.ok()) << t.error().message;
  std::vector<std::string> texts;
  for (const auto& tok : *t) texts.push_back(tok.text);
  EXPECT_EQ(texts, (std::vector<std::string>{"int", "a", ";", "#", "define", "X", "1", "float", "b",
                                             "=", "1.5e+3f", ";"}));
  EXPECT_TRUE((*t)[3].starts_directive);
  EXPECT_TRUE((*t)[6].in_directive);  // the spliced continuation
  EXPECT_FALSE((*t)[7].in_directive);
  EXPECT_EQ((*t)[7].line, 4);
}

}  // namespace
}  // namespace pf::nvrtc
