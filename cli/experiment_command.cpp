#include "cli/experiment_command.h"

namespace pf::cli {

void add_experiment_options(CLI::App* cmd, ExperimentArgs& args, const ExperimentWords& words,
                            const std::string& config_help, const std::string& json_help,
                            const std::string& svg_help) {
  cmd->add_option("--config", args.config, config_help);
  cmd->add_option("--resume", args.resume,
                  "continue the " + words.noun + " stored in this directory");
  cmd->add_flag("--json", args.json, json_help);
  cmd->add_option("--svg", args.svg, svg_help);
  cmd->add_flag("--report-only", args.report_only,
                "with --resume: print the stored " + words.noun + "'s report, run nothing");
}

std::optional<int> experiment_usage_error(const ExperimentArgs& args,
                                          const ExperimentWords& words) {
  if (args.config.empty() == args.resume.empty()) {
    experiment_error(words, "give --config " + words.file + " (a new " + words.noun +
                                ") or --resume DIR (continue one)");
    return kExitUsage;
  }
  if (args.report_only && args.resume.empty()) {
    experiment_error(words, "--report-only reads a stored " + words.noun + ": use --resume DIR");
    return kExitUsage;
  }
  return std::nullopt;
}

void experiment_error(const ExperimentWords& words, const std::string& message) {
  std::cerr << "passforge " << words.command << ": " << message << "\n";
}

std::ostream& experiment_out(const ExperimentArgs& args) {
  return args.json ? std::cerr : std::cout;
}

}  // namespace pf::cli
