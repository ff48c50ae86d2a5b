// Host tensors with PyTorch semantics: shared storage plus a strided view
// (shape, strides and offset in elements), so view ops never copy.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "evaluator/core/dtype.h"
#include "evaluator/core/shape.h"

namespace pf {

class Tensor {
 public:
  Tensor() = default;
  //! A new contiguous tensor of zeros.
  static Tensor zeros(DType dtype, const Shape& shape);
  //! A new contiguous tensor whose elements are `values` rounded to `dtype`.
  static Tensor from_doubles(DType dtype, const Shape& shape, const std::vector<double>& values);
  //! A view of `base`'s storage with another geometry (no copy).
  static Tensor view_of(const Tensor& base, const Shape& shape, const Strides& strides,
                        int64_t offset);

  bool defined() const { return storage_ != nullptr; }
  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  const Strides& strides() const { return strides_; }
  int64_t offset() const { return offset_; }
  int64_t dim() const { return static_cast<int64_t>(shape_.size()); }
  int64_t numel() const { return shape_numel(shape_); }
  bool is_contiguous() const;
  //! True when both views read the same storage.
  bool shares_storage(const Tensor& other) const { return storage_ == other.storage_; }

  //! Element at a row-major logical index (0 <= i < numel), widened to double.
  double get(int64_t logical_index) const;
  //! Stores v rounded to dtype at a row-major logical index.
  void set(int64_t logical_index, double v);
  //! Exact element access for 64-bit integers (no rounding through double).
  int64_t get_int(int64_t logical_index) const;
  void set_int(int64_t logical_index, int64_t v);

  //! All elements, row-major, widened to double.
  std::vector<double> to_doubles() const;
  //! Elements [first, first + n), row-major, widened to double into `out`
  //! (a bounded buffer for passes over outputs of millions of elements).
  void to_doubles(int64_t first, size_t n, double* out) const;
  //! A contiguous copy (a fresh storage even if already contiguous).
  Tensor contiguous_copy() const;
  //! A contiguous copy converted to another dtype.
  Tensor to_dtype(DType dtype) const;

  //! Raw bytes of the storage starting at this view's first element; only
  //! meaningful for contiguous tensors (npy writer, GPU upload).
  const std::byte* data() const;
  std::byte* mutable_data();
  size_t nbytes() const { return static_cast<size_t>(numel()) * dtype_size(dtype_); }

 private:
  int64_t storage_index(int64_t logical_index) const;

  std::shared_ptr<std::vector<std::byte>> storage_;
  DType dtype_ = DType::float32;
  Shape shape_;
  Strides strides_;
  int64_t offset_ = 0;
};

}  // namespace pf
