#include "trajectories/schema.h"

#include <string>
#include <vector>

#include "trajectories/ids.h"

namespace pf::traj {
namespace {

struct Migration {
  int version;
  const char* sql;
};

// Migration 1 creates everything. Empty strings stand for "unknown"; NULL is
// used only where a column references another row (best evaluation,
// workspace artifact) or a number is absent (AS of a compile check).
constexpr const char* kMigration1 = R"sql(
CREATE TABLE runs (
  id TEXT PRIMARY KEY,
  created_at TEXT NOT NULL,
  finished_at TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL CHECK (status IN ('running', 'finished', 'interrupted', 'failed')),
  config_toml TEXT NOT NULL DEFAULT '',
  config_json TEXT NOT NULL DEFAULT '{}',
  passforge_version TEXT NOT NULL,
  git_commit TEXT NOT NULL,
  endpoint_base_url TEXT NOT NULL DEFAULT '',
  model TEXT NOT NULL DEFAULT '',
  prompt_variant TEXT NOT NULL DEFAULT '',
  prompt_hash TEXT NOT NULL DEFAULT '',
  gpu_name TEXT NOT NULL DEFAULT '',
  driver_version TEXT NOT NULL DEFAULT '',
  nvrtc_version TEXT NOT NULL DEFAULT '',
  seed INTEGER NOT NULL DEFAULT 0,
  task_suite_id TEXT NOT NULL DEFAULT '',
  task_suite_hash TEXT NOT NULL DEFAULT ''
);
CREATE TABLE tasks (
  id TEXT PRIMARY KEY,
  suite_hash TEXT NOT NULL,
  op_sequence TEXT NOT NULL,
  variants TEXT NOT NULL
);
CREATE TABLE artifacts (
  sha256 TEXT PRIMARY KEY,
  size INTEGER NOT NULL,
  content BLOB NOT NULL
);
CREATE TABLE episodes (
  id TEXT PRIMARY KEY,
  run_id TEXT NOT NULL REFERENCES runs(id),
  task_id TEXT NOT NULL REFERENCES tasks(id),
  sample_index INTEGER NOT NULL,
  seed INTEGER NOT NULL DEFAULT 0,
  prompt_variant TEXT NOT NULL DEFAULT '',
  prompt_hash TEXT NOT NULL DEFAULT '',
  model TEXT NOT NULL DEFAULT '',
  agent_mode TEXT NOT NULL CHECK (agent_mode IN ('tools', 'chat')),
  status TEXT NOT NULL CHECK (status IN ('running', 'finished', 'interrupted', 'failed')),
  exit_reason TEXT NOT NULL DEFAULT '',
  best_as REAL,
  best_evaluation_id TEXT REFERENCES evaluations(id),
  turns INTEGER NOT NULL DEFAULT 0,
  prompt_tokens INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0,
  wall_time_s REAL NOT NULL DEFAULT 0,
  started_at TEXT NOT NULL,
  finished_at TEXT NOT NULL DEFAULT '',
  tools TEXT NOT NULL DEFAULT 'null',
  UNIQUE (run_id, task_id, sample_index)
);
CREATE INDEX episodes_by_task ON episodes(task_id);
CREATE INDEX episodes_by_status ON episodes(status);
CREATE TABLE messages (
  episode_id TEXT NOT NULL REFERENCES episodes(id),
  seq INTEGER NOT NULL,
  turn INTEGER NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
  content TEXT NOT NULL,
  reasoning TEXT NOT NULL DEFAULT '',
  tool_calls TEXT NOT NULL DEFAULT 'null',
  tool_call_id TEXT NOT NULL DEFAULT '',
  name TEXT NOT NULL DEFAULT '',
  usage TEXT NOT NULL DEFAULT 'null',
  latency_ms REAL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (episode_id, seq)
);
CREATE TABLE llm_calls (
  episode_id TEXT NOT NULL REFERENCES episodes(id),
  turn INTEGER NOT NULL,
  request TEXT NOT NULL,
  response TEXT NOT NULL,
  http_status INTEGER NOT NULL,
  attempts INTEGER NOT NULL,
  attempt_log TEXT NOT NULL DEFAULT '[]',
  latency_ms REAL NOT NULL,
  prompt_tokens INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  PRIMARY KEY (episode_id, turn)
);
CREATE TABLE evaluations (
  id TEXT PRIMARY KEY,
  episode_id TEXT NOT NULL REFERENCES episodes(id),
  turn INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('compile', 'evaluate', 'submit')),
  mode TEXT NOT NULL CHECK (mode IN ('full', 'compile_only')),
  as_score REAL,
  es_curve TEXT NOT NULL DEFAULT 'null',
  correct_rate REAL,
  geomean_speedup REAL,
  hidden_as REAL,
  unstable INTEGER NOT NULL DEFAULT 0,
  hack_flags TEXT NOT NULL DEFAULT '[]',
  failure_classes TEXT NOT NULL DEFAULT '[]',
  result TEXT NOT NULL DEFAULT '{}',
  workspace_sha TEXT REFERENCES artifacts(sha256),
  created_at TEXT NOT NULL
);
CREATE INDEX evaluations_by_episode ON evaluations(episode_id, turn);
)sql";

// Migration 2: scoring mode "passnet" used to mean "nothing forgiven", which
// is now called "strict" ("passnet" now reproduces PassNet's own scorer). Runs
// and evaluations recorded before keep their meaning under the new name.
constexpr const char* kMigration2 = R"sql(
UPDATE runs SET config_json = json_set(config_json, '$.evaluator.scoring_mode', 'strict')
  WHERE json_valid(config_json)
    AND json_extract(config_json, '$.evaluator.scoring_mode') = 'passnet';
UPDATE evaluations SET result = json_set(result, '$.scoring_mode', 'strict')
  WHERE json_valid(result) AND json_extract(result, '$.scoring_mode') = 'passnet';
UPDATE evaluations SET result = json_set(result, '$.options.scoring_mode', 'strict')
  WHERE json_valid(result) AND json_extract(result, '$.options.scoring_mode') = 'passnet';
)sql";

// Migration 3: endpoint calls that failed for good (attempts used up, or an error no retry
// fixes): why the episode ended, kept beside the calls that succeeded.
constexpr const char* kMigration3 = R"sql(
CREATE TABLE failed_llm_calls (
  episode_id TEXT NOT NULL REFERENCES episodes(id),
  turn INTEGER NOT NULL,
  error_kind TEXT NOT NULL,
  last_error TEXT NOT NULL,
  http_status INTEGER NOT NULL,
  attempts INTEGER NOT NULL,
  attempt_log TEXT NOT NULL DEFAULT '[]',
  request TEXT NOT NULL,
  response TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (episode_id, turn, created_at)
);
)sql";

// Migration 4: each session's GPU worker loads (busy time, requests, the
// queue), for `passforge stats`. IF NOT EXISTS: a store whose schema_version
// rows were rolled back by hand (how tests make an old store) may hold it.
constexpr const char* kMigration4 = R"sql(
CREATE TABLE IF NOT EXISTS gpu_usage (
  run_id TEXT NOT NULL REFERENCES runs(id),
  session_started_at TEXT NOT NULL,
  device TEXT NOT NULL,
  wall_s REAL NOT NULL,
  busy_s REAL NOT NULL,
  requests INTEGER NOT NULL,
  queue_wait_s REAL NOT NULL,
  max_queue INTEGER NOT NULL,
  PRIMARY KEY (run_id, session_started_at, device)
);
)sql";

// Migration 5: the turns not charged to agent.max_steps (their evaluation
// could not run: a host fault, not the model's), so that a resumed episode
// keeps them free. A table rather than a column: merge copies episodes with
// SELECT *, which a column missing from older inputs would break.
constexpr const char* kMigration5 = R"sql(
CREATE TABLE IF NOT EXISTS uncharged_turns (
  episode_id TEXT NOT NULL REFERENCES episodes(id),
  turn INTEGER NOT NULL,
  PRIMARY KEY (episode_id, turn)
);
)sql";

const std::vector<Migration>& migrations() {
  static const std::vector<Migration> all = {
      {1, kMigration1}, {2, kMigration2}, {3, kMigration3}, {4, kMigration4}, {5, kMigration5}};
  return all;
}

}  // namespace

Status configure_connection(Database& db, bool writer) {
  PF_TRY(db.exec("PRAGMA busy_timeout = 10000"));
  PF_TRY(db.exec("PRAGMA foreign_keys = ON"));
  if (!writer) return ok_status();
  PF_ASSIGN(auto mode, db.prepare("PRAGMA journal_mode = WAL"));
  PF_ASSIGN(bool row, mode.step());
  if (!row || mode.text(0) != "wal") {
    return make_error(ErrorCode::io_error, db.path().string() +
                                               ": cannot switch to WAL mode (journal_mode is '" +
                                               (row ? mode.text(0) : std::string("?")) +
                                               "'); is it on a network file system?");
  }
  // In WAL mode synchronous=NORMAL fsyncs only at checkpoints, not at every
  // commit. Every commit is still atomic and survives a crash or SIGKILL of
  // the process (the WAL is in the OS page cache); a power loss or kernel
  // crash may roll back the last few commits, leaving a consistent database
  // that `--resume` continues from. That costs at most a few turns in a rare
  // event and saves an fsync per turn on every run.
  return db.exec("PRAGMA synchronous = NORMAL");
}

Result<int> read_schema_version(Database& db) {
  PF_ASSIGN(auto tables, db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'"));
  bool has_version = false;
  int other_tables = 0;
  while (true) {
    PF_ASSIGN(bool row, tables.step());
    if (!row) break;
    if (tables.text(0) == "schema_version") {
      has_version = true;
    } else {
      ++other_tables;
    }
  }
  if (!has_version) {
    if (other_tables == 0) return 0;
    return make_error(ErrorCode::invalid_argument,
                      db.path().string() +
                          " is an SQLite database but not a passforge trajectory store "
                          "(no schema_version table)");
  }
  PF_ASSIGN(auto q, db.prepare("SELECT coalesce(max(version), 0) FROM schema_version"));
  PF_ASSIGN(bool row, q.step());
  return row ? static_cast<int>(q.int64(0)) : 0;
}

Error newer_schema_error(const Database& db, int version) {
  return make_error(ErrorCode::unsupported, db.path().string() + " has schema version " +
                                                std::to_string(version) +
                                                " but this passforge knows versions up to " +
                                                std::to_string(kSchemaVersion) +
                                                "; use a newer passforge to read or write it");
}

Status migrate(Database& db) {
  // Refuses foreign and newer databases before writing anything to them.
  PF_ASSIGN(int current, read_schema_version(db));
  if (current > kSchemaVersion) return newer_schema_error(db, current);
  if (current == kSchemaVersion) return ok_status();
  for (const auto& m : migrations()) {
    PF_ASSIGN(auto tx, Transaction::begin(db, /*immediate=*/true));
    PF_TRY(
        db.exec("CREATE TABLE IF NOT EXISTS schema_version ("
                "version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)"));
    // Re-read inside the write lock: another process may have migrated.
    PF_ASSIGN(int version, read_schema_version(db));
    if (version > kSchemaVersion) return newer_schema_error(db, version);
    if (version >= m.version) continue;
    PF_TRY(db.exec(m.sql));
    PF_ASSIGN(auto ins,
              db.prepare("INSERT INTO schema_version(version, applied_at) VALUES (?, ?)"));
    PF_TRY(ins.bind_all(static_cast<int64_t>(m.version), now_iso8601()).run());
    PF_TRY(tx.commit());
  }
  return ok_status();
}

}  // namespace pf::traj
