#include "sandbox/cuda/l2_flush.h"

#include <algorithm>

namespace pf::cuda {

Result<L2Flusher> L2Flusher::create(std::shared_ptr<const CudaDriver> driver,
                                    const DeviceProperties& props, size_t min_bytes) {
  const size_t l2 = static_cast<size_t>(std::max<int64_t>(props.l2_cache_bytes, 0));
  size_t bytes = std::max<size_t>(l2 + l2 / 4, min_bytes);
  bytes = (bytes + 3) / 4 * 4;
  PF_ASSIGN(auto buffer, DeviceBuffer::allocate(std::move(driver), "l2_flush", bytes, 0));
  return L2Flusher(std::move(buffer));
}

Status L2Flusher::flush(CUstream stream) {
  // A different value each time so no layer can skip an identical write.
  ++value_;
  const auto& d = buffer_.driver();
  return d.check(d.api().cuMemsetD32Async(buffer_.data(), value_, buffer_.size() / 4, stream),
                 "cuMemsetD32Async(l2_flush)");
}

}  // namespace pf::cuda
