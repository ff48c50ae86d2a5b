// pf_fake_eval_worker: a worker (same framework as passforge-worker) whose
// `evaluate` handler answers in the protocol's shape without compiling or
// running anything, and misbehaves as PF_FAKE_EVAL asks. It lets the
// EvaluationService tests reproduce, on a machine without a GPU, worker
// behaviour that production workers show only on one (a crash in the middle
// of a full evaluation) or only when the host is broken (NVRTC internal
// errors). It is never installed; production workers cannot be told to act
// like this.
//   honest              every requested variant correct at 1.25x (full), or
//                       matched (compile-only)
//   crash_on=NAME       honest, but the process kills itself (SIGKILL) when a
//                       request includes variant NAME
//   lie                 to any request: mode "full", AS 99, speedup 1000
//   broken_nvrtc_first  the first process started (a marker file in
//                       PF_FAKE_STATE_DIR decides; run without isolation)
//                       answers every request with NVRTC's internal error,
//                       later processes are honest
//   broken_nvrtc        every process answers with NVRTC's internal error
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "evaluator/protocol/eval_messages.h"
#include "evaluator/protocol/protocol_options.h"
#include "evaluator/protocol/result_score.h"
#include "evaluator/scoring/tolerance.h"
#include "sandbox/worker/run_worker.h"

namespace {

using nlohmann::json;
using pf::ErrorCode;
using pf::make_error;
using pf::Result;
namespace protocol = pf::protocol;

std::string behaviour() {
  const char* b = std::getenv("PF_FAKE_EVAL");
  return b != nullptr ? b : "honest";
}

// Decided once per process: whether this worker's NVRTC is "broken".
bool nvrtc_broken() {
  static const bool broken = [] {
    const std::string b = behaviour();
    if (b == "broken_nvrtc") return true;
    if (b != "broken_nvrtc_first") return false;
    const char* dir = std::getenv("PF_FAKE_STATE_DIR");
    if (dir == nullptr) return false;
    const std::string marker = std::string(dir) + "/first-worker-started";
    int fd = ::open(marker.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return false;
    ::close(fd);
    return true;
  }();
  return broken;
}

json honest_variant(const pf::TaskVariant& tv, protocol::EvalMode mode, bool requested) {
  json v = {
      {"name", tv.name}, {"hidden", tv.hidden},       {protocol::field::kFailureClass, nullptr},
      {"matched", true}, {"match_count", 1},          {"matches", json::array()},
      {"calls", 1},      {"launches", json::array()}, {protocol::field::kMessage, ""}};
  if (mode == protocol::EvalMode::compile_only) return v;
  if (!requested) {
    v["evaluated"] = false;
    v["pending"] = "not requested";
    return v;
  }
  v["evaluated"] = true;
  v["correct"] = true;
  v["first_passing_level"] = pf::kMinToleranceLevel;
  v["speedup"] = 1.25;
  v["unstable"] = false;
  v["flags"] = json::array();
  v["max_abs_diff"] = 0.0;
  v["max_rel_diff"] = 0.0;
  return v;
}

Result<json> evaluate(const json& body) {
  if (nvrtc_broken()) {
    return make_error(ErrorCode::internal,
                      "nvrtcCompileProgram(kernels/k.cu): NVRTC_ERROR_BUILTIN_OPERATION_FAILURE: "
                      "failed to open libnvrtc-builtins.so.13.0");
  }
  PF_ASSIGN(protocol::EvalRequest request, protocol::parse_eval_request(body));
  const std::string b = behaviour();
  if (b == "lie") {
    json lie = {{protocol::field::kMode, "full"},
                {"as", 99},
                {"correct_rate", 1.0},
                {protocol::field::kVariants,
                 {{{"name", request.task.variants.front().name},
                   {"hidden", request.task.variants.front().hidden},
                   {"evaluated", true},
                   {"correct", true},
                   {"speedup", 1000}}}}};
    protocol::stamp_reply(lie);
    return lie;
  }
  const std::string crash_prefix = "crash_on=";
  json result = {{protocol::field::kMode, protocol::eval_mode_name(request.mode)},
                 {"as", nullptr},
                 {"hidden_as", nullptr},
                 {"es_curve", nullptr},
                 {protocol::field::kFailureClass, nullptr},
                 {protocol::field::kMessage, ""},
                 {"ok", true},
                 {"hack_flags", json::array()},
                 {"passes", json::array()},
                 {"compile", nullptr},
                 {protocol::field::kVariants, json::array()}};
  for (const auto& tv : request.task.variants) {
    bool requested = !request.variants;
    for (const auto& name : request.variants.value_or(std::vector<std::string>{})) {
      requested = requested || name == tv.name;
    }
    if (requested && request.mode == protocol::EvalMode::full && b.rfind(crash_prefix, 0) == 0 &&
        b.substr(crash_prefix.size()) == tv.name) {
      std::fprintf(stderr, "pf_fake_eval_worker: killed while evaluating %s\n", tv.name.c_str());
      std::fflush(stderr);
      ::raise(SIGKILL);
    }
    result[protocol::field::kVariants].push_back(honest_variant(tv, request.mode, requested));
  }
  if (request.mode == protocol::EvalMode::full) {
    PF_ASSIGN(auto options, protocol::options_from_json(request.options));
    protocol::score_result(result, options);
  }
  protocol::stamp_reply(result);
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  auto config = pf::sandbox::parse_worker_args(argc, argv);
  if (!config.ok()) {
    std::fprintf(stderr, "pf_fake_eval_worker: %s\n", config.error().message.c_str());
    return pf::sandbox::kWorkerExitUsage;
  }
  pf::sandbox::HandlerTable handlers;
  handlers.add(protocol::kEvaluateRequestType, evaluate);
  return pf::sandbox::run_worker(*config, handlers);
}
