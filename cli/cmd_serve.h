// passforge serve (issue 19).
#pragma once

#include <CLI/CLI.hpp>

#include "cli/command.h"

namespace pf::cli {

void add_serve_command(CLI::App& app, CommandContext& ctx);

}  // namespace pf::cli
