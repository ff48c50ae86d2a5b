// Content-addressed on-disk cache of NVRTC results, so an unchanged kernel
// file never compiles twice across turns, episodes and runs. One entry per
// (file name, source, options, architecture, NVRTC version, bundled headers):
// the key is the SHA-256 of all of them. An entry holds the cubin, the kernel
// list and the raw log; failed compilations are cached too (their log is as
// deterministic as a success). Writes go to a unique temporary file renamed
// into place, so concurrent workers and a killed process never leave a torn
// entry; a damaged entry (checksum mismatch) counts as a miss and is replaced.
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
  nlohmann::json to_json() const;
};

struct CacheUsage {
  uint64_t entries = 0;
  uint64_t bytes = 0;
};

class CompileCache {
 public:
  explicit CompileCache(std::filesystem::path dir) : dir_(std::move(dir)) {}

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
  //! One info line: "NVRTC cache <dir>: 12 hits, 3 misses, 3 stores".
  void log_summary() const;

 private:
  std::filesystem::path path_for(const std::string& key) const;
  std::filesystem::path dir_;
  std::atomic<uint64_t> hits_{0}, misses_{0}, stores_{0}, store_failures_{0}, corrupt_{0};
};

}  // namespace pf::nvrtc
