// Compile-only evaluation: what the agent's `compile` tool runs, no GPU
// needed. Loads every pass (parse, pattern, replacement-language check),
// NVRTC-compiles the kernels, checks that every launch names an existing
// kernel with the right number of arguments, matches every pattern on every
// variant (hidden ones too, reported with `hidden`), and dry-runs every
// replacement call on the variant's concrete shapes (dry_run.h).
// The JSON form is documented in docs/result-fields.md ("Compile-only
// evaluation").
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/passes/dry_run.h"
#include "evaluator/passes/rewriter.h"
#include "evaluator/passes/workspace.h"
#include "evaluator/scoring/failure_class.h"
#include "evaluator/tasks/task.h"
#include "sandbox/nvrtc/nvrtc_compiler.h"

namespace pf::passes {

//! Compiles kernels/*.cu (path -> source). An Error means the compiler is
//! unusable (infrastructure), not that the kernels are wrong.
using KernelCompiler =
    std::function<Result<nvrtc::CompileOutcome>(const std::map<std::string, std::string>&)>;

struct CompileOnlyOptions {
  DryRunOptions dry_run;
  MatchOptions match;
  bool include_rewritten = true;  // print each rewritten variant (with type comments)
};

struct VariantReport {
  std::string name;
  bool hidden = false;
  FailureClass failure = FailureClass::none;  // pass_miss, or the first dry-run failure's class
  //! pass_miss: every pass's diagnostics; dry-run failure: the error.
  std::string message;
  std::vector<PassOutcome> passes;  // per pass: matches (and diagnostics when none)
  std::vector<CallDryRun> calls;
  std::string rewritten;
  //! The typed variant graph and its rewrite, kept for a caller that goes on
  //! to run the variant (the full evaluation), so it need not match again.
  std::optional<Graph> graph;
  std::optional<Graph> rewritten_graph;
};

struct CompileOnlyResult {
  FailureClass failure = FailureClass::none;  // compile_fail for the whole evaluation
  std::string message;                        // what failed, ready to show
  std::vector<LoadedPass> passes;
  std::optional<nvrtc::CompileOutcome> compile;
  std::vector<VariantReport> variants;
  std::vector<std::string> hack_flags;  // static source flags (timer_read, ...)
  //! Where the time went (ms): "load", "compile", "match", "print", "dry_run".
  std::map<std::string, double> phase_ms;

  bool ok() const;  // no whole failure and every variant matched and dry-ran
  nlohmann::json to_json() const;
};

//! An Error only for infrastructure problems (the compiler is unusable, a
//! variant of the task does not build); everything the workspace gets wrong
//! is in the result.
Result<CompileOnlyResult> evaluate_compile_only(const Task& task, const PassWorkspace& workspace,
                                                const KernelCompiler& compile,
                                                const OpRegistry& registry,
                                                const CompileOnlyOptions& options = {});

//! Launches whose literal kernel name does not exist, or whose literal
//! argument tuple has the wrong length; one "file:line:col: ..." line each.
std::vector<std::string> check_launch_sites(const std::vector<LoadedPass>& passes,
                                            const nvrtc::CompileOutcome& compiled);

}  // namespace pf::passes
