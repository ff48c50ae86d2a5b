// Cases of the order statistics (gpu/ops_order_statistics.cpp): compositions
// of the sort kernel, gathers and elementwise ops. Integer sweeps draw from
// few values, so ties are common: both sides pick in one total order (ties
// by index). NaN enters through `x * float('nan')` where x is large, on
// some rows more than half the values, on others none.
#include "tests/unit/gpu/op_cases.h"

namespace pf::gpu::test {
namespace {

// x with NaN wherever it exceeds `above` (floating sweeps only).
std::string with_nan(const std::string& above) {
  return "x = torch.where(x > " + above + ", x * float('nan'), x)\n    ";
}

}  // namespace

void add_order_statistics_cases(std::vector<OpCase>& c) {
  c.push_back({"kthvalue",
               "x",
               "v, i = torch.kthvalue(x, 4, dim=1)\n    return (v, i)",
               {in({5, 37, 3})},
               kNum});
  c.push_back(
      {"kthvalue", "x", "v = x.kthvalue(1, 0, True)\n    return (v[0], v[1])", {in({9, 8})}, kNum});
  c.push_back({"kthvalue",
               "x",
               with_nan("1.0") + "v, i = torch.kthvalue(x, 20)\n    return (v, i)",
               {in({6, 33})},
               kFloat});
  c.push_back({"median_dim",
               "x",
               "v, i = torch.median(x, dim=-1)\n    return (v, i)",
               {in({7, 130})},
               kNum});
  c.push_back({"median_dim",
               "x",
               with_nan("1.2") + "v, i = x.median(0, keepdim=True)\n    return (v, i)",
               {in({40, 9})},
               kFloat});
  c.push_back({"median", "x", "torch.median(x)", {in({7, 30})}, kNum});
  c.push_back({"median", "x", with_nan("1.9") + "return x.median()", {in({5, 33})}, kFloat});
  c.push_back({"nanmedian_dim",
               "x",
               with_nan("0.0") + "v, i = torch.nanmedian(x, 1)\n    return (v, i)",
               {in({12, 17})},
               kFloat});
  c.push_back({"nanmedian_dim",
               "x",
               "v, i = torch.nanmedian(x, dim=0, keepdim=True)\n    return (v, i)",
               {in({10, 6})},
               kNum});
  c.push_back(
      {"nanmedian", "x", with_nan("0.5") + "return torch.nanmedian(x)", {in({4, 9})}, kFloat});
  c.push_back({"msort", "x", "torch.msort(x)", {in({31, 6})}, kAll});
  for (const char* mode : {"linear", "lower", "higher", "nearest", "midpoint"}) {
    const std::string m = mode;
    c.push_back({"quantile",
                 "x",
                 "torch.quantile(x, 0.7, dim=1, interpolation='" + m + "')",
                 {in({6, 11})},
                 {DType::float32, DType::float64}});
    c.push_back({"quantile",
                 "x",
                 with_nan("1.5") +
                     "return torch.quantile(x, torch.tensor([0.1, 0.5, 0.95], "
                     "dtype={T}), dim=0, keepdim=True, interpolation='" +
                     m + "')",
                 {in({23, 5})},
                 {DType::float32, DType::float64}});
    c.push_back({"nanquantile",
                 "x",
                 with_nan("0.3") +
                     "return torch.nanquantile(x, torch.tensor([0.0, 0.3, 1.0], "
                     "dtype={T}), dim=-1, interpolation='" +
                     m + "')",
                 {in({9, 14})},
                 {DType::float32, DType::float64}});
  }
  c.push_back(
      {"quantile", "x", "x.quantile(0.25)", {in({4, 5, 6})}, {DType::float32, DType::float64}});
  c.push_back({"nanquantile",
               "x",
               with_nan("1.0") + "return torch.nanquantile(x, 0.5, keepdim=True)",
               {in({8, 7})},
               {DType::float32, DType::float64}});
}

}  // namespace pf::gpu::test
