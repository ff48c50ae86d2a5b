// The rows of the trajectory store as plain values (docs/design.md "Trajectory
// store and exports"). Writers fill them, readers return them, exporters and
// `raw` JSON carry them unchanged. Timestamps are ISO-8601 UTC text
// ("2025-01-31T12:00:00.123Z"); an empty timestamp on write means "now".
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "common/result.h"

namespace pf::traj {

using Json = nlohmann::json;

//! Compact JSON text; invalid UTF-8 (an LLM's truncated output) becomes U+FFFD
//! instead of throwing.
inline std::string json_text(const Json& j, int indent = -1) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

//! j[key] when j is an object holding a value of T's JSON type there, else
//! `fallback`. Never throws (nlohmann's value() throws on a type mismatch).
template <typename T>
T field_or(const Json& j, const char* key, T fallback) {
  if (!j.is_object()) return fallback;
  auto it = j.find(key);
  if (it == j.end()) return fallback;
  if constexpr (std::is_same_v<T, bool>) {
    return it->is_boolean() ? it->template get<bool>() : fallback;
  } else if constexpr (std::is_same_v<T, std::string>) {
    return it->is_string() ? it->template get<std::string>() : fallback;
  } else if constexpr (std::is_integral_v<T>) {
    return it->is_number_integer() ? it->template get<T>() : fallback;
  } else {
    return it->is_number() ? it->template get<T>() : fallback;
  }
}

//! Lifecycle of a run or an episode.
enum class RunState { running, finished, interrupted, failed };
enum class AgentMode { tools, chat };
enum class Role { system, user, assistant, tool };
enum class EvalKind { compile, evaluate, submit };
enum class EvalMode { full, compile_only };

std::string_view to_string(RunState v);
std::string_view to_string(AgentMode v);
std::string_view to_string(Role v);
std::string_view to_string(EvalKind v);
std::string_view to_string(EvalMode v);
Result<RunState> parse_run_state(std::string_view s);
Result<AgentMode> parse_agent_mode(std::string_view s);
Result<Role> parse_role(std::string_view s);
Result<EvalKind> parse_eval_kind(std::string_view s);
Result<EvalMode> parse_eval_mode(std::string_view s);

//! Relative path -> file content of a pass workspace.
using Workspace = std::map<std::string, std::string>;

struct RunRecord {
  std::string id;  // make_run_id()
  std::string created_at;
  std::string finished_at;
  RunState status = RunState::running;
  std::string config_toml;                  // the config file as written
  Json config_json = Json::object();        // the resolved config
  std::string passforge_version;            // empty on write: this binary's
  std::string git_commit;                   // empty on write: this binary's
  std::string endpoint_base_url;
  std::string model;
  std::string prompt_variant;
  std::string prompt_hash;
  std::string gpu_name;
  std::string driver_version;
  std::string nvrtc_version;
  int64_t seed = 0;
  std::string task_suite_id;
  std::string task_suite_hash;

  friend bool operator==(const RunRecord&, const RunRecord&) = default;
};

struct TaskRecord {
  std::string id;
  std::string suite_hash;
  Json op_sequence = Json::array();  // op names in order
  //! [{"name": str, "hidden": bool, ...}] (further fields are kept as given).
  Json variants = Json::array();

  friend bool operator==(const TaskRecord&, const TaskRecord&) = default;
};

//! A run's task-suite hash: SHA-256 over "<id> <suite_hash>\n" of its tasks
//! sorted by id, so the same task files give the same hash in any order.
std::string task_suite_hash(const std::vector<TaskRecord>& tasks);

struct EpisodeRecord {
  std::string id;  // episode_id(run, task, sample)
  std::string run_id;
  std::string task_id;
  int64_t sample_index = 0;
  int64_t seed = 0;
  std::string prompt_variant;
  std::string prompt_hash;
  std::string model;
  AgentMode agent_mode = AgentMode::tools;
  RunState status = RunState::running;
  std::string exit_reason;
  std::optional<double> best_as;       // maintained by the store
  std::string best_evaluation_id;      // maintained by the store; "" = none
  int64_t turns = 0;                   // last committed turn
  int64_t prompt_tokens = 0;
  int64_t completion_tokens = 0;
  double wall_time_s = 0;
  std::string started_at;
  std::string finished_at;
  Json tools = nullptr;  // the OpenAI `tools` array the model saw; null in chat mode

  friend bool operator==(const EpisodeRecord&, const EpisodeRecord&) = default;
};

struct MessageRecord {
  std::string episode_id;  // set by the store on write
  int64_t seq = 0;         // set by the store on write: 0, 1, 2, ... per episode
  int64_t turn = 0;        // set by the store on write: 0 = initial prompt
  Role role = Role::user;
  std::string content;
  std::string reasoning;  // reasoning_content of an assistant message; "" = none
  //! OpenAI shape: [{"id", "type": "function", "function": {"name", "arguments": str}}]; null = none.
  Json tool_calls = nullptr;
  std::string tool_call_id;  // tool messages
  std::string name;          // tool messages: the tool's name
  Json usage = nullptr;      // assistant messages: the endpoint's usage object
  std::optional<double> latency_ms;
  std::string created_at;

  friend bool operator==(const MessageRecord&, const MessageRecord&) = default;
};

struct LlmCallRecord {
  std::string episode_id;  // set by the store on write
  int64_t turn = 0;        // set by the store on write
  std::string request;     // raw request body (JSON text)
  std::string response;    // raw response body, as received
  int64_t http_status = 0;
  int64_t attempts = 1;
  Json attempt_log = Json::array();  // [{"status": int, "latency_ms": num, ...}]
  double latency_ms = 0;
  int64_t prompt_tokens = 0;
  int64_t completion_tokens = 0;
  std::string created_at;

  friend bool operator==(const LlmCallRecord&, const LlmCallRecord&) = default;
};

//! An endpoint call that failed for good: the episode ended with
//! endpoint_error (or the like) at `turn` (the turn the call was for).
//! One GPU worker's load over one session of a run (a `passforge run` or one
//! resume of it), for `passforge stats` (docs/stats.md "GPU utilisation").
struct GpuUsageRecord {
  std::string run_id;
  std::string session_started_at;
  std::string device;       // the worker's CUDA ordinal
  double wall_s = 0;        // the session's worker pool lifetime
  double busy_s = 0;        // time the worker had a request in flight
  int64_t requests = 0;
  double queue_wait_s = 0;  // the session's shared GPU queue: time requests waited, summed
  int64_t max_queue = 0;    // the most requests waiting at once

  friend bool operator==(const GpuUsageRecord&, const GpuUsageRecord&) = default;
};

struct FailedLlmCallRecord {
  std::string episode_id;
  int64_t turn = 0;
  std::string error_kind;   // llm::error_kind_name
  std::string last_error;   // the message of the last attempt
  int64_t http_status = 0;  // of the last attempt; 0 if none answered
  int64_t attempts = 0;
  Json attempt_log = Json::array();
  std::string request;
  std::string response;  // body of the last attempt, if any
  std::string created_at;

  friend bool operator==(const FailedLlmCallRecord&, const FailedLlmCallRecord&) = default;
};

//! One scoring of a workspace. The summary columns come from the evaluator's
//! result (see evaluation_from_result); `result` is stored opaque.
struct EvaluationRecord {
  std::string id;          // set by the store on write: "<episode>:t<turn>:e<k>"
  std::string episode_id;  // set by the store on write
  int64_t turn = 0;        // set by the store on write
  EvalKind kind = EvalKind::evaluate;
  EvalMode mode = EvalMode::full;
  std::optional<double> as_score;
  Json es_curve = nullptr;  // [{"t": int, "es": num}, ...] over visible variants
  std::optional<double> correct_rate;     // share of visible variants correct at t = -5
  std::optional<double> geomean_speedup;  // over correct visible variants
  std::optional<double> hidden_as;
  bool unstable = false;
  Json hack_flags = Json::array();       // [str]
  Json failure_classes = Json::array();  // [str], distinct
  Json result = Json::object();          // the evaluator's full result
  std::string workspace_sha;             // manifest artifact; "" = none
  std::string created_at;
  //! Write-only input: the workspace files, stored content-addressed and
  //! referenced by workspace_sha. Readers leave it empty (use workspace()).
  Workspace workspace;

  friend bool operator==(const EvaluationRecord&, const EvaluationRecord&) = default;
};

//! Everything one turn adds, committed in one transaction.
struct TurnRecord {
  std::string episode_id;
  int64_t turn = 0;  // must be the episode's last committed turn + 1
  std::vector<MessageRecord> messages;
  std::optional<LlmCallRecord> llm_call;
  std::vector<EvaluationRecord> evaluations;
  //! Its evaluation could not run (a fault of the host, not of the model):
  //! not charged to agent.max_steps, also after a resume.
  bool uncharged = false;
};

struct TurnCommit {
  int64_t turn = 0;
  int64_t first_seq = 0;
  std::vector<std::string> evaluation_ids;
};

struct EpisodeFinish {
  std::string episode_id;
  RunState status = RunState::finished;
  std::string exit_reason;
  double wall_time_s = 0;
  std::string finished_at;
};

//! Where an unfinished episode continues (`--resume`).
struct ResumePoint {
  EpisodeRecord episode;
  int64_t last_turn = 0;  // last committed turn (0 = only the initial prompt)
  int64_t next_seq = 0;
  int64_t uncharged_turns = 0;  // committed turns with TurnRecord::uncharged
};

}  // namespace pf::traj
