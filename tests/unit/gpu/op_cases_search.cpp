// Differential cases of torch.bucketize / torch.searchsorted (boundaries
// sorted inside the case, as the importer requires of real graphs),
// torch.isin and torch.angle (GPU compositions, evaluator/gpu/ops_search.cpp).
#include <vector>

#include "tests/unit/gpu/op_cases.h"

namespace pf::gpu::test {

void add_search_cases(std::vector<OpCase>& c) {
  c.push_back({"bucketize",
               "x, b",
               "s = torch.sort(b)\n    return torch.bucketize(x, s[0])",
               {in({33, 65}), in({17})},
               kNum});
  c.push_back({"bucketize",
               "x, b",
               "s = torch.sort(b)\n    return torch.bucketize(x, s[0], right=True, out_int32=True)",
               {in({33, 65}, -2, 2, -5, 5), in({9}, -2, 2, -5, 5)},
               kNum});
  c.push_back({"searchsorted",
               "s, x",
               "v = torch.sort(s, -1)\n    return torch.searchsorted(v[0], x)",
               {in({4, 7, 17}), in({4, 7, 33})},
               kNum});
  c.push_back({"searchsorted",
               "s, x",
               "v = torch.sort(s)\n    return torch.searchsorted(v[0], x, side='right')",
               {in({40}, -2, 2, -5, 5), in({5, 66}, -2, 2, -5, 5)},
               kNum});
  c.push_back({"isin", "x, t", "torch.isin(x, t)", {in({33, 65}), in({7})}, kInt});
  c.push_back({"isin",
               "x, t",
               "torch.isin(x, t, invert=True)",
               {in({33, 65}, -2, 2, -9, 9), in({3, 4}, -2, 2, -9, 9)},
               kNum});
  c.push_back({"angle", "x", "torch.angle(x)", {in({33, 65})}, kAll});
}

}  // namespace pf::gpu::test
