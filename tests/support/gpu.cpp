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

// Never destroyed: objects that outlive main() must not call into the CUDA
// libraries from static destructors, which run after the libraries loaded
// later (dlopen) have torn down their own state.
cuda::CudaContext* gpu_context() {
  static cuda::CudaContext* ctx = nullptr;
  static std::string error;
  static std::once_flag once;
  std::call_once(once, [] {
    if (!gpu_driver()) {
      error = gpu_unavailable_reason();
      return;
    }
    auto c = cuda::CudaContext::create(gpu_driver());
    if (c.ok()) {
      ctx = c->release();
    } else {
      error = c.error().message;
    }
  });
  if (!ctx) {
    ADD_FAILURE() << "no CUDA context: " << error;
    return nullptr;
  }
  if (auto st = ctx->make_current(); !st.ok()) ADD_FAILURE() << st.error().message;
  return ctx;
}

}  // namespace pf::test
