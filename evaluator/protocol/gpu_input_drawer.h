// The GPU worker's side of input synthesis: the variant's inputs drawn into
// device buffers by the synthesis kernel (evaluator/gpu/synthesis_fill.h),
// bit-identical to the CPU twin, so the worker neither synthesises on the
// CPU nor uploads what it drew; host copies are downloaded only for a host
// consumer (the trivial-output guard, the informative-inputs rule's threshold
// probe): the protocol checks inputs on the device against a fresh draw.
// Literal `data` inputs are uploaded.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "evaluator/core/ir.h"
#include "evaluator/gpu/device_tensor.h"
#include "evaluator/gpu/gpu_runtime.h"
#include "evaluator/tasks/informative_inputs.h"
#include "evaluator/tasks/task.h"

namespace pf::protocol {

//! The variant's inputs for `options` in fresh device buffers named
//! `<prefix><index>` (queued on the runtime's stream).
Result<std::vector<gpu::DeviceTensor>> draw_device_inputs(gpu::GpuRuntime& rt,
                                                          const TaskVariant& variant,
                                                          const SynthesisOptions& options,
                                                          const std::string& prefix);

//! The same values written into existing buffers (same addresses, new
//! contents): drawn values queued on the runtime's stream (ordered before
//! whatever runs there next), literal data uploaded before returning.
Status refill_device_inputs(gpu::GpuRuntime& rt, const TaskVariant& variant,
                            const SynthesisOptions& options,
                            const std::vector<gpu::DeviceTensor>& buffers);

//! Input `k` for `options` drawn into a scratch device buffer and downloaded:
//! a host copy for a host consumer that needs it (the trivial-output guard).
Result<Tensor> download_drawn_input(gpu::GpuRuntime& rt, const TaskVariant& variant,
                                    const SynthesisOptions& options, size_t k);

//! The informative-inputs rule's drawer on the GPU baseline: every attempt
//! is drawn on the device into throw-away buffers and run by the eager
//! baseline; the host copy is downloaded only when the rule asks for it (the
//! threshold probe, and the accepted draw unless `host_inputs` is false),
//! after re-drawing it in place since a graph may write its inputs.
class GpuInputDrawer final : public InputDrawer {
 public:
  GpuInputDrawer(gpu::GpuRuntime& rt, const TaskVariant& variant, const Graph& graph,
                 bool host_inputs = true)
      : rt_(rt), variant_(variant), graph_(graph), host_inputs_(host_inputs) {}

  //! Adds the time spent per step to `phase_ms` ("synthesis.<step>" in ms):
  //! where a variant's synthesis time goes, for the evaluation's phases.
  void time_into(std::map<std::string, double>* phase_ms) { phase_ms_ = phase_ms; }

  Result<std::vector<Tensor>> draw_and_run(const SynthesisOptions& options) override;
  Result<std::vector<Tensor>> drawn_inputs() override;
  Result<std::vector<Tensor>> run(const std::vector<Tensor>& inputs) override;
  bool wants_host_inputs() const override { return host_inputs_; }

 private:
  Result<std::vector<Tensor>> run_baseline(const std::vector<gpu::DeviceTensor>& inputs);

  gpu::GpuRuntime& rt_;
  const TaskVariant& variant_;
  const Graph& graph_;
  bool host_inputs_;
  SynthesisOptions options_;
  std::vector<gpu::DeviceTensor> inputs_;
  std::optional<std::vector<Tensor>> host_;
  std::map<std::string, double>* phase_ms_ = nullptr;
};

}  // namespace pf::protocol
