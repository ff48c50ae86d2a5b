// Temporary directories for tests. Named by mkdtemp, not by pid: ctest starts
// a process per test, and on a busy machine pids wrap within one run, so a
// pid-named directory can still hold an earlier test process's files (a run
// store that "already exists", a shard file that should be absent).
#pragma once

#include <filesystem>
#include <string>

namespace pf::test {

//! A new, empty directory under the system temp directory whose name starts
//! with `prefix`. Fails the calling test (ADD_FAILURE) and returns "" when the
//! directory cannot be made.
std::filesystem::path fresh_temp_dir(const std::string& prefix);

}  // namespace pf::test
