// Reads the kernels of a cubin (an NVIDIA ELF image) without a GPU: entry
// functions from the symbol table (STO_CUDA_ENTRY), each parameter's offset
// and size from the EIATTR_KPARAM_INFO records of its .nv.info.<kernel>
// section (what cuFuncGetParamInfo reports on a device), registers and stack
// frame from .nv.info, static shared memory from the size of .nv.shared.<kernel>
// (on sm_90 that section also holds 1 KiB the system reserves per block; the
// driver's CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES is authoritative on a device).
// Every read is bounds-checked: a damaged image is an error, never a crash.
#pragma once

#include <string_view>
#include <vector>

#include "common/result.h"
#include "sandbox/cuda/kernel_params.h"

namespace pf::nvrtc {

//! Kernels in symbol-table order, parameters in ordinal order (kinds unknown).
Result<std::vector<cuda::KernelInfo>> read_cubin_kernels(std::string_view image);

}  // namespace pf::nvrtc
