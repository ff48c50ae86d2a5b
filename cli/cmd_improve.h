// passforge improve --config IMPROVE.toml [--json] [--svg FILE] | --resume DIR
#pragma once

#include <CLI/CLI.hpp>

#include "cli/command.h"

namespace pf::cli {

void add_improve_command(CLI::App& app, CommandContext& ctx);

}  // namespace pf::cli
