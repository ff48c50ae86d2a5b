#include "evaluator/protocol/full_evaluation.h"

#include <algorithm>
#include <chrono>
#include <random>

#include "common/elapsed.h"
#include "evaluator/gpu/timing.h"
#include "evaluator/passes/gpu_replacement.h"
#include "evaluator/passes/rewriter.h"
#include "evaluator/protocol/gpu_variant.h"
#include "evaluator/protocol/result_score.h"
#include "evaluator/tasks/importer.h"

namespace pf::protocol {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// A variant the compile-only phase already failed (pass_miss, dry run): it
// is evaluated, with that class, and never reaches the GPU.
void mark_failed_early(json& v) {
  v["evaluated"] = true;
  v["correct"] = false;
  v["first_passing_level"] = nullptr;
  v["speedup"] = nullptr;
  v["unstable"] = false;
  v["flags"] = json::array();
}

void mark_not_evaluated(json& v, const std::string& why) {
  v["evaluated"] = false;
  v["pending"] = why;
}

constexpr const char* kNotCompiled = "the workspace did not compile";

// The fields every full result adds to the compile-only one.
void begin_full_result(json& result, const ProtocolOptions& options) {
  result["mode"] = "full";
  // Graph replay removes host launch gaps from both sides: speedups measured
  // one way are not comparable with the other's, so the result says which.
  result["baseline"] =
      std::string(
          "passforge eager CUDA baseline (one kernel or library call per "
          "op), both sides timed ") +
      (options.graph_replay ? "as replayed CUDA graphs where they can be captured (each "
                              "variant's timing.launch says)"
                            : "launched step by step");
  result["options"] = options_to_json(options);
}

}  // namespace

// 53 bits, so that every JSON reader (doubles included) sees the seed exactly.
uint64_t fresh_seed() {
  std::random_device rd;
  const uint64_t s = (static_cast<uint64_t>(rd()) << 32) | rd();
  return s & ((uint64_t{1} << 53) - 1);
}

std::optional<json> full_result_without_gpu(json result, ProtocolOptions options,
                                            double compile_ms) {
  if (!result.is_object() || !result.contains("variants") || !result["variants"].is_array()) {
    return std::nullopt;
  }
  const bool whole_failure = result.value(kFailureClassField, json()).is_string();
  json& variants = result["variants"];
  const bool all_failed_early = std::all_of(variants.begin(), variants.end(), [](const json& v) {
    return v.value(kFailureClassField, json()).is_string();
  });
  if (!whole_failure && !all_failed_early) return std::nullopt;
  if (!options.seed) options.seed = fresh_seed();
  begin_full_result(result, options);
  for (auto& v : variants) {
    if (whole_failure) {
      mark_not_evaluated(v, kNotCompiled);
    } else {
      mark_failed_early(v);
    }
  }
  result["phases_ms"] = {{"compile_and_match", compile_ms}};
  score_result(result, options);
  return result;
}

passes::CompileOnlyOptions compile_only_options(const ProtocolOptions& options) {
  passes::CompileOnlyOptions co;
  co.include_rewritten = options.include_rewritten;
  co.match.max_steps = options.max_match_steps;
  return co;
}

Result<FullEvaluation> evaluate_full(const Task& task, const passes::PassWorkspace& workspace,
                                     const passes::KernelCompiler& compile,
                                     gpu::GpuRuntime& runtime, const ProtocolOptions& requested,
                                     const std::set<std::string>& only,
                                     const OpRegistry& registry) {
  FullEvaluation out;
  ProtocolOptions options = requested;
  if (!options.seed) options.seed = fresh_seed();
  json phases = json::object();
  auto t0 = Clock::now();
  passes::CompileOnlyOptions co_options = compile_only_options(options);
  co_options.dry_run.device = runtime.properties().limits;
  PF_ASSIGN(passes::CompileOnlyResult co,
            passes::evaluate_compile_only(task, workspace, compile, registry, co_options));
  phases["compile_and_match"] = ms_since(t0);
  for (const auto& [phase, ms] : co.phase_ms) phases["compile_and_match." + phase] = ms;
  json& result = out.result;
  result = co.to_json();
  begin_full_result(result, options);
  const auto& props = runtime.properties();
  DevicePeaks peaks = device_peaks(props.sm_count, props.clock_khz, props.peak_memory_bandwidth());
  peaks.l2_bytes = props.l2_cache_bytes;
  result["device"] = {{"name", props.name},
                      {"arch", props.arch()},
                      {"peak_memory_bytes_per_s", peaks.memory_bytes_per_s},
                      {"peak_flops_per_s", peaks.flops_per_s}};

  std::unique_ptr<passes::GpuReplacements> repl;
  t0 = Clock::now();
  if (co.failure == FailureClass::none) {
    auto made = passes::GpuReplacements::create(
        co.passes, co.compile.value_or(nvrtc::CompileOutcome{}), runtime.driver_ptr());
    if (!made.ok()) {
      result[kFailureClassField] = failure_class_name(FailureClass::compile_fail);
      result["message"] = "loading the compiled kernels: " + made.error().message;
      result["ok"] = false;
    } else {
      repl = std::move(*made);
    }
  }
  if (!repl) {
    for (auto& v : result["variants"]) mark_not_evaluated(v, kNotCompiled);
    result["phases_ms"] = phases;
    score_result(result, options);
    return out;
  }
  phases["load_kernels"] = ms_since(t0);
  t0 = Clock::now();
  PF_ASSIGN(auto harness, gpu::TimingHarness::create(runtime));
  phases["timing_harness"] = ms_since(t0);
  GpuContext ctx{runtime, *harness, peaks, registry};
  // Only a requested seed can repeat, so only then are draws worth keeping.
  if (requested.seed) ctx.input_draws = &InputDrawCache::process();
  if (options.baseline_pool) ctx.baseline_pool = &BaselinePool::process();

  t0 = Clock::now();
  // The evaluator's own time (its phases and what they leave out: releasing
  // plans and buffers) and building the variants' result JSON.
  double evaluate_ms = 0, report_ms = 0;
  json& variants = result["variants"];
  for (size_t i = 0; i < task.variants.size(); ++i) {
    const TaskVariant& tv = task.variants[i];
    json& v = variants[i];
    if (!only.empty() && only.count(tv.name) == 0) {
      mark_not_evaluated(v, "not requested");
      continue;
    }
    if (!out.fatal.empty()) {
      mark_not_evaluated(v, "the worker's CUDA context was lost in an earlier variant");
      continue;
    }
    if (co.variants[i].failure != FailureClass::none) {
      mark_failed_early(v);
      continue;
    }
    // The compile-only phase typed and rewrote every variant it reports.
    const passes::VariantReport& report = co.variants[i];
    if (!report.graph || !report.rewritten_graph) {
      return make_error(ErrorCode::internal, "variant '" + tv.name + "' was not rewritten");
    }
    auto started = Clock::now();
    VariantRun run =
        evaluate_variant_on_gpu(ctx, *repl, tv, *report.graph, *report.rewritten_graph, options);
    evaluate_ms += ms_since(started);
    started = Clock::now();
    run.merge_into(v);
    report_ms += ms_since(started);
    if (run.fatal) out.fatal = runtime.driver().poisoned();
  }
  phases["variants"] = ms_since(t0);
  phases["variants.evaluate"] = evaluate_ms;
  phases["variants.report"] = report_ms;
  result["phases_ms"] = phases;
  if (!out.fatal.empty()) result["fatal"] = out.fatal;
  score_result(result, options);
  return out;
}

}  // namespace pf::protocol
