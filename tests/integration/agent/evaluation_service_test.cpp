// The EvaluationService in agent runs, with real processes (replay server,
// worker pool, store) and pf_fake_eval_worker standing in for the GPU and
// for a broken host (fake_eval_worker.cpp says what each behaviour does):
//   - a worker killed in the middle of a full evaluation is resumed per
//     variant: only the variant that killed it fails;
//   - a worker replying `mode: "full", as: 99, speedup: 1000` to a
//     compile-only request is a worker fault: replaced, retried once, nothing
//     stored, the model not blamed;
//   - an NVRTC internal error is retried on a fresh worker and the model only
//     sees the evaluation that really ran;
//   - an evaluator that stays broken is not charged to the step budget, also
//     after the episode is interrupted and resumed;
//   - with the CPU/GPU split, a candidate that passes the CPU workers'
//     compile-only phase is evaluated by the GPU pool, whose result is the
//     one returned.
#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>

#include "agent/replay/replay_server.h"
#include "tests/integration/agent/episode_harness.h"
#include "tests/integration/agent/slow_replay_server.h"
#include "trajectories/trajectory_reader.h"

namespace pf::testing {
namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;
constexpr const char* kTask = "add-relu-test";

std::unique_ptr<replay::ReplayServer> serve(const std::vector<Json>& responses) {
  auto script = replay::ReplayScript::parse(script_line(kTask, "tools", responses), "test.jsonl");
  EXPECT_TRUE(script.ok()) << script.error().message;
  auto server = replay::ReplayServer::start(std::move(script).value(), {});
  EXPECT_TRUE(server.ok()) << server.error().message;
  return std::move(server).value();
}

Json write_pass() {
  return tool_call("write_file",
                   {{"path", "passes/FuseAddRelu.py"},
                    {"content", "def pattern(a, b):\n    return torch.relu(a + b)\n"}});
}

HarnessWorkers fake(const std::string& behaviour, protocol::EvalMode mode) {
  HarnessWorkers w;
  w.worker = fs::path(PF_FAKE_EVAL_WORKER);
  w.mode = mode;
  w.env = {"PF_FAKE_EVAL=" + behaviour};
  return w;
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// The tool message answering the call of `turn`.
std::string tool_reply(const std::vector<traj::MessageRecord>& ms, int64_t turn) {
  for (const auto& m : ms) {
    if (m.turn == turn && m.role == traj::Role::tool) return m.content;
  }
  return "";
}

TEST(EvaluationServiceAgentRun, WorkerKilledMidEvaluationIsResumedPerVariant) {
  auto server = serve(
      {write_pass(), tool_call("evaluate", Json::object()), tool_call("submit", Json::object())});
  EpisodeHarness h(server->base_url(), AgentMode::tools, {}, kTask,
                   fake("crash_on=model.b.s3-4", protocol::EvalMode::full));
  auto r = h.run();
  EXPECT_EQ(r.exit_reason, agent::ExitReason::submitted) << r.detail;

  auto evaluations = h.evaluations();
  ASSERT_EQ(evaluations.size(), 2u) << "the evaluation and the submission of the same workspace";
  const traj::EvaluationRecord& e = evaluations.front();
  EXPECT_EQ(e.kind, traj::EvalKind::evaluate);
  EXPECT_EQ(e.mode, traj::EvalMode::full);
  const Json& result = e.result;
  ASSERT_EQ(result["variants"].size(), 3u) << result.dump(1);
  for (const auto& v : result["variants"]) {
    EXPECT_TRUE(v["evaluated"].get<bool>()) << v.dump();
    if (v["name"] == "model.b.s3-4") {
      EXPECT_EQ(v["failure_class"], "runtime_fail") << v.dump();
      EXPECT_TRUE(contains(v["message"].get<std::string>(), "died")) << v["message"];
      EXPECT_TRUE(contains(v["message"].get<std::string>(), "SIGKILL")) << v["message"];
    } else {
      EXPECT_TRUE(v["correct"].get<bool>()) << v.dump();
      EXPECT_EQ(v["speedup"], 1.25) << v.dump();
    }
  }
  EXPECT_EQ(e.failure_classes, Json::array({"runtime_fail"}));
  // The whole request died, then b alone: two replaced workers, and a/c
  // evaluated by the replacements. A whole-evaluation failure would score b.
  EXPECT_GE(result["worker_restarts"].get<int>(), 2) << result.dump(1);
  EXPECT_GE(result["worker_requests"].get<int>(), 3);
  EXPECT_FALSE(result["incomplete"].get<bool>());
  ASSERT_TRUE(e.as_score.has_value());
  EXPECT_GT(*e.as_score, result["b"].get<double>());
  ASSERT_TRUE(e.correct_rate.has_value());
  EXPECT_DOUBLE_EQ(*e.correct_rate, 0.5) << "a correct, b killed (c is hidden)";
  EXPECT_EQ(h.service().stats().restarts, static_cast<uint64_t>(result["worker_restarts"]));
}

TEST(EvaluationServiceAgentRun, ALyingWorkerIsAFaultAndNothingIsStored) {
  auto server = serve(
      {write_pass(), tool_call("evaluate", Json::object()), tool_call("submit", Json::object())});
  EpisodeHarness h(server->base_url(), AgentMode::tools, {}, kTask,
                   fake("lie", protocol::EvalMode::compile_only));
  auto r = h.run();
  EXPECT_EQ(r.exit_reason, agent::ExitReason::submitted) << r.detail;
  EXPECT_TRUE(h.evaluations().empty()) << h.evaluations().front().result.dump(1);
  const std::string reply = tool_reply(h.messages(), 2);
  EXPECT_TRUE(contains(reply, "not your pass's fault")) << reply;
  EXPECT_TRUE(contains(reply, "mode \"full\" answers a \"compile_only\" request")) << reply;
  const auto stats = h.service().stats();
  EXPECT_EQ(stats.worker_faults, 4u) << "two per evaluation (evaluate, submit): retried once";
  EXPECT_EQ(stats.restarts, 4u) << "every lying worker is replaced";
  EXPECT_EQ(stats.evaluations, 0u);
  EXPECT_EQ(stats.unavailable, 2u);
}

TEST(EvaluationServiceAgentRun, NvrtcInternalErrorIsRetriedOnAFreshWorker) {
  const fs::path state = make_temp_dir("pf_fake_state");
  auto workers = fake("broken_nvrtc_first", protocol::EvalMode::compile_only);
  workers.env.push_back("PF_FAKE_STATE_DIR=" + state.string());
  workers.isolation = false;  // the marker file that picks the broken first worker
  auto server = serve(
      {write_pass(), tool_call("evaluate", Json::object()), tool_call("submit", Json::object())});
  EpisodeHarness h(server->base_url(), AgentMode::tools, {}, kTask, workers);
  auto r = h.run();
  EXPECT_EQ(r.exit_reason, agent::ExitReason::submitted) << r.detail;

  auto evaluations = h.evaluations();
  ASSERT_FALSE(evaluations.empty());
  const Json& result = evaluations.front().result;
  EXPECT_EQ(result["infra_retries"], 1) << result.dump(1);
  EXPECT_EQ(result["worker_restarts"], 1);
  EXPECT_TRUE(result["failure_class"].is_null()) << result.dump(1);
  const std::string reply = tool_reply(h.messages(), 2);
  EXPECT_FALSE(contains(reply, "NVRTC")) << reply;
  EXPECT_FALSE(contains(reply, "could not run")) << reply;
  EXPECT_TRUE(contains(reply, "Steps remaining: 18")) << reply;
  EXPECT_EQ(h.service().stats().infra_retries, 1u);
  std::error_code ec;
  fs::remove_all(state, ec);
}

TEST(EvaluationServiceAgentRun, AnEvaluatorThatStaysBrokenIsNotChargedToTheSteps) {
  auto server = serve({write_pass(), tool_call("evaluate", Json::object()),
                       tool_call("evaluate", Json::object()), tool_call("submit", Json::object())});
  EpisodeHarness h(server->base_url(), AgentMode::tools, {}, kTask,
                   fake("broken_nvrtc", protocol::EvalMode::compile_only));
  h.settings.max_steps = 2;
  auto r = h.run();
  // Turns 2 and 3 could not evaluate: only turn 1 counts, so turn 4 submits.
  EXPECT_EQ(r.exit_reason, agent::ExitReason::submitted) << r.detail;
  EXPECT_EQ(r.turns, 4);
  EXPECT_TRUE(h.evaluations().empty());
  const auto ms = h.messages();
  for (int64_t turn : {2, 3}) {
    const std::string reply = tool_reply(ms, turn);
    EXPECT_TRUE(contains(reply, "not your pass's fault")) << reply;
    EXPECT_TRUE(contains(reply, "on their own machinery")) << reply;
    EXPECT_TRUE(contains(reply, "Steps remaining: 1")) << reply;
  }
  const auto stats = h.service().stats();
  EXPECT_EQ(stats.infra_retries, 6u) << "two fresh-worker retries for each of 3 evaluations";
  EXPECT_EQ(stats.unavailable, 3u);
}

// The same broken evaluator, the episode interrupted after its two
// uncharged turns and resumed (issue 17): the resume must not charge them.
// With max_steps = 2 only turn 1 counts, so the resumed episode still has a
// step and submits at turn 4; charging them would end it at once (max_steps).
// The slow server keeps each answer in flight long enough to interrupt the
// episode between turns 3 and 4.
TEST(EvaluationServiceAgentRun, UnchargedTurnsStayFreeAcrossAResume) {
  SlowReplayServer server(
      script_line(kTask, "tools",
                  {write_pass(), tool_call("evaluate", Json::object()),
                   tool_call("evaluate", Json::object()), tool_call("submit", Json::object())}),
      0.3);
  EpisodeHarness h(server.base_url(), AgentMode::tools, {}, kTask,
                   fake("broken_nvrtc", protocol::EvalMode::compile_only));
  h.settings.max_steps = 2;
  std::thread stopper([&] {
    for (int i = 0; i < 20'000; ++i) {
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
  ASSERT_EQ(first.exit_reason, agent::ExitReason::interrupted) << first.detail;
  ASSERT_EQ(first.turns, 3);

  h.reset_cancel();
  auto second = h.run(0, /*resume=*/true);
  EXPECT_EQ(second.exit_reason, agent::ExitReason::submitted) << second.detail;
  EXPECT_EQ(second.turns, 4);
  EXPECT_EQ(h.episode().status, traj::RunState::finished);
}

TEST(EvaluationServiceSplit, ACandidateThatPassesOnTheCpuIsEvaluatedByTheGpuPool) {
  char dir[] = "/tmp/pf-split-fake-XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  protocol::ServiceOptions so;
  so.plan.mode = protocol::EvalMode::full;
  so.plan.devices = {"0", "1"};
  so.plan.gpu_arch = "sm_90";
  so.pool.worker_path = fs::path(PF_FAKE_EVAL_WORKER);
  so.pool.extra_env = {"PF_FAKE_EVAL=honest"};
  so.pool.cache_dir = dir;
  so.precompile_workers = 2;
  so.timeout = std::chrono::seconds(30);
  auto service = protocol::EvaluationService::start(std::move(so));
  ASSERT_TRUE(service.ok()) << service.error().message;
  ASSERT_NE((*service)->precompile_pool(), nullptr);
  const std::map<std::string, std::string> files = {
      {"passes/FuseAddRelu.py", "def pattern(a, b):\n    return torch.relu(a + b)\n"}};
  for (int i = 0; i < 4; ++i) {
    auto r = (*service)->evaluate(tiny_task(), files, protocol::EvalMode::full);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->mode, protocol::EvalMode::full);
    EXPECT_TRUE(r->precompiled);
    EXPECT_TRUE(r->gpu);
    EXPECT_EQ(r->requests, 2) << "one compile-only request on a CPU worker, one full on a GPU";
    EXPECT_EQ(r->result["mode"], "full");
    EXPECT_TRUE(r->result["as"].is_number()) << r->result.dump(1);
  }
  EXPECT_EQ((*service)->precompile_pool()->stats().requests, 4u);
  auto load = (*service)->load();
  ASSERT_EQ(load.slots.size(), 2u);
  EXPECT_EQ(load.slots[0].requests + load.slots[1].requests, 4u);
  EXPECT_GE(load.slots[1].requests, 1u) << "the rested GPU takes the second request";
  EXPECT_EQ((*service)->stats().precompiled, 4u);
  EXPECT_EQ((*service)->stats().kept_off_gpu, 0u);
  service->reset();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace pf::testing
