// `passforge import <dir>... --out <dir>`: PassBench / GraphNet directories to
// native task files, one line per task saying imported or exactly why not.
#include "cli/cmd_import.h"

#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/exit_codes.h"
#include "common/strings.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/tasks/importer.h"

namespace pf::cli {
namespace {

struct ImportArgs {
  std::vector<std::string> dirs;
  std::string out;
  std::vector<std::string> add_dtypes;
  double hidden_share = 0;
  std::string source_label;
  std::string license;
  bool json = false;
};

int run_import(const ImportArgs& args) {
  ImportOptions options;
  options.hidden_share = args.hidden_share;
  options.source_label = args.source_label;
  options.license = args.license;
  for (const auto& name : args.add_dtypes) {
    auto dt = parse_dtype(name);
    if (!dt || !is_floating(*dt)) {
      std::cerr << "passforge import: --add-dtypes: '" << name << "' is not a floating dtype\n";
      return kExitUsage;
    }
    options.extra_float_dtypes.push_back(*dt);
  }
  const OpRegistry& registry = OpRegistry::builtin();
  int tasks = 0, imported = 0, variants = 0, hidden = 0;
  nlohmann::json report = nlohmann::json::array();
  for (const auto& dir : args.dirs) {
    if (options.source_label.empty()) {
      options.source_label = std::filesystem::path(dir).lexically_normal().filename().string();
    }
    auto results = import_tasks(dir, options, registry);
    if (!results.ok()) {
      std::cerr << "passforge import: " << results.error().message << "\n";
      return kExitUsage;
    }
    for (const auto& r : *results) {
      ++tasks;
      nlohmann::json j = {{"dir", r.dir.string()}, {"warnings", r.warnings}};
      if (!r.task) {
        j["error"] = r.error;
        if (!args.json) std::cout << "FAILED    " << r.dir.filename().string() << ": " << r.error << "\n";
        report.push_back(j);
        continue;
      }
      auto path = std::filesystem::path(args.out) / (r.task->id + ".json");
      auto saved = save_task_file(*r.task, path);
      if (!saved.ok()) {
        std::cerr << "passforge import: " << saved.error().message << "\n";
        return kExitFailure;
      }
      ++imported;
      int h = 0;
      for (const auto& v : r.task->variants) h += v.hidden ? 1 : 0;
      variants += static_cast<int>(r.task->variants.size());
      hidden += h;
      j["task"] = r.task->id;
      j["file"] = path.string();
      j["variants"] = r.task->variants.size();
      j["hidden"] = h;
      report.push_back(j);
      if (!args.json) {
        std::cout << "imported  " << r.task->id << ": " << r.task->variants.size() << " variants ("
                  << h << " hidden) -> " << path.string() << "\n";
        for (const auto& w : r.warnings) std::cout << "          skipped " << w << "\n";
      }
    }
  }
  if (args.json) {
    std::cout << nlohmann::json{{"tasks", tasks}, {"imported", imported}, {"variants", variants},
                                {"hidden", hidden}, {"results", report}}.dump(1) << "\n";
  } else {
    std::cout << imported << "/" << tasks << " tasks imported, " << variants << " variants (" << hidden
              << " hidden) into " << args.out << "\n";
  }
  return imported == tasks ? kExitOk : kExitFailure;
}

}  // namespace

void add_import_command(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<ImportArgs>();
  auto* cmd = app.add_subcommand("import", "import PassBench task / GraphNet sample directories");
  cmd->add_option("dirs", args->dirs, "directories to import (searched recursively)")->required();
  cmd->add_option("--out", args->out, "output directory for task files")->required();
  cmd->add_option("--add-dtypes", args->add_dtypes,
                  "also add variants with float32 inputs in these dtypes (float16,bfloat16)")
      ->delimiter(',');
  cmd->add_option("--hidden-share", args->hidden_share,
                  "share of each task's variants marked hidden (deterministic)")
      ->check(CLI::Range(0.0, 0.9));
  cmd->add_option("--source-label", args->source_label, "recorded as the tasks' source");
  cmd->add_option("--license", args->license, "recorded as the tasks' licence");
  cmd->add_flag("--json", args->json, "machine-readable report");
  cmd->callback([args, &ctx] { ctx.exit_code = run_import(*args); });
}

}  // namespace pf::cli
