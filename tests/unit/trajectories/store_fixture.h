// Builders for constructed runs shared by the trajectory tests: a temporary
// run directory and episodes described turn by turn.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "trajectories/records.h"
#include "trajectories/trajectory_store.h"

namespace pf::traj::testing {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

struct VariantSpec {
  std::string name;
  bool hidden = false;
  bool correct = true;
  double speedup = 1.0;
  std::string failure_class;  // "" = none
  bool unstable = false;
};

//! An evaluator result as docs/result-fields.md describes it.
Json make_result(std::optional<double> as, const std::vector<VariantSpec>& variants,
                 const std::vector<std::string>& hack_flags = {},
                 const std::string& mode = "full");

struct TurnSpec {
  std::string assistant = "I will write the pass.";
  std::string reasoning;
  std::string feedback = "ok";
  //! When set, the turn ends with an `evaluate` call scored by this result.
  std::optional<Json> result;
  EvalKind kind = EvalKind::evaluate;
  Workspace workspace;
  int64_t prompt_tokens = 100;
  int64_t completion_tokens = 20;
  double latency_ms = 50;
};

RunRecord make_run(const std::string& id, const std::string& suite_hash = "suite-A");
TaskRecord make_task(const std::string& id, int visible = 2, int hidden = 1,
                     const std::string& suite_hash = "suite-A");
Json tools_schema();

struct EpisodeSpec {
  std::string run_id;
  std::string task_id;
  int64_t sample = 0;
  AgentMode mode = AgentMode::tools;
  std::string prompt_variant = "default";
  std::string system = "You write compiler passes.";
  std::string user = "Task: fuse add and relu.";
  std::vector<TurnSpec> turns;
  RunState final_status = RunState::finished;
  std::string exit_reason = "submitted";
  std::string started_at;   // "" = now
  std::string finished_at;  // "" = now
};

//! Writes the episode through the public writer API; returns its id.
std::string write_episode(TrajectoryStore& store, const EpisodeSpec& spec);

}  // namespace pf::traj::testing
