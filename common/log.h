// Logging setup: spdlog to stderr (and optionally a file); one call per process.
#pragma once

#include <string>

#include "common/result.h"

namespace pf {

struct LogOptions {
  std::string level = "info";  // trace|debug|info|warn|error|off
  std::string file;            // also log here when non-empty
};

Status setup_logging(const LogOptions& options);

}  // namespace pf
