// A loaded module (one cubin) and the kernels in it. The module must outlive
// the functions taken from it; both need the context current.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "sandbox/cuda/cuda_driver.h"
#include "sandbox/cuda/kernel_params.h"

namespace pf::cuda {

struct FunctionAttributes {
  int max_threads_per_block = 0;
  int registers = 0;
  int64_t static_smem_bytes = 0;
  int64_t local_bytes = 0;
  int64_t const_bytes = 0;
  int64_t max_dynamic_smem_bytes = 0;  // the current opt-in level
  int ptx_version = 0;
  int binary_version = 0;
};

class CudaFunction {
 public:
  CudaFunction(std::shared_ptr<const CudaDriver> driver, CUfunction handle, std::string name)
      : driver_(std::move(driver)), handle_(handle), name_(std::move(name)) {}

  const std::string& name() const { return name_; }
  CUfunction handle() const { return handle_; }
  const CudaDriver& driver() const { return *driver_; }

  Result<FunctionAttributes> attributes() const;
  //! Raises CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES (the opt-in).
  Status set_max_dynamic_smem(int64_t bytes) const;
  //! Offsets and sizes from cuFuncGetParamInfo (kinds unknown). `unsupported`
  //! when the driver predates CUDA 12.4; callers then use the cubin's layout.
  Result<std::vector<KernelParam>> param_layout() const;

 private:
  std::shared_ptr<const CudaDriver> driver_;
  CUfunction handle_ = nullptr;
  std::string name_;
};

class CudaModule {
 public:
  //! Loads a cubin (or PTX) image; the JIT/loader log is part of the error.
  static Result<std::unique_ptr<CudaModule>> load(std::shared_ptr<const CudaDriver> driver,
                                                  std::string_view image);
  ~CudaModule();
  CudaModule(const CudaModule&) = delete;
  CudaModule& operator=(const CudaModule&) = delete;

  //! not_found names the kernel; an extern "C" declaration is the usual fix.
  Result<CudaFunction> function(const std::string& name) const;

 private:
  CudaModule() = default;
  std::shared_ptr<const CudaDriver> driver_;
  CUmodule module_ = nullptr;
};

}  // namespace pf::cuda
