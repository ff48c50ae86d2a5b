#include "experiments/experiment_store.h"

#include "trajectories/trajectory_store.h"

namespace pf::experiments {
namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS pf_experiment (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  spec_text TEXT NOT NULL,
  spec_path TEXT NOT NULL,
  state TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS pf_exemplars (
  task_id TEXT NOT NULL,
  episode_id TEXT NOT NULL,
  op_sequence TEXT NOT NULL,
  round INTEGER NOT NULL,
  score REAL NOT NULL,
  files TEXT NOT NULL,
  PRIMARY KEY (task_id, episode_id)
);
CREATE INDEX IF NOT EXISTS pf_exemplars_ops ON pf_exemplars (op_sequence);
)sql";

nlohmann::json parse_or_null(const std::string& text) {
  return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
}

}  // namespace

Result<ExperimentStore> ExperimentStore::open(const std::filesystem::path& dir) {
  {
    // The trajectory schema first, so the tables below sit beside a current one.
    PF_ASSIGN(auto store,
              traj::TrajectoryStore::open(dir, traj::TrajectoryStore::OpenMode::create));
  }
  PF_ASSIGN(auto db,
            traj::Database::open(traj::store_path(dir), traj::Database::Access::read_write));
  PF_TRY(db.exec(kSchema));
  return ExperimentStore(std::move(db));
}

Result<ExperimentStore> ExperimentStore::open_read_only(const std::filesystem::path& dir) {
  PF_ASSIGN(auto db,
            traj::Database::open(traj::store_path(dir), traj::Database::Access::read_only));
  PF_TRY(db.exec("PRAGMA busy_timeout = 10000"));
  return ExperimentStore(std::move(db));
}

Result<std::optional<ExperimentRecord>> ExperimentStore::load() {
  {
    // A store opened read-only may predate the experiment tables.
    PF_ASSIGN(auto tables, db_.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' "
                                       "AND name = 'pf_experiment'"));
    PF_ASSIGN(bool row, tables.step());
    if (!row || tables.int64(0) == 0) return std::optional<ExperimentRecord>();
  }
  PF_ASSIGN(auto st, db_.prepare("SELECT id, kind, spec_text, spec_path, state, "
                                 "(SELECT group_concat(id, ', ') FROM pf_experiment), "
                                 "(SELECT count(*) FROM pf_experiment) FROM pf_experiment"));
  PF_ASSIGN(bool row, st.step());
  if (!row) return std::optional<ExperimentRecord>();
  if (st.int64(6) > 1) {
    return make_error(ErrorCode::invalid_argument,
                      db_.path().string() + " holds " + std::to_string(st.int64(6)) +
                          " experiments (" + st.text(5) +
                          "): a store merged from several experiment directories; stats and "
                          "export read it, but an experiment continues or reports only from its "
                          "own directory");
  }
  ExperimentRecord r;
  r.id = st.text(0);
  r.kind = st.text(1);
  r.spec_text = st.text(2);
  r.spec_path = st.text(3);
  r.state = parse_or_null(st.text(4));
  if (!r.state.is_object()) {
    return make_error(ErrorCode::parse_error,
                      "the experiment state in " + db_.path().string() + " is not a JSON object");
  }
  return std::optional<ExperimentRecord>(std::move(r));
}

Status ExperimentStore::save(const ExperimentRecord& r) {
  PF_ASSIGN(auto st,
            db_.prepare("INSERT INTO pf_experiment (id, kind, spec_text, spec_path, state) "
                        "VALUES (?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET "
                        "state = excluded.state"));
  st.bind_all(r.id, r.kind, r.spec_text, r.spec_path, r.state.dump());
  return st.run();
}

Status ExperimentStore::add_exemplar(const Exemplar& e) {
  PF_ASSIGN(auto st, db_.prepare("INSERT OR REPLACE INTO pf_exemplars (task_id, episode_id, "
                                 "op_sequence, round, score, files) VALUES (?, ?, ?, ?, ?, ?)"));
  st.bind_all(e.task_id, e.episode_id, nlohmann::json(e.op_sequence).dump(), e.round, e.score,
              e.files.dump());
  return st.run();
}

Result<std::vector<Exemplar>> ExperimentStore::exemplars() {
  PF_ASSIGN(auto st, db_.prepare("SELECT task_id, episode_id, op_sequence, round, score, files "
                                 "FROM pf_exemplars ORDER BY round, task_id, episode_id"));
  std::vector<Exemplar> out;
  while (true) {
    PF_ASSIGN(bool row, st.step());
    if (!row) break;
    Exemplar e;
    e.task_id = st.text(0);
    e.episode_id = st.text(1);
    auto ops = parse_or_null(st.text(2));
    if (ops.is_array()) {
      for (const auto& op : ops) {
        if (op.is_string()) e.op_sequence.push_back(op.get<std::string>());
      }
    }
    e.round = st.int64(3);
    e.score = st.real(4);
    e.files = parse_or_null(st.text(5));
    if (!e.files.is_object()) e.files = nlohmann::json::object();
    out.push_back(std::move(e));
  }
  return out;
}

bool has_experiment(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::exists(traj::store_path(dir), ec)) return false;
  auto db = traj::Database::open(traj::store_path(dir), traj::Database::Access::read_only);
  if (!db.ok()) return false;
  auto st = db->prepare("SELECT count(*) FROM pf_experiment");
  if (!st.ok()) return false;
  auto row = st->step();
  return row.ok() && *row && st->int64(0) > 0;
}

}  // namespace pf::experiments
