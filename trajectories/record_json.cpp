#include "trajectories/record_json.h"

namespace pf::traj {
namespace {

Json opt(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

std::optional<double> get_opt(const Json& j, const char* key) {
  const Json& v = j.at(key);
  if (v.is_null()) return std::nullopt;
  return v.get<double>();
}

//! Runs a decoder that may throw nlohmann's exceptions (missing key, wrong
//! type) and turns them into an Error naming the record kind.
template <typename T, typename F>
Result<T> decode(const Json& j, const char* what, F f) {
  try {
    if (!j.is_object()) throw std::invalid_argument("not a JSON object");
    return f();
  } catch (const std::exception& e) {
    return make_error(ErrorCode::parse_error, std::string("raw ") + what + ": " + e.what());
  } catch (const Error& e) {
    return e.with_context(std::string("raw ") + what);
  }
}

template <typename R>
auto must(R r) {
  if (!r.ok()) throw std::move(r).error();
  return std::move(r).value();
}

}  // namespace

Json to_json(const RunRecord& r) {
  return {{"id", r.id},
          {"created_at", r.created_at},
          {"finished_at", r.finished_at},
          {"status", to_string(r.status)},
          {"config_toml", r.config_toml},
          {"config_json", r.config_json},
          {"passforge_version", r.passforge_version},
          {"git_commit", r.git_commit},
          {"endpoint_base_url", r.endpoint_base_url},
          {"model", r.model},
          {"prompt_variant", r.prompt_variant},
          {"prompt_hash", r.prompt_hash},
          {"gpu_name", r.gpu_name},
          {"driver_version", r.driver_version},
          {"nvrtc_version", r.nvrtc_version},
          {"seed", r.seed},
          {"task_suite_id", r.task_suite_id},
          {"task_suite_hash", r.task_suite_hash}};
}

Json to_json(const TaskRecord& t) {
  return {{"id", t.id}, {"suite_hash", t.suite_hash}, {"op_sequence", t.op_sequence},
          {"variants", t.variants}};
}

Json to_json(const EpisodeRecord& e) {
  return {{"id", e.id},
          {"run_id", e.run_id},
          {"task_id", e.task_id},
          {"sample_index", e.sample_index},
          {"seed", e.seed},
          {"prompt_variant", e.prompt_variant},
          {"prompt_hash", e.prompt_hash},
          {"model", e.model},
          {"agent_mode", to_string(e.agent_mode)},
          {"status", to_string(e.status)},
          {"exit_reason", e.exit_reason},
          {"best_as", opt(e.best_as)},
          {"best_evaluation_id", e.best_evaluation_id},
          {"turns", e.turns},
          {"prompt_tokens", e.prompt_tokens},
          {"completion_tokens", e.completion_tokens},
          {"wall_time_s", e.wall_time_s},
          {"started_at", e.started_at},
          {"finished_at", e.finished_at},
          {"tools", e.tools}};
}

Json to_json(const MessageRecord& m) {
  return {{"episode_id", m.episode_id},
          {"seq", m.seq},
          {"turn", m.turn},
          {"role", to_string(m.role)},
          {"content", m.content},
          {"reasoning", m.reasoning},
          {"tool_calls", m.tool_calls},
          {"tool_call_id", m.tool_call_id},
          {"name", m.name},
          {"usage", m.usage},
          {"latency_ms", opt(m.latency_ms)},
          {"created_at", m.created_at}};
}

Json to_json(const LlmCallRecord& c) {
  return {{"episode_id", c.episode_id},
          {"turn", c.turn},
          {"request", c.request},
          {"response", c.response},
          {"http_status", c.http_status},
          {"attempts", c.attempts},
          {"attempt_log", c.attempt_log},
          {"latency_ms", c.latency_ms},
          {"prompt_tokens", c.prompt_tokens},
          {"completion_tokens", c.completion_tokens},
          {"created_at", c.created_at}};
}

Json to_json(const EvaluationRecord& e) {
  return {{"id", e.id},
          {"episode_id", e.episode_id},
          {"turn", e.turn},
          {"kind", to_string(e.kind)},
          {"mode", to_string(e.mode)},
          {"as_score", opt(e.as_score)},
          {"es_curve", e.es_curve},
          {"correct_rate", opt(e.correct_rate)},
          {"geomean_speedup", opt(e.geomean_speedup)},
          {"hidden_as", opt(e.hidden_as)},
          {"unstable", e.unstable},
          {"hack_flags", e.hack_flags},
          {"failure_classes", e.failure_classes},
          {"result", e.result},
          {"workspace_sha", e.workspace_sha},
          {"created_at", e.created_at}};
}

Result<RunRecord> run_from_json(const Json& j) {
  return decode<RunRecord>(j, "run", [&] {
    RunRecord r;
    r.id = j.at("id").get<std::string>();
    r.created_at = j.at("created_at").get<std::string>();
    r.finished_at = j.at("finished_at").get<std::string>();
    r.status = must(parse_run_state(j.at("status").get<std::string>()));
    r.config_toml = j.at("config_toml").get<std::string>();
    r.config_json = j.at("config_json");
    r.passforge_version = j.at("passforge_version").get<std::string>();
    r.git_commit = j.at("git_commit").get<std::string>();
    r.endpoint_base_url = j.at("endpoint_base_url").get<std::string>();
    r.model = j.at("model").get<std::string>();
    r.prompt_variant = j.at("prompt_variant").get<std::string>();
    r.prompt_hash = j.at("prompt_hash").get<std::string>();
    r.gpu_name = j.at("gpu_name").get<std::string>();
    r.driver_version = j.at("driver_version").get<std::string>();
    r.nvrtc_version = j.at("nvrtc_version").get<std::string>();
    r.seed = j.at("seed").get<int64_t>();
    r.task_suite_id = j.at("task_suite_id").get<std::string>();
    r.task_suite_hash = j.at("task_suite_hash").get<std::string>();
    return r;
  });
}

Result<TaskRecord> task_from_json(const Json& j) {
  return decode<TaskRecord>(j, "task", [&] {
    TaskRecord t;
    t.id = j.at("id").get<std::string>();
    t.suite_hash = j.at("suite_hash").get<std::string>();
    t.op_sequence = j.at("op_sequence");
    t.variants = j.at("variants");
    return t;
  });
}

Result<EpisodeRecord> episode_from_json(const Json& j) {
  return decode<EpisodeRecord>(j, "episode", [&] {
    EpisodeRecord e;
    e.id = j.at("id").get<std::string>();
    e.run_id = j.at("run_id").get<std::string>();
    e.task_id = j.at("task_id").get<std::string>();
    e.sample_index = j.at("sample_index").get<int64_t>();
    e.seed = j.at("seed").get<int64_t>();
    e.prompt_variant = j.at("prompt_variant").get<std::string>();
    e.prompt_hash = j.at("prompt_hash").get<std::string>();
    e.model = j.at("model").get<std::string>();
    e.agent_mode = must(parse_agent_mode(j.at("agent_mode").get<std::string>()));
    e.status = must(parse_run_state(j.at("status").get<std::string>()));
    e.exit_reason = j.at("exit_reason").get<std::string>();
    e.best_as = get_opt(j, "best_as");
    e.best_evaluation_id = j.at("best_evaluation_id").get<std::string>();
    e.turns = j.at("turns").get<int64_t>();
    e.prompt_tokens = j.at("prompt_tokens").get<int64_t>();
    e.completion_tokens = j.at("completion_tokens").get<int64_t>();
    e.wall_time_s = j.at("wall_time_s").get<double>();
    e.started_at = j.at("started_at").get<std::string>();
    e.finished_at = j.at("finished_at").get<std::string>();
    e.tools = j.at("tools");
    return e;
  });
}

Result<MessageRecord> message_from_json(const Json& j) {
  return decode<MessageRecord>(j, "message", [&] {
    MessageRecord m;
    m.episode_id = j.at("episode_id").get<std::string>();
    m.seq = j.at("seq").get<int64_t>();
    m.turn = j.at("turn").get<int64_t>();
    m.role = must(parse_role(j.at("role").get<std::string>()));
    m.content = j.at("content").get<std::string>();
    m.reasoning = j.at("reasoning").get<std::string>();
    m.tool_calls = j.at("tool_calls");
    m.tool_call_id = j.at("tool_call_id").get<std::string>();
    m.name = j.at("name").get<std::string>();
    m.usage = j.at("usage");
    m.latency_ms = get_opt(j, "latency_ms");
    m.created_at = j.at("created_at").get<std::string>();
    return m;
  });
}

Result<LlmCallRecord> llm_call_from_json(const Json& j) {
  return decode<LlmCallRecord>(j, "llm call", [&] {
    LlmCallRecord c;
    c.episode_id = j.at("episode_id").get<std::string>();
    c.turn = j.at("turn").get<int64_t>();
    c.request = j.at("request").get<std::string>();
    c.response = j.at("response").get<std::string>();
    c.http_status = j.at("http_status").get<int64_t>();
    c.attempts = j.at("attempts").get<int64_t>();
    c.attempt_log = j.at("attempt_log");
    c.latency_ms = j.at("latency_ms").get<double>();
    c.prompt_tokens = j.at("prompt_tokens").get<int64_t>();
    c.completion_tokens = j.at("completion_tokens").get<int64_t>();
    c.created_at = j.at("created_at").get<std::string>();
    return c;
  });
}

Result<EvaluationRecord> evaluation_from_json(const Json& j) {
  return decode<EvaluationRecord>(j, "evaluation", [&] {
    EvaluationRecord e;
    e.id = j.at("id").get<std::string>();
    e.episode_id = j.at("episode_id").get<std::string>();
    e.turn = j.at("turn").get<int64_t>();
    e.kind = must(parse_eval_kind(j.at("kind").get<std::string>()));
    e.mode = must(parse_eval_mode(j.at("mode").get<std::string>()));
    e.as_score = get_opt(j, "as_score");
    e.es_curve = j.at("es_curve");
    e.correct_rate = get_opt(j, "correct_rate");
    e.geomean_speedup = get_opt(j, "geomean_speedup");
    e.hidden_as = get_opt(j, "hidden_as");
    e.unstable = j.at("unstable").get<bool>();
    e.hack_flags = j.at("hack_flags");
    e.failure_classes = j.at("failure_classes");
    e.result = j.at("result");
    e.workspace_sha = j.at("workspace_sha").get<std::string>();
    e.created_at = j.at("created_at").get<std::string>();
    return e;
  });
}

}  // namespace pf::traj
