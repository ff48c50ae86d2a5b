// passforge import <dir>... --out <dir>: PassBench / GraphNet directories to
// task files.
#pragma once

#include <CLI/CLI.hpp>

#include "cli/command.h"

namespace pf::cli {

void add_import_command(CLI::App& app, CommandContext& ctx);

}  // namespace pf::cli
