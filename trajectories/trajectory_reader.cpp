#include "trajectories/trajectory_reader.h"

#include "trajectories/schema.h"
#include "trajectories/trajectory_store.h"

namespace pf::traj {
namespace {

Result<Json> json_col(const Statement& st, int col, const char* what) {
  std::string text = st.text(col);
  Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    return make_error(ErrorCode::parse_error,
                      std::string("corrupt JSON in column ") + what + ": " + text.substr(0, 80));
  }
  return j;
}

constexpr const char* kRunCols =
    "id, created_at, finished_at, status, config_toml, config_json, passforge_version, "
    "git_commit, endpoint_base_url, model, prompt_variant, prompt_hash, gpu_name, "
    "driver_version, nvrtc_version, seed, task_suite_id, task_suite_hash";

Result<RunRecord> read_run(const Statement& s) {
  RunRecord r;
  r.id = s.text(0);
  r.created_at = s.text(1);
  r.finished_at = s.text(2);
  PF_ASSIGN(r.status, parse_run_state(s.text(3)));
  r.config_toml = s.text(4);
  PF_ASSIGN(r.config_json, json_col(s, 5, "runs.config_json"));
  r.passforge_version = s.text(6);
  r.git_commit = s.text(7);
  r.endpoint_base_url = s.text(8);
  r.model = s.text(9);
  r.prompt_variant = s.text(10);
  r.prompt_hash = s.text(11);
  r.gpu_name = s.text(12);
  r.driver_version = s.text(13);
  r.nvrtc_version = s.text(14);
  r.seed = s.int64(15);
  r.task_suite_id = s.text(16);
  r.task_suite_hash = s.text(17);
  return r;
}

constexpr const char* kEpisodeCols =
    "id, run_id, task_id, sample_index, seed, prompt_variant, prompt_hash, model, agent_mode, "
    "status, exit_reason, best_as, best_evaluation_id, turns, prompt_tokens, completion_tokens, "
    "wall_time_s, started_at, finished_at, tools";

Result<EpisodeRecord> read_episode(const Statement& s) {
  EpisodeRecord e;
  e.id = s.text(0);
  e.run_id = s.text(1);
  e.task_id = s.text(2);
  e.sample_index = s.int64(3);
  e.seed = s.int64(4);
  e.prompt_variant = s.text(5);
  e.prompt_hash = s.text(6);
  e.model = s.text(7);
  PF_ASSIGN(e.agent_mode, parse_agent_mode(s.text(8)));
  PF_ASSIGN(e.status, parse_run_state(s.text(9)));
  e.exit_reason = s.text(10);
  e.best_as = s.opt_real(11);
  e.best_evaluation_id = s.text(12);
  e.turns = s.int64(13);
  e.prompt_tokens = s.int64(14);
  e.completion_tokens = s.int64(15);
  e.wall_time_s = s.real(16);
  e.started_at = s.text(17);
  e.finished_at = s.text(18);
  PF_ASSIGN(e.tools, json_col(s, 19, "episodes.tools"));
  return e;
}

Result<MessageRecord> read_message(const Statement& s) {
  MessageRecord m;
  m.episode_id = s.text(0);
  m.seq = s.int64(1);
  m.turn = s.int64(2);
  PF_ASSIGN(m.role, parse_role(s.text(3)));
  m.content = s.text(4);
  m.reasoning = s.text(5);
  PF_ASSIGN(m.tool_calls, json_col(s, 6, "messages.tool_calls"));
  m.tool_call_id = s.text(7);
  m.name = s.text(8);
  PF_ASSIGN(m.usage, json_col(s, 9, "messages.usage"));
  m.latency_ms = s.opt_real(10);
  m.created_at = s.text(11);
  return m;
}

Result<LlmCallRecord> read_llm_call(const Statement& s) {
  LlmCallRecord c;
  c.episode_id = s.text(0);
  c.turn = s.int64(1);
  c.request = s.text(2);
  c.response = s.text(3);
  c.http_status = s.int64(4);
  c.attempts = s.int64(5);
  PF_ASSIGN(c.attempt_log, json_col(s, 6, "llm_calls.attempt_log"));
  c.latency_ms = s.real(7);
  c.prompt_tokens = s.int64(8);
  c.completion_tokens = s.int64(9);
  c.created_at = s.text(10);
  return c;
}

constexpr const char* kEvaluationCols =
    "id, episode_id, turn, kind, mode, as_score, es_curve, correct_rate, geomean_speedup, "
    "hidden_as, unstable, hack_flags, failure_classes, result, workspace_sha, created_at";

Result<EvaluationRecord> read_evaluation(const Statement& s) {
  EvaluationRecord e;
  e.id = s.text(0);
  e.episode_id = s.text(1);
  e.turn = s.int64(2);
  PF_ASSIGN(e.kind, parse_eval_kind(s.text(3)));
  PF_ASSIGN(e.mode, parse_eval_mode(s.text(4)));
  e.as_score = s.opt_real(5);
  PF_ASSIGN(e.es_curve, json_col(s, 6, "evaluations.es_curve"));
  e.correct_rate = s.opt_real(7);
  e.geomean_speedup = s.opt_real(8);
  e.hidden_as = s.opt_real(9);
  e.unstable = s.int64(10) != 0;
  PF_ASSIGN(e.hack_flags, json_col(s, 11, "evaluations.hack_flags"));
  PF_ASSIGN(e.failure_classes, json_col(s, 12, "evaluations.failure_classes"));
  PF_ASSIGN(e.result, json_col(s, 13, "evaluations.result"));
  e.workspace_sha = s.text(14);
  e.created_at = s.text(15);
  return e;
}

//! Steps `st` to the end, mapping every row with `read`.
template <typename T, typename F>
Result<std::vector<T>> collect(Statement& st, F read) {
  std::vector<T> out;
  while (true) {
    PF_ASSIGN(bool row, st.step());
    if (!row) return out;
    PF_ASSIGN(T value, read(st));
    out.push_back(std::move(value));
  }
}

}  // namespace

Result<TrajectoryReader> TrajectoryReader::open(const std::filesystem::path& run_dir_or_db) {
  auto path = store_path(run_dir_or_db);
  PF_ASSIGN(Database db, Database::open(path, Database::Access::read_only));
  PF_TRY(configure_connection(db, /*writer=*/false));
  PF_ASSIGN(int version, read_schema_version(db));
  if (version == 0) {
    return make_error(ErrorCode::invalid_argument, path.string() + " is an empty database, "
                                                                   "not a trajectory store");
  }
  if (version > kSchemaVersion) return newer_schema_error(db, version);
  if (version < kSchemaVersion) {
    db = Database();
    PF_ASSIGN(auto writer, TrajectoryStore::open(path, TrajectoryStore::OpenMode::existing));
    writer.reset();
    PF_ASSIGN(db, Database::open(path, Database::Access::read_only));
    PF_TRY(configure_connection(db, false));
  }
  return TrajectoryReader(std::move(db));
}

Result<int> TrajectoryReader::schema_version() { return read_schema_version(db_); }

Result<std::vector<RunRecord>> TrajectoryReader::runs() {
  PF_ASSIGN(auto st, db_.prepare(std::string("SELECT ") + kRunCols + " FROM runs ORDER BY id"));
  return collect<RunRecord>(st, read_run);
}

Result<std::vector<TaskRecord>> TrajectoryReader::tasks() {
  PF_ASSIGN(auto st,
            db_.prepare("SELECT id, suite_hash, op_sequence, variants FROM tasks ORDER BY id"));
  return collect<TaskRecord>(st, [](const Statement& s) -> Result<TaskRecord> {
    TaskRecord t;
    t.id = s.text(0);
    t.suite_hash = s.text(1);
    PF_ASSIGN(t.op_sequence, json_col(s, 2, "tasks.op_sequence"));
    PF_ASSIGN(t.variants, json_col(s, 3, "tasks.variants"));
    return t;
  });
}

Result<std::vector<EpisodeRecord>> TrajectoryReader::episodes(const EpisodeFilter& f) {
  PF_ASSIGN(auto st, db_.prepare(std::string("SELECT ") + kEpisodeCols +
                                 " FROM episodes WHERE (?1 = '' OR run_id = ?1) AND "
                                 "(?2 = '' OR task_id = ?2) AND (?3 = '' OR status = ?3) "
                                 "ORDER BY id"));
  st.bind_all(f.run_id, f.task_id,
              f.status ? std::string(to_string(*f.status)) : std::string());
  return collect<EpisodeRecord>(st, read_episode);
}

Result<EpisodeRecord> TrajectoryReader::episode(const std::string& id) {
  PF_ASSIGN(auto st,
            db_.prepare(std::string("SELECT ") + kEpisodeCols + " FROM episodes WHERE id = ?"));
  st.bind(1, id);
  PF_ASSIGN(auto rows, collect<EpisodeRecord>(st, read_episode));
  if (rows.empty()) return make_error(ErrorCode::not_found, "no episode '" + id + "'");
  return std::move(rows.front());
}

Result<std::vector<MessageRecord>> TrajectoryReader::messages(const std::string& episode_id) {
  PF_ASSIGN(auto st, db_.prepare(
      "SELECT episode_id, seq, turn, role, content, reasoning, tool_calls, tool_call_id, name, "
      "usage, latency_ms, created_at FROM messages WHERE episode_id = ? ORDER BY seq"));
  st.bind(1, episode_id);
  return collect<MessageRecord>(st, read_message);
}

Result<std::vector<LlmCallRecord>> TrajectoryReader::llm_calls(const std::string& episode_id) {
  PF_ASSIGN(auto st, db_.prepare(
      "SELECT episode_id, turn, request, response, http_status, attempts, attempt_log, "
      "latency_ms, prompt_tokens, completion_tokens, created_at FROM llm_calls "
      "WHERE episode_id = ? ORDER BY turn"));
  st.bind(1, episode_id);
  return collect<LlmCallRecord>(st, read_llm_call);
}

Result<std::vector<LlmCallRecord>> TrajectoryReader::llm_call_summaries() {
  PF_ASSIGN(auto st, db_.prepare(
      "SELECT episode_id, turn, '', '', http_status, attempts, attempt_log, latency_ms, "
      "prompt_tokens, completion_tokens, created_at FROM llm_calls ORDER BY episode_id, turn"));
  return collect<LlmCallRecord>(st, read_llm_call);
}

Result<std::vector<FailedLlmCallRecord>> TrajectoryReader::failed_llm_calls(
    const std::string& episode_id) {
  PF_ASSIGN(
      auto st,
      db_.prepare(
          "SELECT episode_id, turn, error_kind, last_error, http_status, attempts, attempt_log, "
          "request, response, created_at FROM failed_llm_calls WHERE episode_id = ? "
          "ORDER BY created_at, turn"));
  st.bind(1, episode_id);
  return collect<FailedLlmCallRecord>(st, [](const Statement& s) -> Result<FailedLlmCallRecord> {
    FailedLlmCallRecord c;
    c.episode_id = s.text(0);
    c.turn = s.int64(1);
    c.error_kind = s.text(2);
    c.last_error = s.text(3);
    c.http_status = s.int64(4);
    c.attempts = s.int64(5);
    PF_ASSIGN(c.attempt_log, json_col(s, 6, "failed_llm_calls.attempt_log"));
    c.request = s.text(7);
    c.response = s.text(8);
    c.created_at = s.text(9);
    return c;
  });
}

Result<std::vector<GpuUsageRecord>> TrajectoryReader::gpu_usage() {
  PF_ASSIGN(auto st, db_.prepare("SELECT run_id, session_started_at, device, wall_s, busy_s, "
                                 "requests, queue_wait_s, max_queue FROM gpu_usage "
                                 "ORDER BY run_id, session_started_at, device"));
  return collect<GpuUsageRecord>(st, [](const Statement& s) -> Result<GpuUsageRecord> {
    GpuUsageRecord u;
    u.run_id = s.text(0);
    u.session_started_at = s.text(1);
    u.device = s.text(2);
    u.wall_s = s.real(3);
    u.busy_s = s.real(4);
    u.requests = s.int64(5);
    u.queue_wait_s = s.real(6);
    u.max_queue = s.int64(7);
    return u;
  });
}

Result<std::vector<EvaluationRecord>> TrajectoryReader::evaluations(
    const std::string& episode_id) {
  PF_ASSIGN(auto st, db_.prepare(std::string("SELECT ") + kEvaluationCols +
                                 " FROM evaluations WHERE ?1 = '' OR episode_id = ?1 "
                                 "ORDER BY episode_id, turn, id"));
  st.bind(1, episode_id);
  return collect<EvaluationRecord>(st, read_evaluation);
}

Result<std::string> TrajectoryReader::artifact(const std::string& sha256) {
  PF_ASSIGN(auto st, db_.prepare("SELECT content FROM artifacts WHERE sha256 = ?"));
  st.bind(1, sha256);
  PF_ASSIGN(bool row, st.step());
  if (!row) return make_error(ErrorCode::not_found, "no artifact " + sha256);
  return st.blob(0);
}

Result<Workspace> TrajectoryReader::workspace(const std::string& manifest_sha256) {
  PF_ASSIGN(std::string text, artifact(manifest_sha256));
  Json manifest = Json::parse(text, nullptr, false);
  if (!manifest.is_object()) {
    return make_error(ErrorCode::parse_error,
                      "artifact " + manifest_sha256 + " is not a workspace manifest");
  }
  Workspace ws;
  for (const auto& [path, sha] : manifest.items()) {
    if (!sha.is_string()) {
      std::string message = "workspace manifest " + manifest_sha256;
      message += ": entry '" + path + "' is not a hash";
      return make_error(ErrorCode::parse_error, message);
    }
    PF_ASSIGN(ws[path], artifact(sha.get<std::string>()));
  }
  return ws;
}

Result<std::vector<ResumePoint>> TrajectoryReader::unfinished_episodes() {
  PF_ASSIGN(auto st, db_.prepare(std::string("SELECT ") + kEpisodeCols +
                                 ", (SELECT coalesce(max(seq) + 1, 0) FROM messages m "
                                 "WHERE m.episode_id = episodes.id), "
                                 "(SELECT count(*) FROM uncharged_turns u "
                                 "WHERE u.episode_id = episodes.id) FROM episodes "
                                 "WHERE status IN ('running', 'interrupted') ORDER BY id"));
  return collect<ResumePoint>(st, [](const Statement& s) -> Result<ResumePoint> {
    ResumePoint p;
    PF_ASSIGN(p.episode, read_episode(s));
    p.last_turn = p.episode.turns;
    p.next_seq = s.int64(20);
    p.uncharged_turns = s.int64(21);
    return p;
  });
}

Status TrajectoryReader::snapshot(const std::function<Status()>& fn) {
  PF_ASSIGN(auto tx, Transaction::begin(db_, /*immediate=*/false));
  // A deferred transaction takes its snapshot at the first read.
  PF_TRY(db_.exec("SELECT count(*) FROM schema_version"));
  PF_TRY(fn());
  return tx.commit();
}

Status TrajectoryReader::check_integrity() {
  PF_ASSIGN(auto ic, db_.prepare("PRAGMA integrity_check"));
  std::string problems;
  while (true) {
    PF_ASSIGN(bool row, ic.step());
    if (!row) break;
    if (ic.text(0) != "ok") problems += ic.text(0) + "\n";
  }
  PF_ASSIGN(auto fk, db_.prepare("PRAGMA foreign_key_check"));
  while (true) {
    PF_ASSIGN(bool row, fk.step());
    if (!row) break;
    problems += "foreign key violation in " + fk.text(0) + " (rowid " + fk.text(1) + ") -> " +
                fk.text(2) + "\n";
  }
  if (problems.empty()) return ok_status();
  return make_error(ErrorCode::internal, path().string() + ": " + problems);
}

}  // namespace pf::traj
