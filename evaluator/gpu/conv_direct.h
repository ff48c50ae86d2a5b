// Which direct convolution kernel (kernels/conv.cu) runs a convolution:
// square 3x3, 5x5 and 7x7 kernels have instantiations whose tap loops
// unroll (PyTorch's depthwise kernel is instantiated per size the same
// way); every other size runs the generic kernel. Pure (unit-tested).
#pragma once

#include <string>

namespace pf::gpu {

std::string direct_conv_kernel(int kernel_h, int kernel_w, bool transposed);

}  // namespace pf::gpu
