// Conversation-level rules shared by the training exports: which assistant
// messages are trained on (--weight), where a record ends, how long it is in
// tokens, and how tool calls read back.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trajectories/export_options.h"
#include "trajectories/records.h"

namespace pf::traj {

//! Per message: 1 or 0 for assistant messages, -1 for the others.
//!  all:       every assistant message.
//!  final:     the last assistant message.
//!  improving: the assistant messages of the turns that led to an evaluation
//!             (kind evaluate/submit) which raised the episode's best AS: the
//!             turns after the previous such evaluation up to and including
//!             its own. Only evaluations that counts_as_success count.
//! Assistant messages after `last_turn` (the verified submit's turn) get
//! weight 0 in every mode: training ends at that submit.
std::vector<int> assistant_weights(const std::vector<MessageRecord>& messages,
                                   const std::vector<EvaluationRecord>& evaluations,
                                   WeightMode mode, bool include_flagged,
                                   std::optional<int64_t> last_turn = std::nullopt);

//! One past the last weighted assistant message; 0 when none is weighted.
//! Training records end there: later messages carry no training signal.
size_t trained_end(const std::vector<int>& weights);

//! Tokens of messages[0, end): the usage the endpoint reported for the last
//! assistant message before `end` (prompt + completion), plus an estimate of
//! 4 characters per token for anything without reported usage.
int64_t conversation_tokens(const std::vector<MessageRecord>& messages, size_t end);

//! The tool a tool message answers: its name, else the name in the
//! assistant tool call whose id it carries.
std::string tool_name(const std::vector<MessageRecord>& messages, size_t index);

//! A stored tool call, read defensively (missing fields read as "").
struct ToolCallView {
  std::string id;
  std::string name;
  std::string arguments;  // the JSON string the model produced
};
std::vector<ToolCallView> tool_calls_of(const MessageRecord& m);

//! A tool call's arguments as a JSON object when the string parses to one;
//! otherwise the original string (a malformed call the model really made).
Json parse_arguments(const std::string& arguments);

}  // namespace pf::traj
