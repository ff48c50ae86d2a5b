// Which episodes an export writes: the filters of `passforge export`, applied
// in a fixed order to light per-episode summaries (messages are loaded again
// only for the episodes kept).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "trajectories/export_options.h"
#include "trajectories/records.h"

namespace pf::traj {

struct EpisodeCandidate {
  size_t source = 0;  // index of the store it came from
  EpisodeRecord episode;
  std::vector<EvaluationRecord> evaluations;
  //! The best evaluation that counts_as_success (index into evaluations).
  std::optional<size_t> best;
  std::optional<double> score;  // its AS
  int64_t tokens = 0;           // of the record as exported (after trimming)
  bool has_trained_turn = false;
  std::string split;  // "" when not splitting

  const EvaluationRecord* best_evaluation() const {
    return best ? &evaluations[*best] : nullptr;
  }
  //! The workspace the episode produced: its best evaluation's, else "".
  std::string final_workspace() const {
    return best ? evaluations[*best].workspace_sha : std::string();
  }
};

//! Fills best/score from the evaluations under the options' flag rule.
void score_candidate(EpisodeCandidate& c, bool include_flagged);

struct Selection {
  std::vector<EpisodeCandidate> kept;
  std::map<std::string, int64_t> excluded;  // filter name -> episodes
};

//! Filters in order: unfinished (status running), min_as, max_tokens,
//! no_trained_turns, dedupe (per task and final workspace, keeps the highest
//! AS), best_only (per task). Ties go to the smaller episode id. raw keeps
//! unfinished episodes (their status says so), applies min_as only when
//! given, and ignores trained turns.
Selection select_episodes(std::vector<EpisodeCandidate> all, const ExportOptions& options);

//! The min-AS threshold in force (options.min_as or the format's default).
std::optional<double> effective_min_as(const ExportOptions& options);

}  // namespace pf::traj
