// A self-improvement loop file (`passforge improve --config FILE`,
// docs/improve.md). Every key but base_config and the task lists has a
// default; configs/improve-replay.toml shows them all.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "common/result.h"
#include "config/config.h"

namespace pf::experiments {

enum class SelectionMode { best_per_task, top_k };

struct ImproveSpec {
  std::filesystem::path file;
  std::string text;
  std::filesystem::path base_config;
  std::string id;  // "" = improve-<UTC time>
  std::string output_dir;
  int rounds = 3;
  std::vector<std::string> train_tasks;
  std::vector<std::string> eval_tasks;  // held out: never selected, never exemplars
  int samples_per_task = 4;             // training episodes per task (rejection sampling)
  int eval_samples_per_task = 1;
  std::vector<std::string> common_sets;
  // [selection]
  double min_score = 0.1;  // full: AS above this; compile-only: see docs/improve.md
  SelectionMode selection = SelectionMode::best_per_task;
  int top_k = 2;
  // [exemplars]
  int exemplar_count = 2;
  int64_t exemplar_max_tokens = 4000;
  // [training]
  std::string training_command;  // "" = none; {dataset} {dpo} {round} {dir} substituted
};

Result<ImproveSpec> load_improve_spec(const std::filesystem::path& file);
Result<ImproveSpec> parse_improve_spec(const std::string& text, const std::filesystem::path& file);

//! The loop's configuration: defaults < base file < environment < [set] <
//! output_dir; run.tasks and run.samples_per_task are set per session.
Result<Config> improve_config(const ImproveSpec& spec);

}  // namespace pf::experiments
