#include "trajectories/trajectory_store.h"

#include "common/sha256.h"
#include "common/strings.h"
#include "passforge/version.h"
#include "trajectories/ids.h"
#include "trajectories/result_summary.h"
#include "trajectories/schema.h"
#include "trajectories/trajectory_reader.h"

namespace pf::traj {
namespace {

std::string or_now(const std::string& stamp) { return stamp.empty() ? now_iso8601() : stamp; }

Error invalid(const std::string& msg) { return make_error(ErrorCode::invalid_argument, msg); }

}  // namespace

std::filesystem::path store_path(const std::filesystem::path& run_dir_or_db) {
  if (run_dir_or_db.extension() == ".db") return run_dir_or_db;
  return run_dir_or_db / kStoreFileName;
}

Status validate_message(const MessageRecord& m) {
  if (m.role == Role::tool && m.tool_call_id.empty()) {
    return invalid("a tool message needs the tool_call_id it answers");
  }
  if (m.tool_calls.is_null()) return ok_status();
  if (m.role != Role::assistant) return invalid("only assistant messages carry tool_calls");
  if (!m.tool_calls.is_array()) return invalid("tool_calls must be an array or null");
  for (const auto& c : m.tool_calls) {
    bool ok = c.is_object() && c.contains("id") && c["id"].is_string() &&
              field_or(c, "type", std::string()) == "function" && c.contains("function") &&
              c["function"].is_object() && c["function"].contains("name") &&
              c["function"]["name"].is_string() && c["function"].contains("arguments") &&
              c["function"]["arguments"].is_string();
    if (!ok) {
      return invalid(
          "a tool call must be {\"id\": str, \"type\": \"function\", \"function\": "
          "{\"name\": str, \"arguments\": str}}, got " + json_text(c).substr(0, 200));
    }
  }
  return ok_status();
}

Result<std::unique_ptr<TrajectoryStore>> TrajectoryStore::open(
    const std::filesystem::path& run_dir_or_db, OpenMode mode) {
  auto path = store_path(run_dir_or_db);
  if (mode == OpenMode::create && path.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec) {
      return make_error(ErrorCode::io_error,
                        "cannot create " + path.parent_path().string() + ": " + ec.message());
    }
  }
  auto access = mode == OpenMode::create ? Database::Access::create : Database::Access::read_write;
  PF_ASSIGN(Database db, Database::open(path, access));
  PF_TRY(configure_connection(db, /*writer=*/true));
  PF_TRY(migrate(db));
  return std::unique_ptr<TrajectoryStore>(new TrajectoryStore(std::move(db), path));
}

Result<TrajectoryReader> TrajectoryStore::reader() const { return TrajectoryReader::open(path_); }

Status TrajectoryStore::create_run(const RunRecord& run) {
  if (run.id.empty() || run.id.find(':') != std::string::npos) {
    return invalid("run id '" + run.id + "' must be non-empty and without ':' (make_run_id())");
  }
  std::lock_guard lock(mu_);
  PF_ASSIGN(auto st, db_.prepare(
      "INSERT INTO runs (id, created_at, finished_at, status, config_toml, config_json, "
      "passforge_version, git_commit, endpoint_base_url, model, prompt_variant, prompt_hash, "
      "gpu_name, driver_version, nvrtc_version, seed, task_suite_id, task_suite_hash) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
  st.bind_all(run.id, or_now(run.created_at), run.finished_at, to_string(run.status),
              run.config_toml, json_text(run.config_json),
              run.passforge_version.empty() ? std::string(kVersion) : run.passforge_version,
              run.git_commit.empty() ? std::string(kGitCommit) : run.git_commit,
              run.endpoint_base_url, run.model, run.prompt_variant, run.prompt_hash, run.gpu_name,
              run.driver_version, run.nvrtc_version, run.seed, run.task_suite_id,
              run.task_suite_hash);
  return st.run();
}

Status TrajectoryStore::finish_run(const std::string& run_id, RunState status) {
  std::lock_guard lock(mu_);
  PF_ASSIGN(auto st, db_.prepare("UPDATE runs SET status = ?, finished_at = ? WHERE id = ?"));
  PF_TRY(st.bind_all(to_string(status),
                     status == RunState::running ? std::string() : now_iso8601(), run_id)
             .run());
  if (db_.changes() == 0) return make_error(ErrorCode::not_found, "no run '" + run_id + "'");
  return ok_status();
}

Status TrajectoryStore::upsert_task(const TaskRecord& task) {
  if (task.id.empty()) return invalid("a task needs an id");
  if (!task.op_sequence.is_array() || !task.variants.is_array()) {
    return invalid("task '" + task.id + "': op_sequence and variants must be JSON arrays");
  }
  std::lock_guard lock(mu_);
  PF_ASSIGN(auto st, db_.prepare(
      "INSERT INTO tasks (id, suite_hash, op_sequence, variants) VALUES (?, ?, ?, ?) "
      "ON CONFLICT(id) DO UPDATE SET suite_hash = excluded.suite_hash, "
      "op_sequence = excluded.op_sequence, variants = excluded.variants"));
  return st.bind_all(task.id, task.suite_hash, json_text(task.op_sequence), json_text(task.variants))
      .run();
}

Status TrajectoryStore::insert_messages(const std::string& episode_id, int64_t turn,
                                        int64_t first_seq, std::vector<MessageRecord>& messages) {
  PF_ASSIGN(auto st, db_.prepare(
      "INSERT INTO messages (episode_id, seq, turn, role, content, reasoning, tool_calls, "
      "tool_call_id, name, usage, latency_ms, created_at) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
  int64_t seq = first_seq;
  for (auto& m : messages) {
    PF_TRY(validate_message(m));
    m.episode_id = episode_id;
    m.seq = seq++;
    m.turn = turn;
    m.created_at = or_now(m.created_at);
    st.bind_all(m.episode_id, m.seq, m.turn, to_string(m.role), m.content, m.reasoning,
                json_text(m.tool_calls), m.tool_call_id, m.name, json_text(m.usage), m.latency_ms,
                m.created_at);
    PF_TRY(st.run());
    st.reset();
  }
  return ok_status();
}

Result<std::string> TrajectoryStore::start_episode(const EpisodeRecord& ep,
                                                   std::vector<MessageRecord> initial_messages) {
  std::string id = ep.id.empty() ? episode_id(ep.run_id, ep.task_id, ep.sample_index) : ep.id;
  std::lock_guard lock(mu_);
  PF_ASSIGN(auto tx, Transaction::begin(db_, true));
  PF_ASSIGN(auto st, db_.prepare(
      "INSERT INTO episodes (id, run_id, task_id, sample_index, seed, prompt_variant, "
      "prompt_hash, model, agent_mode, status, started_at, tools) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?)"));
  auto inserted = st.bind_all(id, ep.run_id, ep.task_id, ep.sample_index, ep.seed,
                              ep.prompt_variant, ep.prompt_hash, ep.model,
                              to_string(ep.agent_mode), or_now(ep.started_at), json_text(ep.tools))
                      .run();
  if (!inserted.ok()) {
    return inserted.error().with_context("starting episode '" + id +
                                         "' (its run and task must exist; an episode starts once)");
  }
  PF_TRY(insert_messages(id, 0, 0, initial_messages));
  PF_TRY(tx.commit());
  return id;
}

Result<std::string> TrajectoryStore::put_artifact(std::string_view content) {
  std::string sha = sha256_hex(content);
  PF_ASSIGN(auto st, db_.prepare(
      "INSERT OR IGNORE INTO artifacts (sha256, size, content) VALUES (?, ?, ?)"));
  st.bind(1, sha).bind(2, static_cast<int64_t>(content.size())).bind_blob(3, content);
  PF_TRY(st.run());
  return sha;
}

Result<std::string> TrajectoryStore::put_workspace(const Workspace& ws) {
  Json manifest = Json::object();
  for (const auto& [path, content] : ws) {
    PF_ASSIGN(manifest[path], put_artifact(content));
  }
  return put_artifact(json_text(manifest));
}

Result<TurnCommit> TrajectoryStore::append_turn(TurnRecord turn) {
  std::lock_guard lock(mu_);
  PF_ASSIGN(auto tx, Transaction::begin(db_, true));
  PF_ASSIGN(auto q, db_.prepare(
      "SELECT turns, status, best_as, "
      "(SELECT coalesce(max(seq) + 1, 0) FROM messages WHERE episode_id = e.id) "
      "FROM episodes e WHERE id = ?"));
  q.bind(1, turn.episode_id);
  PF_ASSIGN(bool found, q.step());
  if (!found) return make_error(ErrorCode::not_found, "no episode '" + turn.episode_id + "'");
  int64_t last_turn = q.int64(0);
  std::string status = q.text(1);
  std::optional<double> best_as = q.opt_real(2);
  int64_t next_seq = q.int64(3);
  if (status != "running") {
    return invalid("episode '" + turn.episode_id + "' is " + status +
                   "; resume_episode() it before appending turns");
  }
  if (turn.turn != last_turn + 1) {
    return invalid("episode '" + turn.episode_id + "': turn " + std::to_string(turn.turn) +
                   " is out of order (last committed turn is " + std::to_string(last_turn) +
                   "); a turn is committed exactly once");
  }
  TurnCommit commit{turn.turn, next_seq, {}};
  PF_TRY(insert_messages(turn.episode_id, turn.turn, next_seq, turn.messages));

  int64_t prompt_tokens = 0, completion_tokens = 0;
  if (turn.llm_call) {
    auto& c = *turn.llm_call;
    PF_ASSIGN(auto st, db_.prepare(
        "INSERT INTO llm_calls (episode_id, turn, request, response, http_status, attempts, "
        "attempt_log, latency_ms, prompt_tokens, completion_tokens, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    PF_TRY(st.bind_all(turn.episode_id, turn.turn, c.request, c.response, c.http_status,
                       c.attempts, json_text(c.attempt_log), c.latency_ms, c.prompt_tokens,
                       c.completion_tokens, or_now(c.created_at))
               .run());
    prompt_tokens = c.prompt_tokens;
    completion_tokens = c.completion_tokens;
  }

  if (turn.uncharged) {
    PF_ASSIGN(auto free_turn,
              db_.prepare("INSERT INTO uncharged_turns (episode_id, turn) VALUES (?, ?)"));
    PF_TRY(free_turn.bind_all(turn.episode_id, turn.turn).run());
  }

  std::string best_id;
  PF_ASSIGN(auto ins, db_.prepare(
      "INSERT INTO evaluations (id, episode_id, turn, kind, mode, as_score, es_curve, "
      "correct_rate, geomean_speedup, hidden_as, unstable, hack_flags, failure_classes, result, "
      "workspace_sha, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
  for (size_t k = 0; k < turn.evaluations.size(); ++k) {
    auto& e = turn.evaluations[k];
    e.id = evaluation_id(turn.episode_id, turn.turn, static_cast<int64_t>(k));
    e.episode_id = turn.episode_id;
    e.turn = turn.turn;
    if (!e.workspace.empty()) {
      PF_ASSIGN(e.workspace_sha, put_workspace(e.workspace));
    }
    ins.bind_all(e.id, e.episode_id, e.turn, to_string(e.kind), to_string(e.mode), e.as_score,
                 json_text(e.es_curve), e.correct_rate, e.geomean_speedup, e.hidden_as,
                 e.unstable, json_text(e.hack_flags), json_text(e.failure_classes),
                 json_text(e.result));
    ins.bind_text_or_null(15, e.workspace_sha).bind(16, or_now(e.created_at));
    PF_TRY(ins.run());
    ins.reset();
    commit.evaluation_ids.push_back(e.id);
    if (counts_as_success(e, false) && (!best_as || *e.as_score > *best_as)) {
      best_as = e.as_score;
      best_id = e.id;
    }
  }

  PF_ASSIGN(auto up, db_.prepare(
      "UPDATE episodes SET turns = ?, prompt_tokens = prompt_tokens + ?, "
      "completion_tokens = completion_tokens + ?, best_as = ?, "
      "best_evaluation_id = coalesce(?, best_evaluation_id) WHERE id = ?"));
  up.bind_all(turn.turn, prompt_tokens, completion_tokens, best_as);
  up.bind_text_or_null(5, best_id).bind(6, turn.episode_id);
  PF_TRY(up.run());
  PF_TRY(tx.commit());
  return commit;
}

Status TrajectoryStore::finish_episode(const EpisodeFinish& f) {
  if (f.status == RunState::running) return invalid("finish_episode needs a final status");
  std::lock_guard lock(mu_);
  PF_ASSIGN(auto st, db_.prepare(
      "UPDATE episodes SET status = ?, exit_reason = ?, wall_time_s = ?, finished_at = ? "
      "WHERE id = ?"));
  PF_TRY(st.bind_all(to_string(f.status), f.exit_reason, f.wall_time_s, or_now(f.finished_at),
                     f.episode_id)
             .run());
  if (db_.changes() == 0) return make_error(ErrorCode::not_found, "no episode '" + f.episode_id + "'");
  return ok_status();
}

Status TrajectoryStore::record_failed_llm_call(const FailedLlmCallRecord& c) {
  std::lock_guard lock(mu_);
  PF_ASSIGN(
      auto st,
      db_.prepare(
          "INSERT INTO failed_llm_calls (episode_id, turn, error_kind, last_error, http_status, "
          "attempts, attempt_log, request, response, created_at) "
          "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
  return st
      .bind_all(c.episode_id, c.turn, c.error_kind, c.last_error, c.http_status, c.attempts,
                json_text(c.attempt_log), c.request, c.response, or_now(c.created_at))
      .run();
}

Status TrajectoryStore::record_gpu_usage(const GpuUsageRecord& u) {
  std::lock_guard lock(mu_);
  PF_ASSIGN(auto st, db_.prepare("INSERT OR REPLACE INTO gpu_usage (run_id, session_started_at, "
                                 "device, wall_s, busy_s, requests, queue_wait_s, max_queue) "
                                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"));
  return st
      .bind_all(u.run_id, u.session_started_at, u.device, u.wall_s, u.busy_s, u.requests,
                u.queue_wait_s, u.max_queue)
      .run();
}

Result<ResumePoint> TrajectoryStore::resume_episode(const std::string& id) {
  std::lock_guard lock(mu_);
  PF_ASSIGN(auto tx, Transaction::begin(db_, true));
  PF_ASSIGN(auto st, db_.prepare(
      "UPDATE episodes SET status = 'running', finished_at = '' "
      "WHERE id = ? AND status IN ('running', 'interrupted')"));
  PF_TRY(st.bind(1, id).run());
  if (db_.changes() == 0) {
    return invalid("episode '" + id + "' does not exist or is finished/failed; only running or "
                   "interrupted episodes resume");
  }
  PF_TRY(tx.commit());
  PF_ASSIGN(auto reader, TrajectoryReader::open(path_));
  PF_ASSIGN(auto points, reader.unfinished_episodes());
  for (auto& p : points) {
    if (p.episode.id == id) return std::move(p);
  }
  return make_error(ErrorCode::internal, "resumed episode '" + id + "' not found again");
}

}  // namespace pf::traj
