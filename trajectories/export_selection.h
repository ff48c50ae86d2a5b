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
#include "trajectories/verification.h"

namespace pf::traj {

struct EpisodeCandidate {
  size_t source = 0;  // index of the store it came from
  EpisodeRecord episode;
  std::vector<EvaluationRecord> evaluations;
  //! The evaluation the episode is selected by: its final submit (index
  //! into evaluations), judged by the verified rule.
  std::optional<size_t> best;
  Verdict verdict;
  std::optional<double> score;  // its AS
  int64_t tokens = 0;           // of the record as exported (after trimming)
  bool has_trained_turn = false;
  std::string split;  // "" when not splitting

  const EvaluationRecord* best_evaluation() const { return best ? &evaluations[*best] : nullptr; }
  //! The workspace the episode produced: its final submit's, else "".
  std::string final_workspace() const {
    return best ? evaluations[*best].workspace_sha : std::string();
  }
};

//! Fills best/verdict/score: the final submit judged by `rule`.
void score_candidate(EpisodeCandidate& c, const TaskRecord& task, const VerifyRule& rule);

struct Selection {
  std::vector<EpisodeCandidate> kept;
  std::map<std::string, int64_t> excluded;  // filter name -> episodes
};

//! Filters in order: unfinished (status running), the verified rule (counted
//! under the Rejection's name: no_submit, compile_only, flagged, unstable,
//! incorrect), min_as, max_tokens,
//! no_trained_turns, dedupe (per task and final workspace, keeps the highest
//! AS), best_only (per task). Ties go to the smaller episode id. raw keeps
//! unfinished episodes (their status says so), applies min_as only when
//! given, and applies neither the verified rule nor trained turns.
Selection select_episodes(std::vector<EpisodeCandidate> all, const ExportOptions& options);

//! The verified rule with the export's loosenings.
VerifyRule verify_rule(const ExportOptions& options, const CorrectnessLevels* levels);

//! The min-AS threshold in force (options.min_as or the format's default).
std::optional<double> effective_min_as(const ExportOptions& options);

}  // namespace pf::traj
