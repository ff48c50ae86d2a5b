#include "tests/unit/protocol/protocol_test_util.h"

#include "evaluator/passes/workspace.h"
#include "evaluator/protocol/full_evaluation.h"
#include "sandbox/nvrtc/nvrtc_compiler.h"
#include "tests/unit/gpu/gpu_test_util.h"

namespace pf::protocol::test {

using nlohmann::json;

ProtocolOptions quick_options() {
  ProtocolOptions o;
  o.warmup = 5;
  o.trials = 30;
  o.include_rewritten = false;
  return o;
}

Result<json> evaluate_full_here(const Task& task, const std::filesystem::path& dir,
                                const ProtocolOptions& options, const std::set<std::string>& only) {
  gpu::GpuRuntime* rt = gpu::test::runtime();
  if (rt == nullptr) return make_error(ErrorCode::unavailable, "no GPU runtime");
  PF_ASSIGN(auto ws, passes::PassWorkspace::load(dir));
  PF_ASSIGN(auto lib, nvrtc::NvrtcLibrary::load());
  auto compiler = std::make_shared<nvrtc::NvrtcCompiler>(lib, nullptr);
  std::string arch = rt->properties().arch();
  passes::KernelCompiler compile = [compiler, arch](const std::map<std::string, std::string>& f) {
    nvrtc::CompileOptions co;
    co.arch = arch;
    return compiler->compile(f, co);
  };
  PF_ASSIGN(FullEvaluation e, evaluate_full(task, ws, compile, *rt, options, only));
  if (!e.fatal.empty()) e.result["fatal"] = e.fatal;
  return e.result;
}

std::string describe_result(const json& r) {
  std::string out;
  char buf[512];
  for (const auto& v : r.value("variants", json::array())) {
    std::string flags;
    for (const auto& f : v.value("flags", json::array())) flags += f.value("flag", "") + " ";
    // Device time against the roofline floor: how far an honest kernel sits
    // above the floor is what the implausibility fraction must leave room for.
    json device_ms =
        v.contains("timing") ? v["timing"]["candidate"].value("device_median_ms", json()) : json();
    json floor_us =
        v.contains("roofline") ? v["roofline"].value("memory_floor_us", json()) : json();
    std::snprintf(
        buf, sizeof buf,
        "  %-60.60s %-14s level %-5s abs %-10s speedup %-8s device_ms %s floor_us %s %s %s\n",
        v.value("name", "").c_str(),
        v.value("failure_class", json()).is_string()
            ? v["failure_class"].get<std::string>().c_str()
            : (v.value("correct", false) ? "correct" : "-"),
        v.value("first_passing_level", json()).dump().c_str(),
        v.value("max_abs_diff", json()).dump().c_str(), v.value("speedup", json()).dump().c_str(),
        device_ms.dump().c_str(), floor_us.dump().c_str(), flags.c_str(),
        v.value("skipped", "").c_str());
    out += buf;
  }
  std::snprintf(buf, sizeof buf, "  AS %s hidden AS %s hack_flags %s task_flags %s\n",
                r.value("as", json()).dump().c_str(), r.value("hidden_as", json()).dump().c_str(),
                r.value("hack_flags", json::array()).dump().c_str(),
                r.value("task_flags", json::array()).dump().c_str());
  out += buf;
  return out;
}

}  // namespace pf::protocol::test
