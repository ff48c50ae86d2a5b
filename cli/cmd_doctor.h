// passforge doctor [--config F] [--set K=V]... [--json] [--config-keys]
#pragma once

#include <CLI/CLI.hpp>

#include "cli/command.h"

namespace pf::cli {

void add_doctor_command(CLI::App& app, CommandContext& ctx);

}  // namespace pf::cli
