#include "evaluator/core/tensor.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "common/check.h"
#include "evaluator/core/half.h"

namespace pf {
namespace {

template <typename T>
T load(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T>
void store(std::byte* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

// Float-to-integer conversion as C++/CUDA casts do it for in-range values
// (truncation); out-of-range values saturate instead of invoking UB.
template <typename T>
T to_int(double v) {
  if (std::isnan(v)) return 0;
  double t = std::trunc(v);
  if (t <= static_cast<double>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  if (t >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  return static_cast<T>(t);
}

// Elements [0, n) at `p` converted with `convert`. The one dtype switch for
// single elements (load_double) and whole runs, where it is taken once, not
// per element: outputs of millions of elements pass through here on every
// host check.
template <typename T, typename Convert>
void convert_all(const std::byte* p, size_t n, double* out, Convert convert) {
  for (size_t i = 0; i < n; ++i) out[i] = convert(load<T>(p + i * sizeof(T)));
}

void contiguous_to_doubles(DType t, const std::byte* p, size_t n, double* out) {
  const auto as_double = [](auto v) { return static_cast<double>(v); };
  switch (t) {
    case DType::boolean:
      return convert_all<uint8_t>(p, n, out, [](uint8_t v) { return v ? 1.0 : 0.0; });
    case DType::uint8:
      return convert_all<uint8_t>(p, n, out, as_double);
    case DType::int8:
      return convert_all<int8_t>(p, n, out, as_double);
    case DType::int16:
      return convert_all<int16_t>(p, n, out, as_double);
    case DType::int32:
      return convert_all<int32_t>(p, n, out, as_double);
    case DType::int64:
      return convert_all<int64_t>(p, n, out, as_double);
    case DType::float16:
      return convert_all<uint16_t>(p, n, out, [](uint16_t v) { return half_bits_to_float(v); });
    case DType::bfloat16:
      return convert_all<uint16_t>(p, n, out, [](uint16_t v) { return bfloat16_bits_to_float(v); });
    case DType::float32:
      return convert_all<float>(p, n, out, as_double);
    case DType::float64:
      return convert_all<double>(p, n, out, as_double);
  }
}

double load_double(DType t, const std::byte* p) {
  double v = 0;
  contiguous_to_doubles(t, p, 1, &v);
  return v;
}

void store_double(DType t, std::byte* p, double v) {
  switch (t) {
    case DType::boolean:
      store<uint8_t>(p, v != 0.0 ? 1 : 0);
      return;
    case DType::uint8:
      store<uint8_t>(p, static_cast<uint8_t>(to_int<int64_t>(v)));
      return;
    case DType::int8:
      store<int8_t>(p, to_int<int8_t>(v));
      return;
    case DType::int16:
      store<int16_t>(p, to_int<int16_t>(v));
      return;
    case DType::int32:
      store<int32_t>(p, to_int<int32_t>(v));
      return;
    case DType::int64:
      store<int64_t>(p, to_int<int64_t>(v));
      return;
    case DType::float16:
      store<uint16_t>(p, double_to_half_bits(v));
      return;
    case DType::bfloat16:
      store<uint16_t>(p, double_to_bfloat16_bits(v));
      return;
    case DType::float32:
      store<float>(p, static_cast<float>(v));
      return;
    case DType::float64:
      store<double>(p, v);
      return;
  }
}

}  // namespace

Tensor Tensor::zeros(DType dtype, const Shape& shape) {
  Tensor t;
  t.dtype_ = dtype;
  t.shape_ = shape;
  t.strides_ = contiguous_strides(shape);
  t.storage_ = std::make_shared<std::vector<std::byte>>(static_cast<size_t>(shape_numel(shape)) *
                                                        dtype_size(dtype));
  return t;
}

Tensor Tensor::from_doubles(DType dtype, const Shape& shape, const std::vector<double>& values) {
  PF_CHECK(static_cast<int64_t>(values.size()) == shape_numel(shape));
  Tensor t = zeros(dtype, shape);
  for (size_t i = 0; i < values.size(); ++i) {
    store_double(dtype, t.storage_->data() + i * dtype_size(dtype), values[i]);
  }
  return t;
}

Tensor Tensor::view_of(const Tensor& base, const Shape& shape, const Strides& strides,
                       int64_t offset) {
  PF_CHECK(shape.size() == strides.size());
  Tensor t = base;
  t.shape_ = shape;
  t.strides_ = strides;
  t.offset_ = offset;
  return t;
}

bool Tensor::is_contiguous() const {
  int64_t expected = 1;
  for (size_t i = shape_.size(); i-- > 0;) {
    if (shape_[i] == 1) continue;
    if (strides_[i] != expected) return false;
    expected *= shape_[i];
  }
  return true;
}

int64_t Tensor::storage_index(int64_t logical_index) const {
  int64_t idx = offset_;
  for (size_t i = shape_.size(); i-- > 0;) {
    int64_t d = shape_[i];
    idx += (logical_index % d) * strides_[i];
    logical_index /= d;
  }
  return idx;
}

double Tensor::get(int64_t logical_index) const {
  return load_double(dtype_, storage_->data() + storage_index(logical_index) * dtype_size(dtype_));
}

void Tensor::set(int64_t logical_index, double v) {
  store_double(dtype_, storage_->data() + storage_index(logical_index) * dtype_size(dtype_), v);
}

int64_t Tensor::get_int(int64_t logical_index) const {
  const std::byte* p = storage_->data() + storage_index(logical_index) * dtype_size(dtype_);
  if (dtype_ == DType::int64) return load<int64_t>(p);
  return static_cast<int64_t>(load_double(dtype_, p));
}

void Tensor::set_int(int64_t logical_index, int64_t v) {
  std::byte* p = storage_->data() + storage_index(logical_index) * dtype_size(dtype_);
  if (dtype_ == DType::int64) {
    store<int64_t>(p, v);
  } else {
    store_double(dtype_, p, static_cast<double>(v));
  }
}

std::vector<double> Tensor::to_doubles() const {
  std::vector<double> out(static_cast<size_t>(numel()));
  to_doubles(0, out.size(), out.data());
  return out;
}

void Tensor::to_doubles(int64_t first, size_t n, double* out) const {
  if (is_contiguous()) {
    contiguous_to_doubles(dtype_, storage_->data() + (offset_ + first) * dtype_size(dtype_), n,
                          out);
    return;
  }
  for (size_t i = 0; i < n; ++i) out[i] = get(first + static_cast<int64_t>(i));
}

Tensor Tensor::contiguous_copy() const {
  Tensor out = zeros(dtype_, shape_);
  size_t es = dtype_size(dtype_);
  if (is_contiguous()) {
    std::memcpy(out.storage_->data(), storage_->data() + offset_ * es, nbytes());
    return out;
  }
  int64_t n = numel();
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(out.storage_->data() + i * es, storage_->data() + storage_index(i) * es, es);
  }
  return out;
}

Tensor Tensor::to_dtype(DType dtype) const {
  if (dtype == dtype_) return contiguous_copy();
  Tensor out = zeros(dtype, shape_);
  int64_t n = numel();
  // Integer to integer goes through int64 so large indices stay exact.
  bool exact_int = !is_floating(dtype_) && !is_floating(dtype) && dtype != DType::boolean;
  for (int64_t i = 0; i < n; ++i) {
    if (exact_int) {
      out.set_int(i, get_int(i));
    } else {
      out.set(i, get(i));
    }
  }
  return out;
}

const std::byte* Tensor::data() const {
  return storage_->data() + offset_ * dtype_size(dtype_);
}
std::byte* Tensor::mutable_data() {
  return storage_->data() + offset_ * dtype_size(dtype_);
}

}  // namespace pf
