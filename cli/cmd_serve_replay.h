// passforge serve-replay --script F.jsonl [--host H] [--port N] [--model M] [--final-message T]
#pragma once

#include <CLI/CLI.hpp>

#include "cli/command.h"

namespace pf::cli {

void add_serve_replay_command(CLI::App& app, CommandContext& ctx);

}  // namespace pf::cli
