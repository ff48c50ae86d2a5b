// Process exit codes of the passforge CLI (documented in README.md).
#pragma once

namespace pf::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;        // the command ran and found failures
inline constexpr int kExitUsage = 2;          // bad arguments, config or input files
inline constexpr int kExitInterrupted = 130;  // SIGINT: stopped cleanly, resumable

}  // namespace pf::cli
