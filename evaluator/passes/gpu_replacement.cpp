#include "evaluator/passes/gpu_replacement.h"

#include <algorithm>

#include "evaluator/gpu/plan_builder.h"
#include "evaluator/passes/call_binding.h"

namespace pf::passes {
namespace {

class GpuBackend : public ReplacementBackend {
 public:
  GpuBackend(gpu::PlanBuilder& plan, std::vector<gpu::DeviceTensor> tensors,
             const std::map<std::string, cuda::CudaFunction>& functions,
             const std::map<std::string, cuda::FunctionLimits>& limits)
      : plan_(plan), tensors_(std::move(tensors)), functions_(functions), limits_(limits) {}

  Status allocate(int handle, const TensorType& type, bool zero) override {
    PF_CHECK(static_cast<size_t>(handle) == tensors_.size());
    PF_ASSIGN(gpu::DeviceTensor t, plan_.allocate(type, "replacement " + tensor_type_str(type)));
    size_t bytes = static_cast<size_t>(t.numel()) * t.element_size();
    if (zero && bytes > 0) plan_.add_memset(t.data_ptr(), bytes, 0);
    tensors_.push_back(std::move(t));
    return ok_status();
  }
  Result<CUdeviceptr> data_ptr(int handle) override {
    PF_CHECK(handle >= 0 && static_cast<size_t>(handle) < tensors_.size());
    return tensors_[handle].data_ptr();
  }
  const cuda::DeviceLimits& device_limits() const override { return plan_.properties().limits; }
  Result<cuda::FunctionLimits> function_limits(const cuda::KernelInfo& kernel) override {
    auto it = limits_.find(kernel.name);
    if (it == limits_.end()) {
      return make_error(ErrorCode::not_found, "kernel '" + kernel.name + "' is not loaded");
    }
    return it->second;
  }
  Status launch(const cuda::KernelInfo& kernel, const cuda::LaunchConfig& config,
                cuda::ArgPack args) override {
    return plan_.add_launch(functions_.at(kernel.name), limits_.at(kernel.name), config,
                            std::move(args));
  }
  const std::vector<gpu::DeviceTensor>& tensors() const { return tensors_; }

 private:
  gpu::PlanBuilder& plan_;
  std::vector<gpu::DeviceTensor> tensors_;
  const std::map<std::string, cuda::CudaFunction>& functions_;
  const std::map<std::string, cuda::FunctionLimits>& limits_;
};

TensorMeta meta_of(const gpu::DeviceTensor& t) {
  return {t.dtype(), t.shape(), t.strides(), t.offset()};
}

}  // namespace

Result<std::unique_ptr<GpuReplacements>> GpuReplacements::create(
    std::vector<LoadedPass> passes, const nvrtc::CompileOutcome& compiled,
    std::shared_ptr<const cuda::CudaDriver> driver, InterpreterLimits limits) {
  if (!compiled.ok()) {
    return make_error(ErrorCode::invalid_argument,
                      "the kernels did not compile: " + compiled.message);
  }
  std::unique_ptr<GpuReplacements> r(new GpuReplacements());
  r->passes_ = std::move(passes);
  r->limits_ = limits;
  std::vector<cuda::KernelInfo> all;
  for (const auto& file : compiled.files) {
    PF_ASSIGN(auto module, cuda::CudaModule::load(driver, file.cubin));
    for (const auto& k : file.kernels) {
      PF_ASSIGN(cuda::CudaFunction fn, module->function(k.name));
      PF_ASSIGN(cuda::FunctionAttributes attrs, fn.attributes());
      cuda::FunctionLimits fl;
      fl.max_threads_per_block = attrs.max_threads_per_block;
      fl.static_smem_bytes = attrs.static_smem_bytes;
      r->function_limits_.emplace(k.name, fl);
      r->functions_.emplace(k.name, std::move(fn));
      all.push_back(k);
    }
    r->modules_.push_back(std::move(module));
  }
  r->kernels_ = kernel_table(all);
  return r;
}

gpu::NodeHook GpuReplacements::hook() {
  return
      [this](const Graph& graph, int node, const std::vector<std::vector<gpu::DeviceTensor>>& env,
             gpu::PlanBuilder& plan) { return run_node(graph, node, env, plan); };
}

Result<std::optional<std::vector<gpu::DeviceTensor>>> GpuReplacements::run_node(
    const Graph& graph, int node, const std::vector<std::vector<gpu::DeviceTensor>>& env,
    gpu::PlanBuilder& plan) {
  using Out = std::optional<std::vector<gpu::DeviceTensor>>;
  const Node& n = graph.nodes[node];
  if (n.op == "tuple_get" && n.args.size() == 2 && n.args[0].is_value() &&
      n.args[1].kind == Arg::Kind::integer) {
    int producer = graph.values[n.args[0].value].producer;
    if (producer < 0 || !is_call_op(graph.nodes[producer].op)) return Out();
    const auto& items = env[n.args[0].value];
    if (n.args[1].i < 0 || n.args[1].i >= static_cast<int64_t>(items.size())) {
      return make_error(ErrorCode::internal, "tuple_get index out of range on a replacement call");
    }
    return Out(std::vector<gpu::DeviceTensor>{items[n.args[1].i]});
  }
  if (!is_call_op(n.op)) return Out();
  std::string name = call_op_pass_name(n.op);
  auto pass = std::find_if(passes_.begin(), passes_.end(),
                           [&](const LoadedPass& p) { return p.name == name; });
  if (pass == passes_.end()) {
    return make_error(ErrorCode::internal, "no loaded pass named '" + name + "'");
  }
  CallArgs bound = bind_call(graph, n, [&](ValueId v) {
    std::vector<TensorMeta> metas;
    for (const auto& t : env[v]) metas.push_back(meta_of(t));
    return metas;
  });
  std::vector<gpu::DeviceTensor> tensors;
  for (const auto& [value, item] : bound.sources) {
    tensors.push_back(env[value][item]);
    plan.use(tensors.back());
  }
  GpuBackend backend(plan, std::move(tensors), functions_, function_limits_);
  ReplacementInterpreter interp(*pass, kernels_, backend, limits_);
  auto run = interp.run(bound.tensors, bound.args, graph.values[n.output].types);
  if (!run.ok()) {
    last_failure_ = interp.failure_class();
    return run.error();
  }
  std::vector<gpu::DeviceTensor> outputs;
  for (int h : run->outputs) outputs.push_back(backend.tensors()[h]);
  return Out(std::move(outputs));
}

}  // namespace pf::passes
