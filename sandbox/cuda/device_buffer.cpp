#include "sandbox/cuda/device_buffer.h"

#include <utility>

namespace pf::cuda {
namespace {

constexpr size_t kAlign = 256;

size_t round_up(size_t v, size_t a) {
  return (v + a - 1) / a * a;
}

// Scans one read-back guard for bytes that differ from the canary.
void scan_guard(const std::vector<uint8_t>& g, bool before, const std::string& name,
                std::vector<GuardViolation>& out) {
  GuardViolation v{name, before, 0, 0};
  bool any = false;
  for (size_t i = 0; i < g.size(); ++i) {
    if (g[i] == DeviceBuffer::kGuardByte) continue;
    size_t from_edge = before ? g.size() - i : i;  // before: distance counted back from the payload
    if (!any || from_edge < v.first_offset) v.first_offset = from_edge;
    any = true;
    ++v.bytes_changed;
  }
  if (any) out.push_back(v);
}

}  // namespace

std::string GuardViolation::describe() const {
  return "buffer '" + buffer + "': " + std::to_string(bytes_changed) + " byte" +
         (bytes_changed == 1 ? "" : "s") + " changed " + (before ? "before" : "after") +
         " the payload, nearest at " + (before ? "-" : "+") + std::to_string(first_offset) +
         " (out-of-bounds write)";
}

Result<DeviceBuffer> DeviceBuffer::allocate(std::shared_ptr<const CudaDriver> driver,
                                            std::string name, size_t bytes, size_t guard_bytes) {
  DeviceBuffer b;
  b.driver_ = std::move(driver);
  b.name_ = std::move(name);
  b.guard_ = round_up(guard_bytes, kAlign);
  b.size_ = bytes;
  const auto& d = *b.driver_;
  const size_t total = b.guard_ + bytes + b.guard_;
  CUresult r = d.api().cuMemAlloc(&b.base_, total == 0 ? 1 : total);
  if (r != CUDA_SUCCESS) {
    b.base_ = 0;
    return d.error(r, "cuMemAlloc(" + std::to_string(total) + " bytes for '" + b.name_ + "')");
  }
  PF_TRY(b.fill_guards());
  return b;
}

Status DeviceBuffer::fill_guards() {
  if (guard_ == 0) return ok_status();
  const auto& d = *driver_;
  PF_TRY(d.check(d.api().cuMemsetD8(base_, kGuardByte, guard_), "cuMemsetD8(guard)"));
  return d.check(d.api().cuMemsetD8(base_ + guard_ + size_, kGuardByte, guard_),
                 "cuMemsetD8(guard)");
}

Status DeviceBuffer::reissue(std::string name) {
  name_ = std::move(name);
  return fill_guards();
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept {
  *this = std::move(other);
}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    release();
    driver_ = std::move(other.driver_);
    name_ = std::move(other.name_);
    base_ = std::exchange(other.base_, 0);
    guard_ = other.guard_;
    size_ = other.size_;
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() {
  release();
}

void DeviceBuffer::release() {
  if (base_ != 0 && driver_) driver_->api().cuMemFree(base_);
  base_ = 0;
}

Status DeviceBuffer::upload(const void* host, size_t bytes, size_t offset) {
  PF_TRY(check_range("upload", bytes, offset));
  if (bytes == 0) return ok_status();
  return driver_->check(driver_->api().cuMemcpyHtoD(data() + offset, host, bytes),
                        "cuMemcpyHtoD(" + name_ + ")");
}

Status DeviceBuffer::download(void* host, size_t bytes, size_t offset) const {
  PF_TRY(check_range("download", bytes, offset));
  if (bytes == 0) return ok_status();
  return driver_->check(driver_->api().cuMemcpyDtoH(host, data() + offset, bytes),
                        "cuMemcpyDtoH(" + name_ + ")");
}

Status DeviceBuffer::download_async(void* host, size_t bytes, CUstream stream,
                                    size_t offset) const {
  PF_TRY(check_range("download", bytes, offset));
  if (bytes == 0) return ok_status();
  return driver_->check(driver_->api().cuMemcpyDtoHAsync(host, data() + offset, bytes, stream),
                        "cuMemcpyDtoHAsync(" + name_ + ")");
}

Status DeviceBuffer::copy_from(const DeviceBuffer& source, CUstream stream) {
  if (source.size_ != size_) {
    return make_error(ErrorCode::invalid_argument,
                      "copy from '" + source.name_ + "' (" + std::to_string(source.size_) +
                          " bytes) to '" + name_ + "' (" + std::to_string(size_) +
                          " bytes): sizes differ");
  }
  if (size_ == 0) return ok_status();
  return driver_->check(driver_->api().cuMemcpyDtoDAsync(data(), source.data(), size_, stream),
                        "cuMemcpyDtoDAsync(" + source.name_ + " -> " + name_ + ")");
}

Status DeviceBuffer::check_range(const char* what, size_t bytes, size_t offset) const {
  if (offset > size_ || bytes > size_ - offset) {
    return make_error(ErrorCode::invalid_argument,
                      std::string(what) + " of " + std::to_string(bytes) + " bytes at " +
                          std::to_string(offset) + " overflows buffer '" + name_ + "' of " +
                          std::to_string(size_));
  }
  return ok_status();
}

Result<std::vector<uint8_t>> DeviceBuffer::download_all() const {
  std::vector<uint8_t> out(size_);
  PF_TRY(download(out.data(), out.size()));
  return out;
}

Status DeviceBuffer::fill_bytes(uint8_t value) {
  if (size_ == 0) return ok_status();
  return driver_->check(driver_->api().cuMemsetD8(data(), value, size_),
                        "cuMemsetD8(" + name_ + ")");
}

Status DeviceBuffer::poison(const PoisonFill& fill, CUstream stream) {
  const auto& fn = driver_->api();
  size_t elem = 1;
  unsigned char byte = fill.byte;
  switch (fill.kind) {
    case PoisonKind::byte:
      break;
    case PoisonKind::nan_f64:
      byte = 0xFF;  // all-ones is a NaN in every float format
      break;
    case PoisonKind::nan_f16:
    case PoisonKind::nan_bf16:
      elem = 2;
      break;
    case PoisonKind::nan_f32:
      elem = 4;
      break;
  }
  const size_t n = size_ / elem;
  if (n > 0) {
    CUresult r = CUDA_SUCCESS;
    if (elem == 1) {
      r = fn.cuMemsetD8Async(data(), byte, n, stream);
    } else if (elem == 2) {
      r = fn.cuMemsetD16Async(data(), fill.kind == PoisonKind::nan_f16 ? 0x7E00 : 0x7FC0, n,
                              stream);
    } else {
      r = fn.cuMemsetD32Async(data(), 0x7FC00000u, n, stream);
    }
    PF_TRY(driver_->check(r, "poison(" + name_ + ")"));
  }
  if (size_t tail = size_ - n * elem; tail > 0) {
    PF_TRY(driver_->check(fn.cuMemsetD8Async(data() + n * elem, 0xFF, tail, stream),
                          "poison(" + name_ + ")"));
  }
  return ok_status();
}

Result<std::vector<GuardViolation>> DeviceBuffer::check_guards() const {
  std::vector<GuardViolation> out;
  if (guard_ == 0) return out;
  const auto& fn = driver_->api();
  std::vector<uint8_t> g(guard_);
  PF_TRY(driver_->check(fn.cuMemcpyDtoH(g.data(), base_, guard_), "cuMemcpyDtoH(guard)"));
  scan_guard(g, true, name_, out);
  PF_TRY(driver_->check(fn.cuMemcpyDtoH(g.data(), data() + size_, guard_), "cuMemcpyDtoH(guard)"));
  scan_guard(g, false, name_, out);
  return out;
}

Status check_all_guards(const std::vector<const DeviceBuffer*>& buffers) {
  std::string problems;
  for (const auto* b : buffers) {
    PF_ASSIGN(auto violations, b->check_guards());
    for (const auto& v : violations) problems += (problems.empty() ? "" : "; ") + v.describe();
  }
  if (problems.empty()) return ok_status();
  return make_error(ErrorCode::invalid_argument, "canary check failed: " + problems);
}

}  // namespace pf::cuda
