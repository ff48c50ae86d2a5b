// Where the replacement interpreter's effects go. The interpreter does
// everything that does not need a device (metadata, arithmetic, allocation
// sizes, kernel lookup, argument marshalling against the parameter layout,
// launch validation); a backend only provides storage and submits launches:
// the dry run (dry_run.h) records them, the GPU hook (gpu_replacement.h)
// adds them to a Plan.
#pragma once

#include <cuda.h>

#include "common/result.h"
#include "evaluator/core/ir.h"
#include "sandbox/cuda/device_properties.h"
#include "sandbox/cuda/kernel_args.h"
#include "sandbox/cuda/kernel_params.h"
#include "sandbox/cuda/launch.h"

namespace pf::passes {

class ReplacementBackend {
 public:
  virtual ~ReplacementBackend() = default;

  //! Creates tensor `handle` (the next free index, after the parameters'
  //! tensors): fresh, contiguous, zero-filled when `zero`.
  virtual Status allocate(int handle, const TensorType& type, bool zero) = 0;
  //! The address of tensor `handle`'s first element (view offset applied).
  virtual Result<CUdeviceptr> data_ptr(int handle) = 0;
  virtual const cuda::DeviceLimits& device_limits() const = 0;
  //! What the kernel itself allows (register-limited block size, static smem).
  virtual Result<cuda::FunctionLimits> function_limits(const cuda::KernelInfo& kernel) = 0;
  //! Submits (or records) a launch that was already validated.
  virtual Status launch(const cuda::KernelInfo& kernel, const cuda::LaunchConfig& config,
                        cuda::ArgPack args) = 0;
};

}  // namespace pf::passes
