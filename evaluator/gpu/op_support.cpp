#include "evaluator/gpu/op_support.h"

#include <cmath>
#include <limits>
#include <optional>

namespace pf::gpu {

namespace {

// A 0-d value computed on the host travels as a kernel parameter, as PyTorch
// passes a CPU scalar operand (bool values stay tensors: the functors read
// bool inputs through their own path).
std::optional<EwOperand> host_scalar(const DeviceTensor& t) {
  const Tensor* v = t.host_value();
  if (v == nullptr || t.dim() != 0 || t.dtype() == DType::boolean) return std::nullopt;
  if (is_floating(t.dtype())) {
    const double f = v->get(0);
    const bool fits = std::isfinite(f) && std::fabs(f) < 9.2e18;
    return EwOperand::number(f, fits ? static_cast<int64_t>(f) : 0);
  }
  const int64_t i = v->get_int(0);
  return EwOperand::number(static_cast<double>(i), i);
}

}  // namespace

EwOperand operand(const GpuArgs& a, size_t i) {
  if (a.is_tensor(i)) return host_scalar(a.tensor(i)).value_or(EwOperand::of(a.tensor(i)));
  const Arg& arg = a.arg(i);
  switch (arg.kind) {
    case Arg::Kind::boolean:
      return EwOperand::number(arg.b ? 1.0 : 0.0, arg.b ? 1 : 0);
    case Arg::Kind::integer:
      return EwOperand::number(static_cast<double>(arg.i), arg.i);
    default:
      return EwOperand::number(arg.f, static_cast<int64_t>(arg.f));
  }
}

OperandType operand_type_of(const GpuArgs& a, size_t i) {
  if (a.is_tensor(i)) return OperandType{a.tensor(i).dtype(), a.tensor(i).dim() == 0, false};
  switch (a.arg(i).kind) {
    case Arg::Kind::boolean:
      return OperandType{DType::boolean, true, true};
    case Arg::Kind::integer:
      return OperandType{DType::int64, true, true};
    default:
      return OperandType{DType::float64, true, true};
  }
}

Status expect_type(const GpuArgs& a, const TensorType& inferred, const DeviceTensor& got) {
  if (inferred == got.type()) return ok_status();
  return make_error(ErrorCode::internal, a.op() + ": the GPU produced " +
                                             tensor_type_str(got.type()) +
                                             ", type inference says " + tensor_type_str(inferred));
}

namespace {

bool fits_32_bits(const Arg& a) {
  if (a.kind == Arg::Kind::integer) {
    return a.i >= std::numeric_limits<int32_t>::min() && a.i <= std::numeric_limits<int32_t>::max();
  }
  if (a.is_sequence()) {
    for (const Arg& item : a.items) {
      if (!fits_32_bits(item)) return false;
    }
  }
  return true;
}

}  // namespace

Status int_args_fit_32_bits(const ArgReader& a) {
  for (size_t i = 0; i < a.size(); ++i) {
    if (!fits_32_bits(a.arg(i))) {
      return make_error(ErrorCode::unsupported,
                        "an int argument beyond 32-bit range (the baseline's window kernels "
                        "take their geometry as 32-bit ints)");
    }
  }
  return ok_status();
}

}  // namespace pf::gpu
