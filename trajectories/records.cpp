#include "trajectories/records.h"

#include <algorithm>
#include <array>
#include <utility>

#include "common/sha256.h"

namespace pf::traj {
namespace {

template <typename E, size_t N>
using NameTable = std::array<std::pair<E, std::string_view>, N>;

constexpr NameTable<RunState, 4> kRunStates{{{RunState::running, "running"},
                                            {RunState::finished, "finished"},
                                            {RunState::interrupted, "interrupted"},
                                            {RunState::failed, "failed"}}};
constexpr NameTable<AgentMode, 2> kAgentModes{{{AgentMode::tools, "tools"},
                                              {AgentMode::chat, "chat"}}};
constexpr NameTable<Role, 4> kRoles{{{Role::system, "system"},
                                     {Role::user, "user"},
                                     {Role::assistant, "assistant"},
                                     {Role::tool, "tool"}}};
constexpr NameTable<EvalKind, 3> kEvalKinds{{{EvalKind::compile, "compile"},
                                            {EvalKind::evaluate, "evaluate"},
                                            {EvalKind::submit, "submit"}}};
constexpr NameTable<EvalMode, 2> kEvalModes{{{EvalMode::full, "full"},
                                            {EvalMode::compile_only, "compile_only"}}};

template <typename E, size_t N>
std::string_view name_of(const NameTable<E, N>& table, E v) {
  for (const auto& [e, name] : table) {
    if (e == v) return name;
  }
  return "?";
}

template <typename E, size_t N>
Result<E> parse_name(const NameTable<E, N>& table, std::string_view s, const char* what) {
  std::string known;
  for (const auto& [e, name] : table) {
    if (name == s) return e;
    known += (known.empty() ? "" : ", ") + std::string(name);
  }
  return make_error(ErrorCode::invalid_argument,
                    std::string("unknown ") + what + " '" + std::string(s) + "' (one of " +
                        known + ")");
}

}  // namespace

std::string_view to_string(RunState v) { return name_of(kRunStates, v); }
std::string_view to_string(AgentMode v) { return name_of(kAgentModes, v); }
std::string_view to_string(Role v) { return name_of(kRoles, v); }
std::string_view to_string(EvalKind v) { return name_of(kEvalKinds, v); }
std::string_view to_string(EvalMode v) { return name_of(kEvalModes, v); }

Result<RunState> parse_run_state(std::string_view s) { return parse_name(kRunStates, s, "status"); }
Result<AgentMode> parse_agent_mode(std::string_view s) {
  return parse_name(kAgentModes, s, "agent mode");
}
Result<Role> parse_role(std::string_view s) { return parse_name(kRoles, s, "role"); }
Result<EvalKind> parse_eval_kind(std::string_view s) {
  return parse_name(kEvalKinds, s, "evaluation kind");
}
Result<EvalMode> parse_eval_mode(std::string_view s) {
  return parse_name(kEvalModes, s, "evaluation mode");
}

std::string task_suite_hash(const std::vector<TaskRecord>& tasks) {
  std::vector<std::string> lines;
  for (const auto& t : tasks) lines.push_back(t.id + " " + t.suite_hash + "\n");
  std::sort(lines.begin(), lines.end());
  Sha256 h;
  for (const auto& l : lines) h.update(l);
  return h.hex_digest();
}

}  // namespace pf::traj
