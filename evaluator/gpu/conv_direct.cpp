#include "evaluator/gpu/conv_direct.h"

namespace pf::gpu {

std::string direct_conv_kernel(int kernel_h, int kernel_w, bool transposed) {
  if (transposed) return "pf_conv_transpose_direct";
  if (kernel_h == kernel_w && (kernel_h == 3 || kernel_h == 5 || kernel_h == 7)) {
    return "pf_conv_direct_k" + std::to_string(kernel_h);
  }
  return "pf_conv_direct";
}

}  // namespace pf::gpu
