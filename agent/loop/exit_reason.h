// Why an episode ended (docs/design.md "Agent protocol"), as stored in
// episodes.exit_reason, and the episode status each reason implies.
#pragma once

#include <optional>
#include <string_view>

#include "trajectories/records.h"

namespace pf::agent {

enum class ExitReason {
  submitted,         // the model submitted (tools: `submit`; chat: "SUBMIT")
  max_steps,         // agent.max_steps LLM turns
  token_budget,      // agent.max_total_tokens reached
  time_budget,       // agent.max_wall_s reached
  endpoint_error,    // the endpoint failed after retries (or refused the request)
  context_overflow,  // the conversation no longer fits the model's context
  interrupted,       // SIGINT: resumable
  store_error,       // the trajectory store refused a write (disk full, ...)
};

std::string_view to_string(ExitReason reason);
std::optional<ExitReason> parse_exit_reason(std::string_view name);

//! interrupted -> interrupted (resumable); endpoint_error, store_error ->
//! failed; the others -> finished.
traj::RunState status_for(ExitReason reason);

}  // namespace pf::agent
