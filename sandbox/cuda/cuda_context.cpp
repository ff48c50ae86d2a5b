#include "sandbox/cuda/cuda_context.h"

namespace pf::cuda {

Result<std::unique_ptr<CudaContext>> CudaContext::create(std::shared_ptr<const CudaDriver> driver,
                                                         const ContextOptions& options) {
  std::unique_ptr<CudaContext> c(new CudaContext());
  c->driver_ = std::move(driver);
  const auto& d = *c->driver_;
  PF_ASSIGN(c->props_, query_device_properties(d, options.device));
  PF_TRY(d.check(d.api().cuDeviceGet(&c->device_, options.device), "cuDeviceGet"));
  PF_TRY(d.check(d.api().cuDevicePrimaryCtxRetain(&c->ctx_, c->device_),
                 "cuDevicePrimaryCtxRetain"));
  PF_TRY(c->make_current());
  PF_TRY(d.check(d.api().cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, options.printf_fifo_bytes),
                 "cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE)"));
  PF_TRY(d.check(d.api().cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, options.malloc_heap_bytes),
                 "cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE)"));
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
