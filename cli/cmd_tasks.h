// passforge tasks list|show|check|run (issue 9).
#pragma once

#include <CLI/CLI.hpp>

#include "cli/command.h"

namespace pf::cli {

void add_tasks_command(CLI::App& app, CommandContext& ctx);

}  // namespace pf::cli
