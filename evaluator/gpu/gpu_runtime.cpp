#include "evaluator/gpu/gpu_runtime.h"

#include <cstring>
#include <utility>

namespace pf::gpu {

Result<std::unique_ptr<GpuRuntime>> GpuRuntime::create(
    std::shared_ptr<const cuda::CudaDriver> driver, const cuda::DeviceProperties& props,
    GpuRuntimeOptions options) {
  std::unique_ptr<GpuRuntime> rt(new GpuRuntime());
  rt->driver_ = std::move(driver);
  rt->props_ = props;
  rt->options_ = std::move(options);
  const auto& d = rt->driver_;
  const GpuRuntimeOptions& o = rt->options_;
  PF_ASSIGN(auto nvrtc, nvrtc::NvrtcLibrary::load(o.nvrtc));
  std::shared_ptr<nvrtc::CompileCache> cache;
  if (o.use_kernel_cache) {
    auto dir = o.kernel_cache_dir.empty() ? nvrtc::CompileCache::default_dir() : o.kernel_cache_dir;
    if (!dir.empty()) cache = std::make_shared<nvrtc::CompileCache>(dir);
  }
  rt->allocator_ = std::make_unique<CachingAllocator>(d, o.allocator);
  rt->kernels_ =
      std::make_unique<KernelLibrary>(d, std::move(nvrtc), std::move(cache), props.arch());
  PF_ASSIGN(cuda::CudaStream stream, cuda::CudaStream::create(d));
  rt->stream_ = std::make_unique<cuda::CudaStream>(std::move(stream));
  return rt;
}

GpuRuntime::~GpuRuntime() = default;

Result<BlasState*> GpuRuntime::blas() {
  if (blas_) return blas_.get();
  PF_ASSIGN(auto lib, cuda::CublasLibrary::load(options_.cublas));
  PF_ASSIGN(cuda::CublasHandle handle, cuda::CublasHandle::create(lib));
  PF_ASSIGN(cuda::CublasLtHandle lt, cuda::CublasLtHandle::create(lib));
  PF_ASSIGN(auto workspace,
            allocator_->allocate(options_.blas_workspace_bytes, "cublas workspace"));
  // cuBLAS takes the device address as a pointer; it is never dereferenced here.
  // NOLINTNEXTLINE(performance-no-int-to-ptr)
  PF_TRY(handle.set_workspace(reinterpret_cast<void*>(workspace->data()),
                              options_.blas_workspace_bytes));
  blas_ =
      std::make_unique<BlasState>(BlasState{std::move(lib), std::move(handle), std::move(lt),
                                            std::move(workspace), options_.blas_workspace_bytes});
  return blas_.get();
}

Result<cuda::L2Flusher*> GpuRuntime::l2_flusher() {
  if (l2_flusher_) return l2_flusher_.get();
  PF_ASSIGN(cuda::L2Flusher flusher, cuda::L2Flusher::create(driver_, props_));
  l2_flusher_ = std::make_unique<cuda::L2Flusher>(std::move(flusher));
  return l2_flusher_.get();
}

Result<CudnnState*> GpuRuntime::cudnn() {
  if (cudnn_) return cudnn_.get();
  if (cudnn_error_) return *cudnn_error_;
  if (!options_.use_cudnn) {
    cudnn_error_ =
        make_error(ErrorCode::unsupported, "cuDNN is disabled (GpuRuntimeOptions::use_cudnn)");
    return *cudnn_error_;
  }
  auto lib = cuda::CudnnLibrary::load(options_.cudnn);
  if (!lib.ok()) {
    cudnn_error_ = lib.error();
    return *cudnn_error_;
  }
  auto handle = cuda::CudnnHandle::create(*lib);
  if (!handle.ok()) {
    cudnn_error_ = handle.error();
    return *cudnn_error_;
  }
  cudnn_ = std::make_unique<CudnnState>(
      CudnnState{std::move(*lib), std::move(*handle), options_.cudnn_allow_tf32});
  return cudnn_.get();
}

Status GpuRuntime::synchronize_device() const {
  return driver_->check(driver_->api().cuCtxSynchronize(), "cuCtxSynchronize");
}

Result<DeviceTensor> GpuRuntime::upload(const Tensor& host, const std::string& name) {
  PF_ASSIGN(auto storage, allocator_->allocate(host.nbytes(), name));
  DeviceTensor t = DeviceTensor::contiguous(std::move(storage), host.dtype(), host.shape());
  PF_TRY(upload_into(host, t));
  return t;
}

Status GpuRuntime::upload_into(const Tensor& host, const DeviceTensor& dst) {
  if (host.dtype() != dst.dtype() || host.shape() != dst.shape() || !dst.is_contiguous()) {
    return make_error(ErrorCode::invalid_argument,
                      "upload: host " + tensor_type_str({host.dtype(), host.shape()}) +
                          " into device " + tensor_type_str(dst.type()) +
                          (dst.is_contiguous() ? "" : " (not contiguous)"));
  }
  if (host.nbytes() == 0) return ok_status();
  Tensor contiguous = host.is_contiguous() ? host : host.contiguous_copy();
  PF_TRY(synchronize());
  PF_TRY(dst.storage()->buffer().upload(contiguous.data(), contiguous.nbytes(),
                                        static_cast<size_t>(dst.offset()) * dst.element_size()));
  return synchronize_device();
}

Result<Tensor> GpuRuntime::download(const DeviceTensor& t) {
  PF_TRY(synchronize());
  if (t.numel() == 0) return Tensor::zeros(t.dtype(), t.shape());
  PF_TRY(t.check_in_bounds());
  auto [lo, hi] = t.extent();
  const size_t es = t.element_size();
  Tensor span = Tensor::zeros(t.dtype(), {hi - lo + 1});
  PF_TRY(t.storage()->buffer().download(span.mutable_data(), span.nbytes(),
                                        static_cast<size_t>(lo) * es));
  downloaded_bytes_ += span.nbytes();
  if (t.is_contiguous() && lo == t.offset()) {
    return Tensor::view_of(span, t.shape(), contiguous_strides(t.shape()), 0);
  }
  return Tensor::view_of(span, t.shape(), t.strides(), t.offset() - lo).contiguous_copy();
}

}  // namespace pf::gpu
