// Whole episodes against the replay server over loopback, with real worker
// processes and a real store: malformed model output gets a corrective
// message and counts as a turn, budgets end episodes with their exit reason,
// context policies shape the requests, and an interrupted episode resumes
// from its last committed turn to the same conversation.
#include <gtest/gtest.h>

#include <thread>

#include "agent/replay/replay_server.h"
#include "tests/integration/agent/episode_harness.h"

namespace pf::testing {
namespace {

using Json = nlohmann::json;
const char* kTask = "add-relu-test";

std::unique_ptr<replay::ReplayServer> serve(const std::string& script_text) {
  auto script = replay::ReplayScript::parse(script_text, "test.jsonl");
  EXPECT_TRUE(script.ok()) << script.error().message;
  auto server = replay::ReplayServer::start(std::move(script).value(), {});
  EXPECT_TRUE(server.ok()) << server.error().message;
  return std::move(server).value();
}

std::vector<std::string> roles(const std::vector<traj::MessageRecord>& ms) {
  std::vector<std::string> out;
  for (const auto& m : ms) out.emplace_back(traj::to_string(m.role));
  return out;
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

const std::string kKernel =
    "extern \"C\" __global__ void add_relu(const float* a, const float* b, "
    "float* out, long long n) {}\n";

TEST(AgentEpisode, ToolsModeAnswersMalformedOutputAndCountsEachAsATurn) {
  auto server = serve(script_line(
      kTask, "tools",
      {{{"content", "Let me think about the graph first."}},
       tool_call("write_file", std::string("{\"path\": \"kernels/k.cu\", \"content\": "), "c1"),
       tool_call("frobnicate", Json::object(), "c2"),
       tool_calls({{"write_file", Json{{"path", "kernels/k.cu"}, {"content", kKernel}}.dump()},
                   {"list_files", "{}"}}),
       tool_call("write_file", {{"path", "src/x.py"}, {"content", "x"}}),
       tool_call("edit_file",
                 {{"path", "kernels/k.cu"}, {"old_string", "nope"}, {"new_string", "x"}}),
       tool_call("edit_file",
                 {{"path", "kernels/k.cu"}, {"old_string", "{}"}, {"new_string", "{ return; }"}}),
       tool_call("read_file", {{"path", "kernels/k.cu"}}),
       tool_call("evaluate", Json::object()),
       tool_call("submit", Json::object())}));
  EpisodeHarness h(server->base_url(), AgentMode::tools);
  h.settings.parallel_tool_calls = false;  // turn 4 shows the refusal of a second call
  auto r = h.run();
  EXPECT_EQ(r.exit_reason, agent::ExitReason::submitted) << r.detail;
  EXPECT_EQ(r.turns, 10);

  auto ms = h.messages();
  ASSERT_EQ(ms.size(), 2u + 10u * 2u + 1u) << "one extra tool message for the refused second call";
  EXPECT_EQ(roles(ms)[0], "system");
  EXPECT_TRUE(contains(ms[1].content, "Task id: add-relu-test"));
  EXPECT_TRUE(contains(ms[1].content, "Steps remaining: 20"));
  EXPECT_FALSE(contains(ms[1].content, "model.c.s5-6")) << "hidden variants are never shown";
  EXPECT_TRUE(contains(ms[1].content, "model.a.s1-2"));
  // Turn 1: prose without a tool call -> a user message saying to call a tool.
  EXPECT_EQ(ms[3].role, traj::Role::user);
  EXPECT_TRUE(contains(ms[3].content, "called no tool")) << ms[3].content;
  EXPECT_TRUE(contains(ms[3].content, "Steps remaining: 19"));
  // Turn 2: invalid JSON arguments.
  EXPECT_EQ(ms[5].role, traj::Role::tool);
  EXPECT_EQ(ms[5].tool_call_id, "c1");
  EXPECT_TRUE(contains(ms[5].content, "not a JSON object (not valid JSON)")) << ms[5].content;
  // Turn 3: unknown tool.
  EXPECT_TRUE(contains(ms[7].content, "There is no tool `frobnicate`")) << ms[7].content;
  // Turn 4: two calls: the first runs, the second is refused; steps go on the last message.
  EXPECT_TRUE(contains(ms[9].content, "Wrote kernels/k.cu")) << ms[9].content;
  EXPECT_TRUE(contains(ms[10].content, "one tool call per turn")) << ms[10].content;
  EXPECT_EQ(ms[10].name, "list_files");
  EXPECT_TRUE(contains(ms[10].content, "Steps remaining: 16"));
  EXPECT_FALSE(contains(ms[9].content, "Steps remaining"));
  // Turn 5: a path outside the workspace layout.
  EXPECT_TRUE(contains(ms[12].content, "`src/x.py` is not a workspace file")) << ms[12].content;
  // Turns 6-8: edits that do not apply and do, then the file as edited.
  EXPECT_TRUE(contains(ms[14].content, "does not occur")) << ms[14].content;
  EXPECT_TRUE(contains(ms[16].content, "Edited kernels/k.cu")) << ms[16].content;
  EXPECT_TRUE(contains(ms[18].content, "{ return; }")) << ms[18].content;
  // Turn 9: evaluate with no pass file.
  EXPECT_TRUE(contains(ms[20].content, "no pass yet")) << ms[20].content;
  // Turn 10: submit with no pass ends the episode without an evaluation.
  EXPECT_TRUE(contains(ms[22].content, "Submitted with an empty workspace")) << ms[22].content;
  EXPECT_FALSE(contains(ms[22].content, "Steps remaining"));
  EXPECT_TRUE(h.evaluations().empty());

  auto calls = h.llm_calls();
  ASSERT_EQ(calls.size(), 10u) << "one LLM call per turn";
  for (size_t i = 0; i < calls.size(); ++i) {
    EXPECT_EQ(calls[i].turn, static_cast<int64_t>(i + 1));
    EXPECT_EQ(calls[i].http_status, 200);
    EXPECT_EQ(Json::parse(calls[i].request)["tools"].size(), 7u);
    EXPECT_EQ(Json::parse(calls[i].request)["parallel_tool_calls"], false);
  }
  auto e = h.episode();
  EXPECT_EQ(e.status, traj::RunState::finished);
  EXPECT_EQ(e.exit_reason, "submitted");
  EXPECT_EQ(e.turns, 10);
  EXPECT_EQ(e.prompt_variant, "default");
  EXPECT_FALSE(e.prompt_hash.empty());
  EXPECT_TRUE(e.tools.is_array());
}

TEST(AgentEpisode, RequestsCarryTheWholeConversationAndTheTaskHeader) {
  auto server = serve(
      script_line(kTask, "tools",
                  {tool_call("list_files", Json::object()), tool_call("list_files", Json::object()),
                   tool_call("submit", Json::object())}));
  EpisodeHarness h(server->base_url(), AgentMode::tools);
  auto r = h.run();
  ASSERT_EQ(r.exit_reason, agent::ExitReason::submitted) << r.detail;
  auto calls = h.llm_calls();
  ASSERT_EQ(calls.size(), 3u);
  auto ms = h.messages();
  for (size_t i = 0; i < calls.size(); ++i) {
    auto body = Json::parse(calls[i].request);
    // Append-only: request k holds exactly the messages stored before turn k.
    size_t expected = 0;
    for (const auto& m : ms) expected += m.turn <= static_cast<int64_t>(i) ? 1 : 0;
    EXPECT_EQ(body["messages"].size(), expected) << "turn " << i + 1;
    for (size_t k = 0; k < body["messages"].size(); ++k) {
      EXPECT_EQ(body["messages"][k]["content"].is_null()
                    ? std::string()
                    : body["messages"][k]["content"].get<std::string>(),
                ms[k].content);
    }
  }
}

TEST(AgentEpisode, ChatModeCorrectsMalformedAnswersUntilSubmit) {
  auto server = serve(
      script_line(kTask, "chat",
                  {{{"content", "I think we should fuse add and relu."}},
                   {{"content", "```python\ndef pattern(x): pass\n```"}},
                   {{"content", "```python ../passes/X.py\nx\n```"}},
                   {{"content", "```cuda kernels/a.cu\nx\n```\n```cuda kernels/a.cu\ny\n```"}},
                   {{"content", "```cuda kernels/a.cu\nint x;\n"}},
                   {{"content", "```cuda kernels/a.cu\nint x;\n```"}},
                   {{"content", "SUBMIT"}}}));
  EpisodeHarness h(server->base_url(), AgentMode::chat);
  auto r = h.run();
  EXPECT_EQ(r.exit_reason, agent::ExitReason::submitted) << r.detail;
  EXPECT_EQ(r.turns, 7);
  auto ms = h.messages();
  ASSERT_EQ(ms.size(), 2u + 6u * 2u + 1u);
  EXPECT_TRUE(contains(ms[3].content, "contains no files")) << ms[3].content;
  EXPECT_TRUE(contains(ms[5].content, "names no file (block 1")) << ms[5].content;
  EXPECT_TRUE(contains(ms[7].content, "is not a workspace file")) << ms[7].content;
  EXPECT_TRUE(contains(ms[9].content, "more than one code block")) << ms[9].content;
  EXPECT_TRUE(contains(ms[11].content, "not closed")) << ms[11].content;
  EXPECT_TRUE(contains(ms[13].content, "no pass yet")) << ms[13].content;
  EXPECT_TRUE(contains(ms[13].content, "Steps remaining: 14"));
  EXPECT_EQ(ms.back().role, traj::Role::assistant);
  EXPECT_EQ(ms.back().content, "SUBMIT");
  EXPECT_TRUE(h.episode().tools.is_null());
}

TEST(AgentEpisode, StepBudgetEndsTheEpisode) {
  auto server = serve(script_line(kTask, "tools", {tool_call("list_files", Json::object())}));
  EpisodeHarness h(server->base_url(), AgentMode::tools);
  h.settings.max_steps = 3;
  auto r = h.run();
  EXPECT_EQ(r.exit_reason, agent::ExitReason::max_steps);
  EXPECT_EQ(r.turns, 3);
  EXPECT_EQ(h.episode().exit_reason, "max_steps");
  auto ms = h.messages();
  EXPECT_TRUE(contains(ms.back().content, "Steps remaining: 0"));
}

TEST(AgentEpisode, TokenAndTimeBudgetsEndTheEpisode) {
  auto server = serve(script_line(kTask, "tools", {tool_call("list_files", Json::object())}));
  {
    EpisodeHarness h(server->base_url(), AgentMode::tools);
    h.settings.max_total_tokens = 10;  // the first call alone uses more
    auto r = h.run();
    EXPECT_EQ(r.exit_reason, agent::ExitReason::token_budget);
    EXPECT_EQ(r.turns, 1);
    EXPECT_GT(r.prompt_tokens + r.completion_tokens, 10);
  }
  {
    // The per-call budget: no request is sent that cannot fit, even after
    // every context policy has shortened what it can.
    EpisodeHarness h(server->base_url(), AgentMode::tools);
    h.settings.max_context_tokens = 100;
    auto r = h.run();
    EXPECT_EQ(r.exit_reason, agent::ExitReason::context_overflow);
    EXPECT_EQ(r.turns, 0);
    EXPECT_TRUE(contains(r.detail, "agent.max_context_tokens = 100")) << r.detail;
    EXPECT_TRUE(h.llm_calls().empty());
  }
  {
    EpisodeHarness h(server->base_url(), AgentMode::tools);
    h.settings.max_wall_s = 1e-9;
    auto r = h.run();
    EXPECT_EQ(r.exit_reason, agent::ExitReason::time_budget);
    EXPECT_EQ(r.turns, 0);
    EXPECT_EQ(h.episode().status, traj::RunState::finished);
  }
}

TEST(AgentEpisode, ContextPoliciesShapeTheRequestNotTheStore) {
  Json thinking = tool_call("list_files", Json::object());
  thinking["reasoning_content"] = "private chain of thought";
  auto server =
      serve(script_line(kTask, "tools", {thinking, thinking, tool_call("submit", Json::object())}));
  for (auto policy : {ContextPolicy::keep_all, ContextPolicy::drop_reasoning}) {
    EpisodeHarness h(server->base_url(), AgentMode::tools);
    h.settings.context_policy = policy;
    auto r = h.run();
    ASSERT_EQ(r.exit_reason, agent::ExitReason::submitted);
    auto calls = h.llm_calls();
    ASSERT_EQ(calls.size(), 3u);
    bool sent = contains(calls[2].request, "private chain of thought");
    EXPECT_EQ(sent, policy == ContextPolicy::keep_all);
    auto ms = h.messages();
    EXPECT_EQ(ms[2].reasoning, "private chain of thought") << "the store keeps the reasoning";
  }
}

TEST(AgentEpisode, InterruptedEpisodeResumesToTheSameConversation) {
  std::vector<Json> script;
  for (int i = 0; i < 6; ++i) {
    script.push_back(tool_call("write_file", {{"path", "kernels/k" + std::to_string(i) + ".cu"},
                                              {"content", "// " + std::to_string(i) + "\n"}}));
  }
  script.push_back(tool_call("list_files", Json::object()));
  script.push_back(tool_call("submit", Json::object()));
  auto server = serve(script_line(kTask, "tools", script));

  EpisodeHarness whole(server->base_url(), AgentMode::tools);
  auto full = whole.run();
  ASSERT_EQ(full.exit_reason, agent::ExitReason::submitted);
  auto expected = whole.messages();

  EpisodeHarness h(server->base_url(), AgentMode::tools);
  // Stop after the third committed turn: the cancel token is checked before each call.
  std::thread stopper([&] {
    for (int i = 0; i < 2000; ++i) {
      auto r = traj::TrajectoryReader::open(h.dir / "run");
      if (r.ok()) {
        auto e = r->episode(h.episode_id());
        if (e.ok() && e->turns >= 3) break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    h.cancel().cancel();
  });
  auto first = h.run();
  stopper.join();
  ASSERT_EQ(first.exit_reason, agent::ExitReason::interrupted);
  EXPECT_EQ(h.episode().status, traj::RunState::interrupted);
  EXPECT_LT(first.turns, 8);

  h.reset_cancel();
  auto second = h.run(0, /*resume=*/true);
  EXPECT_EQ(second.exit_reason, agent::ExitReason::submitted) << second.detail;
  EXPECT_EQ(second.turns, 8);
  auto got = h.messages();
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].role, expected[i].role) << i;
    EXPECT_EQ(got[i].content, expected[i].content) << i;
    EXPECT_EQ(got[i].tool_calls, expected[i].tool_calls) << i;
    EXPECT_EQ(got[i].turn, expected[i].turn) << i;
  }
  EXPECT_EQ(h.llm_calls().size(), 8u) << "no turn lost or duplicated";
  EXPECT_EQ(h.episode().status, traj::RunState::finished);
}

// Resume replays every executed call of an answer with parallel calls (not
// only the first), so the rebuilt workspace and conversation are the same.
TEST(AgentEpisode, InterruptedEpisodeWithParallelCallsResumesToTheSameConversation) {
  std::vector<Json> script;
  for (int i = 0; i < 4; ++i) {
    script.push_back(tool_calls(
        {{"write_file",
          Json{{"path", "kernels/a" + std::to_string(i) + ".cu"}, {"content", "// a\n"}}.dump()},
         {"write_file",
          Json{{"path", "kernels/b" + std::to_string(i) + ".cu"}, {"content", "// b\n"}}.dump()}}));
  }
  script.push_back(tool_call("list_files", Json::object()));
  script.push_back(tool_call("submit", Json::object()));
  auto server = serve(script_line(kTask, "tools", script));

  EpisodeHarness whole(server->base_url(), AgentMode::tools);
  ASSERT_EQ(whole.run().exit_reason, agent::ExitReason::submitted);
  auto expected = whole.messages();

  EpisodeHarness h(server->base_url(), AgentMode::tools);
  std::thread stopper([&] {
    for (int i = 0; i < 2000; ++i) {
      auto r = traj::TrajectoryReader::open(h.dir / "run");
      if (r.ok()) {
        auto e = r->episode(h.episode_id());
        if (e.ok() && e->turns >= 2) break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    h.cancel().cancel();
  });
  auto first = h.run();
  stopper.join();
  ASSERT_EQ(first.exit_reason, agent::ExitReason::interrupted);
  ASSERT_LT(first.turns, 6);
  h.reset_cancel();
  auto second = h.run(0, /*resume=*/true);
  ASSERT_EQ(second.exit_reason, agent::ExitReason::submitted) << second.detail;
  auto got = h.messages();
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].content, expected[i].content) << i;
  }
  // The list_files answer shows all eight files, written before and after the interruption.
  bool listed = false;
  for (const auto& m : got) {
    if (m.name == "list_files") {
      listed = true;
      for (int i = 0; i < 4; ++i) {
        EXPECT_TRUE(contains(m.content, "kernels/b" + std::to_string(i) + ".cu")) << m.content;
      }
    }
  }
  EXPECT_TRUE(listed);
}

}  // namespace
}  // namespace pf::testing
