// Cases of torch.histc (gpu/ops_histc.cpp): the data's range (default bins),
// literal ranges with values outside them, values on exactly computed edges
// (rounded halves against integer edges, the last bin closed) and NaN, which
// PyTorch's CPU counts in the first bin.
#include "tests/unit/gpu/op_cases.h"

namespace pf::gpu::test {

void add_histc_cases(std::vector<OpCase>& c) {
  // As PyTorch's CPU histc: float32 and float64 only.
  const std::vector<DType> floats = {DType::float32, DType::float64};
  c.push_back({"histc", "x", "x.histc()", {in({3, 4, 40})}, floats});
  c.push_back({"histc", "x", "torch.histc(x, bins=10)", {in({6, 50}, -3, 5)}, floats});
  c.push_back({"histc", "x", "torch.histc(x, 7, -1, 1.5)", {in({9, 31})}, floats});
  c.push_back({"histc",
               "x",
               "x = torch.round(x * 2)\n    return torch.histc(x, 8, -4, 4)",
               {in({5, 60})},
               floats});
  c.push_back({"histc",
               "x",
               "x = torch.where(x > 1.5, x * float('nan'), x)\n"
               "    return torch.histc(x, bins=5, min=-2, max=2)",
               {in({4, 45})},
               floats});
}

}  // namespace pf::gpu::test
