// cuBLAS and cuBLASLt loaded with dlopen, for the eager baseline's matrix
// products (the candidate never gets them: the replacement language cannot
// call libraries). Absent libraries are a clear `unsupported` error.
//
// Baseline fidelity: PyTorch's default (torch.backends.cuda.matmul.allow_tf32
// = False) runs fp32 GEMMs with CUBLAS_COMPUTE_32F and no TF32 tensor ops;
// CublasHandle::create sets CUBLAS_DEFAULT_MATH, and callers pass
// CUBLAS_COMPUTE_32F (or CUBLAS_COMPUTE_32F_PEDANTIC to also forbid reduced
// precision reductions) for fp32.
//
// Thread-safety: a loaded CublasLibrary is immutable; handles are not thread-safe.
#pragma once

#include <cublasLt.h>
#include <cublas_v2.h>

#include <memory>
#include <string>

#include "common/result.h"

namespace pf::cuda {

// Entry points as exported (the _v2 names are what cublas_v2.h maps to).
#define PF_CUBLAS_FUNCTIONS(X) \
  X(cublasCreate_v2)           \
  X(cublasDestroy_v2)          \
  X(cublasGetVersion_v2)       \
  X(cublasSetStream_v2)        \
  X(cublasSetMathMode)         \
  X(cublasSetWorkspace_v2)     \
  X(cublasGetStatusName)       \
  X(cublasGetStatusString)

#define PF_CUBLASLT_FUNCTIONS(X)          \
  X(cublasLtCreate)                       \
  X(cublasLtDestroy)                      \
  X(cublasLtGetVersion)                   \
  X(cublasLtMatmul)                       \
  X(cublasLtMatmulDescCreate)             \
  X(cublasLtMatmulDescDestroy)            \
  X(cublasLtMatmulDescSetAttribute)       \
  X(cublasLtMatrixLayoutCreate)           \
  X(cublasLtMatrixLayoutDestroy)          \
  X(cublasLtMatrixLayoutSetAttribute)     \
  X(cublasLtMatmulPreferenceCreate)       \
  X(cublasLtMatmulPreferenceDestroy)      \
  X(cublasLtMatmulPreferenceSetAttribute) \
  X(cublasLtMatmulAlgoGetHeuristic)

struct CublasFunctions {
#define PF_CUBLAS_MEMBER(name) decltype(&::name) name = nullptr;
  PF_CUBLAS_FUNCTIONS(PF_CUBLAS_MEMBER)
  PF_CUBLASLT_FUNCTIONS(PF_CUBLAS_MEMBER)
#undef PF_CUBLAS_MEMBER
  // Overloaded in C++ by inline wrappers in cublas_api.h, so spelled out:
  // the cublasComputeType_t forms the library exports.
  cublasStatus_t (*cublasGemmEx)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                 int, const void*, const void*, cudaDataType, int, const void*,
                                 cudaDataType, int, const void*, void*, cudaDataType, int,
                                 cublasComputeType_t, cublasGemmAlgo_t) = nullptr;
  cublasStatus_t (*cublasGemmStridedBatchedEx)(cublasHandle_t, cublasOperation_t, cublasOperation_t,
                                               int, int, int, const void*, const void*,
                                               cudaDataType, int, long long int, const void*,
                                               cudaDataType, int, long long int, const void*, void*,
                                               cudaDataType, int, long long int, int,
                                               cublasComputeType_t, cublasGemmAlgo_t) = nullptr;
};

struct CublasOptions {
  //! Empty: $PASSFORGE_CUBLAS / $PASSFORGE_CUBLASLT, else the toolkit search
  //! (soname, $CUDA_HOME/lib64, /usr/local/cuda/lib64, pip wheels).
  std::string cublas_library;
  std::string cublaslt_library;
};

class CublasLibrary {
 public:
  static Result<std::shared_ptr<const CublasLibrary>> load(const CublasOptions& options = {});

  const CublasFunctions& api() const { return fn_; }
  const std::string& cublas_path() const { return cublas_path_; }
  const std::string& cublaslt_path() const { return cublaslt_path_; }
  //! cublasLtGetVersion(), e.g. 130100 for 13.1.0.
  size_t lt_version() const { return lt_version_; }

  //! "cublasGemmEx: CUBLAS_STATUS_NOT_SUPPORTED (the functionality requested is not supported)"
  Error error(cublasStatus_t status, const std::string& call) const;
  Status check(cublasStatus_t status, const std::string& call) const;

 private:
  CublasLibrary() = default;
  CublasFunctions fn_;
  std::string cublas_path_;
  std::string cublaslt_path_;
  size_t lt_version_ = 0;
};

//! A cuBLAS handle configured for baseline fidelity (CUBLAS_DEFAULT_MATH: no TF32).
class CublasHandle {
 public:
  //! Needs a current CUDA context.
  static Result<CublasHandle> create(std::shared_ptr<const CublasLibrary> lib);
  CublasHandle(CublasHandle&& other) noexcept;
  CublasHandle& operator=(CublasHandle&& other) noexcept;
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  ~CublasHandle();

  cublasHandle_t get() const { return handle_; }
  Status set_stream(cudaStream_t stream) const;
  //! A caller-owned workspace (device memory that outlives the handle's use).
  Status set_workspace(void* workspace, size_t bytes) const;

 private:
  CublasHandle() = default;
  std::shared_ptr<const CublasLibrary> lib_;
  cublasHandle_t handle_ = nullptr;
};

class CublasLtHandle {
 public:
  static Result<CublasLtHandle> create(std::shared_ptr<const CublasLibrary> lib);
  CublasLtHandle(CublasLtHandle&& other) noexcept;
  CublasLtHandle& operator=(CublasLtHandle&& other) noexcept;
  CublasLtHandle(const CublasLtHandle&) = delete;
  CublasLtHandle& operator=(const CublasLtHandle&) = delete;
  ~CublasLtHandle();

  cublasLtHandle_t get() const { return handle_; }

 private:
  CublasLtHandle() = default;
  std::shared_ptr<const CublasLibrary> lib_;
  cublasLtHandle_t handle_ = nullptr;
};

}  // namespace pf::cuda
