#include "cli/command.h"

#include <iostream>

#include "cli/exit_codes.h"

namespace pf::cli {

void add_not_implemented_command(CLI::App& app, CommandContext& ctx, const std::string& name,
                                 const std::string& description, const std::string& issue) {
  auto* cmd = app.add_subcommand(name, description + " (not implemented yet)");
  cmd->allow_extras();
  cmd->callback([&ctx, name, issue] {
    std::cerr << "passforge " << name << ": not implemented yet (" << issue << ")\n";
    ctx.exit_code = kExitNotImplemented;
  });
}

}  // namespace pf::cli
