#include "trajectories/store_merge.h"

#include <algorithm>
#include <set>

#include "trajectories/scoring_mode_check.h"
#include "trajectories/trajectory_reader.h"
#include "trajectories/trajectory_store.h"

namespace pf::traj {
namespace {

constexpr const char* kTables[] = {"runs",        "tasks",    "artifacts", "episodes",
                                   "evaluations", "messages", "llm_calls"};

//! Columns an input's further-along copy of an episode replaces.
constexpr const char* kEpisodeProgress =
    "status = excluded.status, exit_reason = excluded.exit_reason, "
    "best_as = excluded.best_as, best_evaluation_id = excluded.best_evaluation_id, "
    "turns = excluded.turns, prompt_tokens = excluded.prompt_tokens, "
    "completion_tokens = excluded.completion_tokens, wall_time_s = excluded.wall_time_s, "
    "finished_at = excluded.finished_at";

std::filesystem::path canonical_or_same(const std::filesystem::path& p) {
  std::error_code ec;
  auto c = std::filesystem::weakly_canonical(p, ec);
  return ec ? p : c;
}

Result<int64_t> count(Database& db, const std::string& sql) {
  PF_ASSIGN(auto st, db.prepare(sql));
  PF_ASSIGN(bool row, st.step());
  return row ? st.int64(0) : 0;
}

//! The first row of `sql` as text ("" when none), for conflict messages.
Result<std::string> first_text(Database& db, const std::string& sql) {
  PF_ASSIGN(auto st, db.prepare(sql));
  PF_ASSIGN(bool row, st.step());
  return row ? st.text(0) : std::string();
}

//! Checks that need the attached input: identical tasks and histories.
Status check_conflicts(Database& db, const std::filesystem::path& input) {
  PF_ASSIGN(std::string task,
            first_text(db,
                       "SELECT s.id FROM src.tasks s JOIN main.tasks m ON m.id = s.id "
                       "WHERE s.op_sequence != m.op_sequence OR s.variants != m.variants "
                       "OR s.suite_hash != m.suite_hash LIMIT 1"));
  if (!task.empty()) {
    return make_error(ErrorCode::invalid_argument,
                      input.string() + ": task '" + task +
                          "' is defined differently than in the output; refusing to merge "
                          "different task definitions");
  }
  PF_ASSIGN(
      std::string episode,
      first_text(db,
                 "SELECT s.episode_id FROM src.messages s JOIN main.messages m "
                 "ON m.episode_id = s.episode_id AND m.seq = s.seq "
                 "WHERE s.role != m.role OR s.content != m.content OR s.tool_calls != m.tool_calls "
                 "OR s.turn != m.turn LIMIT 1"));
  if (episode.empty()) {
    PF_ASSIGN(
        episode,
        first_text(
            db,
            "SELECT s.episode_id FROM src.evaluations s JOIN main.evaluations m ON m.id = s.id "
            "WHERE s.result != m.result OR coalesce(s.workspace_sha, '') != "
            "coalesce(m.workspace_sha, '') LIMIT 1"));
  }
  if (!episode.empty()) {
    return make_error(ErrorCode::invalid_argument,
                      input.string() + ": episode '" + episode +
                          "' has a different history than the output's copy (was a run "
                          "directory copied and continued twice?); refusing to merge");
  }
  return ok_status();
}

//! A table name as an SQL identifier.
std::string quoted(const std::string& name) {
  std::string q = "\"";
  for (char c : name) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

//! The CREATE statements (tables first, then their indexes) of the input's
//! tables outside the trajectory schema, e.g. experiments' pf_experiment.
Result<std::vector<std::pair<std::string, std::string>>> extra_tables(Database& db) {
  PF_ASSIGN(
      auto st,
      db.prepare(
          "SELECT name, sql, tbl_name FROM src.sqlite_master WHERE sql IS NOT NULL "
          "AND name NOT LIKE 'sqlite_%' AND type IN ('table', 'index') ORDER BY type DESC, name"));
  std::vector<std::pair<std::string, std::string>> out;
  while (true) {
    PF_ASSIGN(bool row, st.step());
    if (!row) break;
    std::string table = st.text(2);
    if (table == "schema_version" || std::any_of(std::begin(kTables), std::end(kTables),
                                                 [&](const char* t) { return table == t; })) {
      continue;
    }
    out.emplace_back(st.text(0), st.text(1));
  }
  return out;
}

//! Carries tables that modules above this one keep beside the trajectory
//! tables, without knowing them: created from the input's definition when
//! the output lacks them, rows the output does not hold inserted. A table
//! defined differently, or an input row whose key the output holds with
//! other values, is refused (merge cannot tell which copy is right).
Status carry_extra_tables(Database& db, const std::filesystem::path& input, MergeSummary& summary) {
  PF_ASSIGN(auto objects, extra_tables(db));
  for (const auto& [name, sql] : objects) {
    PF_ASSIGN(auto lookup, db.prepare("SELECT sql FROM main.sqlite_master WHERE name = ?"));
    lookup.bind(1, name);
    PF_ASSIGN(bool exists, lookup.step());
    if (exists && lookup.text(0) != sql) {
      return make_error(ErrorCode::invalid_argument,
                        input.string() + ": table or index '" + name +
                            "' is defined differently than in the output; refusing to merge");
    }
    if (!exists) {
      // One statement (prepare compiles only the first), and only a CREATE.
      if (!sql.starts_with("CREATE TABLE ") && !sql.starts_with("CREATE INDEX ") &&
          !sql.starts_with("CREATE UNIQUE INDEX ")) {
        return make_error(ErrorCode::invalid_argument,
                          input.string() + ": '" + name + "' has an unexpected definition");
      }
      PF_ASSIGN(auto create, db.prepare(sql));
      PF_TRY(create.run());
    }
  }
  for (const auto& [name, sql] : objects) {
    if (!sql.starts_with("CREATE TABLE ")) continue;
    const std::string t = quoted(name);
    PF_ASSIGN(int64_t before, count(db, "SELECT count(*) FROM main." + t));
    std::string insert = "INSERT OR IGNORE INTO main." + t;
    insert += " SELECT * FROM src." + t;
    insert += " EXCEPT SELECT * FROM main." + t;
    PF_TRY(db.exec(insert));
    PF_ASSIGN(int64_t after, count(db, "SELECT count(*) FROM main." + t));
    summary.inserted[name] += after - before;
    std::string differing = "SELECT count(*) FROM (SELECT * FROM src." + t;
    differing += " EXCEPT SELECT * FROM main." + t;
    differing += ')';
    PF_ASSIGN(int64_t differ, count(db, differing));
    if (differ > 0) {
      return make_error(ErrorCode::invalid_argument,
                        input.string() + ": " + std::to_string(differ) + " row(s) of table '" +
                            name +
                            "' differ from the output's rows with the same key (e.g. an experiment "
                            "continued after an earlier merge); refusing to merge "
                            "(merge into a new output directory)");
    }
  }
  return ok_status();
}

Status merge_one(Database& db, const std::filesystem::path& input, MergeSummary& summary) {
  auto attach = db.prepare("ATTACH DATABASE ? AS src");
  if (!attach.ok()) return attach.error();
  PF_TRY(attach->bind(1, store_path(input).string()).run());
  auto status = [&]() -> Status {
    PF_ASSIGN(auto tx, Transaction::begin(db, /*immediate=*/true));
    // Episodes point at evaluations inserted after them.
    PF_TRY(db.exec("PRAGMA defer_foreign_keys = ON"));
    PF_TRY(check_conflicts(db, input));
    for (const char* table : kTables) {
      std::string t = table;
      std::string sql;
      if (t == "runs") {
        sql =
            "INSERT INTO main.runs SELECT * FROM src.runs WHERE true ON CONFLICT(id) DO "
            "UPDATE SET status = excluded.status, finished_at = excluded.finished_at "
            "WHERE runs.status = 'running' AND excluded.status != 'running'";
      } else if (t == "episodes") {
        sql = std::string(
                  "INSERT INTO main.episodes SELECT * FROM src.episodes WHERE true "
                  "ON CONFLICT(id) DO UPDATE SET ") +
              kEpisodeProgress +
              " WHERE excluded.turns > episodes.turns OR (excluded.turns = episodes.turns AND "
              "episodes.status = 'running' AND excluded.status != 'running')";
      } else {
        sql = "INSERT OR IGNORE INTO main." + t;
        sql += " SELECT * FROM src." + t;
      }
      PF_ASSIGN(int64_t before, count(db, "SELECT count(*) FROM main." + t));
      PF_TRY(db.exec(sql));
      int64_t changed = db.changes();
      PF_ASSIGN(int64_t after, count(db, "SELECT count(*) FROM main." + t));
      summary.inserted[t] += after - before;
      if (t == "episodes") summary.episodes_updated += changed - (after - before);
      if (t == "runs") summary.runs_updated += changed - (after - before);
    }
    PF_TRY(carry_extra_tables(db, input, summary));
    return tx.commit();
  }();
  (void)db.exec("DETACH DATABASE src");
  if (!status.ok()) return status.error().with_context("merging " + input.string());
  return ok_status();
}

}  // namespace

std::string MergeSummary::to_text() const {
  std::string s = "merge:";
  int64_t total = 0;
  for (const auto& [t, n] : inserted) {
    s += " " + t + " +" + std::to_string(n);
    total += n;
  }
  s += "; episodes updated " + std::to_string(episodes_updated) + ", runs updated " +
       std::to_string(runs_updated) + "\n";
  if (total == 0 && episodes_updated == 0 && runs_updated == 0) {
    s += "nothing new: the output already holds every input row\n";
  }
  for (const auto& n : notes) s += "note: " + n + "\n";
  return s;
}

namespace {

// How a run's evaluations timed both sides ([evaluator] graph_replay and
// timing_clock). Runs recorded before a key existed launched step by step,
// or took speedups from the end-to-end clock.
std::string timing_mode(const RunRecord& run) {
  const auto& c = run.config_json;
  std::string launches = "step-by-step launches (recorded before graph replay)";
  std::string clock = "end-to-end clock";
  if (c.is_object() && c.contains("evaluator") && c["evaluator"].is_object()) {
    const auto& e = c["evaluator"];
    if (e.contains("graph_replay") && e["graph_replay"].is_boolean()) {
      launches = e["graph_replay"].get<bool>() ? "replayed CUDA graphs" : "step-by-step launches";
    }
    if (e.contains("timing_clock") && e["timing_clock"] == "device") clock = "device clock";
  }
  return launches + ", " + clock;
}

}  // namespace

Result<MergeSummary> merge_stores(const std::vector<std::filesystem::path>& inputs,
                                  const std::filesystem::path& out) {
  if (inputs.empty()) return make_error(ErrorCode::invalid_argument, "no input run directory");
  MergeSummary summary;
  auto out_db = canonical_or_same(store_path(out));
  // Validate every input before writing anything.
  std::map<std::string, std::string> suite_of;   // suite hash -> where it was seen
  std::map<std::string, std::string> timing_of;  // timing mode -> where it was seen
  ScoringModeCheck modes;
  std::vector<std::filesystem::path> todo;
  std::set<std::filesystem::path> seen;
  auto note_suites = [&](TrajectoryReader& r, const std::string& where) -> Status {
    PF_ASSIGN(auto runs, r.runs());
    for (const auto& run : runs) {
      suite_of.emplace(run.task_suite_hash, where + " (run " + run.id + ")");
      timing_of.emplace(timing_mode(run), where + " (run " + run.id + ")");
      modes.add(run, where);
    }
    return ok_status();
  };
  if (std::filesystem::exists(out_db)) {
    PF_ASSIGN(auto existing, TrajectoryReader::open(out_db));
    PF_TRY(note_suites(existing, out.string()));
  }
  for (const auto& in : inputs) {
    auto db = canonical_or_same(store_path(in));
    if (db == out_db) {
      summary.notes.push_back(in.string() + " is the output; skipped");
      continue;
    }
    if (!seen.insert(db).second) {
      summary.notes.push_back(in.string() + " given twice; merged once");
      continue;
    }
    auto reader = TrajectoryReader::open(in);
    if (!reader.ok()) return reader.error().with_context("merge input " + in.string());
    PF_TRY(note_suites(*reader, in.string()));
    todo.push_back(in);
  }
  if (suite_of.size() > 1) {
    std::string msg = "refusing to merge runs of different task suites:";
    for (const auto& [hash, where] : suite_of) {
      msg += "\n  suite hash '";
      msg += hash;
      msg += "' in ";
      msg += where;
    }
    return make_error(ErrorCode::invalid_argument, msg);
  }
  PF_TRY(modes.require_one("refusing to merge runs scored under different scoring modes"));
  if (timing_of.size() > 1) {
    // Graph replay removes host launch gaps from both sides, so speedups
    // (and AS) of the two kinds of run are not comparable; merged anyway.
    std::string msg = "runs timed differently (their speedups are not comparable):";
    for (const auto& [mode, where] : timing_of) {
      msg += ' ';
      msg += mode;
      msg += " in ";
      msg += where;
      msg += ';';
    }
    msg.pop_back();
    summary.notes.push_back(msg);
  }
  PF_ASSIGN(auto store, TrajectoryStore::open(out, TrajectoryStore::OpenMode::create));
  for (const auto& in : todo) PF_TRY(merge_one(store->database_unlocked(), in, summary));
  return summary;
}

}  // namespace pf::traj
