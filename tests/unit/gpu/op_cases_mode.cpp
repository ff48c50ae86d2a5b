// Cases of torch.mode (gpu/ops_mode.cpp): the sort kernel, run lengths by
// cummax, argmax and gathers. Integer sweeps draw from few values and
// rounded floats repeat, so equally frequent values (the smallest wins) and
// ties (the last index) are common; NaN, each its own value, enters through
// `x * float('nan')`.
#include "tests/unit/gpu/op_cases.h"

namespace pf::gpu::test {

void add_mode_cases(std::vector<OpCase>& c) {
  c.push_back({"mode", "x", "v, i = torch.mode(x)\n    return (v, i)", {in({7, 23})}, kAll});
  c.push_back({"mode",
               "x",
               "x = torch.round(x * 2)\n    v, i = x.mode(0, True)\n    return (v, i)",
               {in({41, 6})},
               kFloat});
  c.push_back({"mode",
               "x",
               "x = torch.where(x > 0.5, x * float('nan'), torch.round(x))\n"
               "    v, i = torch.mode(x, dim=1)\n    return (v, i)",
               {in({5, 30})},
               kFloat});
  c.push_back({"mode",
               "x",
               "v, i = torch.mode(x, dim=-1, keepdim=False)\n    return (v, i)",
               {in({3, 1000}, -2, 2, -40, 40)},
               kFloatAndLong});
  c.push_back({"mode", "x", "v, i = torch.mode(x, 0)\n    return (v, i)", {in({1, 5})}, kNum});
}

}  // namespace pf::gpu::test
