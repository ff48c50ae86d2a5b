// Device memory for kernel inputs, outputs and scratch, surrounded by canary
// guards: each allocation is [guard | payload | guard], the guards filled with
// a known byte. After a run check_guards() reads them back and names the
// buffer and side a kernel wrote past. The payload starts 256-byte aligned
// (as cuMemAlloc's own allocations do); the trailing guard starts right after
// the last payload byte, so even a one-byte overrun is caught.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/result.h"
#include "sandbox/cuda/cuda_driver.h"

namespace pf::cuda {

//! How a payload is poisoned before a candidate runs: a kernel that leaves an
//! output unwritten is caught because NaN / the pattern survives.
enum class PoisonKind {
  byte,      // every byte = PoisonFill::byte
  nan_f16,   // IEEE half quiet NaN 0x7E00 per element
  nan_bf16,  // bfloat16 quiet NaN 0x7FC0 per element
  nan_f32,   // 0x7FC00000 per element
  nan_f64,   // 0xFFFFFFFF'FFFFFFFF per element (a NaN)
};

struct PoisonFill {
  PoisonKind kind = PoisonKind::byte;
  uint8_t byte = 0xA5;
};

struct GuardViolation {
  std::string buffer;
  bool before = false;      // true: the guard before the payload; false: after it
  size_t first_offset = 0;  // bytes from the payload edge (before: counted backwards)
  size_t bytes_changed = 0;
  std::string describe() const;
};

class DeviceBuffer {
 public:
  static constexpr size_t kDefaultGuardBytes = 4096;
  static constexpr uint8_t kGuardByte = 0xCB;

  //! Allocates `bytes` (may be 0) plus the guards, and fills the guards.
  static Result<DeviceBuffer> allocate(std::shared_ptr<const CudaDriver> driver, std::string name,
                                       size_t bytes, size_t guard_bytes = kDefaultGuardBytes);
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer();

  CUdeviceptr data() const { return base_ + guard_; }
  size_t size() const { return size_; }
  //! Canary bytes on each side: [data() - guard_bytes(), data()) and
  //! [data() + size(), data() + size() + guard_bytes()).
  size_t guard_bytes() const { return guard_; }
  const std::string& name() const { return name_; }
  const CudaDriver& driver() const { return *driver_; }

  //! Synchronous copies (return once the data has arrived).
  Status upload(const void* host, size_t bytes, size_t offset = 0);
  Status download(void* host, size_t bytes, size_t offset = 0) const;
  //! Asynchronous on `stream`: the host memory must stay valid (and, for a
  //! truly asynchronous copy, be page-locked) until the stream reaches it.
  Status download_async(void* host, size_t bytes, CUstream stream, size_t offset = 0) const;
  //! Copies `source`'s payload (same size) on `stream` (e.g. fresh input
  //! copies for the baseline, so a candidate's writes cannot reach it).
  Status copy_from(const DeviceBuffer& source, CUstream stream);
  Result<std::vector<uint8_t>> download_all() const;
  //! Enqueues the fill on `stream` (the legacy stream by default): callers
  //! synchronise before relying on it, so the timing harness can enqueue a
  //! candidate's re-poisoning ahead of its trials.
  Status poison(const PoisonFill& fill, CUstream stream = nullptr);
  Status fill_bytes(uint8_t value);

  //! The guards' state; empty when intact. Reads device memory (synchronous).
  Result<std::vector<GuardViolation>> check_guards() const;
  //! Hands the buffer to a new owner (a caching allocator reusing it): a new
  //! name for violation reports and intact guards, so damage an earlier
  //! owner's kernel did is never reported against the next one.
  Status reissue(std::string name);

 private:
  DeviceBuffer() = default;
  void release();
  Status fill_guards();
  Status check_range(const char* what, size_t bytes, size_t offset) const;
  std::shared_ptr<const CudaDriver> driver_;
  std::string name_;
  CUdeviceptr base_ = 0;
  size_t guard_ = 0;
  size_t size_ = 0;
};

//! Checks every buffer's guards: an `integrity`-grade error naming each
//! violation ("buffer 'out0': 16 bytes changed after the payload, from +0").
Status check_all_guards(const std::vector<const DeviceBuffer*>& buffers);

}  // namespace pf::cuda
