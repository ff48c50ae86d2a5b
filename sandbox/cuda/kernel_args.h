// Launch arguments marshalled into a kernel's parameter buffer, driven by its
// parameter layout (kernel_params.h): a tensor becomes an 8-byte device
// pointer; an integer is stored as an integer of the parameter's size (range
// checked), a float as float or double by size; an integer passed to a
// parameter declared floating is converted as C would. Any count, size or
// kind mismatch is an invalid_argument error an LLM can act on, e.g.
// "kernel 'k' takes 4 parameters, launch passes 3".
#pragma once

#include <cuda.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "sandbox/cuda/kernel_params.h"

namespace pf::cuda {

struct KernelArg {
  enum class Kind { tensor, integer, floating };
  Kind kind = Kind::integer;
  CUdeviceptr pointer = 0;
  int64_t integer = 0;
  double floating = 0;

  static KernelArg tensor(CUdeviceptr p) { return {Kind::tensor, p, 0, 0}; }
  static KernelArg of_int(int64_t v) { return {Kind::integer, 0, v, 0}; }
  static KernelArg of_float(double v) { return {Kind::floating, 0, 0, v}; }
  //! "a tensor (8-byte pointer)", "integer 5", "float 0.5"
  std::string describe() const;
};

//! The parameter buffer of one launch; its pointers stay valid while it lives
//! (moving it keeps them valid: they point into heap storage).
class ArgPack {
 public:
  //! One pointer per parameter, into the buffer: cuLaunchKernel's kernelParams.
  void** kernel_params() { return pointers_.empty() ? nullptr : pointers_.data(); }
  //! The packed bytes, laid out at the parameters' offsets.
  const unsigned char* bytes() const {
    return reinterpret_cast<const unsigned char*>(storage_.data());
  }
  size_t size() const { return size_; }

 private:
  friend Result<ArgPack> marshal_kernel_args(std::string_view, const std::vector<KernelParam>&,
                                             const std::vector<KernelArg>&);
  std::vector<uint64_t> storage_;  // 8-byte aligned backing store
  std::vector<void*> pointers_;
  size_t size_ = 0;
};

Result<ArgPack> marshal_kernel_args(std::string_view kernel, const std::vector<KernelParam>& params,
                                    const std::vector<KernelArg>& args);

}  // namespace pf::cuda
