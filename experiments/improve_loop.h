// `passforge improve` without the command line (docs/improve.md). Round k:
//   train    training tasks x samples_per_task episodes (seed run.seed + k),
//            prompts carrying the exemplars selected in rounds < k
//   eval     held-out tasks x eval_samples_per_task with fixed seeds, same
//            model and exemplars: what round k's state achieves
//   select   the round's best training episodes into the exemplar library
//   export   SFT (openai) and DPO files of the round's training store
//   training the user's command; a JSON line on its stdout may name the
//            endpoint/model for the rounds after it
// Each step is recorded in the store when it ends; an interrupted loop
// resumes at the step it stopped (a session step continues its unfinished
// episodes). Layout: <dir>/passforge.db (loop state, exemplar library),
// <dir>/rounds/<k>/{train,eval}/passforge.db, <dir>/rounds/<k>/{sft,dpo}.jsonl.
#pragma once

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "agent/llm/cancel_token.h"
#include "experiments/ab_experiment.h"
#include "experiments/episode_metrics.h"
#include "experiments/improve_spec.h"

namespace pf::experiments {

struct ImproveRequest {
  std::optional<ImproveSpec> spec;   // a new loop
  std::filesystem::path resume_dir;  // or: continue the one stored here
  LlmOptionsFor llm_options;
  bool terminal = false;
  std::function<void(const std::string&)> notice = [](const std::string&) {};
};

struct RoundRow {
  int round = 0;
  std::string model;
  int64_t exemplars = 0;  // in the library when the round started
  std::vector<std::string> done;
  std::optional<ArmMetrics> train, eval;
  int64_t selected = 0;
  int64_t sft_records = 0, dpo_records = 0;
};

struct ImproveReport {
  std::string id;
  traj::EvalMode mode = traj::EvalMode::compile_only;
  int rounds_planned = 0;
  std::vector<RoundRow> rounds;

  std::string table() const;
  nlohmann::json to_json() const;
  std::string svg() const;
};

struct ImproveOutcome {
  std::string id;
  std::filesystem::path dir;
  bool interrupted = false;
  ImproveReport report;
};

Result<ImproveOutcome> run_improve(const ImproveRequest& request, const llm::CancelToken& cancel);

//! The per-round report of the loop stored in `dir` (runs nothing).
Result<ImproveReport> report_improve(const std::filesystem::path& dir);

//! Runs `command` with /bin/sh; stdout is returned (and its last JSON object
//! line naming "base_url" and/or "model" parsed into `endpoint`). Errors: a
//! command that cannot start or exits non-zero (its output in the message).
Result<std::string> run_training_command(const std::string& command, nlohmann::json& endpoint);

}  // namespace pf::experiments
