// The protocol's integrity checks done on the device (kernels/check.cu,
// per-element math in evaluator/core/tensor_digest.h): each tensor's check
// reads back one 64-bit number instead of the tensor, so re-checking a
// candidate many times per variant costs no host traffic of the tensors'
// size. A call checks a batch (every input, every output of a plan) with one
// read-back, so it costs a few synchronisations whatever the batch holds.
#pragma once

#include <cstdint>
#include <vector>

#include "common/result.h"
#include "evaluator/gpu/device_tensor.h"
#include "evaluator/gpu/gpu_runtime.h"
#include "evaluator/gpu/plan.h"

namespace pf::gpu {

//! True when the device checks can read `t` directly: a contiguous view
//! inside its storage. Others (a strided view a candidate returned) are
//! downloaded and checked on the host.
bool device_checkable(const DeviceTensor& t);

//! The keyed digest of each tensor (device_checkable), equal to
//! pf::protocol::tensor_digest of a host copy with the same bits. `key`
//! reaches the device only as a kernel parameter; the raw sums the kernels
//! leave are zeroed before this returns. Synchronises.
Result<std::vector<uint64_t>> device_digests(GpuRuntime& rt, const std::vector<DeviceTensor>& ts,
                                             uint64_t key);

//! For each k, how many elements of a[k] and b[k] (device_checkable, same
//! dtype and numel) differ in any bit, as pf::protocol::count_changed_elements.
//! Synchronises.
Result<std::vector<int64_t>> count_changed_on_device(GpuRuntime& rt,
                                                     const std::vector<DeviceTensor>& a,
                                                     const std::vector<DeviceTensor>& b);

//! Plan::check_guards with the reading done on the device: every canary of
//! the plan's storages compared in one launch per PF_GUARD_BATCH guards, one
//! eight-byte read-back; only when some word differs are the guards read on
//! the host, for the same error naming the buffer and offsets. Synchronises.
Status check_plan_guards(GpuRuntime& rt, const Plan& plan);

struct PlanCheck {
  Status guards;                 // check_plan_guards's verdict
  std::vector<int64_t> changed;  // count_changed_on_device(a, b)
};

//! check_plan_guards and count_changed_on_device(a, b) in one batch of
//! counters: one read-back for both (the protocol checks a plan's guards and
//! its inputs together, several times per variant). The error is a failure
//! to check (CUDA's, unlike tensors); damage is in `guards`. Synchronises.
Result<PlanCheck> check_plan(GpuRuntime& rt, const Plan& plan, const std::vector<DeviceTensor>& a,
                             const std::vector<DeviceTensor>& b);

//! One plan's check in a batch: its guards, and a[k] against b[k] (null: no
//! inputs to count).
struct PlanCheckRequest {
  const Plan* plan = nullptr;
  const std::vector<DeviceTensor>* a = nullptr;
  const std::vector<DeviceTensor>* b = nullptr;
};
//! check_plan of several plans with one read-back for all (the protocol
//! checks both input sets' plans after timing): a result per request, in order.
Result<std::vector<PlanCheck>> check_plans(GpuRuntime& rt,
                                           const std::vector<PlanCheckRequest>& requests);

}  // namespace pf::gpu
