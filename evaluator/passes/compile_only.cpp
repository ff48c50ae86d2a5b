#include "evaluator/passes/compile_only.h"

#include <algorithm>
#include <chrono>

#include "common/elapsed.h"
#include "common/strings.h"
#include "evaluator/dialect/printer.h"
#include "evaluator/dialect/syntax_error.h"
#include "evaluator/tasks/typed_graph_memo.h"

namespace pf::passes {
namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

std::vector<std::string> check_launch_sites(const std::vector<LoadedPass>& passes,
                                            const nvrtc::CompileOutcome& compiled) {
  std::vector<std::string> errors;
  std::vector<std::string> names = compiled.kernel_names();
  for (const LoadedPass& pass : passes) {
    for (const LaunchSite& site : pass.launches) {
      std::string at = dialect::format_loc(pass.file, site.loc) + ": ";
      const cuda::KernelInfo* k = compiled.find_kernel(site.kernel);
      if (k == nullptr) {
        std::string hint = closest_match(site.kernel, names);
        errors.push_back(at + "launch of unknown kernel '" + site.kernel + "'" +
                         (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                         "; kernels: " + (names.empty() ? std::string("none") : join(names, ", ")) +
                         " (kernels must be extern \"C\" __global__)");
        continue;
      }
      if (site.arg_count >= 0 && static_cast<size_t>(site.arg_count) != k->params.size()) {
        errors.push_back(at + "kernel '" + k->name + "' takes " + std::to_string(k->params.size()) +
                         " parameters, launch passes " + std::to_string(site.arg_count) + " (" +
                         cuda::describe_params(k->params) + ")");
      }
    }
  }
  return errors;
}

bool CompileOnlyResult::ok() const {
  if (failure != FailureClass::none) return false;
  return std::all_of(variants.begin(), variants.end(),
                     [](const VariantReport& v) { return v.failure == FailureClass::none; });
}

Result<CompileOnlyResult> evaluate_compile_only(const Task& task, const PassWorkspace& workspace,
                                                const KernelCompiler& compile,
                                                const OpRegistry& registry,
                                                const CompileOnlyOptions& options) {
  CompileOnlyResult result;
  auto t0 = Clock::now();
  auto passes = load_passes(workspace, registry);
  result.phase_ms["load"] = ms_since(t0);
  if (!passes.ok()) {
    result.failure = FailureClass::compile_fail;
    result.message = passes.error().message;
    return result;
  }
  result.passes = std::move(*passes);

  nvrtc::CompileOutcome compiled;
  t0 = Clock::now();
  std::map<std::string, std::string> kernel_files = workspace.kernel_files();
  if (!kernel_files.empty()) {
    PF_ASSIGN(compiled, compile(kernel_files));
    for (const auto& f : compiled.flags()) {
      std::string name = nvrtc::source_flag_name(f.kind);
      if (f.kind != nvrtc::SourceFlagKind::inline_asm &&
          std::find(result.hack_flags.begin(), result.hack_flags.end(), name) ==
              result.hack_flags.end()) {
        result.hack_flags.push_back(name);
      }
    }
  }
  result.compile = compiled;
  result.phase_ms["compile"] = ms_since(t0);
  if (!compiled.ok()) {
    result.failure = compiled.status == nvrtc::CompileStatus::resource_limit
                         ? FailureClass::resource_limit
                         : FailureClass::compile_fail;
    result.message = compiled.message;
    return result;
  }
  std::vector<std::string> launch_errors = check_launch_sites(result.passes, compiled);
  if (!launch_errors.empty()) {
    result.failure = FailureClass::compile_fail;
    result.message = join(launch_errors, "\n");
    return result;
  }
  std::vector<cuda::KernelInfo> all_kernels;
  for (const auto& f : compiled.files) {
    all_kernels.insert(all_kernels.end(), f.kernels.begin(), f.kernels.end());
  }
  KernelTable kernels = kernel_table(all_kernels);

  double& match_ms = result.phase_ms["match"];
  double& print_ms = result.phase_ms["print"];
  double& dry_run_ms = result.phase_ms["dry_run"];
  for (const TaskVariant& variant : task.variants) {
    t0 = Clock::now();
    auto graph = TypedGraphMemo::process().typed(variant, registry);
    if (!graph.ok()) {
      return graph.error().with_context("task " + task.id + ", variant " + variant.name);
    }
    VariantReport report;
    report.name = variant.name;
    report.hidden = variant.hidden;
    RewriteResult rewritten = apply_passes(*graph, result.passes, registry, options.match);
    report.passes = rewritten.passes;
    match_ms += ms_since(t0);
    t0 = Clock::now();
    if (options.include_rewritten) {
      dialect::PrintOptions po;
      po.type_comments = true;
      report.rewritten = dialect::print_graph(rewritten.graph, registry, po);
      print_ms += ms_since(t0);
      t0 = Clock::now();
    }
    if (rewritten.total_matches() == 0) {
      report.failure = FailureClass::pass_miss;
      std::vector<std::string> why;
      for (const auto& p : rewritten.passes) why.push_back(p.diagnostics);
      report.message = join(why, "\n");
    } else {
      report.calls = dry_run(rewritten.graph, result.passes, kernels, registry, options.dry_run);
      for (const auto& call : report.calls) {
        if (!call.ok()) {
          report.failure = call.failure;
          report.message = call.error;
          break;
        }
      }
    }
    dry_run_ms += ms_since(t0);
    report.graph = std::move(*graph);
    report.rewritten_graph = std::move(rewritten.graph);
    result.variants.push_back(std::move(report));
  }
  return result;
}

}  // namespace pf::passes
