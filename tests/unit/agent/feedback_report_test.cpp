// Evaluation reports: the most important facts first, hidden variants never
// named or counted, every report within evaluator.feedback_max_chars.
#include "agent/loop/feedback_report.h"

#include <gtest/gtest.h>

namespace pf::agent {
namespace {

using Json = nlohmann::json;

const prompts::PromptVariant& variant() {
  static auto v = prompts::PromptVariant::load(std::string(PF_SOURCE_DIR) + "/prompts", "default");
  EXPECT_TRUE(v.ok()) << v.error().message;
  return *v;
}

// The shape evaluator/passes/compile_only_json.cpp writes.
Json compile_only_result() {
  return {{"mode", "compile_only"},
          {"as", nullptr},
          {"failure_class", nullptr},
          {"message", ""},
          {"hack_flags", Json::array()},
          {"compile",
           {{"status", "ok"},
            {"files",
             {{{"file", "kernels/k.cu"},
               {"log", {{"warnings_text", "kernels/k.cu(3): warning: unused variable"}}}}}}}},
          {"variants",
           {{{"name", "model.a.s1-3"},
             {"hidden", false},
             {"failure_class", nullptr},
             {"matches", {{{"pass", "FuseRope"}, {"count", 2}}}},
             {"message", ""}},
            {{"name", "model.b.s4-6"},
             {"hidden", false},
             {"failure_class", "pass_miss"},
             {"matches", {{{"pass", "FuseRope"}, {"count", 0}}}},
             {"message",
              "FuseRope: closest attempt matched 3 of 4 nodes; expected torch.cat "
              "dim=-1, found dim=1"}},
            {{"name", "secret.hidden.variant"},
             {"hidden", true},
             {"failure_class", "pass_miss"},
             {"message", "secret diagnostics"}}}}};
}

TEST(FeedbackReport, CompileOnlyReportsVariantsMatchesAndDiagnostics) {
  auto text = render_feedback(compile_only_result(), variant(), 8000);
  ASSERT_TRUE(text.ok()) << text.error().message;
  EXPECT_EQ(first_line(*text),
            "Compile-only check: 1 of 2 variants compiled, matched and passed the dry run.");
  EXPECT_NE(text->find("model.a.s1-3: ok (matched: FuseRope x2)"), std::string::npos) << *text;
  EXPECT_NE(text->find("model.b.s4-6: pass_miss"), std::string::npos) << *text;
  EXPECT_NE(text->find("expected torch.cat dim=-1, found dim=1"), std::string::npos);
  EXPECT_NE(text->find("warning: unused variable"), std::string::npos);
  EXPECT_NE(text->find("Hidden variants: some failed (pass_miss)"), std::string::npos) << *text;
  EXPECT_EQ(text->find("secret"), std::string::npos) << "hidden variants are never named";
  EXPECT_NE(text->find("make the pattern match every variant"), std::string::npos)
      << "the hint follows the most severe failure";
  EXPECT_NE(text->find("nothing ran on a GPU"), std::string::npos);
}

TEST(FeedbackReport, WholeFailureShowsItsMessageFirst) {
  Json r = {{"mode", "compile_only"},
            {"failure_class", "compile_fail"},
            {"message", "kernels/k.cu(12): error: identifier \"flaot\" is undefined"},
            {"variants", Json::array()}};
  auto text = render_feedback(r, variant(), 8000);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(first_line(*text), "Evaluation failed: compile_fail.");
  EXPECT_NE(text->find("identifier \"flaot\" is undefined"), std::string::npos);
  EXPECT_NE(text->find("fix the errors above"), std::string::npos);
}

TEST(FeedbackReport, FullResultShowsScoreSpeedupsAndMagnitudes) {
  Json r = {
      {"mode", "full"},
      {"as", 1.37},
      {"geomean_speedup", 1.41},
      {"es_curve", {{{"t", -5}, {"es", 1.4}}, {{"t", 0}, {"es", 1.38}}, {{"t", 1}, {"es", 1.3}}}},
      {"hack_flags", {"timer_read"}},
      {"variants",
       {{{"name", "v1"}, {"correct", true}, {"speedup", 1.52}},
        {{"name", "v2"},
         {"correct", false},
         {"failure_class", "accuracy"},
         {"max_abs_diff", 0.0123},
         {"max_rel_diff", 0.5},
         {"first_mismatch", "index [0, 3, 7]: got 1.5, expected 1.25"}}}}};
  auto text = render_feedback(r, variant(), 8000);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(first_line(*text), "AS 1.37: 1 of 2 variants correct.");
  EXPECT_NE(text->find("v1: correct, 1.52x"), std::string::npos) << *text;
  EXPECT_NE(text->find("max abs diff 0.0123; max rel diff 0.5; first mismatch index [0, 3, 7]"),
            std::string::npos)
      << *text;
  EXPECT_NE(text->find("ES(-5) 1.4"), std::string::npos);
  EXPECT_NE(text->find("timer_read: a kernel reads a clock"), std::string::npos)
      << "flags are explained: " << *text;
}

TEST(FeedbackReport, StaysWithinTheLengthBound) {
  Json r = compile_only_result();
  std::string huge(50000, 'x');
  r["compile"]["files"][0]["log"]["warnings_text"] = huge;
  for (int i = 0; i < 40; ++i) {
    r["variants"].push_back({{"name", "variant" + std::to_string(i)},
                             {"failure_class", "pass_miss"},
                             {"message", huge}});
  }
  for (size_t max : {600u, 2000u, 8000u}) {
    auto text = render_feedback(r, variant(), max);
    ASSERT_TRUE(text.ok());
    EXPECT_LE(text->size(), max);
    EXPECT_EQ(first_line(*text).rfind("Compile-only check:", 0), 0u) << "the headline survives";
  }
  auto text = render_feedback(r, variant(), 8000);
  EXPECT_NE(text->find("more variants not shown"), std::string::npos);
}

// Every action a report may suggest exists for its reader: chat mode has no
// tools, and compile-only runs have no GPU to "evaluate it on".
TEST(FeedbackReport, HintsNeverNameAnActionTheReaderLacks) {
  using Reader = FeedbackSituation::Reader;
  Json ok_full = {{"mode", "full"},
                  {"as", 1.3},
                  {"geomean_speedup", 1.3},
                  {"variants", {{{"name", "v1"}, {"correct", true}, {"speedup", 1.3}}}}};
  Json unstable = ok_full;
  unstable["variants"][0]["failure_class"] = "unstable";
  Json compile_ok = compile_only_result();
  compile_ok["variants"].erase(1);
  compile_ok["variants"].erase(1);
  for (const char* name : {"default", "concise"}) {
    auto v = prompts::PromptVariant::load(std::string(PF_SOURCE_DIR) + "/prompts", name);
    ASSERT_TRUE(v.ok()) << v.error().message;
    for (const Json& result : {ok_full, unstable, compile_ok}) {
      for (bool gpu : {true, false}) {
        for (bool evaluate : {true, false}) {
          FeedbackSituation chat{Reader::chat, true, gpu};
          auto text = render_feedback(result, *v, 8000, chat);
          ASSERT_TRUE(text.ok()) << text.error().message;
          for (const char* action :
               {"`evaluate`", "evaluate it", "evaluate again", "`submit`", "call "}) {
            EXPECT_EQ(text->find(action), std::string::npos)
                << name << " chat report suggests " << action << ":\n"
                << *text;
          }
          FeedbackSituation tools{Reader::tools, evaluate, gpu};
          text = render_feedback(result, *v, 8000, tools);
          ASSERT_TRUE(text.ok());
          EXPECT_EQ(text->find("SUBMIT"), std::string::npos) << name << ":\n" << *text;
          // A compile-only report offers `evaluate` only after `compile` in a run with a
          // GPU (re-measuring an unstable full evaluation is another matter).
          const bool compile_only = result.value("mode", "") == "compile_only";
          if (compile_only && (!gpu || evaluate)) {
            EXPECT_EQ(text->find("call `evaluate`"), std::string::npos)
                << name << ": evaluate offered after evaluate or without a GPU:\n"
                << *text;
          }
          if (compile_only && gpu && !evaluate) {
            EXPECT_NE(text->find("call `evaluate`"), std::string::npos) << name << ":\n" << *text;
          }
        }
      }
    }
  }
}

TEST(FeedbackReport, EvaluateInACompileOnlyRunSaysWhatItDidNotDo) {
  using Reader = FeedbackSituation::Reader;
  Json r = compile_only_result();
  auto after_evaluate = render_feedback(r, variant(), 8000, {Reader::tools, true, false});
  ASSERT_TRUE(after_evaluate.ok());
  EXPECT_NE(after_evaluate->find("`evaluate` did only what `compile` does: this run has no GPU"),
            std::string::npos)
      << *after_evaluate;
  EXPECT_NE(after_evaluate->find("no correctness check, no timing and no score"),
            std::string::npos);
  auto after_compile = render_feedback(r, variant(), 8000, {Reader::tools, false, true});
  ASSERT_TRUE(after_compile.ok());
  EXPECT_EQ(after_compile->find("`evaluate` did only"), std::string::npos) << *after_compile;
  EXPECT_NE(after_compile->find("nothing ran on a GPU"), std::string::npos);
}

TEST(FeedbackReport, ShortenKeepsUtf8Whole) {
  std::string s = "ab" + std::string("\xc3\xa9") + std::string(100, 'c');
  std::string cut = shorten(s, 43);
  EXPECT_LE(cut.size(), 43u + 40u);
  EXPECT_NE(cut.find("more characters cut"), std::string::npos);
  EXPECT_EQ(shorten("short", 10), "short");
}

}  // namespace
}  // namespace pf::agent
