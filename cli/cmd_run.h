// passforge run --config F [--set k=v] [--resume <run-dir>]
#pragma once

#include <CLI/CLI.hpp>

#include "cli/command.h"

namespace pf::cli {

void add_run_command(CLI::App& app, CommandContext& ctx);

}  // namespace pf::cli
