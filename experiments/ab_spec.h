// An A/B experiment file (`passforge ab --config FILE`, docs/ab.md):
//
//   base_config = "quickstart.toml"      # relative to this file
//   id = "prompts-1"                      # optional; default ab-<UTC time>
//   output_dir = "runs"                   # optional; default the base's run.output_dir
//   tasks = ["neg-cat-mul-add-6a5c9e"]    # optional; default the base's run.tasks
//   samples_per_task = 2                  # optional; default the base's run.samples_per_task
//   [set]                                 # optional overrides for every arm
//   "run.concurrency" = 4
//   [[arms]]                              # two or more; the first is the reference "A"
//   name = "default"
//   set = { "prompts.variant" = "default" }
//
// Arms may override [endpoint], [agent] and [prompts] keys only: all arms
// share tasks, samples, seeds and the evaluation, which is what makes their
// per-task results pairs.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "common/result.h"
#include "config/config.h"

namespace pf::experiments {

struct AbArmSpec {
  std::string name;
  std::vector<std::string> sets;  // "section.key=value"
};

struct AbSpec {
  std::filesystem::path file;  // where it was read from ("" when parsed from text)
  std::string text;            // as written (stored with the experiment)
  std::filesystem::path base_config;
  std::string id;  // "" = generated
  std::string output_dir;
  std::vector<std::string> tasks;
  int samples_per_task = 0;  // 0 = the base's
  std::vector<std::string> common_sets;
  std::vector<AbArmSpec> arms;
};

Result<AbSpec> load_ab_spec(const std::filesystem::path& file);
//! `file` resolves relative paths (base_config); errors name it.
Result<AbSpec> parse_ab_spec(const std::string& text, const std::filesystem::path& file);

//! The arm's configuration: defaults < base file < environment < [set] <
//! tasks/samples/output_dir < the arm's set.
Result<Config> arm_config(const AbSpec& spec, const AbArmSpec& arm);

}  // namespace pf::experiments
