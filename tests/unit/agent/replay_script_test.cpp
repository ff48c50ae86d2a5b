#include "agent/replay/replay_script.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace pf::replay {
namespace {

std::string error_of(std::string_view text) {
  auto s = ReplayScript::parse(text, "demo.jsonl");
  return s.ok() ? "" : s.error().message;
}

TEST(ReplayScript, ParsesEntriesSkippingBlankLines) {
  auto s = ReplayScript::parse(
      R"({"task": "t1", "mode": "chat", "responses": [{"content": "a"}, {"content": "b", "reasoning_content": "r"}]}

{"task": "t1", "mode": "tools", "responses": [{"content": null, "tool_calls": [{"type": "function", "function": {"name": "submit", "arguments": "{}"}}]}]}
{"task": "t0", "mode": "chat", "responses": [{"content": "x", "finish_reason": "length"}]}
)",
      "demo.jsonl");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->size(), 3u);
  EXPECT_EQ(s->task_ids(), (std::vector<std::string>{"t0", "t1"}));
  EXPECT_EQ(s->modes_of("t1"), (std::vector<std::string>{"chat", "tools"}));
  const ScriptEntry* chat = s->find("t1", "chat");
  ASSERT_NE(chat, nullptr);
  EXPECT_EQ(chat->line, 1);
  ASSERT_EQ(chat->responses.size(), 2u);
  EXPECT_EQ(chat->responses[1].message.reasoning, "r");
  EXPECT_EQ(chat->responses[1].finish_reason, "stop");
  const ScriptEntry* tools = s->find("t1", "tools");
  ASSERT_NE(tools, nullptr);
  EXPECT_EQ(tools->line, 3);
  EXPECT_EQ(tools->responses[0].finish_reason, "tool_calls");
  EXPECT_EQ(tools->responses[0].message.tool_calls[0].id, "call_0_0");
  EXPECT_EQ(s->find("t0", "chat")->responses[0].finish_reason, "length");
  EXPECT_EQ(s->find("t0", "tools"), nullptr);
}

TEST(ReplayScript, ErrorsNameFileAndLine) {
  const std::string ok_line = R"({"task": "a", "mode": "chat", "responses": [{"content": "x"}]})";
  EXPECT_EQ(error_of(ok_line + "\n{oops\n"), "demo.jsonl:2: not valid JSON");
  EXPECT_EQ(error_of("\n\n[1]\n"), "demo.jsonl:3: expected a JSON object");
  EXPECT_EQ(error_of(R"({"mode": "chat", "responses": [{"content": "x"}]})"),
            "demo.jsonl:1: \"task\" must be a non-empty string");
  EXPECT_EQ(error_of(R"({"task": "a", "mode": "agent", "responses": [{"content": "x"}]})"),
            "demo.jsonl:1: \"mode\" must be \"tools\" or \"chat\"");
  EXPECT_EQ(error_of(R"({"task": "a", "mode": "chat", "responses": []})"),
            "demo.jsonl:1: \"responses\" must be a non-empty array");
  EXPECT_EQ(
      error_of(R"({"task": "a", "mode": "chat", "responses": [{"content": "x"}], "extra": 1})"),
      "demo.jsonl:1: unknown key 'extra' (expected task, mode, model, server, responses)");
  EXPECT_EQ(
      error_of(
          R"({"task": "a", "mode": "chat", "server": "tgi", "responses": [{"content": "x"}]})"),
      "demo.jsonl:1: \"server\" must be \"openai\", \"vllm\", \"sglang\" or \"llamacpp\"");
  EXPECT_EQ(error_of(R"({"task": "a", "mode": "chat", "responses": [{"content": 3}]})"),
            "demo.jsonl:1: responses[0].content must be a string or null");
  EXPECT_EQ(error_of(R"({"task": "a", "mode": "chat", "responses": [{"content": "x"}, {}]})"),
            "demo.jsonl:1: responses[1] has neither content nor tool_calls");
  EXPECT_EQ(
      error_of(
          R"({"task": "a", "mode": "chat", "responses": [{"content": "x", "tool_calls": [{"function": {"name": "f"}}]}]})"),
      "demo.jsonl:1: responses[0] has tool_calls, but chat mode answers are plain text");
  EXPECT_EQ(error_of(ok_line + "\n" + ok_line),
            "demo.jsonl:2: task 'a' in mode chat is already scripted on line 1");
  EXPECT_EQ(error_of("\n  \n"), "demo.jsonl: the script has no entries");
}

TEST(ReplayScript, LoadReportsAMissingFile) {
  auto s = ReplayScript::load("/nonexistent/dir/script.jsonl");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("script.jsonl"), std::string::npos);
}

TEST(ReplayScript, LoadReadsAFile) {
  auto path = std::filesystem::temp_directory_path() / "pf_replay_script_test.jsonl";
  {
    std::ofstream f(path);
    f << R"({"task": "a", "mode": "chat", "responses": [{"content": "x"}]})"
      << "\r\n";
  }
  auto s = ReplayScript::load(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->task_ids(), std::vector<std::string>{"a"});
}

}  // namespace
TEST(ReplayScript, ModelSpecificEntriesWinOverTheModelLessOne) {
  auto s = ReplayScript::parse(
      R"({"task": "t", "mode": "chat", "responses": [{"content": "any model"}]}
{"task": "t", "mode": "chat", "model": "tuned-r2", "responses": [{"content": "tuned"}]}
{"task": "u", "mode": "chat", "model": "tuned-r2", "responses": [{"content": "only tuned"}]})",
      "demo.jsonl");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->find("t", "chat")->responses[0].message.content, "any model");
  EXPECT_EQ(s->find("t", "chat", "base")->responses[0].message.content, "any model");
  EXPECT_EQ(s->find("t", "chat", "tuned-r2")->responses[0].message.content, "tuned");
  EXPECT_EQ(s->find("u", "chat", "base"), nullptr);
  EXPECT_EQ(s->find("u", "chat", "tuned-r2")->model, "tuned-r2");
  EXPECT_EQ(s->modes_of("t"), (std::vector<std::string>{"chat"}));
  EXPECT_EQ(
      error_of(R"({"task": "t", "mode": "chat", "model": "", "responses": [{"content": "x"}]})"),
      "demo.jsonl:1: \"model\" must be a non-empty string");
  EXPECT_EQ(error_of(R"({"task": "t", "mode": "chat", "model": "m", "responses": [{"content": "x"}]}
{"task": "t", "mode": "chat", "model": "m", "responses": [{"content": "y"}]})"),
            "demo.jsonl:2: task 't' in mode chat for model m is already scripted on line 1");
}

}  // namespace pf::replay
