// How a baseline kernel file becomes an NVRTC program. Each `.cu` file in
// evaluator/gpu/kernels/ is compiled once per dtype it lists, as one program:
//
//   // preamble: #define PF_DTYPE <tag>      (generated)
//   pf_abi.cuh, pf_common.cuh                  (always)
//   the headers named by `// pf-requires:`     (in order)
//   the .cu file itself
//
// The file's first lines declare its programs:
//   // pf-dtypes: float16 bfloat16 float32 float64
//   // pf-requires: elementwise.cuh
// Templates and per-op functors live inside the program; every kernel is
// `extern "C"` (the sandbox compiler's rule), so a kernel is found by
// (file, dtype, name). Pure functions: no NVRTC or device needed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "evaluator/core/dtype.h"

namespace pf::gpu {

struct KernelProgramInfo {
  std::string file;                  // "ew_arith.cu"
  std::vector<DType> dtypes;         // from `pf-dtypes:`
  std::vector<std::string> headers;  // from `pf-requires:`
};

//! The `.cu` files, sorted.
std::vector<std::string> kernel_program_files();

//! Parses the file's directives; errors name the file and the bad word.
Result<KernelProgramInfo> kernel_program_info(std::string_view file);

//! The program's full source for one dtype (which the file must list).
Result<std::string> kernel_program_source(std::string_view file, DType dtype);

//! The name NVRTC and the compile cache see: "kernels/ew_arith.float32.cu".
std::string kernel_program_name(std::string_view file, DType dtype);

}  // namespace pf::gpu
