// The device's primary context, retained for the object's lifetime and made
// current on the creating thread. A worker holds one for its device; every
// other CUDA object here assumes it is current on the calling thread.
#pragma once

#include <memory>

#include "common/result.h"
#include "sandbox/cuda/cuda_driver.h"
#include "sandbox/cuda/device_properties.h"

namespace pf::cuda {

struct ContextOptions {
  int device = 0;
  //! Device printf buffer (CU_LIMIT_PRINTF_FIFO_SIZE): a printf flood is
  //! truncated to this many bytes per synchronisation instead of filling the log.
  size_t printf_fifo_bytes = 64 * 1024;
  //! Device malloc heap (CU_LIMIT_MALLOC_HEAP_SIZE): kernels are not meant to
  //! allocate; a small heap keeps a malloc loop from taking device memory.
  size_t malloc_heap_bytes = 1 << 20;
};

class CudaContext {
 public:
  static Result<std::unique_ptr<CudaContext>> create(std::shared_ptr<const CudaDriver> driver,
                                                     const ContextOptions& options = {});
  ~CudaContext();
  CudaContext(const CudaContext&) = delete;
  CudaContext& operator=(const CudaContext&) = delete;

  //! Makes the context current on the calling thread.
  Status make_current() const;
  //! cuCtxSynchronize: where asynchronous kernel faults surface.
  Status synchronize() const;

  const CudaDriver& driver() const { return *driver_; }
  const std::shared_ptr<const CudaDriver>& driver_ptr() const { return driver_; }
  const DeviceProperties& properties() const { return props_; }
  CUcontext handle() const { return ctx_; }

 private:
  CudaContext() = default;
  std::shared_ptr<const CudaDriver> driver_;
  DeviceProperties props_;
  CUdevice device_ = 0;
  CUcontext ctx_ = nullptr;
};

}  // namespace pf::cuda
