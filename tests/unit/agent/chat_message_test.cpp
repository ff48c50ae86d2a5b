#include "agent/llm/chat_message.h"

#include <gtest/gtest.h>

#include "agent/llm/chat_request.h"

namespace pf::llm {
namespace {

TEST(ChatMessage, AssistantWithToolCallsRoundTrips) {
  ChatMessage m = ChatMessage::assistant("");
  m.reasoning = "think first";
  m.tool_calls.push_back({"call_1", "write_file", R"({"path": "passes/A.py"})"});
  nlohmann::json j = m.to_json();
  EXPECT_TRUE(j["content"].is_null());  // tool-only turns carry content null, as OpenAI does
  EXPECT_EQ(j["reasoning_content"], "think first");
  EXPECT_EQ(j["tool_calls"][0]["type"], "function");
  EXPECT_EQ(j["tool_calls"][0]["function"]["arguments"], R"({"path": "passes/A.py"})");
  auto back = ChatMessage::from_json(j);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(*back, m);
}

TEST(ChatMessage, ReasoningKeyCanBeRenamedOrDropped) {
  ChatMessage m = ChatMessage::assistant("answer");
  m.reasoning = "r";
  EXPECT_EQ(m.to_json("reasoning")["reasoning"], "r");
  EXPECT_FALSE(m.to_json("").contains("reasoning_content"));
  EXPECT_EQ(m.to_json("")["content"], "answer");
}

TEST(ChatMessage, ToolResultCarriesItsCallId) {
  auto j = ChatMessage::tool("call_7", "ok").to_json();
  EXPECT_EQ(j["role"], "tool");
  EXPECT_EQ(j["tool_call_id"], "call_7");
  EXPECT_EQ(j["content"], "ok");
}

TEST(ChatMessage, ReadsServerVariants) {
  // OpenRouter / newer vLLM put reasoning in "reasoning"; content may be parts.
  auto m = ChatMessage::from_json(nlohmann::json::parse(R"({
    "role": "assistant", "reasoning": "why",
    "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
    "tool_calls": [{"function": {"name": "compile", "arguments": {"x": 1}}}]})"));
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->reasoning, "why");
  EXPECT_EQ(m->content, "ab");
  ASSERT_EQ(m->tool_calls.size(), 1u);
  EXPECT_EQ(m->tool_calls[0].id, "call_0");             // a missing id is generated
  EXPECT_EQ(m->tool_calls[0].arguments, R"({"x":1})");  // object arguments become text
}

TEST(ChatMessage, NullContentAndPreferredReasoningField) {
  auto m = ChatMessage::from_json(nlohmann::json::parse(
      R"({"role": "assistant", "content": null, "reasoning_content": "rc", "reasoning": "r"})"));
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->content, "");
  EXPECT_EQ(m->reasoning, "rc");
}

TEST(ChatMessage, RejectsWhatIsNotAMessage) {
  EXPECT_FALSE(ChatMessage::from_json(nlohmann::json::array()).ok());
  EXPECT_FALSE(ChatMessage::from_json(nlohmann::json::parse(R"({"content": 5})")).ok());
  EXPECT_FALSE(ChatMessage::from_json(nlohmann::json::parse(R"({"tool_calls": {}})")).ok());
  auto no_name = ChatMessage::from_json(
      nlohmann::json::parse(R"({"tool_calls": [{"id": "a", "function": {}}]})"));
  ASSERT_FALSE(no_name.ok());
  EXPECT_NE(no_name.error().message.find("tool_calls[0]"), std::string::npos);
}

TEST(ChatMessage, ArgumentsJsonCheck) {
  EXPECT_TRUE(arguments_are_json_object({"a", "f", R"({"k": 1})"}));
  EXPECT_FALSE(arguments_are_json_object({"a", "f", R"({"k": 1)"}));
  EXPECT_FALSE(arguments_are_json_object({"a", "f", "[1]"}));
  EXPECT_FALSE(arguments_are_json_object({"a", "f", ""}));
}

TEST(ChatRequest, BodyMergesSamplingDefaultsAndExtras) {
  ChatRequest req;
  req.messages = {ChatMessage::system("s"), ChatMessage::user("u")};
  req.sampling.seed = 42;
  req.sampling.temperature = 0.2;
  req.tools = nlohmann::json::parse(R"([{"type": "function", "function": {"name": "submit"}}])");
  req.tool_choice = "auto";
  req.extra = {{"chat_template_kwargs", {{"enable_thinking", false}}}, {"top_k", nullptr}};
  RequestDefaults d;
  d.model = "qwen";
  d.sampling.temperature = 0.7;
  d.sampling.max_tokens = 4096;
  d.extra = {{"top_k", 20}, {"chat_template_kwargs", {{"other", 1}}}};
  d.stream = true;
  auto body = build_request_body(req, d);
  EXPECT_EQ(body["model"], "qwen");
  EXPECT_EQ(body["messages"].size(), 2u);
  EXPECT_EQ(body["temperature"], 0.2);  // the request wins
  EXPECT_EQ(body["max_tokens"], 4096);  // the default fills in
  EXPECT_EQ(body["seed"], 42);
  EXPECT_FALSE(body.contains("top_p"));  // unset: not sent
  EXPECT_EQ(body["tool_choice"], "auto");
  EXPECT_EQ(body["tools"].size(), 1u);
  EXPECT_EQ(body["stream"], true);
  EXPECT_EQ(body["stream_options"]["include_usage"], true);
  EXPECT_FALSE(body.contains("top_k"));  // the request's null deleted the default's top_k
  EXPECT_EQ(body["chat_template_kwargs"]["enable_thinking"], false);
  EXPECT_EQ(body["chat_template_kwargs"]["other"], 1);  // merge patch keeps siblings
}

TEST(ChatRequest, NoToolsNoStreamKeys) {
  ChatRequest req;
  req.model = "m2";
  req.messages = {ChatMessage::user("u")};
  auto body = build_request_body(req, RequestDefaults{"m1", {}, {}, false});
  EXPECT_EQ(body["model"], "m2");
  EXPECT_FALSE(body.contains("tools"));
  EXPECT_FALSE(body.contains("tool_choice"));
  EXPECT_FALSE(body.contains("stream"));
}

TEST(ChatRequest, ParallelToolCallsIsSentOnlyWithTools) {
  ChatRequest req;
  req.messages = {ChatMessage::user("u")};
  req.parallel_tool_calls = true;
  EXPECT_FALSE(build_request_body(req, {}).contains("parallel_tool_calls"));
  req.tools = nlohmann::json::parse(R"([{"type": "function", "function": {"name": "submit"}}])");
  EXPECT_EQ(build_request_body(req, {})["parallel_tool_calls"], true);
  req.parallel_tool_calls = false;
  EXPECT_EQ(build_request_body(req, {})["parallel_tool_calls"], false);
  req.parallel_tool_calls.reset();
  EXPECT_FALSE(build_request_body(req, {}).contains("parallel_tool_calls"));
}

TEST(ChatRequest, TokenEstimateIsBytesOverFourRoundedUp) {
  EXPECT_EQ(estimate_tokens(""), 0);
  EXPECT_EQ(estimate_tokens("abc"), 1);
  EXPECT_EQ(estimate_tokens("abcde"), 2);
  EXPECT_EQ(estimate_tokens(std::string(400, 'x')), 100);
}

}  // namespace
}  // namespace pf::llm
