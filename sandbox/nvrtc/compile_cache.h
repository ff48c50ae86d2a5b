// Content-addressed on-disk cache of NVRTC results, so an unchanged kernel
// file never compiles twice across turns, episodes and runs. One entry per
// (file name, source, options, architecture, NVRTC version, bundled headers):
// the key is the SHA-256 of all of them. An entry holds the cubin, the kernel
// list and the raw log, and records its own key: an entry read under another
// key (renamed or copied into place) is a miss, like a damaged one (checksum
// mismatch), and is replaced. NvrtcCompiler stores successful compilations
// only. Writes go to a unique temporary file renamed into place, so
// concurrent workers and a killed process never leave a torn entry.
//
// Size bound: with max_bytes set, every store that takes the cache past it
// removes the least recently used entries (a hit refreshes an entry's
// modification time) until it is under 90 % of the bound.
//
// Entries are written by the workers themselves: a worker whose process was
// taken over (an NVRTC exploit) could forge an entry under any key; the key
// check does not prevent that (writes through the orchestrator would).
//
// Default directory: $XDG_CACHE_HOME/passforge/nvrtc, else
// ~/.cache/passforge/nvrtc. Thread-safe (counters are atomic; entries are
// immutable files).
#pragma once

#include <atomic>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "sandbox/cuda/kernel_params.h"
#include "sandbox/nvrtc/source_flags.h"

namespace pf::nvrtc {

struct CacheEntry {
  bool compiled = false;  // false: NVRTC reported errors; `log` says which
  std::string cubin;
  std::vector<cuda::KernelInfo> kernels;
  std::string log;  // NVRTC's raw log
  //! Integrity flags read from the PTX of this compilation (ptx_flags.h).
  std::vector<SourceFlag> ptx_flags;
};

struct CacheStats {
  uint64_t hits = 0;
  uint64_t misses = 0;
  uint64_t stores = 0;
  uint64_t store_failures = 0;
  uint64_t corrupt = 0;
  uint64_t evicted = 0;
  nlohmann::json to_json() const;
};

struct CacheUsage {
  uint64_t entries = 0;
  uint64_t bytes = 0;
};

class CompileCache {
 public:
  //! `max_bytes` 0: unbounded.
  explicit CompileCache(std::filesystem::path dir, uint64_t max_bytes = 0)
      : dir_(std::move(dir)), max_bytes_(max_bytes) {}

  //! $XDG_CACHE_HOME/passforge/nvrtc or ~/.cache/passforge/nvrtc ("" when
  //! neither variable is set).
  static std::filesystem::path default_dir();

  //! The key for one compilation; every input that can change the output is in it.
  static std::string key(const std::string& file, const std::string& source,
                         const std::vector<std::string>& options, const std::string& arch,
                         const std::string& nvrtc_version, const std::string& headers_sha256);

  //! The entry, or nullopt on a miss (absent, unreadable or damaged).
  std::optional<CacheEntry> lookup(const std::string& key);
  //! Stores atomically; a failure is logged and counted, never fatal (the
  //! compile result is still good).
  Status store(const std::string& key, const CacheEntry& entry);

  const std::filesystem::path& dir() const { return dir_; }
  CacheStats stats() const;
  //! Walks the directory (for doctor): entries and bytes on disk.
  CacheUsage usage() const;
  //! Removes least recently used entries until the cache holds at most
  //! `target_bytes`; returns how many went.
  uint64_t evict_to(uint64_t target_bytes);
  uint64_t max_bytes() const { return max_bytes_; }
  //! One info line: "NVRTC cache <dir>: 12 hits, 3 misses, 3 stores".
  void log_summary() const;

 private:
  std::filesystem::path path_for(const std::string& key) const;
  std::filesystem::path dir_;
  uint64_t max_bytes_ = 0;
  std::atomic<uint64_t> hits_{0}, misses_{0}, stores_{0}, store_failures_{0}, corrupt_{0},
      evicted_{0};
};

}  // namespace pf::nvrtc
