// Whole episodes against replay scripts written in each server's shape
// (openai, vllm, sglang, llamacpp; docs/replay-script.md "Server shapes"),
// streamed and not, over loopback with real compile-only workers: tools mode
// with parallel tool calls (a whole CUDA file inside JSON string arguments,
// a pass and `compile` in one answer; SGLang's finish_reason "stop" for tool
// calls), and chat mode where later answers carry only the changed file.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "agent/replay/replay_server.h"
#include "tests/integration/agent/episode_harness.h"

namespace pf::testing {
namespace {

using Json = nlohmann::json;
const char* kTask = "add-relu-test";
const char* kServers[] = {"openai", "vllm", "sglang", "llamacpp"};

std::string kernel_file() {
  std::ifstream in(std::string(PF_SOURCE_DIR) + "/tests/data/endpoints/kernel.cu");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const std::string kPass =
    "import torch\n"
    "def pattern(x, y):\n"
    "    return torch.relu(x + y)\n"
    "def replacement(x, y):\n"
    "    out = torch.empty_like(x)\n"
    "    n = x.numel()\n"
    "    launch(\"add_relu\", grid=cdiv(n, 256), block=256, args=(x, y, out, n))\n"
    "    return out\n";

std::unique_ptr<replay::ReplayServer> serve(const std::string& server, const std::string& mode,
                                            const std::vector<Json>& responses) {
  Json line = {{"task", kTask}, {"mode", mode}, {"server", server}, {"responses", responses}};
  auto script = replay::ReplayScript::parse(line.dump() + "\n", "shape.jsonl");
  EXPECT_TRUE(script.ok()) << script.error().message;
  auto s = replay::ReplayServer::start(std::move(script).value(), {});
  EXPECT_TRUE(s.ok()) << s.error().message;
  return std::move(s).value();
}

Json call(const std::string& id, const std::string& name, const Json& args) {
  return {
      {"id", id}, {"type", "function"}, {"function", {{"name", name}, {"arguments", args.dump()}}}};
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

TEST(EndpointShapeEpisode, ToolsModeWithParallelCallsInEveryServersShape) {
  for (const char* server : kServers) {
    Json first = {
        {"content", nullptr},
        {"reasoning_content", "Kernel first, then the pass, then compile."},
        {"tool_calls",
         {call("w1", "write_file", {{"path", "kernels/add_relu.cu"}, {"content", kernel_file()}}),
          call("w2", "write_file", {{"path", "passes/AddRelu.py"}, {"content", kPass}}),
          call("c1", "compile", Json::object())}}};
    Json second = {{"content", "Evaluating, then submitting."},
                   {"tool_calls",
                    {call("e1", "evaluate", Json::object()), call("s1", "submit", Json::object()),
                     call("l1", "list_files", Json::object())}}};
    // Older SGLang servers end tool-calling answers with finish_reason "stop".
    if (std::string(server) == "sglang") first["finish_reason"] = second["finish_reason"] = "stop";
    auto replay = serve(server, "tools", {first, second});
    for (bool stream : {false, true}) {
      const std::string where = std::string(server) + (stream ? " streamed" : " whole");
      auto options = fast_llm_options(replay->base_url());
      options.stream = stream;
      EpisodeHarness h(replay->base_url(), AgentMode::tools, options);
      auto r = h.run();
      ASSERT_EQ(r.exit_reason, agent::ExitReason::submitted) << where << ": " << r.detail;
      EXPECT_EQ(r.turns, 2) << where << ": the step budget counts answers, not calls";
      ASSERT_TRUE(r.best_compile_share.has_value()) << where;
      EXPECT_EQ(*r.best_compile_share, 1.0) << where;

      auto ms = h.messages();
      // system, user, assistant + 3 tool results, assistant + 3 tool results.
      ASSERT_EQ(ms.size(), 10u) << where;
      EXPECT_EQ(ms[2].reasoning, "Kernel first, then the pass, then compile.") << where;
      ASSERT_EQ(ms[2].tool_calls.size(), 3u) << where;
      Json args = Json::parse(ms[2].tool_calls[0]["function"]["arguments"].get<std::string>());
      EXPECT_EQ(args["content"], kernel_file()) << where << ": the file survived the wire";
      EXPECT_TRUE(contains(ms[3].content, "Wrote kernels/add_relu.cu")) << where;
      EXPECT_TRUE(contains(ms[4].content, "Wrote passes/AddRelu.py")) << where;
      EXPECT_TRUE(contains(ms[5].content, "2 of 2 variants compiled, matched")) << ms[5].content;
      EXPECT_TRUE(contains(ms[5].content, "call `evaluate`") == false) << where;
      EXPECT_TRUE(contains(ms[5].content, "Steps remaining: 19")) << where;
      EXPECT_FALSE(contains(ms[3].content, "Steps remaining")) << where;
      // evaluate in a compile-only run says what it did not do; submit ends
      // the episode and the call after it is not executed.
      EXPECT_TRUE(contains(ms[7].content, "`evaluate` did only what `compile` does"))
          << ms[7].content;
      EXPECT_TRUE(contains(ms[8].content, "Submitted.")) << ms[8].content;
      EXPECT_TRUE(contains(ms[9].content, "`submit` earlier in this answer ended the episode"))
          << ms[9].content;
      EXPECT_EQ(ms[9].tool_call_id, "l1");

      auto calls = h.llm_calls();
      ASSERT_EQ(calls.size(), 2u) << where;
      EXPECT_EQ(Json::parse(calls[0].request)["parallel_tool_calls"], true) << where;
      EXPECT_EQ(Json::parse(calls[0].request).value("stream", false), stream) << where;
      EXPECT_EQ(h.evaluations().size(), 3u) << where << ": compile, evaluate, submit";
    }
  }
}

TEST(EndpointShapeEpisode, ChatModeAnswersMayCarryOnlyTheChangedFile) {
  const std::string broken = "extern \"C\" __global__ void add_relu(const float* a) { oops }\n";
  for (const char* server : kServers) {
    auto replay =
        serve(server, "chat",
              {{{"content", "```python passes/AddRelu.py\n" + kPass +
                                "```\n\n```cuda kernels/add_relu.cu\n" + broken + "```\n"},
                {"reasoning_content", "first try"}},
               {{"content", "Only the kernel changes:\n\n```cuda kernels/add_relu.cu\n" +
                                kernel_file() + "```\n"}},
               {{"content", "SUBMIT"}}});
    for (bool stream : {false, true}) {
      const std::string where = std::string(server) + (stream ? " streamed" : " whole");
      auto options = fast_llm_options(replay->base_url());
      options.stream = stream;
      EpisodeHarness h(replay->base_url(), AgentMode::chat, options);
      auto r = h.run();
      ASSERT_EQ(r.exit_reason, agent::ExitReason::submitted) << where << ": " << r.detail;
      EXPECT_EQ(r.turns, 3) << where;
      auto evaluations = h.evaluations();
      ASSERT_EQ(evaluations.size(), 2u) << where;
      EXPECT_EQ(evaluations[0].result.value("failure_class", ""), "compile_fail") << where;
      EXPECT_TRUE(evaluations[1].result["failure_class"].is_null())
          << where << ": the pass of answer 1 was kept: " << evaluations[1].result.dump();
      ASSERT_TRUE(r.best_compile_share.has_value());
      EXPECT_EQ(*r.best_compile_share, 1.0) << where;
      auto ms = h.messages();
      EXPECT_EQ(ms[2].reasoning, "first try") << where;
      for (const auto& m : ms) {
        if (m.role != traj::Role::user) continue;
        EXPECT_FALSE(contains(m.content, "`evaluate`")) << where << ": " << m.content;
        EXPECT_FALSE(contains(m.content, "evaluate it")) << where << ": " << m.content;
      }
    }
  }
}

// Hostile: one answer asking for dozens of evaluations must not turn one
// step into dozens of evaluator runs.
TEST(EndpointShapeEpisode, OneAnswerCannotFloodTheEvaluator) {
  Json flood = {{"content", nullptr}, {"tool_calls", Json::array()}};
  flood["tool_calls"].push_back(
      call("w", "write_file", {{"path", "passes/AddRelu.py"}, {"content", kPass}}));
  for (int i = 0; i < 40; ++i) {
    flood["tool_calls"].push_back(call("c" + std::to_string(i), "compile", Json::object()));
  }
  auto replay =
      serve("openai", "tools",
            {flood, {{"content", nullptr}, {"tool_calls", {call("s", "submit", Json::object())}}}});
  EpisodeHarness h(replay->base_url(), AgentMode::tools);
  auto r = h.run();
  ASSERT_EQ(r.exit_reason, agent::ExitReason::submitted) << r.detail;
  auto ms = h.messages();
  size_t refused = 0;
  for (const auto& m : ms) {
    if (m.role == traj::Role::tool && contains(m.content, "Not executed: at most")) ++refused;
  }
  EXPECT_EQ(h.evaluations().size() + refused, 41u) << "every compile ran or was refused";
  EXPECT_LE(h.evaluations().size(), 17u) << "at most 16 calls of an answer run, then submit";
  EXPECT_EQ(ms.size(), 2u + 1u + 41u + 1u + 1u);
}

// Hostile: answers that each add a few files cannot grow the carried-over
// workspace past its file limit.
TEST(EndpointShapeEpisode, ChatAnswersCannotGrowTheWorkspacePastItsLimit) {
  std::string first = "```python passes/AddRelu.py\n" + kPass + "```\n";
  for (int i = 0; i < 39; ++i) {
    first += "```cuda kernels/k" + std::to_string(i) + ".cu\n// " + std::to_string(i) + "\n```\n";
  }
  auto replay = serve("vllm", "chat",
                      {{{"content", first}},
                       {{"content", "```cuda kernels/one_more.cu\n// 40\n```\n"}},
                       {{"content", "SUBMIT"}}});
  EpisodeHarness h(replay->base_url(), AgentMode::chat);
  auto r = h.run();
  ASSERT_EQ(r.exit_reason, agent::ExitReason::submitted) << r.detail;
  EXPECT_EQ(h.evaluations().size(), 1u) << "the answer over the limit was not evaluated";
  auto ms = h.messages();
  ASSERT_GE(ms.size(), 6u);
  EXPECT_TRUE(contains(ms[5].content, "at most 40 files")) << ms[5].content;
}

}  // namespace
}  // namespace pf::testing
