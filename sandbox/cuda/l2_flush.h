// Clears the L2 cache between timed trials (docs/design.md "Evaluation protocol"
// 5) by writing a buffer at least twice the device's L2 size, so neither the
// candidate nor the baseline is timed on data a previous trial left cached.
#pragma once

#include "common/result.h"
#include "sandbox/cuda/device_buffer.h"
#include "sandbox/cuda/device_properties.h"

namespace pf::cuda {

class L2Flusher {
 public:
  //! Sized max(2 x L2, min_bytes).
  static Result<L2Flusher> create(std::shared_ptr<const CudaDriver> driver,
                                  const DeviceProperties& props, size_t min_bytes = 8u << 20);
  //! Enqueues the flush on `stream` (asynchronous).
  Status flush(CUstream stream);
  size_t bytes() const { return buffer_.size(); }

 private:
  explicit L2Flusher(DeviceBuffer buffer) : buffer_(std::move(buffer)) {}
  DeviceBuffer buffer_;
  uint32_t value_ = 0;
};

}  // namespace pf::cuda
