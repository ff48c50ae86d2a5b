// Prompt variants as data: the committed variants load and render, every
// problem in a variant's files is reported with the file, and the hash
// changes with any byte of any file.
#include "prompts/prompt_variant.h"

#include <gtest/gtest.h>

#include <cctype>

namespace pf::prompts {
namespace {

const std::string kPromptsDir = std::string(PF_SOURCE_DIR) + "/prompts";

std::map<std::string, std::string> minimal_files() {
  return {
      {"system.md", "sys {{#tools_mode}}tools{{/tools_mode}}{{> extra}}"},
      {"task.md", "Task id: {{task_id}}"},
      {"feedback.md", "{{headline}}"},
      {"extra.md", " [extra {{name}}]"},
      {"tools.json",
       R"([{"type": "function", "function": {"name": "submit", "parameters": {"type": "object"}}}])"},
      {"messages.json", R"({"steps_remaining": "Steps remaining: {{steps}}"})"}};
}

TEST(PromptVariant, CommittedVariantsLoadAndRenderEveryTemplate) {
  for (const char* name : {"default", "concise"}) {
    auto v = PromptVariant::load(kPromptsDir, name);
    ASSERT_TRUE(v.ok()) << name << ": " << v.error().message;
    EXPECT_EQ(v->hash().size(), 64u);
    EXPECT_EQ(v->tool_names(),
              (std::vector<std::string>{"list_files", "read_file", "write_file", "edit_file",
                                        "compile", "evaluate", "submit"}));
    for (bool tools : {true, false}) {
      nlohmann::json ctx = {{"tools_mode", tools},
                            {"chat_mode", !tools},
                            {"gpu_arch", "sm_90"},
                            {"b", 0.1},
                            {"compile_only", true}};
      auto system = v->render(kSystemFile, ctx);
      ASSERT_TRUE(system.ok()) << system.error().message;
      // Chat mode includes the answer format (a partial); tools mode names the tools.
      EXPECT_EQ(system->find("SUBMIT") != std::string::npos, !tools) << name;
      EXPECT_EQ(system->find("submit") != std::string::npos, tools) << name;
      EXPECT_NE(system->find("compile-only"), std::string::npos) << name;
    }
    auto steps = v->message("steps_remaining", {{"steps", 7}});
    ASSERT_TRUE(steps.ok());
    EXPECT_EQ(*steps, "Steps remaining: 7");
  }
  auto a = PromptVariant::load(kPromptsDir, "default");
  auto b = PromptVariant::load(kPromptsDir, "concise");
  EXPECT_NE(a->hash(), b->hash());
}

std::string squeeze(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\t';
    if (space && !out.empty() && out.back() == ' ') continue;
    out.push_back(space ? ' ' : static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

// Issue 21's questions, each with the phrase every variant's system prompt
// answers it with (what the answers claim is tested against the evaluator in
// tests/unit/passes/prompt_claims_test.cpp).
const std::pair<const char*, const char*> kAnswers[] = {
    {"what a failed contiguity check does", "is_contiguous()` is only a test"},
    {"whether literals bound by a wildcard reach the kernel's C type", "bound by a parameter"},
    {"whether untaken branches are validated", "only on the branch"},
    {"whether two wildcards may bind one tensor", "may bind the same tensor"},
    {"whether commutative operands match swapped", "no commutativity"},
    {"whether # dtype comments are needed in patterns", "comments are ignored"},
    {"whether hidden variants change dtypes or literals",
     "may differ in dtype (float32/float16/bfloat16) and literal values"},
    {"a worked example for several shapes and dtypes", "passes/addleakyrelu.py"},
};

TEST(PromptVariant, SystemPromptsAnswerTheQuestionsModelsWereLeftWith) {
  for (const char* name : {"default", "concise"}) {
    auto v = PromptVariant::load(kPromptsDir, name);
    ASSERT_TRUE(v.ok()) << v.error().message;
    for (bool tools : {true, false}) {
      for (bool compile_only : {true, false}) {
        for (bool parallel : {true, false}) {
          nlohmann::json ctx = {{"tools_mode", tools},          {"chat_mode", !tools},
                                {"gpu_arch", "sm_90"},          {"b", 0.1},
                                {"compile_only", compile_only}, {"parallel_tool_calls", parallel}};
          auto rendered = v->render(kSystemFile, ctx);
          ASSERT_TRUE(rendered.ok()) << rendered.error().message;
          const std::string text = squeeze(*rendered);
          const std::string where = std::string(name) + (tools ? " tools" : " chat") +
                                    (compile_only ? " compile-only" : " full") +
                                    (parallel ? " parallel" : " one call");
          for (const auto& [question, phrase] : kAnswers) {
            EXPECT_NE(text.find(phrase), std::string::npos) << where << ": " << question;
          }
          const bool one_step = text.find("one step") != std::string::npos;
          const bool one_call = text.find("one tool call per turn") != std::string::npos;
          EXPECT_EQ(one_step, tools && parallel) << where;
          EXPECT_EQ(one_call, tools && !parallel) << where;
          // Compile-only tools mode says what `evaluate` cannot do there.
          EXPECT_EQ(text.find("`evaluate` does only what `compile` does") != std::string::npos,
                    tools && compile_only)
              << where;
          if (!tools) {
            for (const char* tool : {"`evaluate`", "`compile`", "`submit`", "write_file"}) {
              EXPECT_EQ(text.find(tool), std::string::npos) << where << " names " << tool;
            }
          }
        }
      }
    }
  }
}

TEST(PromptVariant, RendersPartialsAndTreatsNullAndEmptyAsFalse) {
  auto v = PromptVariant::from_files("t", minimal_files());
  ASSERT_TRUE(v.ok()) << v.error().message;
  auto out = v->render(kSystemFile, {{"tools_mode", true}, {"name", "x"}});
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(*out, "sys tools [extra x]");
  out = v->render(kSystemFile, {{"tools_mode", nullptr}, {"name", ""}});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(*out, "sys  [extra ]");
  // Nothing is HTML-escaped: prompts are code.
  auto msg = render_template("{{a}}", {{"a", "x < y && \"z\""}});
  ASSERT_TRUE(msg.ok());
  EXPECT_EQ(*msg, "x < y && \"z\"");
  EXPECT_EQ(*render_template("{{n}} {{f}}", {{"n", 3}, {"f", 0.25}}), "3 0.25");
}

TEST(PromptVariant, ReportsEachProblemWithTheFile) {
  auto missing = minimal_files();
  missing.erase("feedback.md");
  auto v = PromptVariant::from_files("t", missing);
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.error().message.find("missing feedback.md"), std::string::npos);

  auto bad_template = minimal_files();
  bad_template["task.md"] = "{{#variants}} unclosed";
  v = PromptVariant::from_files("t", bad_template);
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.error().message.find("task.md"), std::string::npos) << v.error().message;

  auto bad_tools = minimal_files();
  bad_tools["tools.json"] = R"([{"type": "function", "function": {}}])";
  v = PromptVariant::from_files("t", bad_tools);
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.error().message.find("tools.json: [0]: function.name"), std::string::npos)
      << v.error().message;

  auto bad_messages = minimal_files();
  bad_messages["messages.json"] = R"({"a": 1})";
  v = PromptVariant::from_files("t", bad_messages);
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.error().message.find("\"a\" must be a string"), std::string::npos);

  auto unknown = PromptVariant::load(kPromptsDir, "no-such-variant");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("default"), std::string::npos)
      << "lists the variants that exist: " << unknown.error().message;
}

TEST(PromptVariant, HashCoversEveryFileNameAndByte) {
  auto base = PromptVariant::from_files("t", minimal_files());
  auto changed = minimal_files();
  changed["extra.md"] += " ";
  auto renamed = minimal_files();
  renamed["extra2.md"] = renamed["extra.md"];
  renamed.erase("extra.md");
  std::string h0 = base->hash();
  EXPECT_EQ(PromptVariant::from_files("other-name", minimal_files())->hash(), h0)
      << "the hash is over content, not the variant's name";
  EXPECT_NE(PromptVariant::from_files("t", changed)->hash(), h0);
  EXPECT_NE(PromptVariant::from_files("t", renamed)->hash(), h0);
}

TEST(PromptVariant, EmptySectionsLeaveAtMostOneBlankLine) {
  EXPECT_EQ(collapse_blank_lines("a\n\n\n  \n\t\nb\n    c\n\n\n"), "a\n\nb\n    c\n\n");
  EXPECT_EQ(collapse_blank_lines("  x"), "  x");
  auto files = minimal_files();
  files["feedback.md"] = "head\n{{#a}}\n\nA\n{{/a}}\n{{#b}}\n\nB\n{{/b}}\n\ntail\n";
  auto v = PromptVariant::from_files("t", files);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v->render(kFeedbackFile, {{"a", false}, {"b", true}}), "head\n\nB\n\ntail\n");
}

TEST(PromptVariant, UnknownMessageIsAnError) {
  auto v = PromptVariant::from_files("t", minimal_files());
  EXPECT_FALSE(v->message("nope").ok());
  EXPECT_FALSE(v->has_message("nope"));
  EXPECT_TRUE(v->has_message("steps_remaining"));
}

}  // namespace
}  // namespace pf::prompts
