// A prebuilt list of device work (docs/design.md "Evaluation protocol" 5 times
// these): kernel launches with their parameters already marshalled, memsets
// and library calls (cuBLAS). Running a plan submits its steps to a stream
// and does nothing else: no allocation, no lookup, no marshalling. A plan
// owns (shares) every storage its steps touch, so buffers outlive it.
//
// Built by PlanBuilder; not copyable (launch parameter pointers point into
// the plan's own storage); movable.
#pragma once

#include <cuda.h>

#include <array>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "common/result.h"
#include "evaluator/gpu/caching_allocator.h"
#include "sandbox/cuda/kernel_args.h"

namespace pf::gpu {

struct PlanStep {
  enum class Kind { kernel, memset, library };
  Kind kind = Kind::kernel;
  std::string name;  // kernel name, "memset", "cublasGemmEx", ...
  // kernel
  CUfunction function = nullptr;
  std::array<unsigned, 3> grid{1, 1, 1};
  std::array<unsigned, 3> block{1, 1, 1};
  unsigned smem = 0;
  std::vector<uint64_t> param_storage;  // one struct parameter (baseline kernels)
  std::shared_ptr<cuda::ArgPack> args;  // marshalled arguments (candidate kernels); never copied
  // memset
  CUdeviceptr ptr = 0;
  size_t count = 0;  // elements of `width` bytes
  uint32_t value = 0;
  int width = 1;  // 1 or 4
  // library
  std::function<Status(CUstream)> call;
};

class Plan {
 public:
  Plan() = default;
  Plan(Plan&&) noexcept = default;
  Plan& operator=(Plan&&) noexcept = default;
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;

  //! Submits every step to `stream` in order (asynchronous). A launch error
  //! names the step; a sticky error also poisons the driver (sandbox).
  Status run(CUstream stream) const;

  size_t size() const { return steps_.size(); }
  const std::vector<PlanStep>& steps() const { return steps_; }
  //! "pf_add_vec, pf_sum, cublasLtMatmul"
  std::string describe() const;
  //! Storages the plan's steps read or write.
  const std::vector<std::shared_ptr<DeviceStorage>>& storages() const { return storages_; }
  //! A plan of step `index` alone, sharing this plan's storages (profiling:
  //! the time of one kernel or library call).
  Plan step_plan(size_t index) const;
  //! Checks the canary guards of every storage (synchronous; call after the
  //! stream the plan ran on is synchronised).
  Status check_guards() const;
  //! Whether the builder set `storage` once while building (an `empty`
  //! op's zeros, a self-resetting semaphore): no step of the plan writes it,
  //! so it must not be re-poisoned between runs.
  bool set_at_build(const DeviceStorage* storage) const {
    return set_at_build_.count(storage) != 0;
  }

 private:
  friend class PlanBuilder;
  std::shared_ptr<const cuda::CudaDriver> driver_;
  std::vector<PlanStep> steps_;
  std::vector<std::shared_ptr<DeviceStorage>> storages_;
  std::set<const DeviceStorage*> set_at_build_;
  std::vector<std::shared_ptr<const void>> keep_alive_;
};

}  // namespace pf::gpu
