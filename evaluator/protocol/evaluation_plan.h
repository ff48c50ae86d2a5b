// How evaluations run on this machine, decided once from the [evaluator]
// configuration: full on the GPUs of evaluator.gpus (each index checked to
// exist), compile-only when evaluator.compile_only says so or no GPU is
// usable. `passforge run`, `passforge eval` and the experiments all plan
// through this and start their EvaluationService from it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/result.h"
#include "evaluator/protocol/eval_messages.h"

// Declared only: config/config.h and evaluator/scoring/score.h both define
// pf::ScoringMode, so protocol headers never include the configuration.
namespace pf {
struct Config;
struct EvaluatorConfig;
}  // namespace pf

namespace pf::protocol {

struct EvaluationPlan {
  EvalMode mode = EvalMode::compile_only;
  std::vector<std::string> devices;  // CUDA ordinals for the GPU workers (full mode)
  std::string reason;                // why this mode, in words, for the user
  std::string gpu_name, driver_version;
  //! NVRTC target of the first GPU ("sm_90"): what CPU workers compile for
  //! so that the GPU workers find the kernels in the cache ("" unknown).
  std::string gpu_arch;
  //! The first GPU's launch limits (sandbox/cuda/device_limits_json.h; null:
  //! unknown), which the CPU workers' dry runs use.
  nlohmann::json gpu_limits;
};

//! Errors: evaluator.compile_only = false without a usable GPU
//! (ErrorCode::unsupported), a GPU index in evaluator.gpus this machine does
//! not have (ErrorCode::invalid_argument).
Result<EvaluationPlan> plan_evaluation(const EvaluatorConfig& evaluator);

//! The plan with only the first of its GPUs: one worker for a single
//! evaluation (`passforge eval`).
EvaluationPlan first_gpu_only(EvaluationPlan plan);

}  // namespace pf::protocol
