// Every subcommand lives in its own cmd_<name>.cpp and registers itself on the
// app through one add_*_command function; main.cpp lists them.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

namespace pf::cli {

//! Options every command shares (set before the command's callback runs).
struct GlobalOptions {
  std::string log_level = "info";
  std::string log_file;
};

//! The command's exit code is stored here by its callback.
struct CommandContext {
  GlobalOptions global;
  int exit_code = 0;
};

}  // namespace pf::cli
