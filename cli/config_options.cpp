#include "cli/config_options.h"

#include <iostream>

namespace pf::cli {

void add_config_options(CLI::App& cmd, ConfigOptions& options) {
  cmd.add_option("--config,-c", options.file,
                 "TOML configuration file (configs/quickstart.toml shows every key)");
  cmd.add_option("--set", options.sets,
                 "override one key, e.g. --set agent.max_steps=50 (repeatable; wins over the file "
                 "and the environment)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
}

Result<LoadedConfig> load_config_or_report(const ConfigOptions& options) {
  auto loaded = load_config({options.file, options.sets, process_env});
  if (!loaded.ok()) std::cerr << "passforge: invalid configuration:\n" << loaded.error().message << "\n";
  return loaded;
}

}  // namespace pf::cli
