#include "evaluator/ops/type_promotion.h"

#include <cmath>
#include <cstdint>
#include <optional>

#include "evaluator/core/half.h"

namespace pf {
namespace {

// combine_categories in ATen's TypeProperties.cpp.
std::optional<DType> combine(std::optional<DType> higher, std::optional<DType> lower) {
  if (!higher) return lower;
  if (!lower) return higher;
  if (is_floating(*higher)) return higher;
  if (*higher == DType::boolean || is_floating(*lower)) return promote_types(*higher, *lower);
  return higher;
}

void accumulate(std::optional<DType>& state, DType t) {
  state = state ? promote_types(*state, t) : t;
}

}  // namespace

DType result_type(const std::vector<OperandType>& operands) {
  std::optional<DType> dim_result, zero_result, wrapped_result;
  for (const auto& o : operands) {
    if (o.wrapped) {
      accumulate(wrapped_result, is_floating(o.dtype) ? kDefaultFloat : o.dtype);
    } else if (o.zero_dim) {
      accumulate(zero_result, o.dtype);
    } else {
      accumulate(dim_result, o.dtype);
    }
  }
  return combine(dim_result, combine(zero_result, wrapped_result)).value_or(kDefaultFloat);
}

DType floating_or_default(DType t) {
  return is_floating(t) ? t : kDefaultFloat;
}

Result<OperandType> operand_type(const BoundArgs<TensorType>& args, size_t i) {
  const Arg& a = args.arg(i);
  if (a.is_value()) {
    const TensorType& t = args.tensor(i);
    return OperandType{t.dtype, t.shape.empty(), false};
  }
  switch (a.kind) {
    case Arg::Kind::boolean:
      return OperandType{DType::boolean, true, true};
    case Arg::Kind::integer:
      return OperandType{DType::int64, true, true};
    case Arg::Kind::real:
      return OperandType{DType::float64, true, true};
    default:
      return args.error(i, "expected a tensor or a number");
  }
}

Shape operand_shape(const BoundArgs<TensorType>& args, size_t i) {
  return args.is_tensor(i) ? args.tensor(i).shape : Shape{};
}

DType opmath_type(DType dtype) {
  return dtype == DType::float16 || dtype == DType::bfloat16 ? DType::float32 : dtype;
}

int64_t wrap_to_dtype(int64_t v, DType dtype) {
  switch (dtype) {
    case DType::boolean:
      return v != 0 ? 1 : 0;
    case DType::uint8:
      return static_cast<uint8_t>(v);
    case DType::int8:
      return static_cast<int8_t>(v);
    case DType::int16:
      return static_cast<int16_t>(v);
    case DType::int32:
      return static_cast<int32_t>(v);
    default:
      return v;
  }
}

double round_to_dtype(double v, DType dtype) {
  switch (dtype) {
    case DType::float16:
      return round_to_half(v);
    case DType::bfloat16:
      return round_to_bfloat16(v);
    case DType::float32:
      return static_cast<float>(v);
    case DType::float64:
      return v;
    case DType::boolean:
      return v != 0 ? 1 : 0;
    default:
      break;
  }
  if (std::isnan(v)) return 0;
  double t = std::trunc(v);
  // Out-of-range float-to-int conversion is undefined in PyTorch; saturate.
  int64_t i = t >= 9.2233720368547758e18    ? INT64_MAX
              : t <= -9.2233720368547758e18 ? INT64_MIN
                                            : static_cast<int64_t>(t);
  return static_cast<double>(wrap_to_dtype(i, dtype));
}

}  // namespace pf
