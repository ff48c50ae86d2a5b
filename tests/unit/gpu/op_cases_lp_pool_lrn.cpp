// Differential cases of F.lp_pool1d/2d and F.local_response_norm (GPU
// compositions, evaluator/gpu/ops_lp_pool_lrn.cpp).
#include <string>
#include <vector>

#include "tests/unit/gpu/op_cases.h"

namespace pf::gpu::test {

namespace {
const std::string F = "torch.nn.functional.";
}  // namespace

void add_lp_pool_lrn_cases(std::vector<OpCase>& c) {
  c.push_back({"lp_pool2d", "x", F + "lp_pool2d(x, 2.0, 3)", {in({2, 8, 17, 19}, 0.1, 2)}, kFloat});
  c.push_back({"lp_pool2d",
               "x",
               F + "lp_pool2d(x, 2, (2, 3), stride=(1, 2), ceil_mode=True)",
               {in({2, 8, 17, 19}, -2, 2)},
               kFloat});
  c.push_back({"lp_pool1d", "x", F + "lp_pool1d(x, 3, 4, 2)", {in({4, 16, 33}, 0.1, 2)}, kFloat});
  c.push_back(
      {"local_response_norm", "x", F + "local_response_norm(x, 5)", {in({2, 16, 9, 11})}, kFloat});
  c.push_back({"local_response_norm",
               "x",
               F + "local_response_norm(x, 4, alpha=0.01, beta=0.5, k=2.0)",
               {in({4, 16, 33})},
               kFloat});
  c.push_back(
      {"local_response_norm", "x", F + "local_response_norm(x, 3)", {in({2, 8, 3, 4, 5})}, kFloat});
}

}  // namespace pf::gpu::test
