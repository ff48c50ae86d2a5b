// NVRTC log cleaning: errors and warnings separated, program-relative names
// kept, summaries dropped, counts and trimming reported.
#include "sandbox/nvrtc/compile_log.h"

#include <gtest/gtest.h>

namespace pf::nvrtc {
namespace {

const char* kLog =
    R"(kernels/a.cu(3): warning #177-D: variable "q" was declared but never referenced
    int q;
        ^

Remark: The warnings can be suppressed with "-diag-suppress <warning-number>"

kernels/a.cu(12): error: identifier "x" is undefined
    c[i] = x;
           ^

kernels/a.cu(14): error: expected a ";"
    return
          ^

2 errors detected in the compilation of "kernels/a.cu".
)";

TEST(CompileLog, SeparatesErrorsAndWarnings) {
  CleanLog log = clean_compile_log(kLog);
  ASSERT_EQ(log.total_errors, 2u);
  ASSERT_EQ(log.total_warnings, 1u);
  EXPECT_EQ(log.errors[0].file, "kernels/a.cu");
  EXPECT_EQ(log.errors[0].line, 12);
  EXPECT_EQ(log.errors[0].message, "identifier \"x\" is undefined");
  EXPECT_EQ(log.errors[1].line, 14);
  EXPECT_EQ(log.warnings[0].line, 3);
  EXPECT_EQ(log.warnings[0].severity, "warning");
  EXPECT_NE(
      log.errors_text.find("kernels/a.cu(12): error: identifier \"x\" is undefined\n    c[i] = x;"),
      std::string::npos);
  EXPECT_EQ(log.errors_text.find("detected in the compilation"), std::string::npos);
  EXPECT_EQ(log.errors_text.find("warning"), std::string::npos);
  EXPECT_EQ(log.warnings_text.find("Remark"), std::string::npos);
}

TEST(CompileLog, KeepsTheFirstErrorsAndCountsTheRest) {
  std::string raw;
  for (int i = 1; i <= 30; ++i)
    raw += "kernels/b.cu(" + std::to_string(i) + "): error: bad thing " + std::to_string(i) + "\n";
  LogLimits limits;
  limits.max_errors = 3;
  CleanLog log = clean_compile_log(raw, limits);
  EXPECT_EQ(log.total_errors, 30u);
  ASSERT_EQ(log.errors.size(), 3u);
  EXPECT_EQ(log.errors[2].message, "bad thing 3");
  EXPECT_NE(log.errors_text.find("(27 more errors not shown)"), std::string::npos);
}

TEST(CompileLog, ShortensBacktracesAndTrimsBytes) {
  std::string raw =
      "kernels/a.cu(1): error: excessive recursion at instantiation of class \"R<99800>\"\n";
  for (int i = 0; i < 200; ++i)
    raw += "            instantiation of class \"R<N> [with N=" + std::to_string(i) +
           "]\" at line 1\n";
  CleanLog log = clean_compile_log(raw);
  ASSERT_EQ(log.total_errors, 1u);
  EXPECT_NE(log.errors_text.find("more lines)"), std::string::npos);
  EXPECT_LT(log.errors_text.size(), 2000u);

  LogLimits tiny;
  tiny.max_bytes = 40;
  CleanLog cut = clean_compile_log(kLog, tiny);
  EXPECT_NE(cut.errors_text.find("more bytes)"), std::string::npos);
}

TEST(CompileLog, ToolMessagesAndLongLines) {
  std::string raw =
      "ptxas error   : Entry function 'k' uses too much shared data (0x30000 bytes, 0xc000 max)\n";
  raw += "kernels/a.cu(2): error: " + std::string(100000, 'x') + "\n";
  CleanLog log = clean_compile_log(raw);
  ASSERT_EQ(log.total_errors, 2u);
  EXPECT_EQ(log.errors[0].file, "");
  EXPECT_NE(log.errors[0].message.find("uses too much shared data"), std::string::npos);
  EXPECT_LT(log.errors[1].text.size(), 1000u);
}

}  // namespace
}  // namespace pf::nvrtc
