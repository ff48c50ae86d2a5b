#include "sandbox/cuda/cuda_module.h"

#include <cstring>

namespace pf::cuda {

Result<FunctionAttributes> CudaFunction::attributes() const {
  const auto& fn = driver_->api();
  FunctionAttributes a;
  auto get = [&](CUfunction_attribute attr, const char* what) -> Result<int> {
    int v = 0;
    PF_TRY(driver_->check(fn.cuFuncGetAttribute(&v, attr, handle_),
                          std::string("cuFuncGetAttribute(") + what + ")"));
    return v;
  };
#define PF_FATTR(field, attr)           \
  {                                     \
    PF_ASSIGN(int v, get(attr, #attr)); \
    field = v;                          \
  }
  PF_FATTR(a.max_threads_per_block, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)
  PF_FATTR(a.registers, CU_FUNC_ATTRIBUTE_NUM_REGS)
  PF_FATTR(a.static_smem_bytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)
  PF_FATTR(a.local_bytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)
  PF_FATTR(a.const_bytes, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES)
  PF_FATTR(a.max_dynamic_smem_bytes, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
  PF_FATTR(a.ptx_version, CU_FUNC_ATTRIBUTE_PTX_VERSION)
  PF_FATTR(a.binary_version, CU_FUNC_ATTRIBUTE_BINARY_VERSION)
#undef PF_FATTR
  return a;
}

Status CudaFunction::set_max_dynamic_smem(int64_t bytes) const {
  return driver_->check(
      driver_->api().cuFuncSetAttribute(handle_, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                        static_cast<int>(bytes)),
      "cuFuncSetAttribute(" + name_ + ", MAX_DYNAMIC_SHARED_SIZE_BYTES=" + std::to_string(bytes) +
          ")");
}

Result<std::vector<KernelParam>> CudaFunction::param_layout() const {
  const auto& fn = driver_->api();
  if (fn.cuFuncGetParamInfo == nullptr) {
    return make_error(ErrorCode::unsupported,
                      "the CUDA driver lacks cuFuncGetParamInfo (CUDA 12.4 or newer)");
  }
  std::vector<KernelParam> params;
  // The index past the last parameter answers CUDA_ERROR_INVALID_VALUE; the
  // bound keeps a misbehaving driver from looping forever.
  for (size_t i = 0; i < 4096; ++i) {
    size_t offset = 0, size = 0;
    CUresult r = fn.cuFuncGetParamInfo(handle_, i, &offset, &size);
    if (r == CUDA_ERROR_INVALID_VALUE) return params;
    PF_TRY(driver_->check(r, "cuFuncGetParamInfo(" + name_ + ")"));
    KernelParam p;
    p.offset = offset;
    p.size = size;
    params.push_back(p);
  }
  return make_error(ErrorCode::internal, "cuFuncGetParamInfo(" + name_ + ") never ended");
}

Result<std::unique_ptr<CudaModule>> CudaModule::load(std::shared_ptr<const CudaDriver> driver,
                                                     std::string_view image) {
  std::unique_ptr<CudaModule> m(new CudaModule());
  m->driver_ = std::move(driver);
  // cuModuleLoadDataEx reads PTX as a NUL-terminated string; a cubin is an
  // ELF image. Either way the bytes must stay put during the call.
  std::string owned(image);
  char log[4096] = {};
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {log, reinterpret_cast<void*>(static_cast<uintptr_t>(sizeof(log) - 1))};
  CUresult r = m->driver_->api().cuModuleLoadDataEx(&m->module_, owned.c_str(), 2, opts, values);
  if (r != CUDA_SUCCESS) {
    m->module_ = nullptr;
    Error e = m->driver_->error(r, "cuModuleLoadDataEx");
    if (std::strlen(log) > 0) e.message += ": " + std::string(log);
    return e;
  }
  return m;
}

CudaModule::~CudaModule() {
  if (module_ != nullptr) driver_->api().cuModuleUnload(module_);
}

Result<CudaFunction> CudaModule::function(const std::string& name) const {
  CUfunction f = nullptr;
  CUresult r = driver_->api().cuModuleGetFunction(&f, module_, name.c_str());
  if (r == CUDA_ERROR_NOT_FOUND) {
    return make_error(ErrorCode::not_found,
                      "kernel '" + name +
                          "' is not in the module (kernels must be declared "
                          "extern \"C\" __global__ so their names are not mangled)");
  }
  PF_TRY(driver_->check(r, "cuModuleGetFunction(" + name + ")"));
  return CudaFunction(driver_, f, name);
}

}  // namespace pf::cuda
