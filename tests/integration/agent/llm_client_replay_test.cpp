// The LLM client against the in-process replay server over loopback: whole
// chat- and tools-mode conversations, streaming and not, many threads at once.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "agent/llm/llm_client.h"
#include "agent/replay/replay_server.h"

namespace pf::replay {
namespace {

constexpr const char* kScript =
    R"({"task": "fuse_ln_gelu", "mode": "chat", "responses": [{"content": "```python passes/Fuse.py\ndef pattern(x): ...\n```", "reasoning_content": "first idea"}, {"content": "fixed ✓ version"}]}
{"task": "fuse_ln_gelu", "mode": "tools", "responses": [{"content": null, "tool_calls": [{"id": "w1", "type": "function", "function": {"name": "write_file", "arguments": "{\"path\": \"kernels/k.cu\", \"content\": \"extern \\\"C\\\" __global__ void k() {}\"}"}}]}, {"content": "", "tool_calls": [{"type": "function", "function": {"name": "submit", "arguments": "{}"}}]}]}
{"task": "softmax", "mode": "chat", "responses": [{"content": "softmax pass"}]})";

std::unique_ptr<ReplayServer> start_server(ReplayOptions replay = {}) {
  auto script = ReplayScript::parse(kScript, "inline");
  EXPECT_TRUE(script.ok()) << script.error().message;
  ReplayServerOptions o;
  o.replay = std::move(replay);
  auto server = ReplayServer::start(std::move(script).value(), o);
  EXPECT_TRUE(server.ok()) << server.error().message;
  return std::move(server).value();
}

std::unique_ptr<llm::LlmClient> client_for(const ReplayServer& server, bool stream) {
  llm::LlmOptions o;
  o.base_url = server.base_url();
  o.model = "replay";
  o.stream = stream;
  o.max_attempts = 2;
  auto c = llm::LlmClient::create(o);
  EXPECT_TRUE(c.ok()) << c.error().message;
  return std::move(c).value();
}

llm::ChatRequest first_request(const std::string& task) {
  llm::ChatRequest r;
  r.messages = {llm::ChatMessage::system("You write passes."),
                llm::ChatMessage::user("Task id: " + task + "\nFuse the graph below.")};
  return r;
}

TEST(ReplayEndToEnd, ChatModeConversationStreamingAndNot) {
  auto server = start_server();
  EXPECT_GT(server->port(), 0);
  for (bool stream : {false, true}) {
    auto client = client_for(*server, stream);
    auto req = first_request("fuse_ln_gelu");
    auto first = client->chat(req);
    ASSERT_TRUE(first.ok()) << first.failure().message;
    EXPECT_EQ(first.response().message.reasoning, "first idea");
    EXPECT_NE(first.response().message.content.find("```python passes/Fuse.py"), std::string::npos);
    EXPECT_EQ(first.response().finish_reason, "stop");
    EXPECT_FALSE(first.response().usage.estimated);
    EXPECT_GT(first.response().usage.prompt_tokens, 0);
    req.messages.push_back(first.response().message);
    req.messages.push_back(llm::ChatMessage::user("compile_fail: ..."));
    auto second = client->chat(req);
    ASSERT_TRUE(second.ok()) << second.failure().message;
    EXPECT_EQ(second.response().message.content, "fixed ✓ version");
    EXPECT_GT(second.response().usage.prompt_tokens, first.response().usage.prompt_tokens);
  }
}

TEST(ReplayEndToEnd, ToolsModeByHeaderWithStreaming) {
  auto server = start_server();
  auto client = client_for(*server, /*stream=*/true);
  llm::ChatRequest req;
  req.messages = {llm::ChatMessage::system("s"), llm::ChatMessage::user("no id in the text")};
  req.headers = {{llm::kTaskHeader, "fuse_ln_gelu"}};
  req.tools = nlohmann::json::parse(
      R"([{"type": "function", "function": {"name": "write_file", "parameters": {"type": "object"}}}])");
  req.tool_choice = "auto";
  auto first = client->chat(req);
  ASSERT_TRUE(first.ok()) << first.failure().message;
  const auto& call = first.response().message.tool_calls.at(0);
  EXPECT_EQ(call.id, "w1");
  EXPECT_EQ(call.name, "write_file");
  EXPECT_TRUE(llm::arguments_are_json_object(call));
  EXPECT_EQ(nlohmann::json::parse(call.arguments)["content"],
            "extern \"C\" __global__ void k() {}");
  EXPECT_EQ(first.response().finish_reason, "tool_calls");
  req.messages.push_back(first.response().message);
  req.messages.push_back(llm::ChatMessage::tool("w1", "wrote kernels/k.cu"));
  auto second = client->chat(req);
  ASSERT_TRUE(second.ok()) << second.failure().message;
  EXPECT_EQ(second.response().message.tool_calls.at(0).name, "submit");
  EXPECT_EQ(second.response().message.tool_calls.at(0).id, "call_1_0");
}

TEST(ReplayEndToEnd, UnknownTaskIsABadRequestNamingTheKnownTasks) {
  auto server = start_server();
  auto client = client_for(*server, false);
  auto out = client->chat(first_request("missing_task"));
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.failure().kind, llm::ErrorKind::bad_request);
  EXPECT_EQ(out.failure().http_status, 404);
  EXPECT_EQ(out.failure().attempts.size(), 1u);
  EXPECT_NE(out.failure().message.find("'missing_task'"), std::string::npos)
      << out.failure().message;
  EXPECT_NE(out.failure().message.find("fuse_ln_gelu, softmax"), std::string::npos);
}

TEST(ReplayEndToEnd, FinalMessageAndModels) {
  auto server = start_server({"replay-7b", "No more recorded answers.", 24});
  auto client = client_for(*server, false);
  auto models = client->list_models();
  ASSERT_TRUE(models.ok()) << models.error().message;
  EXPECT_EQ(*models, std::vector<std::string>{"replay-7b"});
  auto req = first_request("softmax");
  req.messages.push_back(llm::ChatMessage::assistant("earlier"));
  req.messages.push_back(llm::ChatMessage::user("feedback"));
  auto out = client->chat(req);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out.response().message.content, "No more recorded answers.");
}

TEST(ReplayEndToEnd, ManyThreadsShareOneClient) {
  auto server = start_server();
  llm::LlmOptions o;
  o.base_url = server->base_url();
  o.max_concurrent = 4;
  auto client = llm::LlmClient::create(o);
  ASSERT_TRUE(client.ok());
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 12; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 8; ++i) {
        auto req = first_request(t % 2 ? "softmax" : "fuse_ln_gelu");
        if (i % 2) req.messages.push_back(llm::ChatMessage::assistant("x"));
        auto out = (*client)->chat(req);
        if (out.ok()) ++ok;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), 96);
  EXPECT_EQ(server->requests_served(), 96u);
}

TEST(ReplayEndToEnd, StopIsIdempotentAndFreesThePort) {
  auto server = start_server();
  int port = server->port();
  server->stop();
  server->stop();
  auto script = ReplayScript::parse(kScript, "inline");
  ASSERT_TRUE(script.ok());
  ReplayServerOptions o;
  o.port = port;
  auto again = ReplayServer::start(std::move(script).value(), o);
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ((*again)->port(), port);
}

TEST(ReplayEndToEnd, BusyPortIsAClearError) {
  auto server = start_server();
  auto script = ReplayScript::parse(kScript, "inline");
  ASSERT_TRUE(script.ok());
  ReplayServerOptions o;
  o.port = server->port();
  auto clash = ReplayServer::start(std::move(script).value(), o);
  ASSERT_FALSE(clash.ok());
  EXPECT_NE(clash.error().message.find(std::to_string(server->port())), std::string::npos);
}

}  // namespace
}  // namespace pf::replay
