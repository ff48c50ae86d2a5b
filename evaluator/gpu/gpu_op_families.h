// Registration entry points of the GPU op families, one per ops_<family>.cpp.
// Adding a family: write the file, declare its function here, call it in
// register_all_gpu_ops (gpu_op_registry.cpp), list the file in CMakeLists.txt.
#pragma once

namespace pf::gpu {

class GpuOpRegistry;

void register_gpu_elementwise_ops(GpuOpRegistry& r);  // arithmetic, math, activations, logic
void register_gpu_selection_ops(GpuOpRegistry& r);    // where, masked_fill, clamp
void register_gpu_copy_ops(GpuOpRegistry& r);         // casts, contiguous, clone, reshape copies
void register_gpu_creation_ops(GpuOpRegistry& r);     // zeros/ones/full, arange, linspace, eye, tensor, triu/tril
void register_gpu_reduction_ops(GpuOpRegistry& r);    // sum, mean, amax, max/min, var/std, norm, ...
void register_gpu_softmax_ops(GpuOpRegistry& r);      // softmax, log_softmax
void register_gpu_norm_ops(GpuOpRegistry& r);         // layer/rms/group/batch/instance norm
void register_gpu_matmul_ops(GpuOpRegistry& r);       // linear, matmul, mm, bmm, addmm, baddbmm
void register_gpu_view_ops(GpuOpRegistry& r);         // getitem, positive and other aliasing ops

}  // namespace pf::gpu
