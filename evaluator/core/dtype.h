// Tensor element types with PyTorch's names, sizes and promotion rules.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pf {

enum class DType : uint8_t {
  boolean,
  uint8,
  int8,
  int16,
  int32,
  int64,
  float16,
  bfloat16,
  float32,
  float64,
};

inline constexpr int kNumDTypes = 10;

size_t dtype_size(DType t);
//! PyTorch's short name without the "torch." prefix: "float32", "bool", ...
const char* dtype_name(DType t);
//! Accepts "torch.float32", "float32", "float", "torch.half", "bool", ...
std::optional<DType> parse_dtype(std::string_view name);
bool is_floating(DType t);
//! Integral excluding bool.
bool is_integral(DType t);

//! torch.promote_types for two tensor dtypes of the same priority class.
DType promote_types(DType a, DType b);

}  // namespace pf
