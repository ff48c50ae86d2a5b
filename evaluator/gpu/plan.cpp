#include "evaluator/gpu/plan.h"

#include "common/check.h"

namespace pf::gpu {

Status Plan::run(CUstream stream) const {
  const auto& api = driver_->api();
  for (const PlanStep& s : steps_) {
    switch (s.kind) {
      case PlanStep::Kind::kernel: {
        void* single[1] = {const_cast<uint64_t*>(s.param_storage.data())};
        void** params = s.args ? s.args->kernel_params() : single;
        CUresult r = api.cuLaunchKernel(s.function, s.grid[0], s.grid[1], s.grid[2], s.block[0],
                                        s.block[1], s.block[2], s.smem, stream, params, nullptr);
        if (r != CUDA_SUCCESS) return driver_->error(r, "cuLaunchKernel(" + s.name + ")");
        break;
      }
      case PlanStep::Kind::memset: {
        CUresult r = s.width == 4 ? api.cuMemsetD32Async(s.ptr, s.value, s.count, stream)
                                  : api.cuMemsetD8Async(s.ptr, static_cast<unsigned char>(s.value),
                                                        s.count, stream);
        if (r != CUDA_SUCCESS) return driver_->error(r, "cuMemsetAsync");
        break;
      }
      case PlanStep::Kind::library: {
        if (auto st = s.call(stream); !st.ok()) return st.error().with_context(s.name);
        break;
      }
    }
  }
  return ok_status();
}

std::string Plan::describe() const {
  std::string out;
  for (const auto& s : steps_) out += (out.empty() ? "" : ", ") + s.name;
  return out;
}

Plan Plan::step_plan(size_t index) const {
  Plan p;
  p.driver_ = driver_;
  p.steps_.push_back(steps_.at(index));
  p.storages_ = storages_;
  p.keep_alive_ = keep_alive_;
  return p;
}

Status Plan::check_guards() const {
  std::vector<const cuda::DeviceBuffer*> buffers;
  for (const auto& s : storages_) buffers.push_back(&s->buffer());
  return cuda::check_all_guards(buffers);
}

}  // namespace pf::gpu
