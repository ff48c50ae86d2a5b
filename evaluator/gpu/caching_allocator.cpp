#include "evaluator/gpu/caching_allocator.h"

#include <spdlog/spdlog.h>

namespace pf::gpu {

// A free block; `dirty` until scrub() zeroes it: whatever its last owner
// wrote may still be there. A block scrubbed and not handed out since holds
// zeros, so scrubbing only the dirty ones keeps the guarantee at the cost of
// what was freed since the last scrub, not of the whole cache.
struct FreeBlock {
  cuda::DeviceBuffer buffer;
  bool dirty = true;
};

struct DeviceStorage::Pool {
  std::mutex mu;
  std::map<size_t, std::vector<FreeBlock>> bins;  // class size -> free blocks
  AllocatorStats stats;

  void release(cuda::DeviceBuffer buffer) {
    std::lock_guard<std::mutex> lock(mu);
    size_t cls = buffer.size();
    stats.bytes_in_use -= cls;
    stats.bytes_cached += cls;
    bins[cls].push_back(FreeBlock{std::move(buffer), true});
  }
};

DeviceStorage::~DeviceStorage() {
  if (auto pool = pool_.lock()) pool->release(std::move(buffer_));
}

CachingAllocator::CachingAllocator(std::shared_ptr<const cuda::CudaDriver> driver,
                                   AllocatorOptions options)
    : driver_(std::move(driver)),
      options_(options),
      pool_(std::make_shared<DeviceStorage::Pool>()) {}

CachingAllocator::~CachingAllocator() = default;

size_t CachingAllocator::size_class(size_t bytes) {
  constexpr size_t kSmallGranule = 512;
  constexpr size_t kSmallLimit = size_t{1} << 20;
  if (bytes <= kSmallLimit) {
    return std::max(kSmallGranule, (bytes + kSmallGranule - 1) / kSmallGranule * kSmallGranule);
  }
  size_t pow2 = kSmallLimit;
  while (pow2 * 2 <= bytes) pow2 *= 2;
  for (size_t quarter = 0; quarter <= 4; ++quarter) {
    size_t cls = pow2 + pow2 / 4 * quarter;
    if (cls >= bytes) return cls;
  }
  return pow2 * 2;
}

Result<std::shared_ptr<DeviceStorage>> CachingAllocator::allocate(size_t bytes,
                                                                  const std::string& name) {
  const size_t cls = size_class(bytes);
  {
    std::lock_guard<std::mutex> lock(pool_->mu);
    auto& st = pool_->stats;
    ++st.requests;
    auto it = pool_->bins.find(cls);
    if (it != pool_->bins.end() && !it->second.empty()) {
      cuda::DeviceBuffer buffer = std::move(it->second.back().buffer);
      it->second.pop_back();
      ++st.cache_hits;
      st.bytes_cached -= cls;
      st.bytes_in_use += cls;
      st.peak_bytes_in_use = std::max(st.peak_bytes_in_use, st.bytes_in_use);
      // The block's last owner may have written past it: fresh guards, so
      // that damage is never reported against the next owner's kernel.
      if (Status fresh = buffer.reissue(name); !fresh.ok()) {
        st.bytes_in_use -= cls;
        return fresh.error().with_context("reusing a cached block for '" + name + "'");
      }
      return std::shared_ptr<DeviceStorage>(
          new DeviceStorage(pool_, std::move(buffer), bytes, name));
    }
  }
  auto buffer = cuda::DeviceBuffer::allocate(driver_, name, cls, options_.guard_bytes);
  if (!buffer.ok()) {
    spdlog::debug("allocator: {} bytes failed ({}); trimming the cache and retrying", cls,
                  buffer.error().message);
    trim();
    buffer = cuda::DeviceBuffer::allocate(driver_, name, cls, options_.guard_bytes);
    if (!buffer.ok()) {
      return buffer.error().with_context("allocating " + std::to_string(bytes) + " bytes for '" +
                                         name + "'");
    }
  }
  std::lock_guard<std::mutex> lock(pool_->mu);
  auto& st = pool_->stats;
  ++st.device_allocs;
  st.bytes_in_use += cls;
  st.peak_bytes_in_use = std::max(st.peak_bytes_in_use, st.bytes_in_use);
  return std::shared_ptr<DeviceStorage>(new DeviceStorage(pool_, std::move(*buffer), bytes, name));
}

void CachingAllocator::trim() {
  std::map<size_t, std::vector<FreeBlock>> freed;
  {
    std::lock_guard<std::mutex> lock(pool_->mu);
    freed.swap(pool_->bins);
    for (const auto& [cls, blocks] : freed) pool_->stats.device_frees += blocks.size();
    pool_->stats.bytes_cached = 0;
  }
  // The buffers free their device memory here, outside the lock.
}

Status CachingAllocator::scrub() {
  std::lock_guard<std::mutex> lock(pool_->mu);
  for (auto& [cls, blocks] : pool_->bins) {
    for (FreeBlock& b : blocks) {
      if (!b.dirty) continue;
      PF_TRY(b.buffer.fill_bytes(0));
      b.dirty = false;
      pool_->stats.bytes_scrubbed += cls;
    }
  }
  return ok_status();
}

AllocatorStats CachingAllocator::stats() const {
  std::lock_guard<std::mutex> lock(pool_->mu);
  return pool_->stats;
}

}  // namespace pf::gpu
