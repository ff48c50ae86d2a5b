// DPO preference pairs (TRL conversational preference format).
//
// Pairing rule: two episodes of the same task form a pair when their
// conversations share a prefix and first differ at an assistant message (so
// both saw the same system prompt, task and feedback up to that point). Each
// side's continuation runs from that message to the assistant message that
// triggered the first evaluation (kind evaluate or submit) at or after it;
// that evaluation judges the side. `chosen` must be verified (verification.h,
// with the export's loosenings) and strictly better than `rejected`: a
// verified side beats an unverified one whatever their AS; between two
// verified sides the higher AS wins. `rejected` may be anything. Pairs
// without a verified side, with equal AS, textually identical continuations,
// a chosen AS not above --min-as or more than --max-tokens are skipped and
// counted.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "trajectories/export_options.h"
#include "trajectories/export_selection.h"
#include "trajectories/records.h"
#include "trajectories/verification.h"

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
  std::vector<const EpisodeCandidate*> chosen;  // per record
  std::map<std::string, int64_t> skipped;       // reason -> pairs
};

//! All pairs among the episodes of one task, in episode-id order.
DpoOutcome dpo_pairs(const std::vector<DpoEpisode>& task_episodes, const ExportOptions& options,
                     const VerifyRule& rule);

}  // namespace pf::traj
