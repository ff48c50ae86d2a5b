// The orchestrator's checks of an `evaluate` reply before anything of it is
// kept: a worker runs the model's code, so its reply is evidence, not truth.
// A reply that fails a check is a worker fault (EvaluationService logs it,
// replaces the worker and retries once; it is never stored):
//   - the mode is not the one requested, the protocol version differs;
//   - a variant the task does not have, one listed twice, a hidden flag that
//     differs from the task's, an evaluated variant that was not requested;
//   - a number outside physical limits: NaN/inf, a negative or zero speedup,
//     a speedup above kMaxPhysicalSpeedup that the worker's own roofline
//     check did not flag (`implausible_speedup`, which already excludes the
//     evaluation from successes), correct_rate outside [0, 1], a negative
//     difference or duration, a tolerance level outside the scale;
//   - a compile-only reply that claims a score or a speedup;
//   - AS, hidden AS, ES_t or correct_rate that differ from what the
//     orchestrator's own scoring (result_score.h) computes from the reply's
//     per-variant statuses and speedups.
// The stored task-level fields are the orchestrator's recomputation.
#pragma once

#include <nlohmann/json.hpp>

#include "common/result.h"
#include "evaluator/protocol/eval_messages.h"
#include "evaluator/protocol/protocol_options.h"

namespace pf::protocol {

//! Above this a speedup over the eager baseline is not physical for a kernel
//! that does the work: the eager side runs each op once at memory speed, so
//! even a whole chain fused into one launch gains far less. A candidate that
//! skips the work can be faster; the worker's roofline check flags it, and a
//! reply that shows such a speedup without that flag is a worker fault
//! (docs/evaluation.md "Reply checks").
inline constexpr double kMaxPhysicalSpeedup = 500.0;

//! ErrorCode::invalid_argument naming the first violation.
Status check_reply(const EvalRequest& request, const EvalReply& reply,
                   const ProtocolOptions& options);

}  // namespace pf::protocol
