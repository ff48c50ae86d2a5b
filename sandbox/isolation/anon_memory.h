// A process's resident anonymous memory (RssAnon in /proc/<pid>/status):
// what a runaway allocation grows, unlike file-backed pages of the libraries
// a worker maps. Read by the pool's watch of its workers and by a worker's
// own watchdog of a compile.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>

namespace pf::sandbox {

//! Bytes of RssAnon of `pid` (0: this process), or nullopt when it cannot
//! be read (the process is gone). Allocates nothing: called every few
//! milliseconds, also while memory is short.
std::optional<uint64_t> anon_memory_bytes(pid_t pid);

}  // namespace pf::sandbox
