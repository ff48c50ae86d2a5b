// Which direct convolution kernel (kernels/conv.cu) runs a convolution:
// square 3x3, 5x5 and 7x7 kernels have instantiations whose tap loops
// unroll (PyTorch's depthwise kernel is instantiated per size the same
// way); every other size runs the generic kernel. 2-d depthwise
// convolutions whose width geometry has a row-blocked instantiation run
// that instead. Pure (unit-tested).
#pragma once

#include <string>

namespace pf::gpu {

std::string direct_conv_kernel(int kernel_h, int kernel_w, bool transposed);

//! The row-blocked kernel of a 2-d convolution with one input channel per
//! group (pf_conv_dw_k<K>_s<S>[_d2]: kernel width 3, 5 or 7, width stride 1
//! or 2, width dilation 1 or 2; any height geometry), or "" when none fits.
std::string depthwise_row_kernel(int kernel_w, int stride_w, int dilation_w);

}  // namespace pf::gpu
