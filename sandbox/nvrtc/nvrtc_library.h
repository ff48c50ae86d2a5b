// NVRTC loaded with dlopen (libnvrtc.so.13), so the orchestrator and CPU-only
// tools start without it. Search: the option / $PASSFORGE_NVRTC alone when
// set, else the soname, $CUDA_HOME/lib64, /usr/local/cuda/lib64 and pip's
// CUDA wheels.
//
// Thread-safety: a loaded NvrtcLibrary is immutable; NVRTC itself allows
// concurrent compilation of different programs.
#pragma once

#include <nvrtc.h>

#include <memory>
#include <string>
#include <vector>

#include "common/result.h"

namespace pf::nvrtc {

#define PF_NVRTC_FUNCTIONS(X)  \
  X(nvrtcVersion)              \
  X(nvrtcGetErrorString)       \
  X(nvrtcGetNumSupportedArchs) \
  X(nvrtcGetSupportedArchs)    \
  X(nvrtcCreateProgram)        \
  X(nvrtcDestroyProgram)       \
  X(nvrtcCompileProgram)       \
  X(nvrtcGetProgramLogSize)    \
  X(nvrtcGetProgramLog)        \
  X(nvrtcGetCUBINSize)         \
  X(nvrtcGetCUBIN)             \
  X(nvrtcGetPTXSize)           \
  X(nvrtcGetPTX)

// Present since CUDA 12.8; without it a compile is bounded only by the
// worker's deadline (the process is killed).
#define PF_NVRTC_OPTIONAL_FUNCTIONS(X) X(nvrtcSetFlowCallback)

struct NvrtcFunctions {
#define PF_NVRTC_MEMBER(name) decltype(&::name) name = nullptr;
  PF_NVRTC_FUNCTIONS(PF_NVRTC_MEMBER)
  PF_NVRTC_OPTIONAL_FUNCTIONS(PF_NVRTC_MEMBER)
#undef PF_NVRTC_MEMBER
};

struct NvrtcLibraryOptions {
  std::string library;  // empty: $PASSFORGE_NVRTC, else the search above
};

class NvrtcLibrary {
 public:
  static Result<std::shared_ptr<const NvrtcLibrary>> load(const NvrtcLibraryOptions& options = {});

  const NvrtcFunctions& api() const { return fn_; }
  const std::string& path() const { return path_; }
  //! "13.0"
  const std::string& version() const { return version_; }
  //! Real architectures NVRTC can build a cubin for (75, 80, ..., 121).
  const std::vector<int>& supported_archs() const { return archs_; }
  //! ok for "sm_XY" that NVRTC supports; otherwise names the supported ones.
  Status check_arch(const std::string& arch) const;

  std::string error_string(nvrtcResult r) const;

 private:
  NvrtcLibrary() = default;
  NvrtcFunctions fn_;
  std::string path_;
  std::string version_;
  std::vector<int> archs_;
};

}  // namespace pf::nvrtc
