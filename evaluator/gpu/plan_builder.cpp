#include "evaluator/gpu/plan_builder.h"

#include <algorithm>

namespace pf::gpu {

PlanBuilder::PlanBuilder(GpuRuntime& runtime, PlanBuilderOptions options)
    : runtime_(runtime), options_(options) {
  plan_.driver_ = runtime.driver_ptr();
}

Status PlanBuilder::settle_stream() {
  if (stream_settled_) return ok_status();
  PF_TRY(runtime_.synchronize());
  stream_settled_ = true;
  return ok_status();
}

Status PlanBuilder::fill_now(DeviceStorage& storage, uint8_t value) {
  plan_.set_at_build_.insert(&storage);
  // The allocation's poison may still be queued on the runtime's stream.
  PF_TRY(runtime_.synchronize());
  PF_TRY(storage.buffer().fill_bytes(value));
  return runtime_.synchronize_device();
}

// A new device block's guards are written on the legacy stream: wait for
// them so no kernel of this plan can overrun a guard before it exists.
Result<std::shared_ptr<DeviceStorage>> PlanBuilder::allocate_storage(size_t bytes,
                                                                     const std::string& name) {
  PF_TRY(settle_stream());
  const uint64_t before = runtime_.allocator().stats().device_allocs;
  PF_ASSIGN(auto storage, runtime_.allocator().allocate(bytes, name));
  if (runtime_.allocator().stats().device_allocs != before) PF_TRY(runtime_.synchronize_device());
  return storage;
}

Result<DeviceTensor> PlanBuilder::allocate(const TensorType& type, const std::string& name) {
  size_t bytes = static_cast<size_t>(shape_numel(type.shape)) * dtype_size(type.dtype);
  PF_ASSIGN(auto storage, allocate_storage(bytes, name.empty() ? tensor_type_str(type) : name));
  if (options_.poison_allocations) PF_TRY(poison(*storage, type.dtype));
  plan_.storages_.push_back(storage);
  return DeviceTensor::contiguous(std::move(storage), type.dtype, type.shape);
}

Result<std::shared_ptr<DeviceStorage>> PlanBuilder::allocate_bytes(size_t bytes,
                                                                   const std::string& name) {
  PF_ASSIGN(auto storage, allocate_storage(bytes, name));
  if (options_.poison_allocations) PF_TRY(poison(*storage, DType::uint8));
  plan_.storages_.push_back(storage);
  return storage;
}

cuda::PoisonFill poison_fill(DType dtype, uint8_t byte) {
  cuda::PoisonFill fill;
  switch (dtype) {
    case DType::float16:
      fill.kind = cuda::PoisonKind::nan_f16;
      break;
    case DType::bfloat16:
      fill.kind = cuda::PoisonKind::nan_bf16;
      break;
    case DType::float32:
      fill.kind = cuda::PoisonKind::nan_f32;
      break;
    case DType::float64:
      fill.kind = cuda::PoisonKind::nan_f64;
      break;
    default:
      fill.byte = byte;
      break;
  }
  return fill;
}

// Queued on the runtime's stream, where the plan runs: ordered before the
// plan's first step without a wait per allocation.
Status PlanBuilder::poison(DeviceStorage& storage, DType dtype) {
  return storage.buffer().poison(poison_fill(dtype, options_.poison_byte), runtime_.stream());
}

void PlanBuilder::use(const DeviceTensor& t) {
  if (!t.defined()) return;
  auto& s = plan_.storages_;
  if (std::find(s.begin(), s.end(), t.storage()) == s.end()) s.push_back(t.storage());
}

void PlanBuilder::keep_alive(std::shared_ptr<const void> object) {
  plan_.keep_alive_.push_back(std::move(object));
}

namespace {

PlanStep kernel_step(std::string name, CUfunction fn, const cuda::LaunchConfig& config) {
  PlanStep s;
  s.kind = PlanStep::Kind::kernel;
  s.name = std::move(name);
  s.function = fn;
  for (int i = 0; i < 3; ++i) {
    s.grid[i] = static_cast<unsigned>(config.grid[i]);
    s.block[i] = static_cast<unsigned>(config.block[i]);
  }
  s.smem = static_cast<unsigned>(config.dynamic_smem_bytes);
  return s;
}

}  // namespace

Status PlanBuilder::add_kernel_bytes(std::string_view file, DType dtype, std::string_view kernel,
                                     const cuda::LaunchConfig& config, const void* params,
                                     size_t bytes) {
  PF_ASSIGN(const BaselineKernel* k, runtime_.kernels().get(file, dtype, kernel));
  if (k->param_bytes != bytes) {
    return make_error(ErrorCode::internal, "baseline kernel '" + k->name + "' (" + k->program +
                                               ") takes a " + std::to_string(k->param_bytes) +
                                               "-byte parameter; the host passes " +
                                               std::to_string(bytes) + " (pf_abi.cuh out of sync)");
  }
  PF_TRY(cuda::validate_launch(k->name, config, properties().limits, k->limits));
  PlanStep s = kernel_step(k->name, k->function.handle(), config);
  s.param_storage.resize((bytes + 7) / 8);
  std::memcpy(s.param_storage.data(), params, bytes);
  plan_.steps_.push_back(std::move(s));
  return ok_status();
}

Status PlanBuilder::add_launch(const cuda::CudaFunction& function,
                               const cuda::FunctionLimits& limits, const cuda::LaunchConfig& config,
                               cuda::ArgPack args) {
  PF_TRY(cuda::validate_launch(function.name(), config, properties().limits, limits));
  if (config.dynamic_smem_bytes > properties().limits.max_smem_per_block) {
    PF_TRY(function.set_max_dynamic_smem(config.dynamic_smem_bytes));
  }
  PlanStep s = kernel_step(function.name(), function.handle(), config);
  s.args = std::make_shared<cuda::ArgPack>(std::move(args));
  plan_.steps_.push_back(std::move(s));
  return ok_status();
}

void PlanBuilder::add_memset(CUdeviceptr ptr, size_t bytes, uint8_t value) {
  PlanStep s;
  s.kind = PlanStep::Kind::memset;
  s.name = "memset";
  s.ptr = ptr;
  if (ptr % 4 == 0 && bytes % 4 == 0) {
    s.width = 4;
    s.count = bytes / 4;
    s.value = 0x01010101u * value;
  } else {
    s.width = 1;
    s.count = bytes;
    s.value = value;
  }
  plan_.steps_.push_back(std::move(s));
}

void PlanBuilder::add_library_call(std::string name, std::function<Status(CUstream)> call) {
  PlanStep s;
  s.kind = PlanStep::Kind::library;
  s.name = std::move(name);
  s.call = std::move(call);
  plan_.steps_.push_back(std::move(s));
}

Plan PlanBuilder::finish() {
  Plan out = std::move(plan_);
  plan_ = Plan();
  plan_.driver_ = runtime_.driver_ptr();
  return out;
}

cuda::LaunchConfig linear_launch(int64_t n, int64_t per_block, int64_t threads) {
  cuda::LaunchConfig c;
  c.grid = {std::max<int64_t>(1, (n + per_block - 1) / per_block), 1, 1};
  c.block = {threads, 1, 1};
  return c;
}

}  // namespace pf::gpu
