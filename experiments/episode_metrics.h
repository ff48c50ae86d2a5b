// What an experiment compares, per episode, read back from the store. In a
// full evaluation an episode scores its best counting AS (b without one,
// as `passforge stats` does); in a compile-only evaluation (no GPU: no AS
// exists) it scores its best share of variants that compiled, matched and
// passed the dry run. An episode is "correct" (a solved task for `ab`, a
// training episode and exemplar for `improve`) when it is verified
// (trajectories/verification.h: its final submit is correct on every
// variant, hidden ones included, unflagged and stable); a compile-only
// experiment can only apply the rule with its compile-only loosening (every
// variant compiled, matched and dry-ran). Reports name the score they show
// (docs/ab.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "trajectories/records.h"
#include "trajectories/trajectory_reader.h"
#include "trajectories/verification.h"

namespace pf::experiments {

struct EpisodeMetrics {
  std::string episode_id;
  std::string task_id;
  int64_t sample = 0;
  traj::RunState status = traj::RunState::running;
  double score = 0;
  bool correct = false;  // verified (see above)
  std::optional<double>
      fast_1;  // full only: share of visible variants correct and faster than eager
  int64_t tokens = 0;
  double llm_latency_s = 0;  // sum over the episode's LLM calls
  double wall_s = 0;
  int64_t turns = 0;
  std::optional<int64_t> turns_to_first_correct;
  std::string best_workspace_sha;  // the best evaluation's workspace ("" = none)
  bool flagged = false;            // the best evaluation carries hack flags
  //! The final submit's workspace and score (compile share in compile-only
  //! mode): what improve trains on and keeps as an exemplar.
  std::string submit_workspace_sha;
  std::optional<double> submit_score;
};

//! The verified rule an experiment of this mode applies.
traj::VerifyRule experiment_rule(traj::EvalMode mode);

//! The score's name in reports: "AS" or "compile share".
const char* score_name(traj::EvalMode mode);

//! full when any evaluate/submit evaluation of these runs ran in full mode.
Result<traj::EvalMode> infer_mode(traj::TrajectoryReader& reader,
                                  const std::vector<std::string>& run_ids);

//! Episodes of `run_id` that are not running, in task then sample order.
Result<std::vector<EpisodeMetrics>> read_episode_metrics(traj::TrajectoryReader& reader,
                                                         const std::string& run_id,
                                                         traj::EvalMode mode);

struct ArmMetrics {
  int64_t episodes = 0;
  double mean_score = 0;
  double correct_rate = 0;
  std::optional<double> fast_1;
  double tokens_per_episode = 0;
  double latency_s_per_episode = 0;
  double wall_s_per_episode = 0;
  std::optional<double> turns_to_first_correct;  // mean over episodes that got there
  int64_t reached_correct = 0;
};

ArmMetrics aggregate(const std::vector<EpisodeMetrics>& episodes);

}  // namespace pf::experiments
