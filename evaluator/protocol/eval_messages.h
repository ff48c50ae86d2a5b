// The `evaluate` request and the parts of its reply the orchestrator checks,
// as types shared by both processes: the orchestrator's EvaluationService
// (evaluation_service.h) writes requests and reads replies, passforge-worker
// (worker/pass_handler.h) reads requests and stamps replies. JSON exists only
// at the wire (to_json / parse_*). Both directions carry
// kEvalProtocolVersion; a message of another version is refused on receipt,
// so a worker binary older or newer than its orchestrator fails loudly
// instead of being half understood.
//
// The reply body is the result documented in docs/evaluation.md and
// docs/result-fields.md. EvalReply types the fields that decide a score (mode,
// whole failure, per-variant status and speedup, AS, correct rate); the rest
// (timing details, flags, matches) travels as the body and is stored as it is
// once the typed part passed reply_checks.h.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "evaluator/scoring/failure_class.h"
#include "evaluator/tasks/task.h"

namespace pf::protocol {

//! Bumped whenever a field of the request or of EvalReply changes meaning.
inline constexpr int kEvalProtocolVersion = 1;
//! The worker request type.
inline constexpr const char* kEvaluateRequestType = "evaluate";

//! Result field names read outside the code that writes them: one spelling.
namespace field {
inline constexpr const char* kProtocolVersion = "protocol_version";
inline constexpr const char* kMode = "mode";
inline constexpr const char* kFailureClass = kFailureClassField;
inline constexpr const char* kMessage = "message";
inline constexpr const char* kVariants = "variants";
inline constexpr const char* kFatal = "fatal";
}  // namespace field

enum class EvalMode { compile_only, full };
const char* eval_mode_name(EvalMode mode);
std::optional<EvalMode> parse_eval_mode(std::string_view name);

struct EvalRequest {
  Task task;                                 // with the run's hidden flags
  std::map<std::string, std::string> files;  // the pass workspace
  EvalMode mode = EvalMode::compile_only;
  //! The [evaluator] section and protocol details (protocol_options.h), plus
  //! "arch" (NVRTC target of a compile-only request; null: the worker's GPU),
  //! "device_limits" (the dry runs' launch limits, cuda::limits_to_json),
  //! "include_rewritten" and "max_match_steps" (compile-only).
  nlohmann::json options = nlohmann::json::object();
  //! Full mode only: evaluate just these (the rest come back "evaluated": false).
  std::optional<std::vector<std::string>> variants;
};

nlohmann::json to_json(const EvalRequest& request);
//! invalid_argument naming the field when the body is not a request of this version.
Result<EvalRequest> parse_eval_request(const nlohmann::json& body);

//! One variant as a reply states it.
struct VariantReport {
  std::string name;
  bool hidden = false;
  bool evaluated = true;  // false: not reached or not requested
  bool skipped = false;
  bool correct = false;
  bool unstable = false;
  std::optional<FailureClass> failure;
  std::optional<double> speedup;
  std::optional<int> first_passing_level;
  std::optional<double> max_abs_diff, max_rel_diff;
  std::vector<double> timing_ms;   // every *_median_ms / *_iqr_ms the reply gives
  std::vector<std::string> flags;  // integrity flag names (docs/evaluation.md)
};

struct EvalReply {
  EvalMode mode = EvalMode::compile_only;
  std::optional<FailureClass> failure;  // the whole evaluation failed
  std::optional<double> as, hidden_as, correct_rate, geomean_speedup;
  std::vector<VariantReport> variants;
  bool fatal = false;   // full: the worker's CUDA context was lost mid-way
  nlohmann::json body;  // the whole result
};

//! The version stamp the worker puts on every reply body.
void stamp_reply(nlohmann::json& body);
//! invalid_argument naming the field when `body` is not a well-formed reply of
//! this version (wrong types, unknown failure class or mode, missing version).
Result<EvalReply> parse_eval_reply(nlohmann::json body);

}  // namespace pf::protocol
