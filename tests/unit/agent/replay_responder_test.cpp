#include "agent/replay/replay_responder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>

#include "agent/llm/chat_request.h"
#include "agent/llm/stream_assembler.h"

namespace pf::replay {
namespace {

ReplayScript demo_script() {
  auto s = ReplayScript::parse(
      R"({"task": "fuse_ln", "mode": "chat", "responses": [{"content": "first try"}, {"content": "second try ✓ — ünïcödé text long enough to be split", "reasoning_content": "it failed because..."}]}
{"task": "fuse_ln", "mode": "tools", "responses": [{"content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "write_file", "arguments": "{\"path\": \"passes/A.py\", \"content\": \"def pattern(x): ...\"}"}}]}, {"content": "done", "tool_calls": [{"type": "function", "function": {"name": "submit", "arguments": "{}"}}]}]}
{"task": "gelu", "mode": "chat", "responses": [{"content": "only"}]})",
      "demo.jsonl");
  EXPECT_TRUE(s.ok()) << s.error().message;
  return std::move(s).value();
}

nlohmann::json chat_request(int assistant_turns, bool tools, const std::string& first_user) {
  nlohmann::json messages = {{{"role", "system"}, {"content", "You write passes."}},
                             {{"role", "user"}, {"content", first_user}}};
  for (int i = 0; i < assistant_turns; ++i) {
    messages.push_back({{"role", "assistant"}, {"content", "..."}});
    messages.push_back({{"role", "user"}, {"content", "feedback"}});
  }
  nlohmann::json r = {{"model", "m"}, {"messages", messages}};
  if (tools) r["tools"] = {{{"type", "function"}, {"function", {{"name", "submit"}}}}};
  return r;
}

TEST(ReplayResponder, PicksTheKthResponseByAssistantCount) {
  auto script = demo_script();
  ReplayResponder responder(script, {});
  auto first =
      responder.chat_completion(chat_request(0, false, "Task id: fuse_ln\n...").dump(), "");
  ASSERT_EQ(first.status, 200) << first.body.dump();
  EXPECT_EQ(first.body["choices"][0]["message"]["content"], "first try");
  EXPECT_EQ(first.body["choices"][0]["finish_reason"], "stop");
  EXPECT_EQ(first.body["model"], "m");
  auto second = responder.chat_completion(chat_request(1, false, "Task id: fuse_ln").dump(), "");
  EXPECT_EQ(second.index, 1u);
  EXPECT_EQ(second.body["choices"][0]["message"]["reasoning_content"], "it failed because...");
  // Past the end: the last response again.
  auto later = responder.chat_completion(chat_request(5, false, "Task id: fuse_ln").dump(), "");
  EXPECT_EQ(later.body["choices"][0]["message"]["content"],
            second.body["choices"][0]["message"]["content"]);
}

TEST(ReplayResponder, FinalMessagePastTheEnd) {
  auto script = demo_script();
  ReplayResponder responder(script, {"replay-model", "The recording ends here.", 24});
  auto r = responder.chat_completion(chat_request(1, false, "Task id: gelu").dump(), "");
  EXPECT_EQ(r.body["choices"][0]["message"]["content"], "The recording ends here.");
  auto first = responder.chat_completion(chat_request(0, false, "Task id: gelu").dump(), "");
  EXPECT_EQ(first.body["choices"][0]["message"]["content"], "only");
}

TEST(ReplayResponder, ModeFollowsToolsAndHeaderWinsOverText) {
  auto script = demo_script();
  ReplayResponder responder(script, {});
  auto r = responder.chat_completion(chat_request(0, true, "Task id: gelu").dump(), "fuse_ln");
  ASSERT_EQ(r.status, 200) << r.body.dump();
  EXPECT_EQ(r.task, "fuse_ln");
  const auto& msg = r.body["choices"][0]["message"];
  EXPECT_TRUE(msg["content"].is_null());
  EXPECT_EQ(msg["tool_calls"][0]["id"], "c1");
  EXPECT_EQ(msg["tool_calls"][0]["function"]["name"], "write_file");
  EXPECT_EQ(r.body["choices"][0]["finish_reason"], "tool_calls");
  auto second = responder.chat_completion(chat_request(1, true, "").dump(), "fuse_ln");
  EXPECT_EQ(second.body["choices"][0]["message"]["tool_calls"][0]["id"], "call_1_0");
}

TEST(ReplayResponder, UsageIsEstimatedFromTextLengths) {
  auto script = demo_script();
  ReplayResponder responder(script, {});
  auto shorter = responder.chat_completion(chat_request(0, false, "Task id: fuse_ln").dump(), "");
  auto longer = responder.chat_completion(
      chat_request(0, false, "Task id: fuse_ln\n" + std::string(3999, 'x')).dump(), "");
  const auto& u = shorter.body["usage"];
  EXPECT_EQ(u["completion_tokens"], llm::estimate_tokens("first try"));
  EXPECT_EQ(u["total_tokens"],
            u["prompt_tokens"].get<int64_t>() + u["completion_tokens"].get<int64_t>());
  EXPECT_EQ(
      longer.body["usage"]["prompt_tokens"].get<int64_t>() - u["prompt_tokens"].get<int64_t>(),
      1000);
}

TEST(ReplayResponder, ClearErrors) {
  auto script = demo_script();
  ReplayResponder responder(script, {});
  auto unknown = responder.chat_completion(chat_request(0, false, "Task id: nope").dump(), "");
  EXPECT_EQ(unknown.status, 404);
  std::string msg = unknown.body["error"]["message"];
  EXPECT_NE(msg.find("'nope'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("fuse_ln, gelu"), std::string::npos) << msg;
  auto wrong_mode = responder.chat_completion(chat_request(0, true, "Task id: gelu").dump(), "");
  EXPECT_EQ(wrong_mode.status, 404);
  EXPECT_NE(wrong_mode.body["error"]["message"].get<std::string>().find("only in mode chat"),
            std::string::npos);
  auto no_task = responder.chat_completion(chat_request(0, false, "no id here").dump(), "");
  EXPECT_EQ(no_task.status, 400);
  EXPECT_NE(no_task.body["error"]["message"].get<std::string>().find(llm::kTaskHeader),
            std::string::npos);
  EXPECT_EQ(responder.chat_completion("{nope", "").status, 400);
  EXPECT_EQ(responder.chat_completion(R"({"messages": 3})", "").status, 400);
  // Wrong field types from a client never throw.
  auto odd = responder.chat_completion(
      R"({"model": 5, "stream": "yes", "messages": [{"role": 1}, {"role": "user", "content": "Task id: gelu"}]})",
      "");
  EXPECT_EQ(odd.status, 200) << odd.body.dump();
  EXPECT_FALSE(odd.stream);
}

TEST(ReplayResponder, StreamAssemblesToTheNonStreamingAnswer) {
  auto script = demo_script();
  for (bool tools : {false, true}) {
    ReplayResponder responder(script, {"m", "", 5});
    auto req = chat_request(1, tools, "Task id: fuse_ln");
    auto plain = responder.chat_completion(req.dump(), "");
    req["stream"] = true;
    req["stream_options"] = {{"include_usage", true}};
    auto streamed = responder.chat_completion(req.dump(), "");
    ASSERT_TRUE(streamed.stream);
    ASSERT_GT(streamed.sse_data.size(), 5u);
    EXPECT_EQ(streamed.sse_data.back(), "[DONE]");
    llm::StreamAssembler a;
    for (const auto& d : streamed.sse_data) {
      // Every piece is valid UTF-8 JSON even though text was split every 5 bytes.
      ASSERT_TRUE(a.add(d).ok()) << d;
    }
    auto r = a.finish();
    ASSERT_TRUE(r.ok()) << r.error().message;
    auto expected = llm::parse_chat_completion(plain.body.dump());
    ASSERT_TRUE(expected.ok());
    EXPECT_EQ(r->message, expected->message);
    EXPECT_EQ(r->finish_reason, expected->finish_reason);
    EXPECT_EQ(r->usage.total_tokens, expected->usage.total_tokens);
  }
}

// One entry per server shape: two parallel tool calls (the second with a
// multi-line file in its arguments) after some reasoning.
ReplayScript shaped_script() {
  nlohmann::json file_args = {
      {"path", "kernels/k.cu"},
      {"content", "extern \"C\" __global__ void k() {\n  // \"q\" \\ caf\u00e9\n}\n"}};
  std::string text;
  for (const char* server : {"openai", "vllm", "sglang", "llamacpp"}) {
    nlohmann::json answer = {
        {"content", nullptr},
        {"reasoning_content", "plan: write, then compile"},
        {"tool_calls",
         {{{"id", "w1"},
           {"type", "function"},
           {"function", {{"name", "write_file"}, {"arguments", file_args.dump()}}}},
          {{"id", "c1"},
           {"type", "function"},
           {"function", {{"name", "compile"}, {"arguments", "{}"}}}}}}};
    text += nlohmann::json{{"task", std::string("t-") + server},
                           {"mode", "tools"},
                           {"server", server},
                           {"responses", {answer}}}
                .dump() +
            "\n";
  }
  auto s = ReplayScript::parse(text, "shapes.jsonl");
  EXPECT_TRUE(s.ok()) << s.error().message;
  return std::move(s).value();
}

std::vector<nlohmann::json> chunks_of(const ReplayReply& r) {
  std::vector<nlohmann::json> out;
  for (const auto& d : r.sse_data) {
    if (d != "[DONE]") out.push_back(nlohmann::json::parse(d));
  }
  return out;
}

TEST(ReplayResponder, EmitsEachServersShapeAndAssemblesToTheSameAnswer) {
  auto script = shaped_script();
  ReplayResponder responder(script, {"m", "", 7});
  std::optional<llm::ChatMessage> first;
  for (const char* server : {"openai", "vllm", "sglang", "llamacpp"}) {
    auto req = chat_request(0, true, std::string("Task id: t-") + server);
    auto plain = responder.chat_completion(req.dump(), "");
    ASSERT_EQ(plain.status, 200) << plain.body.dump();
    req["stream"] = true;
    req["stream_options"] = {{"include_usage", true}};
    auto streamed = responder.chat_completion(req.dump(), "");
    llm::StreamAssembler a;
    for (const auto& d : streamed.sse_data) ASSERT_TRUE(a.add(d).ok()) << d;
    auto r = a.finish();
    ASSERT_TRUE(r.ok()) << server << ": " << r.error().message;
    auto expected = llm::parse_chat_completion(plain.body.dump());
    ASSERT_TRUE(expected.ok());
    EXPECT_EQ(r->message, expected->message) << server;
    EXPECT_FALSE(r->usage.estimated) << server;
    if (!first) first = r->message;
    EXPECT_EQ(r->message, *first) << server << " carries the same answer as openai";

    const auto chunks = chunks_of(streamed);
    const auto& message = plain.body["choices"][0]["message"];
    const std::string s = server;
    // Where the reasoning travels.
    EXPECT_EQ(message.contains("reasoning"), s == "vllm") << server;
    EXPECT_EQ(message.contains("reasoning_content"), s != "vllm") << server;
    // Which tool-call index the second call streams under.
    int max_index = 0;
    for (const auto& c : chunks) {
      if (c["choices"].empty()) continue;
      const auto& delta = c["choices"][0]["delta"];
      if (!delta.contains("tool_calls")) continue;
      max_index = std::max(max_index, delta["tool_calls"][0]["index"].get<int>());
    }
    EXPECT_EQ(max_index, s == "sglang" ? 0 : 1) << server;
    // Where the usage is.
    const auto& last = chunks.back();
    EXPECT_TRUE(last["usage"].is_object()) << server;
    EXPECT_EQ(last["choices"].empty(), s != "llamacpp") << server;
    EXPECT_EQ(chunks.front().contains("usage") && chunks.front()["usage"].is_null(), s == "openai")
        << server;
    EXPECT_EQ(last.contains("timings"), s == "llamacpp") << server;
  }
}

TEST(ReplayResponder, ModelsListsTheConfiguredId) {
  auto script = demo_script();
  ReplayResponder responder(script, {"my-replay", "", 24});
  EXPECT_EQ(responder.models()["data"][0]["id"], "my-replay");
}

}  // namespace
TEST(ReplayResponder, AnswersPerRequestedModel) {
  auto script = ReplayScript::parse(
      R"({"task": "gelu", "mode": "chat", "responses": [{"content": "base answer"}]}
{"task": "gelu", "mode": "chat", "model": "tuned", "responses": [{"content": "tuned answer"}]})",
      "demo.jsonl");
  ASSERT_TRUE(script.ok()) << script.error().message;
  ReplayResponder responder(*script, {});
  auto request = chat_request(0, false, "Task id: gelu");
  auto base = responder.chat_completion(request.dump(), "");
  EXPECT_EQ(base.body["choices"][0]["message"]["content"], "base answer");
  request["model"] = "tuned";
  auto tuned = responder.chat_completion(request.dump(), "");
  EXPECT_EQ(tuned.body["choices"][0]["message"]["content"], "tuned answer");
  EXPECT_EQ(tuned.body["model"], "tuned");
}

}  // namespace pf::replay
