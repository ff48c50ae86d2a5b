// The protocol's integrity checks done on the device (kernels/check.cu,
// per-element math in evaluator/core/tensor_digest.h): each reads back one
// 64-bit number instead of the tensor, so re-checking a candidate many times
// per variant costs no host traffic of the tensor's size.
#pragma once

#include <cstdint>

#include "common/result.h"
#include "evaluator/gpu/device_tensor.h"
#include "evaluator/gpu/gpu_runtime.h"

namespace pf::gpu {

//! True when the device checks can read `t` directly: a contiguous view
//! inside its storage. Others (a strided view a candidate returned) are
//! downloaded and checked on the host.
bool device_checkable(const DeviceTensor& t);

//! The keyed digest of `t`'s elements (device_checkable), equal to
//! pf::protocol::tensor_digest of a host copy with the same bits. `key`
//! reaches the device only as a kernel parameter; the raw sum the kernel
//! leaves is zeroed before this returns. Synchronises.
Result<uint64_t> device_digest(GpuRuntime& rt, const DeviceTensor& t, uint64_t key);

//! How many elements of `a` and `b` (device_checkable, same dtype and
//! numel) differ in any bit, as pf::protocol::count_changed_elements.
//! Synchronises.
Result<int64_t> count_changed_on_device(GpuRuntime& rt, const DeviceTensor& a,
                                        const DeviceTensor& b);

}  // namespace pf::gpu
