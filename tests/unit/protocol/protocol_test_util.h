// In-process full evaluations for GPU suites: the shared test GPU runtime,
// NVRTC for its architecture, evaluate_full with fast default options.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "common/result.h"
#include "evaluator/protocol/protocol_options.h"
#include "evaluator/tasks/task.h"

namespace pf::protocol::test {

//! Fewer trials than the defaults (suites time many variants); still
//! interleaved, flushed and re-checked.
ProtocolOptions quick_options();

//! evaluate_full of the workspace at `dir` on `task` with the test runtime.
//! Needs a GPU (call after PF_REQUIRE_GPU).
Result<nlohmann::json> evaluate_full_here(const Task& task, const std::filesystem::path& dir,
                                          const ProtocolOptions& options = quick_options(),
                                          const std::set<std::string>& only = {});

//! One line per variant: name, class, level, errors, speedup, flags.
std::string describe_result(const nlohmann::json& result);

}  // namespace pf::protocol::test
