#include "evaluator/protocol/evaluation_plan.h"

#include "config/config.h"
#include "sandbox/cuda/cuda_driver.h"
#include "sandbox/cuda/device_limits_json.h"
#include "sandbox/cuda/device_properties.h"

namespace pf::protocol {

Result<EvaluationPlan> plan_evaluation(const EvaluatorConfig& ev) {
  EvaluationPlan plan;
  if (ev.compile_only == CompileOnly::yes) {
    plan.reason = "evaluator.compile_only = true";
    return plan;
  }
  auto driver = cuda::CudaDriver::load();
  int count = driver.ok() ? (*driver)->device_count() : 0;
  if (count == 0) {
    std::string why = driver.ok() ? "no CUDA device" : driver.error().message;
    if (ev.compile_only == CompileOnly::no) {
      return make_error(ErrorCode::unsupported,
                        "evaluator.compile_only = false, but no GPU is usable here (" + why +
                            "); set it to \"auto\" or true to evaluate compile-only");
    }
    plan.reason = "no GPU here (" + why + ")";
    return plan;
  }
  std::vector<int> ordinals;
  if (ev.gpus.all) {
    for (int i = 0; i < count; ++i) ordinals.push_back(i);
  } else {
    for (int i : ev.gpus.indices) {
      if (i < 0 || i >= count) {
        return make_error(ErrorCode::invalid_argument,
                          "evaluator.gpus lists GPU " + std::to_string(i) +
                              ", but this machine has " + std::to_string(count) + " (0.." +
                              std::to_string(count - 1) + ")");
      }
      ordinals.push_back(i);
    }
  }
  if (ordinals.empty()) {
    return make_error(ErrorCode::invalid_argument, "evaluator.gpus lists no GPU");
  }
  plan.mode = EvalMode::full;
  for (int i : ordinals) plan.devices.push_back(std::to_string(i));
  plan.driver_version = (*driver)->driver_version_string();
  if (auto props = cuda::query_device_properties(**driver, ordinals.front()); props.ok()) {
    plan.gpu_name = props->name;
    plan.gpu_arch = props->arch();
    plan.gpu_limits = cuda::limits_to_json(props->limits);
  }
  plan.reason = std::to_string(ordinals.size()) + " GPU worker(s)" +
                (plan.gpu_name.empty() ? "" : " on " + plan.gpu_name);
  return plan;
}

EvaluationPlan first_gpu_only(EvaluationPlan plan) {
  if (plan.devices.size() > 1) {
    plan.devices.resize(1);
    plan.reason =
        "GPU " + plan.devices.front() + (plan.gpu_name.empty() ? "" : " (" + plan.gpu_name + ")");
  }
  return plan;
}

}  // namespace pf::protocol
