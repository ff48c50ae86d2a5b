#include "evaluator/gpu/op_support.h"

#include <limits>

namespace pf::gpu {

EwOperand operand(const GpuArgs& a, size_t i) {
  if (a.is_tensor(i)) return EwOperand::of(a.tensor(i));
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
