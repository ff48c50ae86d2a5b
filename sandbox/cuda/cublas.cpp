#include "sandbox/cuda/cublas.h"

#include <utility>

#include "sandbox/cuda/shared_library.h"

namespace pf::cuda {
namespace {

// pip's CUDA 13 wheels keep libraries in nvidia/cu13/lib; CUDA 12 wheels in
// nvidia/cublas/lib.
const std::vector<std::string> kWheelDirs = {"nvidia/cu13/lib", "nvidia/cublas/lib"};

Result<SharedLibrary> open_toolkit_library(const std::string& soname, const std::string& option,
                                           const char* env) {
  std::string chosen = option.empty() ? env_or_empty(env) : option;
  auto lib =
      SharedLibrary::open_first(soname, toolkit_library_candidates(soname, chosen, kWheelDirs));
  if (!lib.ok()) {
    return make_error(ErrorCode::unsupported,
                      lib.error().message + "\n(set " + env + " to the library's path)");
  }
  return lib;
}

}  // namespace

Result<std::shared_ptr<const CublasLibrary>> CublasLibrary::load(const CublasOptions& options) {
  PF_ASSIGN(auto blas,
            open_toolkit_library("libcublas.so.13", options.cublas_library, "PASSFORGE_CUBLAS"));
  PF_ASSIGN(auto lt, open_toolkit_library("libcublasLt.so.13", options.cublaslt_library,
                                          "PASSFORGE_CUBLASLT"));
  std::shared_ptr<CublasLibrary> l(new CublasLibrary());
  l->cublas_path_ = blas.path();
  l->cublaslt_path_ = lt.path();
  std::string missing;
  auto need = [&](void* p, const char* name) {
    if (p == nullptr) missing += std::string(missing.empty() ? "" : ", ") + name;
    return p;
  };
#define PF_CUBLAS_FETCH(name) \
  l->fn_.name = reinterpret_cast<decltype(l->fn_.name)>(need(blas.symbol(#name), #name));
  PF_CUBLAS_FETCH(cublasGemmEx)
  PF_CUBLAS_FETCH(cublasGemmStridedBatchedEx)
  PF_CUBLAS_FUNCTIONS(PF_CUBLAS_FETCH)
#undef PF_CUBLAS_FETCH
#define PF_CUBLASLT_FETCH(name) \
  l->fn_.name = reinterpret_cast<decltype(l->fn_.name)>(need(lt.symbol(#name), #name));
  PF_CUBLASLT_FUNCTIONS(PF_CUBLASLT_FETCH)
#undef PF_CUBLASLT_FETCH
  if (!missing.empty()) {
    return make_error(ErrorCode::unsupported, "cuBLAS (" + l->cublas_path_ + ", " +
                                                  l->cublaslt_path_ + ") lacks " + missing);
  }
  l->lt_version_ = l->fn_.cublasLtGetVersion();
  return std::shared_ptr<const CublasLibrary>(std::move(l));
}

Error CublasLibrary::error(cublasStatus_t status, const std::string& call) const {
  const char* name = fn_.cublasGetStatusName != nullptr ? fn_.cublasGetStatusName(status) : nullptr;
  const char* text =
      fn_.cublasGetStatusString != nullptr ? fn_.cublasGetStatusString(status) : nullptr;
  std::string message =
      call + ": " + (name != nullptr ? name : "cuBLAS status " + std::to_string(status));
  if (text != nullptr) message += std::string(" (") + text + ")";
  ErrorCode code = ErrorCode::internal;
  if (status == CUBLAS_STATUS_NOT_SUPPORTED || status == CUBLAS_STATUS_ARCH_MISMATCH) {
    code = ErrorCode::unsupported;
  } else if (status == CUBLAS_STATUS_INVALID_VALUE) {
    code = ErrorCode::invalid_argument;
  } else if (status == CUBLAS_STATUS_ALLOC_FAILED || status == CUBLAS_STATUS_NOT_INITIALIZED) {
    code = ErrorCode::unavailable;
  }
  return make_error(code, std::move(message));
}

Status CublasLibrary::check(cublasStatus_t status, const std::string& call) const {
  if (status == CUBLAS_STATUS_SUCCESS) return ok_status();
  return error(status, call);
}

Result<CublasHandle> CublasHandle::create(std::shared_ptr<const CublasLibrary> lib) {
  CublasHandle h;
  h.lib_ = std::move(lib);
  PF_TRY(h.lib_->check(h.lib_->api().cublasCreate_v2(&h.handle_), "cublasCreate"));
  PF_TRY(h.lib_->check(h.lib_->api().cublasSetMathMode(h.handle_, CUBLAS_DEFAULT_MATH),
                       "cublasSetMathMode(CUBLAS_DEFAULT_MATH)"));
  return h;
}

CublasHandle::CublasHandle(CublasHandle&& other) noexcept
    : lib_(std::move(other.lib_)), handle_(std::exchange(other.handle_, nullptr)) {}

CublasHandle& CublasHandle::operator=(CublasHandle&& other) noexcept {
  if (this != &other) {
    if (handle_ != nullptr) lib_->api().cublasDestroy_v2(handle_);
    lib_ = std::move(other.lib_);
    handle_ = std::exchange(other.handle_, nullptr);
  }
  return *this;
}

CublasHandle::~CublasHandle() {
  if (handle_ != nullptr) lib_->api().cublasDestroy_v2(handle_);
}

Status CublasHandle::set_stream(cudaStream_t stream) const {
  return lib_->check(lib_->api().cublasSetStream_v2(handle_, stream), "cublasSetStream");
}

Status CublasHandle::set_workspace(void* workspace, size_t bytes) const {
  return lib_->check(lib_->api().cublasSetWorkspace_v2(handle_, workspace, bytes),
                     "cublasSetWorkspace");
}

Result<CublasLtHandle> CublasLtHandle::create(std::shared_ptr<const CublasLibrary> lib) {
  CublasLtHandle h;
  h.lib_ = std::move(lib);
  PF_TRY(h.lib_->check(h.lib_->api().cublasLtCreate(&h.handle_), "cublasLtCreate"));
  return h;
}

CublasLtHandle::CublasLtHandle(CublasLtHandle&& other) noexcept
    : lib_(std::move(other.lib_)), handle_(std::exchange(other.handle_, nullptr)) {}

CublasLtHandle& CublasLtHandle::operator=(CublasLtHandle&& other) noexcept {
  if (this != &other) {
    if (handle_ != nullptr) lib_->api().cublasLtDestroy(handle_);
    lib_ = std::move(other.lib_);
    handle_ = std::exchange(other.handle_, nullptr);
  }
  return *this;
}

CublasLtHandle::~CublasLtHandle() {
  if (handle_ != nullptr) lib_->api().cublasLtDestroy(handle_);
}

}  // namespace pf::cuda
