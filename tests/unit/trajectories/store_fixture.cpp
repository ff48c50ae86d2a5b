#include "store_fixture.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "tests/support/temp_dir.h"
#include "trajectories/ids.h"
#include "trajectories/result_summary.h"

namespace pf::traj::testing {

TempDir::TempDir() : path_(pf::test::fresh_temp_dir("pf-traj")) {}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

Json make_result(std::optional<double> as, const std::vector<VariantSpec>& variants,
                 const std::vector<std::string>& hack_flags, const std::string& mode) {
  Json r = {{"mode", mode}, {"b", 0.1}, {"hack_flags", hack_flags}};
  r["as"] = as ? Json(*as) : Json(nullptr);
  Json curve = Json::array();
  for (int t = -10; t <= 4; ++t) curve.push_back({{"t", t}, {"es", as ? *as : 0.1}});
  r["es_curve"] = curve;
  Json vs = Json::array();
  for (const auto& v : variants) {
    vs.push_back({{"name", v.name},
                  {"hidden", v.hidden},
                  {"correct", v.correct},
                  {"speedup", v.speedup},
                  {"failure_class", v.failure_class.empty() ? Json(nullptr) : Json(v.failure_class)},
                  {"unstable", v.unstable}});
  }
  r["variants"] = vs;
  return r;
}

RunRecord make_run(const std::string& id, const std::string& suite_hash) {
  RunRecord r;
  r.id = id;
  r.config_toml = "[run]\nsamples = 2\n";
  r.config_json = {{"run", {{"samples", 2}}}};
  r.endpoint_base_url = "http://127.0.0.1:8000/v1";
  r.model = "test-model";
  r.prompt_variant = "default";
  r.prompt_hash = "p123";
  r.gpu_name = "NVIDIA H200";
  r.driver_version = "580.1";
  r.nvrtc_version = "13.0";
  r.seed = 7;
  r.task_suite_id = "suite";
  r.task_suite_hash = suite_hash;
  return r;
}

TaskRecord make_task(const std::string& id, int visible, int hidden,
                     const std::string& suite_hash) {
  TaskRecord t;
  t.id = id;
  t.suite_hash = suite_hash;
  t.op_sequence = {"add", "relu"};
  for (int i = 0; i < visible + hidden; ++i) {
    t.variants.push_back({{"name", "v" + std::to_string(i)}, {"hidden", i >= visible}});
  }
  return t;
}

Json tools_schema() {
  return Json::parse(R"([
    {"type": "function", "function": {"name": "write_file", "description": "write a file",
      "parameters": {"type": "object", "properties": {"path": {"type": "string"},
      "content": {"type": "string"}}, "required": ["path", "content"]}}},
    {"type": "function", "function": {"name": "evaluate", "description": "evaluate the pass",
      "parameters": {"type": "object", "properties": {}}}}])");
}

std::string write_episode(TrajectoryStore& store, const EpisodeSpec& spec) {
  EpisodeRecord ep;
  ep.run_id = spec.run_id;
  ep.task_id = spec.task_id;
  ep.sample_index = spec.sample;
  ep.seed = 1000 + spec.sample;
  ep.prompt_variant = spec.prompt_variant;
  ep.prompt_hash = "p123";
  ep.model = "test-model";
  ep.agent_mode = spec.mode;
  ep.started_at = spec.started_at;
  if (spec.mode == AgentMode::tools) ep.tools = tools_schema();
  std::vector<MessageRecord> initial(2);
  initial[0].role = Role::system;
  initial[0].content = spec.system;
  initial[1].role = Role::user;
  initial[1].content = spec.user;
  auto id = store.start_episode(ep, initial);
  EXPECT_TRUE(id.ok()) << id.error().message;
  if (!id.ok()) return "";
  int64_t turn = 0;
  for (const auto& t : spec.turns) {
    ++turn;
    TurnRecord rec;
    rec.episode_id = *id;
    rec.turn = turn;
    MessageRecord a;
    a.role = Role::assistant;
    a.content = t.assistant;
    a.reasoning = t.reasoning;
    a.usage = {{"prompt_tokens", t.prompt_tokens}, {"completion_tokens", t.completion_tokens}};
    a.latency_ms = t.latency_ms;
    MessageRecord f;
    if (spec.mode == AgentMode::tools) {
      std::string call_id = "call_" + std::to_string(turn);
      std::string fn = t.result ? (t.kind == EvalKind::submit ? "submit" : "evaluate")
                                : "write_file";
      std::string args = t.result ? "{}"
                                  : Json({{"path", "passes/P.py"}, {"content", t.assistant}}).dump();
      a.tool_calls = Json::array(
          {{{"id", call_id}, {"type", "function"}, {"function", {{"name", fn}, {"arguments", args}}}}});
      f.role = Role::tool;
      f.tool_call_id = call_id;
      f.name = fn;
    } else {
      f.role = Role::user;
    }
    f.content = t.feedback;
    rec.messages = {a, f};
    LlmCallRecord call;
    call.request = Json({{"model", "test-model"}, {"turn", turn}}).dump();
    call.response = "{\"choices\": []}";
    call.http_status = 200;
    call.latency_ms = t.latency_ms;
    call.prompt_tokens = t.prompt_tokens;
    call.completion_tokens = t.completion_tokens;
    rec.llm_call = call;
    if (t.result) {
      auto e = evaluation_from_result(t.kind, *t.result);
      EXPECT_TRUE(e.ok()) << e.error().message;
      if (e.ok()) {
        e->workspace = t.workspace;
        rec.evaluations.push_back(std::move(*e));
      }
    }
    auto c = store.append_turn(std::move(rec));
    EXPECT_TRUE(c.ok()) << c.error().message;
  }
  if (spec.final_status != RunState::running) {
    auto st = store.finish_episode(
        {*id, spec.final_status, spec.exit_reason, 12.5, spec.finished_at});
    EXPECT_TRUE(st.ok()) << st.error().message;
  }
  return *id;
}

}  // namespace pf::traj::testing
