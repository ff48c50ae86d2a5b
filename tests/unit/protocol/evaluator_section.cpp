// The default [evaluator] section as JSON, in its own file: config/config.h
// and evaluator/scoring/score.h both declare pf::ScoringMode.
#include "config/config.h"
#include "config/config_json.h"

namespace pf::protocol::test {

nlohmann::json default_evaluator_section() {
  return config_to_json(Config{})["evaluator"];
}

}  // namespace pf::protocol::test
