#include "evaluator/scoring/scoring_mode.h"

#include <array>
#include <utility>

namespace pf {
namespace {

constexpr std::array<std::pair<ScoringMode, const char*>, 3> kNames = {{
    {ScoringMode::strict, "strict"},
    {ScoringMode::passnet, "passnet"},
    {ScoringMode::graphnet, "graphnet"},
}};

// PassNet's harness runs the compiled model inside one try block: a pass that
// does not load or compile, a crash, a killed (timed-out) process or a timing
// fluctuation all leave no "[Datatype]" log line, which its log parser reads
// as `eager_fail`, never tolerated. Outputs that ran but differ in dtype or
// shape end as `shape_mismatch` (its parser finds no "[Shape] ... match:True"
// line) and, like its own `pass_miss` status ("No passes modified"), fall in
// its runtime bucket: tolerated from t = 3.
std::optional<int> passnet_rule(FailureClass c) {
  switch (c) {
    case FailureClass::none:
    case FailureClass::accuracy:
      return 1;
    case FailureClass::shape_mismatch:
    case FailureClass::dtype_mismatch:
    case FailureClass::pass_miss:
      return 3;
    case FailureClass::compile_fail:
    case FailureClass::runtime_fail:
    case FailureClass::timeout:
    case FailureClass::unstable:
    case FailureClass::integrity:
      return std::nullopt;
    default:
      return std::nullopt;  // later run failures (resource limits) are crashes there
  }
}

// GraphNet's default interpretation: accuracy from t = 1, every other error
// string (mismatches, compile and execution failures, and any name it does not
// know, which it reads as an execution failure) from t = 3.
std::optional<int> graphnet_rule(FailureClass c) {
  switch (c) {
    case FailureClass::none:
    case FailureClass::accuracy:
      return 1;
    case FailureClass::integrity:
      return std::nullopt;
    default:
      return 3;
  }
}

}  // namespace

const char* scoring_mode_name(ScoringMode mode) {
  for (const auto& [m, name] : kNames) {
    if (m == mode) return name;
  }
  return "strict";
}

std::optional<ScoringMode> parse_scoring_mode(std::string_view name) {
  for (const auto& [m, n] : kNames) {
    if (name == n) return m;
  }
  return std::nullopt;
}

// `integrity` (a detected cheat) has no upstream counterpart: no upstream
// number exists to reproduce, so every mode treats it like upstream's
// unrecoverable failure and never forgives it.
std::optional<int> forgiven_from(FailureClass c, ScoringMode mode) {
  switch (mode) {
    case ScoringMode::strict:
      return std::nullopt;
    case ScoringMode::passnet:
      return passnet_rule(c);
    case ScoringMode::graphnet:
      return graphnet_rule(c);
  }
  return std::nullopt;
}

UnstableRule unstable_rule(ScoringMode mode) {
  switch (mode) {
    case ScoringMode::strict:
      return UnstableRule::excluded;
    case ScoringMode::passnet:
      return UnstableRule::failed;
    case ScoringMode::graphnet:
      return UnstableRule::scored;
  }
  return UnstableRule::excluded;
}

}  // namespace pf
