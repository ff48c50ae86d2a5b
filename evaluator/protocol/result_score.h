// Task-level fields of a full result computed from its variants (pure, CPU):
// AS / hidden AS / ES_t curves via evaluator/scoring, the statistics of
// score_stats, hack_flags (static flags plus every model-blaming variant flag),
// task_flags (weak_task), the detailed `flags` list with evidence, `unstable`
// and `incomplete`. Used by the worker after evaluating, and by the client
// after merging the replies of a resumed evaluation (evaluation_service.h).
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "evaluator/protocol/protocol_options.h"
#include "evaluator/scoring/score.h"

namespace pf::protocol {

//! The scoring view of each evaluated, scorable variant of a result
//! (skipped and not-yet-evaluated variants are left out).
std::vector<VariantOutcome> variant_outcomes(const nlohmann::json& result, bool hidden);

//! (Re)computes the task-level fields of `result` in place. A result with a
//! whole failure (failure_class set) scores exactly b.
void score_result(nlohmann::json& result, const ProtocolOptions& options);

}  // namespace pf::protocol
