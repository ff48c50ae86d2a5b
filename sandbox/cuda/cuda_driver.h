// The CUDA driver API, loaded with dlopen: libcuda.so.1 is opened at run time
// and every entry point is fetched through cuGetProcAddress with the ABI
// version of its cudaTypedefs.h typedef, so a newer driver never hands us a
// function with a different signature. Without a driver or a device, load()
// returns a clear `unsupported` error; nothing crashes.
//
// Thread-safety: a loaded CudaDriver is immutable except for the poisoned
// state, which is guarded; it may be shared by all threads.
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>

#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "common/result.h"
#include "sandbox/cuda/cuda_errors.h"

namespace pf::cuda {

// Entry points: X(name, ABI version). The member is PFN_<name>_v<version>.
#define PF_CUDA_REQUIRED_FUNCTIONS(X)   \
  X(cuInit, 2000)                       \
  X(cuDriverGetVersion, 2020)           \
  X(cuGetErrorName, 6000)               \
  X(cuGetErrorString, 6000)             \
  X(cuDeviceGetCount, 2000)             \
  X(cuDeviceGet, 2000)                  \
  X(cuDeviceGetName, 2000)              \
  X(cuDeviceGetAttribute, 2000)         \
  X(cuDeviceTotalMem, 3020)             \
  X(cuDevicePrimaryCtxRetain, 7000)     \
  X(cuDevicePrimaryCtxRelease, 11000)   \
  X(cuCtxSetCurrent, 4000)              \
  X(cuCtxSynchronize, 2000)             \
  X(cuCtxSetLimit, 3010)                \
  X(cuCtxGetLimit, 3010)                \
  X(cuMemGetInfo, 3020)                 \
  X(cuModuleLoadDataEx, 2010)           \
  X(cuModuleUnload, 2000)               \
  X(cuModuleGetFunction, 2000)          \
  X(cuFuncGetAttribute, 2020)           \
  X(cuFuncSetAttribute, 9000)           \
  X(cuMemAlloc, 3020)                   \
  X(cuMemFree, 3020)                    \
  X(cuMemcpyHtoD, 3020)                 \
  X(cuMemcpyDtoH, 3020)                 \
  X(cuMemcpyDtoD, 3020)                 \
  X(cuMemcpyHtoDAsync, 3020)            \
  X(cuMemcpyDtoHAsync, 3020)            \
  X(cuMemcpyDtoDAsync, 3020)            \
  X(cuMemsetD8, 3020)                   \
  X(cuMemsetD16, 3020)                  \
  X(cuMemsetD32, 3020)                  \
  X(cuMemsetD8Async, 3020)              \
  X(cuMemsetD16Async, 3020)             \
  X(cuMemsetD32Async, 3020)             \
  X(cuStreamCreate, 2000)               \
  X(cuStreamDestroy, 4000)              \
  X(cuStreamSynchronize, 2000)          \
  X(cuEventCreate, 2000)                \
  X(cuEventDestroy, 4000)               \
  X(cuEventRecord, 2000)                \
  X(cuEventSynchronize, 2000)           \
  X(cuEventElapsedTime, 2000)           \
  X(cuLaunchKernel, 4000)               \
  X(cuStreamBeginCapture, 10010)        \
  X(cuStreamEndCapture, 10000)          \
  X(cuGraphInstantiateWithFlags, 11040) \
  X(cuGraphGetNodes, 10000)             \
  X(cuGraphLaunch, 10000)               \
  X(cuGraphExecDestroy, 10000)          \
  X(cuGraphDestroy, 10000)

// Entry points newer drivers have; nullptr when the driver lacks them.
#define PF_CUDA_OPTIONAL_FUNCTIONS(X) X(cuFuncGetParamInfo, 12040)

struct CudaFunctions {
#define PF_CUDA_MEMBER(name, version) PFN_##name##_v##version name = nullptr;
  PF_CUDA_REQUIRED_FUNCTIONS(PF_CUDA_MEMBER)
  PF_CUDA_OPTIONAL_FUNCTIONS(PF_CUDA_MEMBER)
#undef PF_CUDA_MEMBER
};

struct CudaDriverOptions {
  //! The driver library. Empty: $PASSFORGE_CUDA_DRIVER, else libcuda.so.1.
  std::string library;
};

class CudaDriver {
 public:
  //! Opens the driver, fetches every entry point and calls cuInit(0).
  //! `unsupported` errors say "no CUDA driver: ..." or "no CUDA device: ...".
  static Result<std::shared_ptr<CudaDriver>> load(const CudaDriverOptions& options = {});

  const CudaFunctions& api() const { return fn_; }
  const std::string& library_path() const { return library_path_; }
  //! cuDriverGetVersion, e.g. 13000 for CUDA 13.0.
  int driver_version() const { return driver_version_; }
  //! "13.0"
  std::string driver_version_string() const;
  int device_count() const { return device_count_; }

  //! The driver's name for `result` ("CUDA_ERROR_ILLEGAL_ADDRESS").
  std::string error_name(CUresult result) const;
  //! "cuLaunchKernel(k): CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was
  //! encountered)". A sticky result also marks the driver poisoned.
  Error error(CUresult result, std::string_view call) const;
  //! ok for CUDA_SUCCESS, else error(result, call).
  Status check(CUresult result, std::string_view call) const;

  //! Non-empty once a sticky error was seen: the first one, as error() wrote it.
  //! The process must stop using CUDA, reply and exit (the worker declares
  //! itself poisoned).
  std::string poisoned() const;

 private:
  CudaDriver() = default;
  CudaFunctions fn_;
  std::string library_path_;
  int driver_version_ = 0;
  int device_count_ = 0;
  mutable std::mutex mu_;
  mutable std::string poisoned_;  // guarded by mu_
};

}  // namespace pf::cuda
