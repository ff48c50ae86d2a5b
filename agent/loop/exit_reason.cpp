#include "agent/loop/exit_reason.h"

#include <array>
#include <utility>

namespace pf::agent {
namespace {

constexpr std::array<std::pair<ExitReason, std::string_view>, 8> kNames{{
    {ExitReason::submitted, "submitted"},
    {ExitReason::max_steps, "max_steps"},
    {ExitReason::token_budget, "token_budget"},
    {ExitReason::time_budget, "time_budget"},
    {ExitReason::endpoint_error, "endpoint_error"},
    {ExitReason::context_overflow, "context_overflow"},
    {ExitReason::interrupted, "interrupted"},
    {ExitReason::store_error, "store_error"},
}};

}  // namespace

std::string_view to_string(ExitReason reason) {
  for (const auto& [r, name] : kNames) {
    if (r == reason) return name;
  }
  return "?";
}

std::optional<ExitReason> parse_exit_reason(std::string_view name) {
  for (const auto& [r, n] : kNames) {
    if (n == name) return r;
  }
  return std::nullopt;
}

traj::RunState status_for(ExitReason reason) {
  switch (reason) {
    case ExitReason::interrupted:
      return traj::RunState::interrupted;
    case ExitReason::endpoint_error:
    case ExitReason::store_error:
      return traj::RunState::failed;
    default:
      return traj::RunState::finished;
  }
}

}  // namespace pf::agent
