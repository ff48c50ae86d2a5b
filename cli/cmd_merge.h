// passforge merge (issue 7).
#pragma once

#include <CLI/CLI.hpp>

#include "cli/command.h"

namespace pf::cli {

void add_merge_command(CLI::App& app, CommandContext& ctx);

}  // namespace pf::cli
