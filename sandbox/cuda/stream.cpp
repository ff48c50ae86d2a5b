#include "sandbox/cuda/stream.h"

#include <utility>

namespace pf::cuda {

Result<CudaStream> CudaStream::create(std::shared_ptr<const CudaDriver> driver) {
  CudaStream s;
  s.driver_ = std::move(driver);
  PF_TRY(s.driver_->check(s.driver_->api().cuStreamCreate(&s.stream_, CU_STREAM_NON_BLOCKING),
                          "cuStreamCreate"));
  return s;
}

CudaStream::CudaStream(CudaStream&& other) noexcept
    : driver_(std::move(other.driver_)), stream_(std::exchange(other.stream_, nullptr)) {}

CudaStream& CudaStream::operator=(CudaStream&& other) noexcept {
  if (this != &other) {
    if (stream_ != nullptr) driver_->api().cuStreamDestroy(stream_);
    driver_ = std::move(other.driver_);
    stream_ = std::exchange(other.stream_, nullptr);
  }
  return *this;
}

CudaStream::~CudaStream() {
  if (stream_ != nullptr) driver_->api().cuStreamDestroy(stream_);
}

Status CudaStream::synchronize() const {
  return driver_->check(driver_->api().cuStreamSynchronize(stream_), "cuStreamSynchronize");
}

Result<CudaEvent> CudaEvent::create(std::shared_ptr<const CudaDriver> driver) {
  CudaEvent e;
  e.driver_ = std::move(driver);
  PF_TRY(e.driver_->check(e.driver_->api().cuEventCreate(&e.event_, CU_EVENT_DEFAULT),
                          "cuEventCreate"));
  return e;
}

CudaEvent::CudaEvent(CudaEvent&& other) noexcept
    : driver_(std::move(other.driver_)), event_(std::exchange(other.event_, nullptr)) {}

CudaEvent& CudaEvent::operator=(CudaEvent&& other) noexcept {
  if (this != &other) {
    if (event_ != nullptr) driver_->api().cuEventDestroy(event_);
    driver_ = std::move(other.driver_);
    event_ = std::exchange(other.event_, nullptr);
  }
  return *this;
}

CudaEvent::~CudaEvent() {
  if (event_ != nullptr) driver_->api().cuEventDestroy(event_);
}

Status CudaEvent::record(CUstream stream) const {
  return driver_->check(driver_->api().cuEventRecord(event_, stream), "cuEventRecord");
}

Status CudaEvent::synchronize() const {
  return driver_->check(driver_->api().cuEventSynchronize(event_), "cuEventSynchronize");
}

Result<float> CudaEvent::elapsed_ms_since(const CudaEvent& start) const {
  float ms = 0;
  PF_TRY(driver_->check(driver_->api().cuEventElapsedTime(&ms, start.event_, event_),
                        "cuEventElapsedTime"));
  return ms;
}

}  // namespace pf::cuda
