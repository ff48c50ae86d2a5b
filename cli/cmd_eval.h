// passforge eval (issue 4): the full evaluation protocol of one pass
// workspace on one task, through a sandboxed worker pool.
#pragma once

#include <CLI/CLI.hpp>

#include "cli/command.h"

namespace pf::cli {

void add_eval_command(CLI::App& app, CommandContext& ctx);

}  // namespace pf::cli
