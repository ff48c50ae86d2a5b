// View ops on the GPU without restating their geometry: the view probe runs
// the CPU registry's op (whose view semantics are the reference) on host
// tensors that carry only the device tensors' geometry (a one-element
// storage each, never read: `is_view` ops compute geometry only) and maps
// each output back onto the device storage it aliases. Shape rule, view
// semantics and GPU views therefore cannot drift apart.
#pragma once

#include <vector>

#include "common/result.h"
#include "evaluator/gpu/device_tensor.h"
#include "evaluator/ops/bound_args.h"
#include "evaluator/ops/op_info.h"

namespace pf::gpu {

//! The outputs of view op `op` on `args`: views of the device inputs. The op
//! must compute geometry only (OpInfo::is_view, or getitem without tensor
//! indices); an output that aliases no input is an `internal` error.
Result<std::vector<DeviceTensor>> run_view_probe(const OpInfo& op,
                                                 const BoundArgs<DeviceTensor>& args,
                                                 const std::vector<TensorType>& out_types);

}  // namespace pf::gpu
