// Shared by the GPU suites: one GpuRuntime per process (on the shared test
// context), host inputs with chosen layouts mirrored on the device, running
// a typed graph on the GPU baseline and on the CPU reference, and the
// comparison at the dtype-baseline tolerance (t = -5; t = -2 for the
// half-precision outputs of accumulating ops, see kHalfAccumulatingOps) with
// NaN equal to NaN.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "evaluator/core/ir.h"
#include "evaluator/core/tensor.h"
#include "evaluator/gpu/device_tensor.h"
#include "evaluator/gpu/gpu_runtime.h"
#include "evaluator/gpu/plan.h"
#include "evaluator/scoring/tolerance.h"

namespace pf::gpu::test {

//! The process's runtime on device 0; null (with a recorded failure) when it
//! cannot be created. Call after PF_REQUIRE_GPU().
GpuRuntime* runtime();

enum class Layout : uint8_t {
  contiguous,
  transposed,  // last two dims swapped in storage (rank >= 2)
  strided,     // every other element of a twice-as-long last dim
  offset,      // starts one element into its storage (unaligned)
};

//! A host view and the contiguous storage it lives in (same geometry on the device).
struct HostInput {
  Tensor storage;  // contiguous 1-d
  Tensor view;     // the input the graph sees
};

//! Random values: floats uniform in [lo, hi], integers in [round(lo), round(hi)], bools 0/1.
HostInput random_input(DType dtype, const Shape& shape, Layout layout, double lo, double hi,
                       std::mt19937_64& rng);
//! The same geometry over caller-given storage.
HostInput input_view(Tensor storage, const Shape& shape, const Strides& strides, int64_t offset);

//! Uploads the storage and returns the device view.
Result<DeviceTensor> upload_input(GpuRuntime& rt, const HostInput& in);

//! The graph `f` of `src` with its inputs typed (a test failure, and an
//! empty graph, when it does not load).
Graph typed_graph(const std::string& src, const std::vector<TensorType>& types);

//! Ops whose float16/bfloat16 results PyTorch's CUDA kernels round more
//! than once (cuBLAS/cuDNN output rounded before the bias is added, fp16
//! atomics rounding every partial sum, einsum chains and attention rounding
//! each intermediate product), so they sit 1-2 ulps from the reference's
//! float64-once-rounded value: judged at kHalfAccumulationLevel
//! (docs/gpu-executor.md, "Test tolerances").
inline constexpr const char* kHalfAccumulatingOps[] = {"matmul",
                                                       "mm",
                                                       "bmm",
                                                       "addmm",
                                                       "baddbmm",
                                                       "linear",
                                                       "conv1d",
                                                       "conv2d",
                                                       "conv3d",
                                                       "conv_transpose1d",
                                                       "conv_transpose2d",
                                                       "conv_transpose3d",
                                                       "scatter_add",
                                                       "einsum",
                                                       "scaled_dot_product_attention"};
inline constexpr int kHalfAccumulationLevel = -2;

//! True when the graph calls one of kHalfAccumulatingOps.
bool accumulates_in_half(const Graph& graph);

struct GraphRun {
  std::vector<Tensor> gpu;         // downloaded outputs
  std::vector<Tensor> cpu;         // CPU reference outputs
  std::string plan;                // the plan's steps, for messages
  bool half_accumulation = false;  // accumulates_in_half(graph)
  //! The level PyTorch's own GPU result reaches against float64 on this
  //! variant (pytorch_level()); outputs are judged no stricter than it.
  int pytorch_level = kMinToleranceLevel;
  //! The graph computed in float64 (float64_oracle.h), when a caller has it:
  //! an output that misses its level against `cpu` passes when it meets it
  //! against this, the result PyTorch's level is measured against.
  std::vector<Tensor> oracle;
};

//! From tests/data/pytorch_levels.json (made on the GPU machine by
//! tests/gpu/pytorch_levels.py): the first tolerance level at which
//! PyTorch's CUDA result of variant `task/variant` matches its float64 CPU
//! result, where that is above t = -5; else kMinToleranceLevel. A graph
//! whose real inputs are ill-conditioned (tiny running variances, long
//! accumulations, cancellation after a rounded intermediate) cannot be
//! computed in float32/float16 to t = -5 of the float64 reference by anyone;
//! the graph suites accept our baseline at PyTorch's level, no looser.
int pytorch_level(const std::string& task, const std::string& variant);

//! Builds and runs the graph's baseline plan once, downloads the outputs,
//! and runs the CPU reference on the same inputs (or takes `cpu_outputs`,
//! the reference already computed on them: the CPU reference dominates a
//! whole-suite run).
Result<GraphRun> run_both(GpuRuntime& rt, const Graph& graph, const std::vector<HostInput>& inputs,
                          Plan* keep_plan = nullptr,
                          const std::vector<Tensor>* cpu_outputs = nullptr);

//! "" when every output matches, else what differs. Level: t = -5, or
//! kHalfAccumulationLevel for float16/bfloat16 outputs of a run with
//! half_accumulation, or the run's pytorch_level when that is higher. Positions NaN on both sides
//! count as equal (torch.allclose(equal_nan=True)): the baseline must reproduce the reference's
//! NaNs. Scoring keeps its own rule (NaN never equal). With run.oracle, an output passes at its
//! level against either reference.
std::string compare_outputs(const GraphRun& run);

}  // namespace pf::gpu::test
