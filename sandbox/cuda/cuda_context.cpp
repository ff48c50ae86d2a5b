#include "sandbox/cuda/cuda_context.h"

#include <spdlog/spdlog.h>

#include <tuple>

namespace pf::cuda {

Result<std::unique_ptr<CudaContext>> CudaContext::create(std::shared_ptr<const CudaDriver> driver,
                                                         const ContextOptions& options) {
  std::unique_ptr<CudaContext> c(new CudaContext());
  c->driver_ = std::move(driver);
  const auto& d = *c->driver_;
  PF_ASSIGN(c->props_, query_device_properties(d, options.device));
  PF_TRY(d.check(d.api().cuDeviceGet(&c->device_, options.device), "cuDeviceGet"));
  PF_TRY(
      d.check(d.api().cuDevicePrimaryCtxRetain(&c->ctx_, c->device_), "cuDevicePrimaryCtxRetain"));
  PF_TRY(c->make_current());
  // The primary context is shared by every CudaContext of the process; once a
  // kernel has run, these limits can no longer change. That is not fatal: the
  // first context's settings stay in force.
  for (auto [limit, value, name] : {std::tuple{CU_LIMIT_PRINTF_FIFO_SIZE, options.printf_fifo_bytes,
                                               "CU_LIMIT_PRINTF_FIFO_SIZE"},
                                    std::tuple{CU_LIMIT_MALLOC_HEAP_SIZE, options.malloc_heap_bytes,
                                               "CU_LIMIT_MALLOC_HEAP_SIZE"}}) {
    size_t current = 0;
    if (d.api().cuCtxGetLimit(&current, limit) == CUDA_SUCCESS && current == value) continue;
    Status st =
        d.check(d.api().cuCtxSetLimit(limit, value), std::string("cuCtxSetLimit(") + name + ")");
    if (!st.ok()) {
      if (!d.poisoned().empty()) return st.error();
      spdlog::warn("{} (keeping {} bytes)", st.error().message, current);
    }
  }
  return c;
}

CudaContext::~CudaContext() {
  if (ctx_ != nullptr) driver_->api().cuDevicePrimaryCtxRelease(device_);
}

Status CudaContext::make_current() const {
  return driver_->check(driver_->api().cuCtxSetCurrent(ctx_), "cuCtxSetCurrent");
}

Status CudaContext::synchronize() const {
  return driver_->check(driver_->api().cuCtxSynchronize(), "cuCtxSynchronize");
}

}  // namespace pf::cuda
