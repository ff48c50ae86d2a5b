// Episodes against a misbehaving endpoint over loopback: faults the client
// can retry are retried inside the turn (every attempt recorded with the
// turn); faults it cannot retry end the episode with the right exit reason;
// no turn is ever lost or committed twice, also with many episodes at once.
#include <gtest/gtest.h>

#include <thread>

#include "tests/integration/agent/episode_harness.h"
#include "tests/integration/agent/fault_server.h"

namespace pf::testing {
namespace {

using Json = nlohmann::json;

FaultAction call(const std::string& name, const Json& args = Json::object()) {
  Json m = tool_call(name, args, "call_" + name);
  m["role"] = "assistant";
  return FaultAction::completion(m, "tool_calls");
}

// The store's view of one episode is whole: turns 1..n each with one LLM call
// and an assistant message, messages numbered without gaps.
void expect_whole(EpisodeHarness& h, int64_t sample, int64_t turns) {
  auto e = h.episode(sample);
  EXPECT_EQ(e.turns, turns);
  auto calls = h.llm_calls(sample);
  ASSERT_EQ(calls.size(), static_cast<size_t>(turns));
  for (int64_t t = 0; t < turns; ++t) EXPECT_EQ(calls[t].turn, t + 1);
  auto ms = h.messages(sample);
  for (size_t i = 0; i < ms.size(); ++i) EXPECT_EQ(ms[i].seq, static_cast<int64_t>(i));
  int64_t assistants = 0;
  for (const auto& m : ms) assistants += m.role == traj::Role::assistant ? 1 : 0;
  EXPECT_EQ(assistants, turns);
}

TEST(AgentFaults, RetryableFaultsAreRetriedWithinTheTurn) {
  FaultServer server;
  server.push(FaultAction::rate_limited("0"));
  server.push(call("list_files"));
  server.push(FaultAction::status_with(500, R"({"error":{"message":"overloaded"}})"));
  server.push(call("list_files"));
  server.push(FaultAction::invalid_json());
  server.push(FaultAction::truncated_json());
  server.push(call("list_files"));
  server.push(FaultAction::empty_choices());
  server.push(FaultAction::dropped_mid_body());
  server.push(call("submit"));
  EpisodeHarness h(server.base_url(), AgentMode::tools);
  auto r = h.run();
  EXPECT_EQ(r.exit_reason, agent::ExitReason::submitted) << r.detail;
  EXPECT_EQ(server.request_count(), 10u);
  expect_whole(h, 0, 4);
  auto calls = h.llm_calls();
  ASSERT_EQ(calls.size(), 4u);
  std::vector<int64_t> attempts;
  for (const auto& c : calls) attempts.push_back(c.attempts);
  EXPECT_EQ(attempts, (std::vector<int64_t>{2, 2, 3, 3}));
  EXPECT_EQ(calls[0].attempt_log[0]["outcome"], "rate_limited");
  EXPECT_EQ(calls[0].attempt_log[0]["retry_after_s"], 0.0);
  for (const auto& req : server.requests()) {
    EXPECT_EQ(req.headers.at("x-passforge-task"), "add-relu-test");
  }
}

TEST(AgentFaults, SlowAnswersTimeOutAndAreRetried) {
  FaultServer server;
  server.push(FaultAction::slow(3, "too late"));
  server.push(call("submit"));
  auto options = fast_llm_options(server.base_url());
  options.request_timeout_s = 1;
  EpisodeHarness h(server.base_url(), AgentMode::tools, options);
  auto r = h.run();
  EXPECT_EQ(r.exit_reason, agent::ExitReason::submitted) << r.detail;
  auto calls = h.llm_calls();
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].attempts, 2);
  EXPECT_EQ(calls[0].attempt_log[0]["outcome"], "timeout");
}

TEST(AgentFaults, InvalidToolArgumentsGetACorrectiveToolMessage) {
  FaultServer server;
  server.push(FaultAction::invalid_tool_arguments());
  server.push(call("submit"));
  EpisodeHarness h(server.base_url(), AgentMode::tools);
  auto r = h.run();
  EXPECT_EQ(r.exit_reason, agent::ExitReason::submitted) << r.detail;
  auto ms = h.messages();
  ASSERT_GE(ms.size(), 4u);
  EXPECT_EQ(ms[3].role, traj::Role::tool);
  EXPECT_EQ(ms[3].tool_call_id, "call_9");
  EXPECT_NE(ms[3].content.find("not a JSON object"), std::string::npos) << ms[3].content;
  expect_whole(h, 0, 2);
}

TEST(AgentFaults, UnretryableFaultsEndTheEpisodeWithTheirExitReason) {
  struct Case {
    FaultAction action;
    agent::ExitReason reason;
    traj::RunState status;
  };
  std::vector<Case> cases = {
      {FaultAction::context_overflow_vllm(), agent::ExitReason::context_overflow,
       traj::RunState::finished},
      {FaultAction::context_overflow_openai(), agent::ExitReason::context_overflow,
       traj::RunState::finished},
      {FaultAction::unauthorized(), agent::ExitReason::endpoint_error, traj::RunState::failed},
      {FaultAction::status_with(503, "{}"), agent::ExitReason::endpoint_error,
       traj::RunState::failed},
  };
  for (const auto& c : cases) {
    FaultServer server;
    server.push(call("list_files"));  // one good turn first: it must survive
    server.set_default(c.action);
    EpisodeHarness h(server.base_url(), AgentMode::tools);
    auto r = h.run();
    EXPECT_EQ(r.exit_reason, c.reason) << r.detail;
    EXPECT_FALSE(r.detail.empty());
    auto e = h.episode();
    EXPECT_EQ(e.status, c.status);
    EXPECT_EQ(e.exit_reason, std::string(agent::to_string(c.reason)));
    expect_whole(h, 0, 1);
    // Issue 17: why the call finally failed is stored, with its attempts.
    auto failed = h.reader().failed_llm_calls(h.episode_id());
    ASSERT_TRUE(failed.ok()) << failed.error().message;
    ASSERT_EQ(failed->size(), 1u);
    const auto& f = failed->front();
    EXPECT_EQ(f.turn, 2);
    EXPECT_FALSE(f.last_error.empty());
    EXPECT_GE(f.attempts, 1);
    EXPECT_EQ(f.attempt_log.size(), static_cast<size_t>(f.attempts));
    EXPECT_FALSE(f.request.empty());
    if (c.action.status == 503) {
      EXPECT_EQ(f.attempts, 4) << "every attempt of the retried 503";
      EXPECT_EQ(f.http_status, 503);
      EXPECT_EQ(f.error_kind, "server_error_exhausted");
    }
  }
}

TEST(AgentFaults, ManyConcurrentEpisodesLoseAndDuplicateNoTurn) {
  FaultServer server;
  server.set_default(call("list_files"));
  for (int i = 0; i < 6; ++i) {
    server.push(FaultAction::rate_limited("0"));
    server.push(FaultAction::invalid_json());
    server.push(FaultAction::status_with(502, "bad gateway"));
    server.push(FaultAction::truncated_json());
    server.push(call("list_files"));
  }
  // Faults land on whichever episode asks next: allow enough attempts for a run of them.
  auto options = fast_llm_options(server.base_url());
  options.max_attempts = 30;
  EpisodeHarness h(server.base_url(), AgentMode::tools, options);
  h.settings.max_steps = 3;
  // Eight episodes at once share the client, the worker pool and the store.
  constexpr size_t kEpisodes = 8;
  std::vector<std::optional<agent::EpisodeResult>> results(kEpisodes);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < kEpisodes; ++i) {
    threads.emplace_back([&, i] { results[i] = h.run(static_cast<int64_t>(i)); });
  }
  for (auto& t : threads) t.join();
  for (size_t i = 0; i < kEpisodes; ++i) {
    ASSERT_TRUE(results[i]);
    EXPECT_EQ(results[i]->exit_reason, agent::ExitReason::max_steps) << results[i]->detail;
    expect_whole(h, static_cast<int64_t>(i), 3);
  }
  auto check = h.reader().check_integrity();
  EXPECT_TRUE(check.ok()) << check.error().message;
}

}  // namespace
}  // namespace pf::testing
