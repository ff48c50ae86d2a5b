// Device memory for one worker: size-class bins over guarded DeviceBuffers
// (sandbox/cuda: canaries around every block, poison fills), so buffers are
// reused across plans and nothing calls cuMemAlloc in the timed path (plans
// allocate while they are built). A DeviceStorage returns its block to the
// bins when the last tensor using it goes away; trim() gives cached blocks
// back to the driver.
//
// Size classes: requests up to 1 MiB round up to 512 bytes; larger ones to
// the next of 2^k, 1.25, 1.5, 1.75 x 2^k (at most 25% slack). A cached block
// is reused only for its own class.
//
// Thread-safety: allocate/trim/stats are mutex-guarded; a storage may be
// released from any thread.
#pragma once

#include <cuda.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/result.h"
#include "sandbox/cuda/device_buffer.h"

namespace pf::gpu {

struct AllocatorOptions {
  //! Canary bytes before and after every block (DeviceBuffer guards).
  size_t guard_bytes = cuda::DeviceBuffer::kDefaultGuardBytes;
};

struct AllocatorStats {
  uint64_t requests = 0;
  uint64_t cache_hits = 0;
  uint64_t device_allocs = 0;
  uint64_t device_frees = 0;
  size_t bytes_in_use = 0;  // payload bytes of blocks held by storages (class sizes)
  size_t bytes_cached = 0;  // payload bytes of free blocks in the bins
  size_t peak_bytes_in_use = 0;
  uint64_t bytes_scrubbed = 0;  // zeroed by scrub() (class sizes), over the allocator's life
};

class CachingAllocator;

//! One allocated block. Destroying it returns the block to its allocator's
//! bins (or frees it when the allocator is gone).
class DeviceStorage {
 public:
  ~DeviceStorage();
  DeviceStorage(const DeviceStorage&) = delete;
  DeviceStorage& operator=(const DeviceStorage&) = delete;

  CUdeviceptr data() const { return buffer_.data(); }
  //! The usable bytes (the requested size; the block may be larger).
  size_t size() const { return size_; }
  const std::string& name() const { return name_; }
  //! The guarded buffer (poison fills, guard checks, uploads).
  cuda::DeviceBuffer& buffer() { return buffer_; }
  const cuda::DeviceBuffer& buffer() const { return buffer_; }

 private:
  friend class CachingAllocator;
  struct Pool;
  DeviceStorage(std::weak_ptr<Pool> pool, cuda::DeviceBuffer buffer, size_t size, std::string name)
      : pool_(std::move(pool)), buffer_(std::move(buffer)), size_(size), name_(std::move(name)) {}
  std::weak_ptr<Pool> pool_;
  cuda::DeviceBuffer buffer_;
  size_t size_;
  std::string name_;
};

class CachingAllocator {
 public:
  CachingAllocator(std::shared_ptr<const cuda::CudaDriver> driver, AllocatorOptions options = {});
  ~CachingAllocator();
  CachingAllocator(const CachingAllocator&) = delete;
  CachingAllocator& operator=(const CachingAllocator&) = delete;

  //! A block of at least `bytes` (0 allowed). Out of device memory, the
  //! cache is trimmed and the allocation retried once; then the driver's error.
  Result<std::shared_ptr<DeviceStorage>> allocate(size_t bytes, const std::string& name);
  //! Frees every cached (unused) block.
  void trim();
  //! Zeroes every cached (unused) block freed since the last scrub, so that
  //! nothing a previous plan left there (the baseline's expected outputs, an
  //! earlier evaluation's data) can be read by the next candidate (integrity:
  //! no baseline data reachable from the candidate); blocks zeroed by an
  //! earlier scrub and not handed out since are not written again. Enqueued
  //! on the legacy stream: synchronise the device before trusting it.
  Status scrub();
  AllocatorStats stats() const;

  //! The class a request of `bytes` is served from (pure; unit-tested).
  static size_t size_class(size_t bytes);

 private:
  std::shared_ptr<const cuda::CudaDriver> driver_;
  AllocatorOptions options_;
  std::shared_ptr<DeviceStorage::Pool> pool_;
};

}  // namespace pf::gpu
