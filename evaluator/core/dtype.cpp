#include "evaluator/core/dtype.h"

#include <array>

namespace pf {

size_t dtype_size(DType t) {
  switch (t) {
    case DType::boolean:
    case DType::uint8:
    case DType::int8: return 1;
    case DType::int16:
    case DType::float16:
    case DType::bfloat16: return 2;
    case DType::int32:
    case DType::float32: return 4;
    case DType::int64:
    case DType::float64: return 8;
  }
  return 0;
}

const char* dtype_name(DType t) {
  switch (t) {
    case DType::boolean: return "bool";
    case DType::uint8: return "uint8";
    case DType::int8: return "int8";
    case DType::int16: return "int16";
    case DType::int32: return "int32";
    case DType::int64: return "int64";
    case DType::float16: return "float16";
    case DType::bfloat16: return "bfloat16";
    case DType::float32: return "float32";
    case DType::float64: return "float64";
  }
  return "?";
}

std::optional<DType> parse_dtype(std::string_view name) {
  if (name.substr(0, 6) == "torch.") name.remove_prefix(6);
  struct Alias {
    std::string_view name;
    DType type;
  };
  static constexpr std::array<Alias, 18> kAliases = {{
      {"bool", DType::boolean},     {"uint8", DType::uint8},      {"int8", DType::int8},
      {"int16", DType::int16},      {"short", DType::int16},      {"int32", DType::int32},
      {"int", DType::int32},        {"int64", DType::int64},      {"long", DType::int64},
      {"float16", DType::float16},  {"half", DType::float16},     {"bfloat16", DType::bfloat16},
      {"float32", DType::float32},  {"float", DType::float32},    {"float64", DType::float64},
      {"double", DType::float64},   {"uint8_t", DType::uint8},    {"bf16", DType::bfloat16},
  }};
  for (const auto& a : kAliases) {
    if (a.name == name) return a.type;
  }
  return std::nullopt;
}

bool is_floating(DType t) {
  return t == DType::float16 || t == DType::bfloat16 || t == DType::float32 ||
         t == DType::float64;
}

bool is_integral(DType t) {
  return t == DType::uint8 || t == DType::int8 || t == DType::int16 || t == DType::int32 ||
         t == DType::int64;
}

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  if (a == DType::boolean) return b;
  if (b == DType::boolean) return a;
  bool fa = is_floating(a), fb = is_floating(b);
  if (fa && !fb) return a;
  if (fb && !fa) return b;
  if (fa && fb) {
    // float16 with bfloat16 has no common 16-bit type: PyTorch gives float32.
    if ((a == DType::float16 && b == DType::bfloat16) ||
        (a == DType::bfloat16 && b == DType::float16)) {
      return DType::float32;
    }
    return dtype_size(a) >= dtype_size(b) ? a : b;
  }
  // Both integral. uint8 with a signed type needs a wider signed type.
  if (a == DType::uint8 || b == DType::uint8) {
    DType other = a == DType::uint8 ? b : a;
    return other == DType::int8 ? DType::int16 : other;
  }
  return dtype_size(a) >= dtype_size(b) ? a : b;
}

}  // namespace pf
