// The worker's `compile` request: NVRTC-compiles a pass's kernel files and
// answers with each kernel's parameter layout, the cache hit/miss counts and
// the cleaned log. Request body:
//   {"files": {"kernels/a.cu": "<source>", ...}, "arch": "sm_90" | null,
//    "lineinfo": false}
// Reply body (kernel problems are replies, not errors):
//   {"status": "ok" | "rejected" | "compile_error" | "timeout", "message": "...",
//    "arch": "sm_90", "nvrtc_version": "13.0", "param_source": "cubin" | "device",
//    "kernels": [{"name", "file", "params": [{"offset","size","kind","name","type"}],
//                 "registers", "static_smem_bytes", "local_bytes"}],
//    "files": [...], "warnings": "...", "cache": {"dir", "hits", "misses", ...},
//    "flags": [{"flag": "timer_read" | "device_malloc" | "mutable_global" | "inline_asm",
//               "file", "line", "detail"}]}
// An `error` reply means the compiler itself is unusable (NVRTC missing, bad arch).
//
// Parameter layouts come from the cubin's .nv.info records (the data
// cuFuncGetParamInfo reports), so a compile-only worker knows them too. On a
// GPU worker the module is also loaded and every layout checked against
// cuFuncGetParamInfo ("param_source": "device"); a disagreement is an error.
// The architecture defaults to the worker's GPU, else sm_90.
#pragma once

#include <filesystem>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/result.h"
#include "sandbox/cuda/cuda_context.h"
#include "sandbox/isolation/isolation_options.h"
#include "sandbox/nvrtc/nvrtc_compiler.h"
#include "sandbox/worker/handler_table.h"
#include "sandbox/worker/resource_limit.h"
#include "sandbox/worker/worker_config.h"

namespace pf::worker {

struct CompileServiceOptions {
  std::filesystem::path cache_dir;  // empty: no cache
  bool use_device = true;           // compile for and verify on the worker's GPU when present
  nvrtc::SourceLimits limits;
  nvrtc::LogLimits log_limits;
  //! Compile time, cubin size and cache size (0: none); compile time is
  //! enforced by a watchdog that ends the worker (sandbox/worker/resource_limit.h).
  sandbox::WorkerLimits worker_limits;
};

//! NVRTC and (when present) the GPU, loaded on first use. Shared by the
//! compile handler and any handler that needs compiled kernels.
//! Thread-safe: requests are serialised by an internal mutex.
class CompileService {
 public:
  explicit CompileService(CompileServiceOptions options) : options_(std::move(options)) {}

  //! Loads NVRTC now (before isolation, while the file system is open) and
  //! returns the directories the worker must keep readable for it (NVRTC
  //! loads its builtins library lazily at the first compile).
  Result<std::vector<std::filesystem::path>> preload();

  //! The `compile` request.
  Result<nlohmann::json> handle(const nlohmann::json& body);

  //! Compiles `files` for `arch` ("" = the default), bounded by the current
  //! request's deadline and by worker_limits.compile_timeout_ms (the worker
  //! ends with a resource_limit when NVRTC runs longer).
  Result<nvrtc::CompileOutcome> compile(const std::map<std::string, std::string>& files,
                                        const std::string& arch, bool lineinfo);

  //! The GPU context, or null on a compile-only worker (after the first use).
  cuda::CudaContext* context();
  //! Why context() is null ("" while it is not, or before the first use).
  std::string device_reason();
  //! For doctor / diagnostics: NVRTC path and version, cache stats and usage.
  nlohmann::json describe();
  //! One info log line with the cache's hit/miss totals (at worker shutdown).
  void log_summary();

 private:
  Result<nvrtc::NvrtcCompiler*> compiler();
  void init_device();
  Status verify_on_device(nvrtc::CompileOutcome& outcome);

  CompileServiceOptions options_;
  std::recursive_mutex mu_;
  std::unique_ptr<nvrtc::NvrtcCompiler> compiler_;
  bool device_tried_ = false;
  std::string device_reason_;  // why there is no device
  std::unique_ptr<cuda::CudaContext> context_;
  sandbox::LimitWatchdog watchdog_;
};

//! Registers "compile" on `table`, answered by `service`.
//! On a GPU worker (CUDA_VISIBLE_DEVICES set and non-empty) the service opens
//! the driver and its context between the namespaces and the confinement
//! (IsolationOptions::before_confinement says why).
void open_device_before_confinement(sandbox::IsolationOptions& isolation,
                                    const std::shared_ptr<CompileService>& service);

void register_compile_handler(sandbox::HandlerTable& table,
                              const std::shared_ptr<CompileService>& service);

//! "files" of a request body, validated (an object of string -> string).
Result<std::map<std::string, std::string>> parse_files(const nlohmann::json& body);

}  // namespace pf::worker
