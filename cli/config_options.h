// `--config FILE` and repeatable `--set section.key=value`, shared by every
// command that reads the configuration (run, doctor, ab, improve, ...).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "common/result.h"
#include "config/config_loader.h"

namespace pf::cli {

struct ConfigOptions {
  std::string file;
  std::vector<std::string> sets;
};

void add_config_options(CLI::App& cmd, ConfigOptions& options);

//! Loads defaults < file < environment < --set. On failure prints every
//! problem to stderr ("passforge: invalid configuration:" then one per line);
//! the caller then exits with kExitUsage.
Result<LoadedConfig> load_config_or_report(const ConfigOptions& options);

}  // namespace pf::cli
