// A kernel's parameter layout: offset and size of each parameter in the
// parameter buffer (from cuFuncGetParamInfo on a device, or from the cubin's
// .nv.info section without one), and, where the source declaration was
// understood, its kind and name. Marshalling launch arguments checks against it.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace pf::cuda {

enum class ParamKind {
  unknown,   // the source declaration was not understood: only the size is known
  pointer,   // T* / const T* (a tensor)
  integer,   // bool, char, short, int, long, size_t, int64_t, ...
  floating,  // float, double
  other,     // a struct, __half, __nv_bfloat16, ...: cannot be passed from a launch
};

const char* param_kind_name(ParamKind kind);

struct KernelParam {
  size_t offset = 0;
  size_t size = 0;
  ParamKind kind = ParamKind::unknown;
  bool is_unsigned = false;  // integer kinds
  std::string name;          // from the source; "" when unknown
  std::string type;          // from the source, e.g. "const float *"; "" when unknown

  nlohmann::json to_json() const;
  static KernelParam from_json(const nlohmann::json& j);
  bool operator==(const KernelParam&) const = default;
};

struct KernelInfo {
  std::string name;
  std::vector<KernelParam> params;
  int registers = -1;  // per thread; -1 when unknown
  long long static_smem_bytes = -1;
  long long local_bytes = -1;  // stack frame per thread
  std::string file;            // the workspace file that defines it

  nlohmann::json to_json() const;
  static KernelInfo from_json(const nlohmann::json& j);
};

//! "(const float* x, int n)" style summary: "x: pointer@0+8, n: integer@8+4".
std::string describe_params(const std::vector<KernelParam>& params);

}  // namespace pf::cuda
