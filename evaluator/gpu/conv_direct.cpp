#include "evaluator/gpu/conv_direct.h"

namespace pf::gpu {

std::string direct_conv_kernel(int kernel_h, int kernel_w, bool transposed) {
  if (transposed) return "pf_conv_transpose_direct";
  if (kernel_h == kernel_w && (kernel_h == 3 || kernel_h == 5 || kernel_h == 7)) {
    return "pf_conv_direct_k" + std::to_string(kernel_h);
  }
  return "pf_conv_direct";
}

std::string depthwise_row_kernel(int kernel_w, int stride_w, int dilation_w) {
  const bool width = kernel_w == 3 || kernel_w == 5 || kernel_w == 7;
  if (!width || (stride_w != 1 && stride_w != 2) || (dilation_w != 1 && dilation_w != 2)) {
    return "";
  }
  return "pf_conv_dw_k" + std::to_string(kernel_w) + "_s" + std::to_string(stride_w) +
         (dilation_w == 2 ? "_d2" : "");
}

}  // namespace pf::gpu
