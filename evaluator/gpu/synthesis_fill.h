// Input synthesis on the GPU: a device buffer filled in place with a
// synthesis stream's elements (evaluator/core/synth_stream.h) by the kernel
// kernels/synth.cu, bit-identical to the CPU twin pf::fill_synthesized
// (evaluator/tasks/synthesis.h), so a worker neither synthesises on the CPU
// nor uploads what it drew.
#pragma once

#include "common/result.h"
#include "evaluator/core/synth_stream.h"
#include "evaluator/gpu/device_tensor.h"
#include "evaluator/gpu/gpu_runtime.h"

namespace pf::gpu {

//! Fills `out` (contiguous) with `stream`'s elements as out's dtype, on the
//! runtime's stream (asynchronous: later work on that stream sees the values;
//! downloads synchronise first).
Status fill_synthesized(GpuRuntime& rt, const PfSynthStream& stream, const DeviceTensor& out);

}  // namespace pf::gpu
