// Libraries loaded at run time (the CUDA driver, NVRTC, cuBLAS), so every
// binary starts on machines that lack them and says so. Loaded libraries stay
// loaded for the life of the process: unloading the driver or NVRTC while
// contexts, modules or threads they created may still exist is never safe.
#pragma once

#include <string>
#include <vector>

#include "common/result.h"

namespace pf::cuda {

class SharedLibrary {
 public:
  //! Opens the first candidate that loads. A candidate without '/' goes through
  //! the dynamic loader's search (LD_LIBRARY_PATH, ld.so.cache); one with '/'
  //! is opened as given. The not_found error names `what` and every attempt.
  static Result<SharedLibrary> open_first(const std::string& what,
                                          const std::vector<std::string>& candidates);

  //! The symbol's address, or nullptr when the library does not export it.
  void* symbol(const char* name) const;
  //! The file that was loaded (resolved by the loader when known).
  const std::string& path() const { return path_; }

 private:
  SharedLibrary(void* handle, std::string path) : handle_(handle), path_(std::move(path)) {}
  void* handle_ = nullptr;
  std::string path_;
};

//! Where to look for a CUDA toolkit library, in order: `override_value` alone
//! when non-empty (an option or environment variable chose it), else the
//! soname, $CUDA_HOME/lib64, $CUDA_PATH/lib64, /usr/local/cuda/lib64, and the
//! `wheel_subdirs` (e.g. "nvidia/cublas/lib") of Python site-packages
//! directories (virtualenv, conda, user and system), where pip installs CUDA.
std::vector<std::string> toolkit_library_candidates(const std::string& soname,
                                                    const std::string& override_value,
                                                    const std::vector<std::string>& wheel_subdirs);

//! The environment variable's value, or "" when unset.
std::string env_or_empty(const char* name);

}  // namespace pf::cuda
