// Cases of the indexing writes composed of other GPU ops
// (gpu/ops_masked_scatter.cpp, gpu/ops_scatter_reduce.cpp,
// gpu/ops_index_put.cpp). index_put without accumulate writes positions the
// graph makes distinct (duplicates race on the GPU, as in PyTorch). masked_scatter
// sources hold at least as many elements as the output, so every true mask
// position has its element. scatter_reduce indices repeat (every reduction
// is order-independent up to float rounding) and stay in range.
#include "tests/unit/gpu/op_cases.h"

namespace pf::gpu::test {

void add_index_write_cases(std::vector<OpCase>& c) {
  c.push_back({"masked_scatter",
               "x, m, s",
               "torch.masked_scatter(x, m, s)",
               {in({37, 65}), typed('b', {37, 65}), in({65, 40})},
               kAll});
  c.push_back({"masked_scatter",
               "x, m, s",
               "x.masked_scatter(m, s)",
               {in({6, 9, 33}), typed('b', {9, 1}), in({2000})},
               kNum});
  c.push_back({"masked_scatter",
               "x, m, s",
               "torch.masked_scatter(x, m, s)",
               {in({129}), typed('b', {3, 129}), in({3, 129})},
               kFloat});
  c.push_back({"index_put",
               "x, i, v",
               "torch.index_put(x, (i,), v, accumulate=True)",
               {in({37, 65}), typed('l', {50}, 0, 0, -37, 36), in({50, 65})},
               kNum});
  c.push_back({"index_put",
               "x, v",
               "x.index_put((torch.arange(6) % 4, (torch.arange(6) * 5) % 13), v)",
               {in({4, 13, 3}), in({6, 3})},
               kAll});
  c.push_back({"index_put",
               "x, v",
               "torch.index_put(x, (None, torch.arange(3) * 2 - 5, torch.tensor([[1], [0]])), v)",
               {in({2, 7, 3, 5}), in({2, 1, 5})},
               kNum});
  c.push_back({"index_put",
               "x, i, v",
               "torch.index_put(x, (i, None, i), v, accumulate=True)",
               {in({6, 5, 6}), typed('l', {4, 3}, 0, 0, 0, 5), in({5})},
               kFloat});
  // Item assignment lowered onto index_put (distinct positions) and a mask
  // with a value over the dims after the mask's (where).
  c.push_back({"index_put",
               "x, v",
               "i = torch.arange(5) - 2\n    j = (torch.arange(5) * 2) % 7\n    x[:, i, j] = v\n"
               "    return (x,)",
               {in({3, 5, 7}), in({3, 1})},
               kAll});
  c.push_back({"setitem",
               "x, m, v",
               "x[m] = v\n    return (x,)",
               {in({37, 65, 3}), typed('b', {37, 65}), typed('f', {3})},
               kAll});
  c.push_back({"setitem",
               "x, m, v",
               "x[m] = v\n    return (x,)",
               {in({6, 40}), typed('b', {6}), in({1, 40})},
               kNum});
  c.push_back({"setitem",
               "x, v",
               "x[:, [5, 0, -1, 2]] = v\n    return (x,)",
               {in({9, 20, 3}), in({4, 1})},
               kAll});
  for (const char* reduce : {"sum", "prod", "mean", "amax", "amin"}) {
    const std::string r = reduce;
    // prod draws values near 1 so that products of repeats stay in range.
    const double lo = r == "prod" ? 0.5 : -2, hi = r == "prod" ? 1.5 : 2;
    c.push_back({"scatter_reduce",
                 "x, i, s",
                 "torch.scatter_reduce(x, 1, i, s, '" + r + "')",
                 {in({9, 13}, lo, hi), typed('l', {9, 20}, 0, 0, 0, 12), in({9, 21}, lo, hi, 1, 2)},
                 kNum});
    c.push_back(
        {"scatter_reduce",
         "x, i, s",
         "x.scatter_reduce(0, i, s, '" + r + "', include_self=False)",
         {in({7, 5, 3}, lo, hi), typed('l', {11, 4, 3}, 0, 0, 0, 6), in({11, 5, 3}, lo, hi, 1, 2)},
         kNum});
  }
  c.push_back({"scatter_reduce",
               "x, i, s",
               "s = torch.where(s > 1.5, s * float('nan'), s)\n    "
               "return torch.scatter_reduce(x, -1, i, s, 'amax')",
               {in({6, 40}), typed('l', {6, 50}, 0, 0, 0, 39), in({6, 50})},
               kFloat});
}

}  // namespace pf::gpu::test
