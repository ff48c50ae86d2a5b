// The conversation of one episode as the agent keeps it: every message in
// order (exactly what is stored), each marked when it is an evaluation
// report, and the messages sent to the endpoint under the context policy.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "agent/llm/chat_message.h"
#include "config/config.h"
#include "prompts/prompt_variant.h"
#include "trajectories/records.h"

namespace pf::agent {

struct ConversationEntry {
  llm::ChatMessage message;
  bool report = false;  // an evaluation report (last_n_reports may shorten it)
};

using Conversation = std::vector<ConversationEntry>;

//! The messages of the next request:
//!  keep_all:        every message as stored (append-only: prefix caches hit);
//!  drop_reasoning:  the same, with earlier assistant reasoning left out
//!                   (done by the request's reasoning_key, see reasoning_key_for);
//!  last_n_reports:  reports older than the newest `last_n` are replaced by
//!                   their first line (prompt message "report_omitted").
std::vector<llm::ChatMessage> request_messages(const Conversation& conversation,
                                               ContextPolicy policy, int last_n,
                                               const prompts::PromptVariant& prompts);

//! The field earlier reasoning is sent back in ("" drops it).
std::string reasoning_key_for(ContextPolicy policy);

//! The estimated prompt tokens of a request carrying `messages` (reasoning
//! sent in `reasoning_key`) and the tool schemas `tools`: llm::estimate_tokens
//! of their wire JSON, so a budget errs the way the bytes do.
int64_t estimate_request_tokens(const std::vector<llm::ChatMessage>& messages,
                                const std::string& reasoning_key, const nlohmann::json& tools);

//! The messages of one request under a per-call budget (agent.max_context_tokens).
struct FittedContext {
  std::vector<llm::ChatMessage> messages;
  std::string reasoning_key;
  int64_t estimated_tokens = 0;
  //! The steps taken beyond the configured policy, e.g. "reports: last 1" (empty: none).
  std::vector<std::string> steps;
  bool fits = true;  // false: still over the budget after every step
};

//! The configured policy first; while the request is over `max_tokens`
//! (0: no budget), the context policies are applied in turn: older reports
//! shortened (keeping the newest `last_n`, then only the newest), then earlier
//! reasoning dropped. The store keeps every message in full either way.
FittedContext fit_context(const Conversation& conversation, ContextPolicy policy, int last_n,
                          const prompts::PromptVariant& prompts, const nlohmann::json& tools,
                          int64_t max_tokens);

//! The store's form of a message. `usage` / `latency_ms` for assistant messages.
traj::MessageRecord to_record(const llm::ChatMessage& message,
                              const nlohmann::json& usage = nullptr,
                              std::optional<double> latency_ms = std::nullopt);
//! Read back from the store.
llm::ChatMessage from_record(const traj::MessageRecord& record);

}  // namespace pf::agent
