#include "evaluator/protocol/gpu_input_drawer.h"

#include <chrono>

#include "common/elapsed.h"
#include "evaluator/gpu/graph_plan.h"
#include "evaluator/gpu/plan_builder.h"
#include "evaluator/gpu/synthesis_fill.h"
#include "evaluator/tasks/synthesis.h"

namespace pf::protocol {
namespace {

using Clock = std::chrono::steady_clock;

// Adds the time since `t0` to `phase_ms[name]` (when there is a sink) and
// restarts the clock.
void lap(std::map<std::string, double>* phase_ms, const char* name, Clock::time_point& t0) {
  if (phase_ms != nullptr) (*phase_ms)[name] += ms_since(t0);
  t0 = Clock::now();
}

Status fill_input(gpu::GpuRuntime& rt, const TaskVariant& variant, size_t k,
                  const SynthesisOptions& options, const gpu::DeviceTensor& buffer) {
  const InputMeta& meta = variant.inputs[k];
  if (meta.data) return rt.upload_into(synthesize_input(meta, variant.name, k, options), buffer);
  return gpu::fill_synthesized(rt, synthesis_stream(meta, variant.name, k, options), buffer);
}

}  // namespace

Result<std::vector<gpu::DeviceTensor>> draw_device_inputs(gpu::GpuRuntime& rt,
                                                          const TaskVariant& variant,
                                                          const SynthesisOptions& options,
                                                          const std::string& prefix) {
  std::vector<gpu::DeviceTensor> out;
  out.reserve(variant.inputs.size());
  for (size_t k = 0; k < variant.inputs.size(); ++k) {
    const InputMeta& meta = variant.inputs[k];
    const size_t bytes = static_cast<size_t>(shape_numel(meta.shape)) * dtype_size(meta.dtype);
    PF_ASSIGN(auto storage, rt.allocator().allocate(bytes, prefix + std::to_string(k)));
    out.push_back(gpu::DeviceTensor::contiguous(std::move(storage), meta.dtype, meta.shape));
    PF_TRY(fill_input(rt, variant, k, options, out.back()));
  }
  return out;
}

Result<Tensor> download_drawn_input(gpu::GpuRuntime& rt, const TaskVariant& variant,
                                    const SynthesisOptions& options, size_t k) {
  const InputMeta& meta = variant.inputs.at(k);
  const size_t bytes = static_cast<size_t>(shape_numel(meta.shape)) * dtype_size(meta.dtype);
  PF_ASSIGN(auto storage, rt.allocator().allocate(bytes, "host_copy_in_" + std::to_string(k)));
  auto t = gpu::DeviceTensor::contiguous(std::move(storage), meta.dtype, meta.shape);
  PF_TRY(fill_input(rt, variant, k, options, t));
  return rt.download(t);
}

Status refill_device_inputs(gpu::GpuRuntime& rt, const TaskVariant& variant,
                            const SynthesisOptions& options,
                            const std::vector<gpu::DeviceTensor>& buffers) {
  for (size_t k = 0; k < buffers.size() && k < variant.inputs.size(); ++k) {
    PF_TRY(fill_input(rt, variant, k, options, buffers[k]));
  }
  return ok_status();
}

Result<std::vector<Tensor>> GpuInputDrawer::draw_and_run(const SynthesisOptions& options) {
  inputs_.clear();
  host_.reset();
  options_ = options;
  auto t0 = Clock::now();
  PF_ASSIGN(inputs_, draw_device_inputs(rt_, variant_, options, "probe_in_"));
  lap(phase_ms_, "synthesis.draw", t0);
  return run_baseline(inputs_);
}

Result<std::vector<Tensor>> GpuInputDrawer::drawn_inputs() {
  if (!host_) {
    auto t0 = Clock::now();
    PF_TRY(refill_device_inputs(rt_, variant_, options_, inputs_));
    lap(phase_ms_, "synthesis.host_inputs", t0);
    std::vector<Tensor> host;
    for (const auto& t : inputs_) {
      PF_ASSIGN(Tensor h, rt_.download(t));
      host.push_back(std::move(h));
    }
    host_ = std::move(host);
  }
  return *host_;
}

Result<std::vector<Tensor>> GpuInputDrawer::run(const std::vector<Tensor>& inputs) {
  std::vector<gpu::DeviceTensor> dev;
  for (size_t k = 0; k < inputs.size(); ++k) {
    PF_ASSIGN(auto t, rt_.upload(inputs[k], "probe_in_" + std::to_string(k)));
    dev.push_back(std::move(t));
  }
  return run_baseline(dev);
}

// Everything the plan allocated is released (and later scrubbed by the
// protocol) when this returns.
Result<std::vector<Tensor>> GpuInputDrawer::run_baseline(
    const std::vector<gpu::DeviceTensor>& inputs) {
  auto t0 = Clock::now();
  gpu::PlanBuilder builder(rt_);
  PF_ASSIGN(auto outs, gpu::build_graph_plan(graph_, inputs, builder));
  gpu::Plan plan = builder.finish();
  lap(phase_ms_, "synthesis.build", t0);
  PF_TRY(plan.run(rt_.stream()));
  PF_TRY(rt_.synchronize());
  lap(phase_ms_, "synthesis.run", t0);
  std::vector<Tensor> host;
  for (const auto& t : outs) {
    PF_ASSIGN(Tensor h, rt_.download(t));
    host.push_back(std::move(h));
  }
  lap(phase_ms_, "synthesis.readback", t0);
  return host;
}

}  // namespace pf::protocol
