// Clears the L2 cache between timed trials (docs/design.md "Evaluation protocol"
// 5) by writing a buffer 1.25 times the device's L2 size, so neither the
// candidate nor the baseline is timed on data a previous trial left cached.
// Measured on the H200 (60 MiB L2; bench/results/device-20261202.md): after
// writing 1x, 1.25x, 1.5x, 2x or 3x the L2 a 4 MB and a 16 MB read take the
// same time (cold), after 0.5x they are partly warm; the flush is a trial's
// largest cost (18 us at 1x, 32 us at 2x), so the margin is a quarter.
#pragma once

#include "common/result.h"
#include "sandbox/cuda/device_buffer.h"
#include "sandbox/cuda/device_properties.h"

namespace pf::cuda {

class L2Flusher {
 public:
  //! Sized max(1.25 x L2, min_bytes).
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
