// The baseline kernel library of one worker: on first use of a kernel file
// for a dtype (kernel_program.h) it loads the program's prebuilt fat binary
// (prebuilt_kernels.h) with the driver when that carries SASS or PTX the
// device can run, and otherwise (or when the driver refuses the image)
// compiles the program with the sandbox NVRTC (on-disk cache, the device's
// architecture); module and functions are memoised for the life of the
// process. Kernels take one parameter, a struct from kernels/pf_abi.cuh; its
// size is checked against the cubin (NVRTC) or cuFuncGetParamInfo (prebuilt).
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
  uint64_t programs_prebuilt = 0;  // loaded from the embedded fat binaries
  uint64_t programs_compiled = 0;  // NVRTC runs (cache misses)
  uint64_t programs_cached = 0;    // served by the on-disk cache
  double compile_ms = 0;
  double prebuilt_load_ms = 0;  // driver loads of prebuilt fat binaries
};

struct KernelLibraryOptions {
  //! Use the prebuilt fat binaries where they serve the device; false: NVRTC
  //! for every program (tests that exercise the NVRTC path).
  bool use_prebuilt = true;
};

class KernelLibrary {
 public:
  //! `cache` may be null (no on-disk cache); `arch` is the device's ("sm_90").
  KernelLibrary(std::shared_ptr<const cuda::CudaDriver> driver,
                std::shared_ptr<const nvrtc::NvrtcLibrary> nvrtc,
                std::shared_ptr<nvrtc::CompileCache> cache, std::string arch,
                KernelLibraryOptions options = {});
  ~KernelLibrary();

  //! The kernel `name` of `file` compiled for `dtype`; compile errors are
  //! `internal` (the baseline's own sources are broken).
  Result<const BaselineKernel*> get(std::string_view file, DType dtype, std::string_view name);

  KernelLibraryStats stats() const;
  const std::string& arch() const { return arch_; }

 private:
  struct Module;
  Result<Module*> module_for(std::string_view file, DType dtype);
  //! The prebuilt module of `program`, or nullptr when none serves the device.
  std::unique_ptr<Module> load_prebuilt(const std::string& program);
  Result<std::unique_ptr<Module>> compile(std::string_view file, DType dtype,
                                          const std::string& program);

  std::shared_ptr<const cuda::CudaDriver> driver_;
  nvrtc::NvrtcCompiler compiler_;
  std::string arch_;
  KernelLibraryOptions options_;
  mutable std::mutex mu_;
  std::map<std::string, std::unique_ptr<Module>, std::less<>> modules_;  // by program name
  KernelLibraryStats stats_;
};

}  // namespace pf::gpu
