// Classification of CUDA driver results. A *sticky* error leaves the context
// (and so the process) unusable: every later call fails, so the worker must
// report the failure, declare itself poisoned and be replaced.
#pragma once

#include <cuda.h>

#include <string>

namespace pf::cuda {

enum class CudaErrorClass {
  ok,
  sticky,           // context corrupted (illegal address, trap, launch failure, ...)
  launch_rejected,  // the launch was refused before running (bad config, resources)
  out_of_memory,
  no_device,  // no driver, no device, driver too old or mismatched
  other,      // everything else (bad handle, not found, ...): not sticky
};

CudaErrorClass classify_cuda_error(CUresult result);

inline bool is_sticky_cuda_error(CUresult result) {
  return classify_cuda_error(result) == CudaErrorClass::sticky;
}

//! "CUDA_ERROR_ILLEGAL_ADDRESS" for the results this module reasons about
//! (sticky and launch errors, common failures) without asking the driver;
//! "CUDA error 123" otherwise. The driver's own names (cuGetErrorName) are
//! preferred when a driver is loaded (CudaDriver::error_name).
std::string builtin_cuda_error_name(CUresult result);

}  // namespace pf::cuda
