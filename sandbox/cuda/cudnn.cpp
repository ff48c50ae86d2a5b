#include "sandbox/cuda/cudnn.h"

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <utility>

#include "sandbox/cuda/shared_library.h"

namespace pf::cuda {
namespace {

namespace fs = std::filesystem;

constexpr const char* kSoname = "libcudnn.so.9";
constexpr const char* kWheelDir = "nvidia/cudnn/lib";

// <prefix>/lib/python3.*/site-packages/nvidia/cudnn/lib/libcudnn.so.9 for
// every python3 on PATH (<prefix>/bin/python3): a virtualenv's PyTorch ships
// cuDNN there, and its directory is rarely in the loader's search path.
std::vector<std::string> python_path_candidates() {
  std::vector<std::string> out;
  std::istringstream path(env_or_empty("PATH"));
  std::error_code ec;
  for (std::string dir; std::getline(path, dir, ':');) {
    if (dir.empty() || !fs::exists(fs::path(dir) / "python3", ec)) continue;
    const fs::path lib = fs::path(dir).parent_path() / "lib";
    if (!fs::is_directory(lib, ec)) continue;
    for (fs::directory_iterator it(lib, ec), end; !ec && it != end; it.increment(ec)) {
      if (it->path().filename().string().rfind("python3", 0) != 0) continue;
      out.push_back((it->path() / "site-packages" / kWheelDir / kSoname).string());
    }
  }
  return out;
}

}  // namespace

Result<std::shared_ptr<const CudnnLibrary>> CudnnLibrary::load(const CudnnOptions& options) {
  const std::string chosen =
      options.library.empty() ? env_or_empty("PASSFORGE_CUDNN") : options.library;
  std::vector<std::string> candidates = toolkit_library_candidates(kSoname, chosen, {kWheelDir});
  if (chosen.empty()) {
    for (auto& c : python_path_candidates()) {
      if (std::find(candidates.begin(), candidates.end(), c) == candidates.end()) {
        candidates.push_back(std::move(c));
      }
    }
  }
  auto so = SharedLibrary::open_first("cuDNN (" + std::string(kSoname) + ")", candidates);
  if (!so.ok()) {
    return make_error(ErrorCode::unsupported,
                      so.error().message + "\n(set PASSFORGE_CUDNN to the library's path)");
  }
  std::shared_ptr<CudnnLibrary> l(new CudnnLibrary());
  l->path_ = so->path();
  std::string missing;
#define PF_CUDNN_FETCH(name)                                                \
  l->fn_.name = reinterpret_cast<decltype(l->fn_.name)>(so->symbol(#name)); \
  if (l->fn_.name == nullptr) missing += std::string(missing.empty() ? "" : ", ") + #name;
  PF_CUDNN_FUNCTIONS(PF_CUDNN_FETCH)
#undef PF_CUDNN_FETCH
  if (!missing.empty()) {
    return make_error(ErrorCode::unsupported, "cuDNN (" + l->path_ + ") lacks " + missing);
  }
  l->version_ = l->fn_.cudnnGetVersion();
  if (l->version_ < 90000) {
    return make_error(ErrorCode::unsupported, "cuDNN " + std::to_string(l->version_) + " at " +
                                                  l->path_ + " is older than 9.0");
  }
  return std::shared_ptr<const CudnnLibrary>(std::move(l));
}

Error CudnnLibrary::error(cudnnStatus_t status, const std::string& call) const {
  const char* text = fn_.cudnnGetErrorString != nullptr ? fn_.cudnnGetErrorString(status) : nullptr;
  std::string message =
      call + ": " + (text != nullptr ? text : "cuDNN status " + std::to_string(status));
  if (fn_.cudnnGetLastErrorString != nullptr) {
    char detail[512] = {0};
    fn_.cudnnGetLastErrorString(detail, sizeof(detail));
    if (detail[0] != '\0') message += " (" + std::string(detail) + ")";
  }
  // cuDNN 9 numbers statuses by category: 1xxx not initialised (including
  // sub-libraries that failed to load), 2xxx bad parameter, 3xxx not
  // supported, 4xxx internal, 5xxx execution failed.
  ErrorCode code = ErrorCode::internal;
  switch (static_cast<int>(status) / 1000) {
    case 1:
      code = ErrorCode::unavailable;
      break;
    case 2:
      code = ErrorCode::invalid_argument;
      break;
    case 3:
      code = ErrorCode::unsupported;
      break;
    default:
      break;
  }
  return make_error(code, std::move(message));
}

Status CudnnLibrary::check(cudnnStatus_t status, const std::string& call) const {
  if (status == CUDNN_STATUS_SUCCESS) return ok_status();
  return error(status, call);
}

Result<CudnnHandle> CudnnHandle::create(std::shared_ptr<const CudnnLibrary> lib) {
  CudnnHandle h;
  h.lib_ = std::move(lib);
  PF_TRY(h.lib_->check(h.lib_->api().cudnnCreate(&h.handle_), "cudnnCreate"));
  return h;
}

CudnnHandle::CudnnHandle(CudnnHandle&& other) noexcept
    : lib_(std::move(other.lib_)), handle_(std::exchange(other.handle_, nullptr)) {}

CudnnHandle& CudnnHandle::operator=(CudnnHandle&& other) noexcept {
  if (this != &other) {
    if (handle_ != nullptr) lib_->api().cudnnDestroy(handle_);
    lib_ = std::move(other.lib_);
    handle_ = std::exchange(other.handle_, nullptr);
  }
  return *this;
}

CudnnHandle::~CudnnHandle() {
  if (handle_ != nullptr) lib_->api().cudnnDestroy(handle_);
}

Status CudnnHandle::set_stream(cudaStream_t stream) const {
  return lib_->check(lib_->api().cudnnSetStream(handle_, stream), "cudnnSetStream");
}

Result<std::unique_ptr<CudnnConvDescriptors>> CudnnConvDescriptors::create(
    std::shared_ptr<const CudnnLibrary> lib) {
  std::unique_ptr<CudnnConvDescriptors> d(new CudnnConvDescriptors());
  d->lib_ = std::move(lib);
  const CudnnFunctions& f = d->lib_->api();
  PF_TRY(d->lib_->check(f.cudnnCreateTensorDescriptor(&d->x), "cudnnCreateTensorDescriptor"));
  PF_TRY(d->lib_->check(f.cudnnCreateTensorDescriptor(&d->y), "cudnnCreateTensorDescriptor"));
  PF_TRY(d->lib_->check(f.cudnnCreateFilterDescriptor(&d->w), "cudnnCreateFilterDescriptor"));
  PF_TRY(d->lib_->check(f.cudnnCreateConvolutionDescriptor(&d->conv),
                        "cudnnCreateConvolutionDescriptor"));
  return d;
}

CudnnConvDescriptors::~CudnnConvDescriptors() {
  const CudnnFunctions& f = lib_->api();
  if (x != nullptr) f.cudnnDestroyTensorDescriptor(x);
  if (y != nullptr) f.cudnnDestroyTensorDescriptor(y);
  if (w != nullptr) f.cudnnDestroyFilterDescriptor(w);
  if (conv != nullptr) f.cudnnDestroyConvolutionDescriptor(conv);
}

}  // namespace pf::cuda
