// Everything one worker needs to build and run baseline plans on its GPU:
// the caching allocator, the kernel library, a stream, cuBLAS/cuBLASLt and
// cuDNN (loaded on first use). The caller owns the CUDA context and keeps it
// current on the thread that uses the runtime (one thread per runtime).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "common/result.h"
#include "evaluator/core/tensor.h"
#include "evaluator/gpu/caching_allocator.h"
#include "evaluator/gpu/device_tensor.h"
#include "evaluator/gpu/kernel_library.h"
#include "sandbox/cuda/cublas.h"
#include "sandbox/cuda/cudnn.h"
#include "sandbox/cuda/device_properties.h"
#include "sandbox/cuda/l2_flush.h"
#include "sandbox/cuda/stream.h"

namespace pf::gpu {

struct GpuRuntimeOptions {
  AllocatorOptions allocator;
  //! On-disk NVRTC cache for the baseline kernels; empty: CompileCache::default_dir()
  //! (no cache when that is empty too).
  std::filesystem::path kernel_cache_dir;
  bool use_kernel_cache = true;
  //! cuBLAS and cuBLASLt workspace (PyTorch uses 32 MiB on Hopper).
  size_t blas_workspace_bytes = size_t{32} << 20;
  nvrtc::NvrtcLibraryOptions nvrtc;
  cuda::CublasOptions cublas;
  //! Convolutions through cuDNN as PyTorch runs them; false (or cuDNN
  //! absent): the baseline's direct convolution kernels.
  bool use_cudnn = true;
  cuda::CudnnOptions cudnn;
  //! TF32 tensor cores in fp32 cuDNN convolutions. PyTorch's default
  //! (torch.backends.cudnn.allow_tf32) is True; ours is false because every
  //! output is judged against the baseline at t = -5 (fp32 rtol 1.3e-6),
  //! which TF32's 10-bit mantissa cannot meet (docs/gpu-executor.md).
  bool cudnn_allow_tf32 = false;
};

//! cuBLAS state for the matmul family (GpuRuntime::blas()).
//! Per cuBLASLt problem (blas_gemm.cpp), whether the algorithm chosen for a
//! small workspace ran faster than the one for the whole workspace: each
//! problem is timed once per process, so a worker's plans agree.
class LtChoices {
 public:
  std::optional<bool> find(const std::string& key) const {
    std::lock_guard lock(mu_);
    auto it = choices_.find(key);
    if (it == choices_.end()) return std::nullopt;
    return it->second;
  }
  void remember(const std::string& key, bool small_wins) {
    std::lock_guard lock(mu_);
    choices_[key] = small_wins;
  }

 private:
  mutable std::mutex mu_;
  std::map<std::string, bool> choices_;
};

struct BlasState {
  std::shared_ptr<const cuda::CublasLibrary> lib;
  cuda::CublasHandle handle;
  cuda::CublasLtHandle lt;
  std::shared_ptr<DeviceStorage> workspace;
  size_t workspace_bytes = 0;
  std::shared_ptr<LtChoices> lt_choices = std::make_shared<LtChoices>();
};

//! cuDNN state for the convolution family (GpuRuntime::cudnn()).
struct CudnnState {
  std::shared_ptr<const cuda::CudnnLibrary> lib;
  cuda::CudnnHandle handle;
  bool allow_tf32 = false;
};

class GpuRuntime {
 public:
  static Result<std::unique_ptr<GpuRuntime>> create(std::shared_ptr<const cuda::CudaDriver> driver,
                                                    const cuda::DeviceProperties& props,
                                                    GpuRuntimeOptions options = {});
  ~GpuRuntime();

  const cuda::CudaDriver& driver() const { return *driver_; }
  const std::shared_ptr<const cuda::CudaDriver>& driver_ptr() const { return driver_; }
  const cuda::DeviceProperties& properties() const { return props_; }
  CachingAllocator& allocator() { return *allocator_; }
  KernelLibrary& kernels() { return *kernels_; }
  //! The stream plans run on by default (non-blocking).
  CUstream stream() const { return stream_->handle(); }
  Status synchronize() const { return stream_->synchronize(); }
  //! cuCtxSynchronize: completes work on every stream, including the legacy
  //! stream that sandbox's synchronous memsets and copies use (our stream is
  //! non-blocking, so it does not wait for them by itself).
  Status synchronize_device() const;
  //! cuBLAS / cuBLASLt handles and workspace, created on first use.
  Result<BlasState*> blas();
  //! The cuDNN handle, created on first use; an `unsupported` error (the
  //! same one every time) when cuDNN is disabled or cannot be loaded.
  Result<CudnnState*> cudnn();
  //! The timing harness's L2 flush buffer (1.25x L2), created on first use
  //! and kept: allocating and freeing 75 MiB per evaluation cost the worker
  //! a cuMemAlloc and a cuMemFree (which waits for the device) every time.
  Result<cuda::L2Flusher*> l2_flusher();

  //! A contiguous device copy of a host tensor (synchronous).
  Result<DeviceTensor> upload(const Tensor& host, const std::string& name);
  //! Copies `t`'s bytes into `dst` (same dtype and shape; dst contiguous).
  Status upload_into(const Tensor& host, const DeviceTensor& dst);
  //! A contiguous host copy of a device tensor (synchronises the stream first).
  Result<Tensor> download(const DeviceTensor& t);
  //! Bytes download() has copied to the host since the runtime was created:
  //! the protocol reports its share per variant (host traffic of the checks).
  uint64_t downloaded_bytes() const { return downloaded_bytes_; }

 private:
  GpuRuntime() = default;
  std::shared_ptr<const cuda::CudaDriver> driver_;
  cuda::DeviceProperties props_;
  GpuRuntimeOptions options_;
  std::unique_ptr<CachingAllocator> allocator_;
  std::unique_ptr<KernelLibrary> kernels_;
  std::unique_ptr<cuda::CudaStream> stream_;
  std::unique_ptr<BlasState> blas_;
  std::unique_ptr<CudnnState> cudnn_;
  std::optional<Error> cudnn_error_;
  std::unique_ptr<cuda::L2Flusher> l2_flusher_;
  uint64_t downloaded_bytes_ = 0;
};

}  // namespace pf::gpu
