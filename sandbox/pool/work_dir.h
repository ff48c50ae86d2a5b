// The private directories the worker pool keeps its workers' scratch folders
// and logs in: $TMPDIR/passforge-workers-XXXXXX, each holding an `owner` file
// with the creating process's pid and start time. A pool removes its own at
// destruction; a process that dies without unwinding (kill -9, SIGBUS, the
// second Ctrl-C's _exit) leaves it, and the next pool started on the machine
// removes every such directory whose owner is gone.
//
// Thread-safe: the set of directories this process owns is guarded by a mutex.
#pragma once

#include <filesystem>

#include "common/result.h"

namespace pf::sandbox {

inline constexpr const char* kWorkDirPrefix = "passforge-workers-";

//! Creates a fresh directory under `parent` with its owner file and
//! remembers it for remove_owned_work_dirs().
Result<std::filesystem::path> create_owned_work_dir(const std::filesystem::path& parent);

//! Removes `dir` (created by create_owned_work_dir) and forgets it.
void remove_owned_work_dir(const std::filesystem::path& dir);

//! Removes every directory this process still owns. For exits that skip
//! destructors (called from the thread that is about to _exit).
void remove_owned_work_dirs();

//! Removes the directories under `parent` whose owner process has ended (its
//! pid is gone or now belongs to a process started at another time). A
//! directory without a readable owner file is left alone unless it is older
//! than an hour (a pool may be between mkdtemp and writing the file).
//! Returns how many were removed.
int sweep_stale_work_dirs(const std::filesystem::path& parent);

}  // namespace pf::sandbox
