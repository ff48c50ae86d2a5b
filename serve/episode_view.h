// The JSON of the episode page (docs/serve.md "API"): the conversation in
// order (roles, reasoning, tool calls with parsed arguments, tool results),
// every evaluation with its report and the evidence behind its flags, and the
// pass files each evaluation scored with the diff against the previous one.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "common/result.h"
#include "serve/run_catalog.h"

namespace pf::serve {

//! not_found when the store has no such episode.
Result<nlohmann::json> episode_json(const RunEntry& entry, const std::string& episode_id);

}  // namespace pf::serve
