// cuDNN loaded with dlopen, for the eager baseline's convolutions (PyTorch
// runs conv1d/conv2d and their transposes through cuDNN). Only the legacy
// convolution API is used (cuDNN 9 still ships it, marked deprecated): the
// forward and backward-data convolutions with the v7 heuristics, which is
// what PyTorch's default (torch.backends.cudnn.benchmark = False) amounts to.
// An absent library is an `unsupported` error; callers fall back to their
// own kernels.
//
// Search order: PASSFORGE_CUDNN (or the option) alone when set, else the
// soname, the toolkit directories, the pip wheel directory nvidia/cudnn/lib
// of the usual site-packages, and of the site-packages of every python3 on
// PATH (a virtualenv that holds PyTorch).
//
// Thread-safety: a loaded CudnnLibrary is immutable; handles are not thread-safe.
#pragma once

#include <cudnn.h>

#include <memory>
#include <string>

#include "common/result.h"

namespace pf::cuda {

#define PF_CUDNN_FUNCTIONS(X)                     \
  X(cudnnGetVersion)                              \
  X(cudnnGetErrorString)                          \
  X(cudnnGetLastErrorString)                      \
  X(cudnnCreate)                                  \
  X(cudnnDestroy)                                 \
  X(cudnnSetStream)                               \
  X(cudnnCreateTensorDescriptor)                  \
  X(cudnnDestroyTensorDescriptor)                 \
  X(cudnnSetTensorNdDescriptor)                   \
  X(cudnnCreateFilterDescriptor)                  \
  X(cudnnDestroyFilterDescriptor)                 \
  X(cudnnSetFilterNdDescriptor)                   \
  X(cudnnCreateConvolutionDescriptor)             \
  X(cudnnDestroyConvolutionDescriptor)            \
  X(cudnnSetConvolutionNdDescriptor)              \
  X(cudnnSetConvolutionGroupCount)                \
  X(cudnnSetConvolutionMathType)                  \
  X(cudnnGetConvolutionForwardAlgorithm_v7)       \
  X(cudnnGetConvolutionForwardWorkspaceSize)      \
  X(cudnnConvolutionForward)                      \
  X(cudnnGetConvolutionBackwardDataAlgorithm_v7)  \
  X(cudnnGetConvolutionBackwardDataWorkspaceSize) \
  X(cudnnConvolutionBackwardData)

struct CudnnFunctions {
#define PF_CUDNN_MEMBER(name) decltype(&::name) name = nullptr;
  PF_CUDNN_FUNCTIONS(PF_CUDNN_MEMBER)
#undef PF_CUDNN_MEMBER
};

struct CudnnOptions {
  //! Empty: $PASSFORGE_CUDNN, else the search described above.
  std::string library;
};

class CudnnLibrary {
 public:
  static Result<std::shared_ptr<const CudnnLibrary>> load(const CudnnOptions& options = {});

  const CudnnFunctions& api() const { return fn_; }
  const std::string& path() const { return path_; }
  //! cudnnGetVersion(), e.g. 91900 for 9.19.0.
  size_t version() const { return version_; }

  //! "cudnnConvolutionForward: CUDNN_STATUS_BAD_PARAM (...)"
  Error error(cudnnStatus_t status, const std::string& call) const;
  Status check(cudnnStatus_t status, const std::string& call) const;

 private:
  CudnnLibrary() = default;
  CudnnFunctions fn_;
  std::string path_;
  size_t version_ = 0;
};

//! A cuDNN handle (needs a current CUDA context; bound to it).
class CudnnHandle {
 public:
  static Result<CudnnHandle> create(std::shared_ptr<const CudnnLibrary> lib);
  CudnnHandle(CudnnHandle&& other) noexcept;
  CudnnHandle& operator=(CudnnHandle&& other) noexcept;
  CudnnHandle(const CudnnHandle&) = delete;
  CudnnHandle& operator=(const CudnnHandle&) = delete;
  ~CudnnHandle();

  cudnnHandle_t get() const { return handle_; }
  const CudnnLibrary& lib() const { return *lib_; }
  Status set_stream(cudaStream_t stream) const;

 private:
  CudnnHandle() = default;
  std::shared_ptr<const CudnnLibrary> lib_;
  cudnnHandle_t handle_ = nullptr;
};

//! The descriptors of one convolution (x, w, y and the convolution), created
//! and destroyed together.
class CudnnConvDescriptors {
 public:
  static Result<std::unique_ptr<CudnnConvDescriptors>> create(
      std::shared_ptr<const CudnnLibrary> lib);
  ~CudnnConvDescriptors();
  CudnnConvDescriptors(const CudnnConvDescriptors&) = delete;
  CudnnConvDescriptors& operator=(const CudnnConvDescriptors&) = delete;

  cudnnTensorDescriptor_t x = nullptr;
  cudnnTensorDescriptor_t y = nullptr;
  cudnnFilterDescriptor_t w = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;

 private:
  CudnnConvDescriptors() = default;
  std::shared_ptr<const CudnnLibrary> lib_;
};

}  // namespace pf::cuda
