// Cases of F.grid_sample (gpu/ops_grid_sample.cpp, kernels/grid_sample.cu):
// every mode, padding and align_corners, grids reaching past [-1, 1] so the
// padding modes decide, odd sizes and several channels per thread.
#include "tests/unit/gpu/op_cases.h"

namespace pf::gpu::test {

void add_grid_sample_cases(std::vector<OpCase>& c) {
  const std::string gs = "torch.nn.functional.grid_sample";
  for (const char* mode : {"bilinear", "nearest"}) {
    for (const char* padding : {"zeros", "border", "reflection"}) {
      for (const char* align : {"False", "True"}) {
        c.push_back({"grid_sample",
                     "x, g",
                     gs + "(x, g, mode='" + mode + "', padding_mode='" + padding +
                         "', align_corners=" + align + ")",
                     {in({2, 5, 9, 13}), in({2, 7, 11, 2}, -1.3, 1.3)},
                     kFloat});
      }
    }
  }
  // A grid far outside (reflection folds it several times) and the default
  // align_corners; one input pixel wide.
  c.push_back({"grid_sample",
               "x, g",
               gs + "(x, g, padding_mode='reflection')",
               {in({1, 3, 6, 1}), in({1, 17, 5, 2}, -5, 5)},
               kFloat});
  c.push_back(
      {"grid_sample", "x, g", gs + "(x, g)", {in({3, 16, 20, 24}), in({3, 31, 33, 2})}, kFloat});
}

}  // namespace pf::gpu::test
