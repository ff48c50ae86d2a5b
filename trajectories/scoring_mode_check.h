// The scoring mode each run of a store was scored under, and the refusal to
// combine runs of different modes (their AS and ES_t are different numbers):
// `passforge merge` and `passforge stats` use it.
#pragma once

#include <map>
#include <string>

#include "common/result.h"
#include "trajectories/records.h"

namespace pf::traj {

//! The run's stored [evaluator] scoring_mode ("strict" where it is absent:
//! nothing was forgiven before the key existed).
std::string run_scoring_mode(const RunRecord& run);

//! Collects the modes of runs seen in several places.
class ScoringModeCheck {
 public:
  void add(const RunRecord& run, const std::string& where);
  //! An invalid_argument error starting with `refusal` and naming each mode
  //! and one place it was seen, when more than one mode was added.
  Status require_one(const std::string& refusal) const;

 private:
  std::map<std::string, std::string> where_;  // mode -> first place seen
};

}  // namespace pf::traj
