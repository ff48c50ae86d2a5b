// What op implementations (and the passes module's replacement interpreter)
// use to turn work into a Plan: allocate outputs and scratch, add baseline
// kernel launches (parameters marshalled now, launch validated now), add
// candidate launches (sandbox ArgPack), memsets and library calls. Views add
// no step: they are DeviceTensor::view_of of an existing tensor.
//
// The first allocation waits for the runtime's stream, so blocks that
// earlier plans released are idle before they are reused (destroying a plan
// whose work is still in flight is otherwise safe only after that wait).
#pragma once

#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "common/result.h"
#include "evaluator/core/ir.h"
#include "evaluator/gpu/device_tensor.h"
#include "evaluator/gpu/gpu_runtime.h"
#include "evaluator/gpu/plan.h"
#include "sandbox/cuda/device_buffer.h"
#include "sandbox/cuda/launch.h"

namespace pf::gpu {

struct PlanBuilderOptions {
  //! Poisons every allocation when it is made (candidate outputs and scratch:
  //! a kernel that leaves an element unwritten is caught by NaN / the byte).
  //! The fills are queued on the runtime's stream: run the plan there (or
  //! synchronise it first).
  bool poison_allocations = false;
  //! Byte fill for poisoned integer/bool buffers; floating buffers get NaN.
  uint8_t poison_byte = 0xA5;
};

//! The poison for a buffer of `dtype`: the format's quiet NaN for floating
//! types, else `byte` repeated.
cuda::PoisonFill poison_fill(DType dtype, uint8_t byte);

class PlanBuilder {
 public:
  explicit PlanBuilder(GpuRuntime& runtime, PlanBuilderOptions options = {});

  GpuRuntime& runtime() { return runtime_; }
  const cuda::DeviceProperties& properties() const { return runtime_.properties(); }

  //! A fresh contiguous tensor, owned by the plan.
  Result<DeviceTensor> allocate(const TensorType& type, const std::string& name = "");
  //! Scratch bytes (reductions' partials, semaphores), owned by the plan.
  Result<std::shared_ptr<DeviceStorage>> allocate_bytes(size_t bytes, const std::string& name);
  //! Sets a fresh storage's bytes now, while the plan is built (not a plan
  //! step): self-resetting semaphores, `empty` outputs.
  Status fill_now(DeviceStorage& storage, uint8_t value);
  //! Makes the plan hold `t`'s storage (inputs read by a step).
  void use(const DeviceTensor& t);
  //! Keeps an object (descriptors, handles) alive as long as the plan.
  void keep_alive(std::shared_ptr<const void> object);

  //! A baseline kernel launch whose single parameter is `params` (a struct
  //! from kernels/pf_abi.cuh). Compiles/loads the kernel on first use.
  template <class P>
  Status add_kernel(std::string_view file, DType dtype, std::string_view kernel,
                    const cuda::LaunchConfig& config, const P& params) {
    static_assert(std::is_trivially_copyable_v<P>);
    return add_kernel_bytes(file, dtype, kernel, config, &params, sizeof(P));
  }
  Status add_kernel_bytes(std::string_view file, DType dtype, std::string_view kernel,
                          const cuda::LaunchConfig& config, const void* params, size_t bytes);
  //! A launch of any loaded function with marshalled arguments (candidate
  //! kernels); validated against the device's and the function's limits.
  Status add_launch(const cuda::CudaFunction& function, const cuda::FunctionLimits& limits,
                    const cuda::LaunchConfig& config, cuda::ArgPack args);
  //! Sets `bytes` bytes at `ptr` to `value` (cuMemsetD8Async; D32 when aligned).
  void add_memset(CUdeviceptr ptr, size_t bytes, uint8_t value);
  //! A library call (cuBLAS...) submitted on the plan's stream.
  void add_library_call(std::string name, std::function<Status(CUstream)> call);

  //! The finished plan; the builder is empty afterwards.
  Plan finish();

 private:
  Status poison(DeviceStorage& storage, DType dtype);
  Status settle_stream();
  Result<std::shared_ptr<DeviceStorage>> allocate_storage(size_t bytes, const std::string& name);
  GpuRuntime& runtime_;
  PlanBuilderOptions options_;
  Plan plan_;
  bool stream_settled_ = false;
};

//! The launch of `n` elements with `per_block` elements per block of `threads`.
cuda::LaunchConfig linear_launch(int64_t n, int64_t per_block, int64_t threads);

}  // namespace pf::gpu
