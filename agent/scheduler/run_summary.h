// The table `passforge run` prints at the end, read back from the store (so a
// resumed run summarises its earlier sessions too).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "agent/loop/episode.h"
#include "common/result.h"
#include "trajectories/records.h"
#include "trajectories/trajectory_reader.h"

namespace pf::agent {

struct SummaryRow {
  std::string task_id;  // "all" for the totals row
  int64_t episodes = 0;
  int64_t unfinished = 0;  // running or interrupted
  int64_t scored = 0;      // episodes with a best score
  double score_sum = 0;    // of best scores (full: AS; compile-only: variant share)
  int64_t correct = 0;
  int64_t turns = 0;
  int64_t tokens = 0;
  std::map<std::string, int64_t> exits;

  std::optional<double> mean_score() const;
};

struct RunSummary {
  traj::EvalMode mode = traj::EvalMode::full;
  std::vector<SummaryRow> tasks;
  SummaryRow total;
  int64_t evaluations = 0;

  //! The table, one line per task and a totals line.
  std::string table() const;
};

//! Episodes of `run_id`: a full run scores an episode by its best counting
//! AS (correct: every visible variant at t = -5), a compile-only run by its
//! best share of variants that compiled, matched and passed the dry run
//! (correct: all of them).
Result<RunSummary> summarize_run(traj::TrajectoryReader& reader, const std::string& run_id,
                                 traj::EvalMode mode);

//! Lists an episode of this session the store could not record in full
//! (store_error), so the table shows every episode: `in_store` says whether
//! the store holds it (then it was counted as unfinished, and is now listed
//! under its exit reason instead); otherwise it is added from `r`.
void add_unrecorded_episode(RunSummary& summary, const EpisodeResult& r, bool in_store);

}  // namespace pf::agent
