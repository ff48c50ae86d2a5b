// Kernel launches, validated against the device's and the function's limits
// BEFORE anything is submitted, so an impossible configuration is a clear
// error ("block has 2048 threads; kernel 'k' allows at most 1024") instead of
// a driver failure.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "common/result.h"
#include "sandbox/cuda/device_properties.h"
#include "sandbox/cuda/kernel_args.h"

namespace pf::cuda {

class CudaFunction;

struct LaunchConfig {
  std::array<int64_t, 3> grid{1, 1, 1};
  std::array<int64_t, 3> block{1, 1, 1};
  int64_t dynamic_smem_bytes = 0;
  std::string describe() const;  // "grid (4,1,1) block (256,1,1) smem 0"
};

//! What the function itself allows (cuFuncGetAttribute); tests build it by hand.
struct FunctionLimits {
  int max_threads_per_block = 1024;  // lowered by register use
  int64_t static_smem_bytes = 0;
};

//! Checks `config` against both limit sets. Dynamic shared memory above the
//! default per-block limit is allowed up to the opt-in limit (the launch opts
//! in); the total with static shared memory must fit too.
Status validate_launch(const std::string& kernel, const LaunchConfig& config,
                       const DeviceLimits& device, const FunctionLimits& function);

//! Validates, opts in to large dynamic shared memory when needed, and submits
//! the launch on `stream` (nullptr: the default stream). Asynchronous: faults
//! surface at the next synchronisation.
Status launch_kernel(const CudaFunction& function, const DeviceLimits& device,
                     const LaunchConfig& config, ArgPack& args, CUstream stream);

}  // namespace pf::cuda
