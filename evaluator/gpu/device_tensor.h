// A tensor in device memory with PyTorch semantics: a shared storage handle
// (from the CachingAllocator) plus dtype, shape, strides and offset in
// elements, so view ops are free and consumers read strides (docs/design.md
// "Tensors in the runtime follow PyTorch semantics").
#pragma once

#include <cuda.h>

#include <memory>

#include "common/result.h"
#include "evaluator/core/dtype.h"
#include "evaluator/core/ir.h"
#include "evaluator/core/shape.h"
#include "evaluator/core/tensor.h"

namespace pf::gpu {

class DeviceStorage;

class DeviceTensor {
 public:
  DeviceTensor() = default;
  DeviceTensor(std::shared_ptr<DeviceStorage> storage, DType dtype, Shape shape, Strides strides,
               int64_t offset);
  //! A contiguous tensor at the start of `storage`.
  static DeviceTensor contiguous(std::shared_ptr<DeviceStorage> storage, DType dtype, Shape shape);
  //! Another geometry over base's storage (no copy).
  static DeviceTensor view_of(const DeviceTensor& base, Shape shape, Strides strides,
                              int64_t offset);

  bool defined() const { return storage_ != nullptr; }
  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  const Strides& strides() const { return strides_; }
  int64_t offset() const { return offset_; }
  int64_t dim() const { return static_cast<int64_t>(shape_.size()); }
  int64_t numel() const { return shape_numel(shape_); }
  size_t element_size() const { return dtype_size(dtype_); }
  bool is_contiguous() const;
  TensorType type() const { return TensorType{dtype_, shape_}; }
  const std::shared_ptr<DeviceStorage>& storage() const { return storage_; }
  bool shares_storage(const DeviceTensor& other) const { return storage_ == other.storage_; }

  //! The value of a 0-d tensor the plan computed on the host while it was
  //! built (graph_plan.h: what PyTorch keeps on the CPU), else null. The
  //! device copy holds the same value; views do not carry it.
  const Tensor* host_value() const { return host_value_.get(); }
  void set_host_value(std::shared_ptr<const Tensor> value) { host_value_ = std::move(value); }

  //! The address of the first element: storage base + offset * element size.
  CUdeviceptr data_ptr() const;
  //! Smallest and largest storage element index the view touches (numel > 0).
  std::pair<int64_t, int64_t> extent() const;
  //! The view stays inside its storage (views built from untrusted geometry).
  Status check_in_bounds() const;

 private:
  std::shared_ptr<DeviceStorage> storage_;
  DType dtype_ = DType::float32;
  Shape shape_;
  Strides strides_;
  int64_t offset_ = 0;
  std::shared_ptr<const Tensor> host_value_;
};

//! True when (shape, strides) is a row-major contiguous layout (size-1 dims
//! may have any stride), as Tensor::is_contiguous.
bool is_contiguous_layout(const Shape& shape, const Strides& strides);

}  // namespace pf::gpu
