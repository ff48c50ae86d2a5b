// One exported record per format (shapes in docs/export-formats.md). Each
// writer is a pure function of the episode's data and the options.
#pragma once

#include <string>
#include <vector>

#include "trajectories/export_options.h"
#include "trajectories/export_selection.h"
#include "trajectories/records.h"

namespace pf::traj {

//! A kept episode with its messages, ready to write.
struct ExportItem {
  const RunRecord* run = nullptr;
  const TaskRecord* task = nullptr;
  const EpisodeCandidate* candidate = nullptr;
  std::vector<MessageRecord> messages;
  std::vector<int> weights;  // assistant_weights()
  size_t end = 0;            // messages[0, end) are exported
  std::string source;        // the store's path
};

//! The `metadata` object every record carries: ids, scores, flags, provenance.
Json export_metadata(const ExportItem& item);

Json openai_record(const ExportItem& item, const ExportOptions& options);
Json sharegpt_record(const ExportItem& item, const ExportOptions& options);
Json trl_record(const ExportItem& item, const ExportOptions& options);

//! A message in TRL's conversational shape (tool-call arguments as objects).
Json trl_message(const std::vector<MessageRecord>& messages, size_t index, bool keep_reasoning);

//! Everything of the episode, loss-free: records as record_json writes them,
//! the LLM calls and the artifacts (sha256 -> content) of its workspaces.
Json raw_record(const ExportItem& item, const std::vector<LlmCallRecord>& llm_calls,
                const Json& artifacts);

}  // namespace pf::traj
