// Compiles a pass's kernel files with NVRTC (docs/design.md "The pass",
// "Evaluation protocol" 2).
//
// One program per file: NVRTC compiles a single translation unit and we use
// no relocatable device code, so each kernels/<x>.cu is self-contained and
// becomes its own cubin (and, on a device, its own module). Kernel names are
// looked up across all files; a name defined in two files is an error.
// Kernels must be `extern "C" __global__`: C++ name mangling is not supported,
// and a mangled kernel (a template, or a missing extern "C") is a compile
// error naming the mangled and demangled name.
//
// Options: --gpu-architecture=<arch> (a real sm_XY, so NVRTC emits a cubin),
// -default-device, --std=c++17, --no-source-include, optional -lineinfo. No
// include path is ever passed; <cuda_fp16.h> / <cuda_bf16.h> come from memory
// (bundled_headers.h). NDEBUG is not defined: device assert() stays active, as
// PyTorch keeps its kernel asserts; a failing assert is a runtime failure.
//
// Only successful compiles are cached: a failure is cheap to reproduce and
// must not outlive a fixed NVRTC problem.
//
// Sources pass the source policy (source_policy.h) first. A deadline cancels
// NVRTC cooperatively through nvrtcSetFlowCallback where available; NVRTC only
// checks at phase boundaries, so the worker's deadline (the pool kills the
// process) remains the hard bound.
//
// Thread-safe: compile() may run concurrently (the cache is thread-safe).
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/result.h"
#include "sandbox/cuda/kernel_params.h"
#include "sandbox/nvrtc/compile_cache.h"
#include "sandbox/nvrtc/compile_log.h"
#include "sandbox/nvrtc/nvrtc_library.h"
#include "sandbox/nvrtc/source_flags.h"
#include "sandbox/nvrtc/source_policy.h"

namespace pf::nvrtc {

inline constexpr const char* kDefaultArch = "sm_90";

struct CompileOptions {
  std::string arch = kDefaultArch;  // the device's sm_XY, or --gpu-arch on compile-only machines
  bool lineinfo = false;
  SourceLimits limits;
  LogLimits log_limits;
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  //! Largest cubin accepted; 0: any. A larger one is not cached or loaded.
  uint64_t max_cubin_bytes = 0;
};

enum class CompileStatus {
  ok,
  rejected,        // the source policy refused a file (nothing was compiled)
  compile_error,   // NVRTC reported errors, or kernels are mangled / duplicated
  timeout,         // cancelled at the deadline
  resource_limit,  // a compile limit was hit (cubin size); the message names it
};

const char* compile_status_name(CompileStatus s);

struct CompiledFile {
  std::string file;
  bool compiled = false;
  std::string cubin;
  std::vector<cuda::KernelInfo> kernels;  // parameter kinds from the source where understood
  CleanLog log;
  //! Static integrity flags: from the compiled PTX (origin "ptx"), then the
  //! source token scan's hints (origin "source").
  std::vector<SourceFlag> flags;
  bool cache_hit = false;
  double compile_ms = 0;  // NVRTC time (0 on a cache hit)
  std::string limit;      // the compile limit this file hit ("" when none)
};

struct CompileOutcome {
  CompileStatus status = CompileStatus::ok;
  //! For everything but ok: what went wrong, ready to show (policy errors, the
  //! cleaned logs of failed files, mangling / duplicate-name problems).
  std::string message;
  std::vector<CompiledFile> files;
  std::string arch;
  size_t cache_hits = 0;
  size_t cache_misses = 0;

  bool ok() const { return status == CompileStatus::ok; }
  //! The kernel and the file defining it, or nullptr.
  const cuda::KernelInfo* find_kernel(const std::string& name,
                                      const CompiledFile** file = nullptr) const;
  //! All kernel names, sorted.
  std::vector<std::string> kernel_names() const;
  //! Warnings of every file, rendered ("" when none).
  std::string warnings_text() const;
  //! Static integrity flags of every file.
  std::vector<SourceFlag> flags() const;
  nlohmann::json to_json() const;  // without cubins
};

class NvrtcCompiler {
 public:
  //! `cache` may be null (no caching).
  NvrtcCompiler(std::shared_ptr<const NvrtcLibrary> nvrtc, std::shared_ptr<CompileCache> cache);

  //! `files`: workspace-relative name -> source. An Error means the compiler
  //! itself failed (NVRTC missing symbols, out of memory, invalid arch), not
  //! the kernels; kernel problems are in CompileOutcome.
  Result<CompileOutcome> compile(const std::map<std::string, std::string>& files,
                                 const CompileOptions& options) const;

  //! The NVRTC options used for `options` (part of the cache key).
  static std::vector<std::string> nvrtc_flags(const CompileOptions& options);

  const NvrtcLibrary& library() const { return *nvrtc_; }
  const std::shared_ptr<CompileCache>& cache() const { return cache_; }

 private:
  Result<CompiledFile> compile_file(const std::string& name, const std::string& source,
                                    const CompileOptions& options, bool& cancelled) const;
  std::shared_ptr<const NvrtcLibrary> nvrtc_;
  std::shared_ptr<CompileCache> cache_;
};

}  // namespace pf::nvrtc
