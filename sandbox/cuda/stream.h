// Streams and events (device-side timing). Both need the context current.
#pragma once

#include <cuda.h>

#include <memory>

#include "common/result.h"
#include "sandbox/cuda/cuda_driver.h"

namespace pf::cuda {

class CudaStream {
 public:
  //! A non-blocking stream (does not synchronise with the legacy default stream).
  static Result<CudaStream> create(std::shared_ptr<const CudaDriver> driver);
  CudaStream(CudaStream&& other) noexcept;
  CudaStream& operator=(CudaStream&& other) noexcept;
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;
  ~CudaStream();

  CUstream handle() const { return stream_; }
  Status synchronize() const;

 private:
  CudaStream() = default;
  std::shared_ptr<const CudaDriver> driver_;
  CUstream stream_ = nullptr;
};

class CudaEvent {
 public:
  static Result<CudaEvent> create(std::shared_ptr<const CudaDriver> driver);
  CudaEvent(CudaEvent&& other) noexcept;
  CudaEvent& operator=(CudaEvent&& other) noexcept;
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  ~CudaEvent();

  CUevent handle() const { return event_; }
  Status record(CUstream stream) const;
  Status synchronize() const;
  //! Milliseconds from `start` to this event; both recorded and complete.
  Result<float> elapsed_ms_since(const CudaEvent& start) const;

 private:
  CudaEvent() = default;
  std::shared_ptr<const CudaDriver> driver_;
  CUevent event_ = nullptr;
};

}  // namespace pf::cuda
