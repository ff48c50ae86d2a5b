// Experiment state inside the run store (`<dir>/passforge.db`), beside the
// trajectory tables: one experiment per store (its definition and progress
// as JSON, rewritten after every step) and the exemplar library of
// self-improvement loops. Tables are created on first use; the trajectory
// tables are untouched, so `stats` and `export` read the store as usual;
// `merge` carries these tables too (a store merged from several experiments
// holds their records and exemplars, but continues none of them).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "trajectories/database.h"

namespace pf::experiments {

struct ExperimentRecord {
  std::string id;
  std::string kind;                                 // "ab" | "improve"
  std::string spec_text;                            // the experiment file as written
  std::string spec_path;                            // where it was read from
  nlohmann::json state = nlohmann::json::object();  // kind-specific
};

//! A solved training task's pass, indexed by the task's operator sequence.
struct Exemplar {
  std::string task_id;
  std::vector<std::string> op_sequence;
  int64_t round = 0;
  std::string episode_id;
  double score = 0;
  nlohmann::json files = nlohmann::json::object();  // path -> content
};

//! Not thread-safe: use it between sessions, not while episodes write.
class ExperimentStore {
 public:
  //! Creates the store (trajectory schema included) when missing.
  static Result<ExperimentStore> open(const std::filesystem::path& dir);
  //! Reads an existing store without writing to it (reports, `passforge
  //! serve`: safe while a run writes); load() and exemplars() only.
  static Result<ExperimentStore> open_read_only(const std::filesystem::path& dir);

  //! Errors: more than one experiment (a store merged from several).
  Result<std::optional<ExperimentRecord>> load();
  Status save(const ExperimentRecord& record);

  //! Inserts or replaces (task, episode).
  Status add_exemplar(const Exemplar& exemplar);
  //! In (round, task, episode) order.
  Result<std::vector<Exemplar>> exemplars();

 private:
  explicit ExperimentStore(traj::Database db) : db_(std::move(db)) {}
  traj::Database db_;
};

//! Whether `dir` holds a store with an experiment.
bool has_experiment(const std::filesystem::path& dir);

}  // namespace pf::experiments
