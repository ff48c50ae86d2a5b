#include "tests/support/gpu.h"

#include <mutex>

namespace pf::test {
namespace {

struct GpuState {
  std::shared_ptr<const cuda::CudaDriver> driver;
  std::string reason;
};

const GpuState& state() {
  static const GpuState s = [] {
    GpuState g;
    auto d = cuda::CudaDriver::load();
    if (d.ok()) {
      g.driver = *d;
    } else {
      g.reason = d.error().message;
    }
    return g;
  }();
  return s;
}

}  // namespace

const std::string& gpu_unavailable_reason() {
  return state().reason;
}

std::shared_ptr<const cuda::CudaDriver> gpu_driver() {
  return state().driver;
}

cuda::CudaContext* gpu_context() {
  // Never destroyed: tests keep CUDA objects of this context in statics of
  // their own, and static destructors run in no order that would free those
  // first. The process's exit releases the context.
  static auto& ctx = *new std::unique_ptr<cuda::CudaContext>();
  static std::string error;
  static std::once_flag once;
  std::call_once(once, [] {
    if (!gpu_driver()) {
      error = gpu_unavailable_reason();
      return;
    }
    auto c = cuda::CudaContext::create(gpu_driver());
    if (c.ok()) {
      ctx = std::move(*c);
    } else {
      error = c.error().message;
    }
  });
  if (!ctx) {
    ADD_FAILURE() << "no CUDA context: " << error;
    return nullptr;
  }
  if (auto st = ctx->make_current(); !st.ok()) ADD_FAILURE() << st.error().message;
  return ctx.get();
}

}  // namespace pf::test
