// Which nodes the plan computes on the host (graph_plan.h host_nodes): the
// 0-d values PyTorch eager keeps on the CPU, and nothing a CUDA tensor feeds.
#include <gtest/gtest.h>

#include "evaluator/dialect/graph_builder.h"
#include "evaluator/gpu/graph_plan.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/type_inference.h"

namespace pf::gpu {
namespace {

// The host flag of each node of `body` (a function of `params` typed `types`).
std::vector<bool> flags(const std::string& params, const std::string& body,
                        const std::vector<TensorType>& types) {
  const std::string src = "import torch\n\ndef f(" + params + "):\n" + body;
  auto g = dialect::load_graph(src, "host.py", OpRegistry::builtin(), "f");
  EXPECT_TRUE(g.ok()) << g.error().message;
  if (!g.ok()) return {};
  Status st = infer_types(*g, types, OpRegistry::builtin());
  EXPECT_TRUE(st.ok()) << st.error().message;
  return host_nodes(*g);
}

const TensorType kMatrix{DType::float32, {12, 12}};

// transformers' inverted attention mask: (1.0 - mask).masked_fill(...).
TEST(HostNodes, ALiteralFactoryIsComputedOnTheHostItsCudaUsersAreNot) {
  auto f = flags("x",
                 "    a = torch.tensor(1.0, dtype=torch.float32)\n"
                 "    b = a - x\n"
                 "    return b.masked_fill(b.to(torch.bool), -3.0)\n",
                 {kMatrix});
  EXPECT_EQ(f, (std::vector<bool>{true, false, false, false}));
}

// deberta's scale: sqrt(tensor(64) * 3) then a dtype-preserving to().
TEST(HostNodes, ArithmeticOnHostValuesStaysOnTheHost) {
  auto f = flags("x",
                 "    t = torch.tensor(64, dtype=torch.float32)\n"
                 "    u = t * 3\n"
                 "    s = torch.sqrt(u)\n"
                 "    v = s.to(dtype=torch.float32)\n"
                 "    return x.transpose(-1, -2) / v\n",
                 {kMatrix});
  EXPECT_EQ(f, (std::vector<bool>{true, true, true, true, false, false}));
}

TEST(HostNodes, GraphOutputsInputsAndLargerFactoriesStayOnTheGpu) {
  // A returned host value is produced by the plan's run.
  EXPECT_EQ(flags("x", "    return torch.tensor(2.0) * 3, x\n", {kMatrix}),
            (std::vector<bool>{true, false}));
  // A 0-d graph input is a CUDA tensor.
  EXPECT_EQ(flags("x, s", "    return x / (s * 2)\n", {kMatrix, {DType::float32, {}}}),
            (std::vector<bool>{false, false}));
  // Only 0-d CPU tensors can meet CUDA tensors.
  EXPECT_EQ(flags("x", "    return torch.tensor([1.0, 2.0]) + x\n", {{DType::float32, {3, 2}}}),
            (std::vector<bool>{false, false}));
}

}  // namespace
}  // namespace pf::gpu
