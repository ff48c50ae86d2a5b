// The baseline kernel library of one worker: compiles a kernel file for a
// dtype on first use (kernel_program.h; sandbox NVRTC with its on-disk cache,
// for the device's architecture), loads the cubin and memoises module and
// functions for the life of the process. Kernels take one parameter, a
// struct from kernels/pf_abi.cuh; its size is checked against the cubin.
//
// Thread-safety: get() is mutex-guarded; returned kernels live as long as
// the library.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "common/result.h"
#include "evaluator/core/dtype.h"
#include "sandbox/cuda/cuda_module.h"
#include "sandbox/cuda/launch.h"
#include "sandbox/nvrtc/nvrtc_compiler.h"

namespace pf::gpu {

struct BaselineKernel {
  std::string name;     // "pf_add_vec"
  std::string program;  // "kernels/ew_arith.float32.cu"
  cuda::CudaFunction function;
  cuda::FunctionLimits limits;
  size_t param_bytes = 0;  // the size of the kernel's single parameter
};

struct KernelLibraryStats {
  uint64_t programs_compiled = 0;  // NVRTC runs (cache misses)
  uint64_t programs_cached = 0;    // served by the on-disk cache
  double compile_ms = 0;
};

class KernelLibrary {
 public:
  //! `cache` may be null (no on-disk cache); `arch` is the device's ("sm_90").
  KernelLibrary(std::shared_ptr<const cuda::CudaDriver> driver,
                std::shared_ptr<const nvrtc::NvrtcLibrary> nvrtc,
                std::shared_ptr<nvrtc::CompileCache> cache, std::string arch);
  ~KernelLibrary();

  //! The kernel `name` of `file` compiled for `dtype`; compile errors are
  //! `internal` (the baseline's own sources are broken).
  Result<const BaselineKernel*> get(std::string_view file, DType dtype, std::string_view name);

  KernelLibraryStats stats() const;
  const std::string& arch() const { return arch_; }

 private:
  struct Module;
  Result<Module*> module_for(std::string_view file, DType dtype);

  std::shared_ptr<const cuda::CudaDriver> driver_;
  nvrtc::NvrtcCompiler compiler_;
  std::string arch_;
  mutable std::mutex mu_;
  std::map<std::string, std::unique_ptr<Module>, std::less<>> modules_;  // by program name
  KernelLibraryStats stats_;
};

}  // namespace pf::gpu
