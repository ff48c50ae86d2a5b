// A real replay run for the serve tests: `passforge run` with the quickstart
// configuration (built-in replay, compile-only without a GPU) into a
// temporary directory, made once per test binary.
#pragma once

#include <filesystem>
#include <string>

namespace pf::serve_test {

//! The run directory (holding passforge.db); the run id is "replay". Fails
//! the calling test (ADD_FAILURE) and returns "" when the run fails.
std::filesystem::path replay_run_dir();

//! An A/B experiment's store over the same replay (`passforge ab`: prompt
//! variants default vs concise, one sample per task); id "ab".
std::filesystem::path ab_run_dir();

//! SHA-256 of a file's bytes ("" when unreadable).
std::string file_digest(const std::filesystem::path& path);

}  // namespace pf::serve_test
