// Differential cases of F.bilinear, torch.diag_embed and torch.block_diag (GPU
// compositions, evaluator/gpu/ops_diag_blocks.cpp).
#include <string>
#include <vector>

#include "tests/unit/gpu/op_cases.h"

namespace pf::gpu::test {

void add_diag_block_cases(std::vector<OpCase>& c) {
  c.push_back({"bilinear",
               "x, y, w, b",
               "torch.nn.functional.bilinear(x, y, w, b)",
               {in({3, 33, 20}), in({3, 33, 12}), in({17, 20, 12}), in({17})},
               kFloat});
  c.push_back({"bilinear",
               "x, y, w",
               "torch.nn.functional.bilinear(x, y, w)",
               {in({65, 9}), in({65, 9}), in({5, 9, 9})},
               kFloat});
  c.push_back({"diag_embed", "x", "torch.diag_embed(x)", {in({5, 33})}, kAll});
  c.push_back({"diag_embed", "x", "torch.diag_embed(x, 2, 0, 2)", {in({5, 33})}, kAll});
  c.push_back({"diag_embed", "x", "torch.diag_embed(x, -3, 2, 1)", {in({4, 5, 9})}, kNum});
  c.push_back({"block_diag",
               "x, y, z",
               "torch.block_diag(x, y, z)",
               {in({33, 17}), in({40}), in({5, 65})},
               kAll});
  c.push_back(
      {"block_diag", "x, y", "torch.block_diag(x, y)", {in({9, 7}), typed('f', {3, 4})}, kNum});
}

}  // namespace pf::gpu::test
