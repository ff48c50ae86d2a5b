#include "trajectories/scoring_mode_check.h"

namespace pf::traj {

std::string run_scoring_mode(const RunRecord& run) {
  const Json& c = run.config_json;
  if (c.is_object() && c.contains("evaluator") && c["evaluator"].is_object()) {
    const Json& e = c["evaluator"];
    if (e.contains("scoring_mode") && e["scoring_mode"].is_string()) {
      return e["scoring_mode"].get<std::string>();
    }
  }
  return "strict";
}

void ScoringModeCheck::add(const RunRecord& run, const std::string& where) {
  where_.emplace(run_scoring_mode(run), where + " (run " + run.id + ")");
}

Status ScoringModeCheck::require_one(const std::string& refusal) const {
  if (where_.size() <= 1) return ok_status();
  std::string msg = refusal + " (their AS and ES_t are not comparable):";
  for (const auto& [mode, where] : where_) msg += "\n  scoring_mode '" + mode + "' in " + where;
  return make_error(ErrorCode::invalid_argument, msg);
}

}  // namespace pf::traj
