#include "sandbox/nvrtc/nvrtc_library.h"

#include <algorithm>
#include <cctype>

#include "sandbox/cuda/shared_library.h"

namespace pf::nvrtc {

Result<std::shared_ptr<const NvrtcLibrary>> NvrtcLibrary::load(const NvrtcLibraryOptions& options) {
  std::string chosen =
      options.library.empty() ? cuda::env_or_empty("PASSFORGE_NVRTC") : options.library;
  auto lib = cuda::SharedLibrary::open_first(
      "NVRTC (libnvrtc.so.13)",
      cuda::toolkit_library_candidates("libnvrtc.so.13", chosen,
                                       {"nvidia/cu13/lib", "nvidia/cuda_nvrtc/lib"}));
  if (!lib.ok()) {
    return make_error(ErrorCode::unsupported,
                      lib.error().message +
                          "\nCUDA kernels cannot be compiled here (install the CUDA 13 toolkit or "
                          "set PASSFORGE_NVRTC to libnvrtc.so.13)");
  }
  std::shared_ptr<NvrtcLibrary> l(new NvrtcLibrary());
  l->path_ = lib->path();
  std::string missing;
#define PF_NVRTC_FETCH(name)                                                 \
  l->fn_.name = reinterpret_cast<decltype(l->fn_.name)>(lib->symbol(#name)); \
  if (l->fn_.name == nullptr) missing += std::string(missing.empty() ? "" : ", ") + #name;
  PF_NVRTC_FUNCTIONS(PF_NVRTC_FETCH)
#undef PF_NVRTC_FETCH
#define PF_NVRTC_FETCH_OPTIONAL(name) \
  l->fn_.name = reinterpret_cast<decltype(l->fn_.name)>(lib->symbol(#name));
  PF_NVRTC_OPTIONAL_FUNCTIONS(PF_NVRTC_FETCH_OPTIONAL)
#undef PF_NVRTC_FETCH_OPTIONAL
  if (!missing.empty()) {
    return make_error(ErrorCode::unsupported, "NVRTC at " + l->path_ + " lacks " + missing);
  }
  int major = 0, minor = 0;
  if (l->fn_.nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) {
    return make_error(ErrorCode::unsupported, "nvrtcVersion failed (" + l->path_ + ")");
  }
  l->version_ = std::to_string(major) + "." + std::to_string(minor);
  int n = 0;
  if (l->fn_.nvrtcGetNumSupportedArchs(&n) == NVRTC_SUCCESS && n > 0 && n < 1024) {
    l->archs_.resize(static_cast<size_t>(n));
    if (l->fn_.nvrtcGetSupportedArchs(l->archs_.data()) != NVRTC_SUCCESS) l->archs_.clear();
  }
  return std::shared_ptr<const NvrtcLibrary>(std::move(l));
}

Status NvrtcLibrary::check_arch(const std::string& arch) const {
  auto listed = [&] {
    std::string s;
    for (int a : archs_) s += (s.empty() ? "" : ", ") + ("sm_" + std::to_string(a));
    return s;
  };
  bool well_formed = arch.size() >= 5 && arch.size() <= 7 && arch.rfind("sm_", 0) == 0 &&
                     std::all_of(arch.begin() + 3, arch.end(), [](char c) {
                       return std::isdigit(static_cast<unsigned char>(c));
                     });
  if (!well_formed) {
    return make_error(ErrorCode::invalid_argument,
                      "GPU architecture '" + arch + "' is not of the form sm_XY (e.g. sm_90)");
  }
  int number = std::stoi(arch.substr(3));
  if (!archs_.empty() && std::find(archs_.begin(), archs_.end(), number) == archs_.end()) {
    return make_error(ErrorCode::invalid_argument, "NVRTC " + version_ + " cannot compile for " +
                                                       arch + "; it supports " + listed());
  }
  return ok_status();
}

std::string NvrtcLibrary::error_string(nvrtcResult r) const {
  const char* s = fn_.nvrtcGetErrorString(r);
  return s != nullptr ? s : "NVRTC error " + std::to_string(static_cast<int>(r));
}

}  // namespace pf::nvrtc
