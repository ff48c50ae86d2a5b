// Small helpers shared by the GPU op families: reading operands (tensor or
// number) and their PyTorch result type, checks of inferred output types and
// of arguments the kernels take as 32-bit ints.
#pragma once

#include <vector>

#include "common/result.h"
#include "evaluator/gpu/device_tensor.h"
#include "evaluator/gpu/elementwise.h"
#include "evaluator/ops/bound_args.h"
#include "evaluator/ops/type_promotion.h"

namespace pf::gpu {

using GpuArgs = BoundArgs<DeviceTensor>;

//! Parameter i as an elementwise input: the tensor, or the number literal
//! converted as the CPU reference's Operand converts it.
EwOperand operand(const GpuArgs& a, size_t i);

//! The OperandType of parameter i (tensor or number), for result_type.
OperandType operand_type_of(const GpuArgs& a, size_t i);

//! An `internal` error unless `got` is the inferred type (guards the GPU
//! implementation against drifting from the shape/dtype rules).
Status expect_type(const GpuArgs& a, const TensorType& inferred, const DeviceTensor& got);

//! An `unsupported` error when an int argument (or an int inside a list)
//! does not fit in 32 bits: the window kernels (convolutions, pooling,
//! fold) take their geometry as ints, and a truncated stride or padding
//! would compute another op. For GpuOpInfo::accepts.
Status int_args_fit_32_bits(const ArgReader& a);

}  // namespace pf::gpu
