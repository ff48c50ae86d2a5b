#include "evaluator/gpu/device_tensor.h"

#include "common/check.h"
#include "evaluator/gpu/caching_allocator.h"

namespace pf::gpu {

DeviceTensor::DeviceTensor(std::shared_ptr<DeviceStorage> storage, DType dtype, Shape shape,
                           Strides strides, int64_t offset)
    : storage_(std::move(storage)),
      dtype_(dtype),
      shape_(std::move(shape)),
      strides_(std::move(strides)),
      offset_(offset) {
  PF_CHECK(shape_.size() == strides_.size());
}

DeviceTensor DeviceTensor::contiguous(std::shared_ptr<DeviceStorage> storage, DType dtype,
                                      Shape shape) {
  Strides strides = contiguous_strides(shape);
  return DeviceTensor(std::move(storage), dtype, std::move(shape), std::move(strides), 0);
}

DeviceTensor DeviceTensor::view_of(const DeviceTensor& base, Shape shape, Strides strides,
                                   int64_t offset) {
  return DeviceTensor(base.storage_, base.dtype_, std::move(shape), std::move(strides), offset);
}

bool is_contiguous_layout(const Shape& shape, const Strides& strides) {
  int64_t expected = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    if (shape[i] == 1) continue;
    if (strides[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}

bool DeviceTensor::is_contiguous() const {
  return is_contiguous_layout(shape_, strides_);
}

CUdeviceptr DeviceTensor::data_ptr() const {
  PF_CHECK(storage_ != nullptr);
  return storage_->data() + static_cast<CUdeviceptr>(offset_) * dtype_size(dtype_);
}

std::pair<int64_t, int64_t> DeviceTensor::extent() const {
  int64_t lo = offset_, hi = offset_;
  for (size_t d = 0; d < shape_.size(); ++d) {
    if (shape_[d] == 0) return {offset_, offset_ - 1};
    int64_t span = (shape_[d] - 1) * strides_[d];
    if (span < 0) {
      lo += span;
    } else {
      hi += span;
    }
  }
  return {lo, hi};
}

Status DeviceTensor::check_in_bounds() const {
  if (numel() == 0) return ok_status();
  auto [lo, hi] = extent();
  int64_t capacity = static_cast<int64_t>(storage_->size() / dtype_size(dtype_));
  if (lo < 0 || hi >= capacity) {
    return make_error(ErrorCode::invalid_argument,
                      "view " + tensor_type_str(type()) + " (offset " + std::to_string(offset_) +
                          ") reaches elements [" + std::to_string(lo) + ", " + std::to_string(hi) +
                          "] of a storage holding " + std::to_string(capacity));
  }
  return ok_status();
}

}  // namespace pf::gpu
