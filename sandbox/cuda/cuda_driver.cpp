#include "sandbox/cuda/cuda_driver.h"

#include "sandbox/cuda/shared_library.h"

namespace pf::cuda {
namespace {

using GetProcAddress = PFN_cuGetProcAddress_v12000;

// Fetches `symbol` in the ABI of CUDA `version`; nullptr when the driver has
// no such version of it.
void* fetch(GetProcAddress get, const char* symbol, int version) {
  void* pfn = nullptr;
  CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  CUresult r = get(symbol, &pfn, version, CU_GET_PROC_ADDRESS_DEFAULT, &found);
  if (r != CUDA_SUCCESS || found != CU_GET_PROC_ADDRESS_SUCCESS) return nullptr;
  return pfn;
}

}  // namespace

Result<std::shared_ptr<CudaDriver>> CudaDriver::load(const CudaDriverOptions& options) {
  std::string chosen = options.library;
  if (chosen.empty()) chosen = env_or_empty("PASSFORGE_CUDA_DRIVER");
  if (chosen.empty()) chosen = "libcuda.so.1";
  auto lib = SharedLibrary::open_first(chosen, {chosen});
  if (!lib.ok())
    return make_error(ErrorCode::unsupported, "no CUDA driver: " + lib.error().message);
  // cuda.h maps cuGetProcAddress to its CUDA 12 ABI, exported as _v2.
  auto get = reinterpret_cast<GetProcAddress>(lib->symbol("cuGetProcAddress_v2"));
  if (get == nullptr) {
    return make_error(ErrorCode::unsupported,
                      "no CUDA driver: " + lib->path() +
                          " lacks cuGetProcAddress_v2 (a CUDA 12 or newer driver is required)");
  }
  std::shared_ptr<CudaDriver> d(new CudaDriver());
  d->library_path_ = lib->path();
  std::string missing;
#define PF_CUDA_FETCH_REQUIRED(name, version)                                          \
  d->fn_.name = reinterpret_cast<PFN_##name##_v##version>(fetch(get, #name, version)); \
  if (d->fn_.name == nullptr) missing += std::string(missing.empty() ? "" : ", ") + #name;
  PF_CUDA_REQUIRED_FUNCTIONS(PF_CUDA_FETCH_REQUIRED)
#undef PF_CUDA_FETCH_REQUIRED
#define PF_CUDA_FETCH_OPTIONAL(name, version) \
  d->fn_.name = reinterpret_cast<PFN_##name##_v##version>(fetch(get, #name, version));
  PF_CUDA_OPTIONAL_FUNCTIONS(PF_CUDA_FETCH_OPTIONAL)
#undef PF_CUDA_FETCH_OPTIONAL
  if (!missing.empty()) {
    return make_error(ErrorCode::unsupported,
                      "no CUDA driver: " + d->library_path_ + " lacks " + missing);
  }
  CUresult r = d->fn_.cuInit(0);
  if (r != CUDA_SUCCESS) {
    std::string what =
        classify_cuda_error(r) == CudaErrorClass::no_device ? "no CUDA device" : "CUDA unusable";
    return make_error(ErrorCode::unsupported,
                      what + ": cuInit: " + d->error_name(r) + " (" + d->library_path_ + ")");
  }
  if (auto v = d->fn_.cuDriverGetVersion(&d->driver_version_); v != CUDA_SUCCESS) {
    return make_error(ErrorCode::unsupported, "cuDriverGetVersion: " + d->error_name(v));
  }
  if (auto c = d->fn_.cuDeviceGetCount(&d->device_count_); c != CUDA_SUCCESS) {
    return make_error(ErrorCode::unsupported,
                      "no CUDA device: cuDeviceGetCount: " + d->error_name(c));
  }
  if (d->device_count_ == 0) {
    return make_error(ErrorCode::unsupported,
                      "no CUDA device: the driver sees none (CUDA_VISIBLE_DEVICES=\"" +
                          env_or_empty("CUDA_VISIBLE_DEVICES") + "\")");
  }
  return d;
}

std::string CudaDriver::driver_version_string() const {
  return std::to_string(driver_version_ / 1000) + "." +
         std::to_string((driver_version_ % 1000) / 10);
}

std::string CudaDriver::error_name(CUresult result) const {
  const char* name = nullptr;
  if (fn_.cuGetErrorName != nullptr && fn_.cuGetErrorName(result, &name) == CUDA_SUCCESS &&
      name != nullptr) {
    return name;
  }
  return builtin_cuda_error_name(result);
}

Error CudaDriver::error(CUresult result, std::string_view call) const {
  std::string message = std::string(call) + ": " + error_name(result);
  const char* text = nullptr;
  if (fn_.cuGetErrorString != nullptr && fn_.cuGetErrorString(result, &text) == CUDA_SUCCESS &&
      text != nullptr) {
    message += std::string(" (") + text + ")";
  }
  auto cls = classify_cuda_error(result);
  if (cls == CudaErrorClass::sticky) {
    std::lock_guard lock(mu_);
    if (poisoned_.empty()) poisoned_ = message;
  }
  ErrorCode code = ErrorCode::internal;
  switch (cls) {
    case CudaErrorClass::out_of_memory:
      code = ErrorCode::unavailable;
      break;
    case CudaErrorClass::no_device:
      code = ErrorCode::unsupported;
      break;
    case CudaErrorClass::launch_rejected:
      code = ErrorCode::invalid_argument;
      break;
    case CudaErrorClass::sticky:
      code = ErrorCode::internal;
      break;
    default:
      code = result == CUDA_ERROR_INVALID_VALUE ? ErrorCode::invalid_argument : ErrorCode::internal;
  }
  return make_error(code, std::move(message));
}

Status CudaDriver::check(CUresult result, std::string_view call) const {
  if (result == CUDA_SUCCESS) return ok_status();
  return error(result, call);
}

std::string CudaDriver::poisoned() const {
  std::lock_guard lock(mu_);
  return poisoned_;
}

}  // namespace pf::cuda
