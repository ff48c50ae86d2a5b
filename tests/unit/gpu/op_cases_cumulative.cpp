// Cases of cummax, cummin and logcumsumexp (gpu/ops_cumulative_extrema.cpp):
// scans by doubling, so rows of lengths that are not powers of two and long
// rows (many steps). Integer sweeps draw from few values and rounded floats
// repeat, so ties are common: both sides take the last index. NaN and
// infinities enter through `x * float('nan')` / `x * float('inf')`.
#include "tests/unit/gpu/op_cases.h"

namespace pf::gpu::test {

void add_cumulative_extrema_cases(std::vector<OpCase>& c) {
  for (const std::string op : {"cummax", "cummin"}) {
    c.push_back({op, "x", "v, i = torch." + op + "(x, 1)\n    return (v, i)", {in({6, 37})}, kAll});
    c.push_back({op,
                 "x",
                 "x = torch.round(x * 2)\n    v, i = x." + op + "(0)\n    return (v, i)",
                 {in({33, 5})},
                 kFloat});
    c.push_back({op,
                 "x",
                 "x = torch.where(x > 1.0, x * float('nan'), x)\n    v, i = torch." + op +
                     "(x, dim=-1)\n    return (v, i)",
                 {in({4, 300})},
                 kFloat});
    c.push_back({op,
                 "x",
                 "v, i = torch." + op + "(x, dim=1)\n    return (v, i)",
                 {in({3, 1000, 2}, -2, 2, -100, 100)},
                 kFloatAndLong});
  }
  c.push_back({"logcumsumexp", "x", "torch.logcumsumexp(x, 1)", {in({5, 129})}, kFloat});
  c.push_back({"logcumsumexp", "x", "x.logcumsumexp(0)", {in({9, 4, 3}, -30, 30)}, kFloat});
  c.push_back({"logcumsumexp",
               "x",
               "x = torch.where(x < -1.5, x * float('inf'), x)\n"
               "    x = torch.where(x > 1.8, x * float('nan'), x)\n"
               "    return torch.logcumsumexp(x, dim=-1)",
               {in({6, 40})},
               kFloat});
  c.push_back({"logcumsumexp", "x", "torch.logcumsumexp(x, -1)", {in({2, 4097})}, kFloat});
}

}  // namespace pf::gpu::test
