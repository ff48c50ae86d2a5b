// DPO preference pairs (TRL conversational preference format).
//
// Pairing rule: two episodes of the same task form a pair when their
// conversations share a prefix and first differ at an assistant message (so
// both saw the same system prompt, task and feedback up to that point). Each
// side's continuation runs from that message to the assistant message that
// triggered the first evaluation (kind evaluate or submit) at or after it;
// that evaluation's AS scores the side. A hack-flagged evaluation scores 0 (a
// caught hack ranks below any honest attempt); unstable and compile-only
// evaluations give no score (the pair is skipped) unless --include-flagged.
// The higher score is `chosen`; pairs with equal scores, textually identical
// continuations, a chosen score not above --min-as or more than --max-tokens
// are skipped and counted.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "trajectories/export_options.h"
#include "trajectories/export_selection.h"
#include "trajectories/records.h"

namespace pf::traj {

struct DpoEpisode {
  const RunRecord* run = nullptr;
  const TaskRecord* task = nullptr;
  const EpisodeCandidate* candidate = nullptr;
  std::vector<MessageRecord> messages;
  std::string source;
};

struct DpoOutcome {
  std::vector<Json> records;
  std::map<std::string, int64_t> skipped;  // reason -> pairs
};

//! All pairs among the episodes of one task, in episode-id order.
DpoOutcome dpo_pairs(const std::vector<DpoEpisode>& task_episodes, const ExportOptions& options);

}  // namespace pf::traj
