// Rewriting: replacement calls in place of matches, typed and in program
// order, passes in order, diagnostics for passes that match nothing, and the
// rendered closest-attempt text.
#include "evaluator/passes/rewriter.h"

#include <gtest/gtest.h>

#include "evaluator/dialect/printer.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/passes/match_diagnostics.h"
#include "tests/unit/passes/pass_test_util.h"

namespace pf::passes::test {
namespace {

const OpRegistry& reg() {
  return OpRegistry::builtin();
}
const TensorType kF32{DType::float32, {2, 8}};

LoadedPass loaded(const std::string& source, const std::string& name = "Fuse") {
  auto p = pass_from(source, name);
  EXPECT_TRUE(p.ok()) << p.error().message;
  return p.ok() ? *p : LoadedPass{};
}

std::string print(const Graph& g) {
  return dialect::print_graph(g, reg());
}

TEST(Rewriter, OneCallPerMatchKeepsTypesAndNames) {
  Graph g = typed_graph(
      "def forward(in_0, in_1):\n"
      "    t = torch.sigmoid(in_0)\n"
      "    u = t * in_1\n"
      "    v = torch.relu(u)\n"
      "    return (v,)\n",
      {kF32, kF32});
  LoadedPass p = loaded(
      "def pattern(x, y):\n    return torch.sigmoid(x) * y\n"
      "def replacement(x, y):\n    return torch.empty_like(x)\n");
  RewriteResult r = apply_passes(g, {p}, reg());
  EXPECT_EQ(r.total_matches(), 1);
  EXPECT_EQ(print(r.graph),
            "def forward(in_0, in_1):\n"
            "    u = pass.Fuse(in_0, in_1)\n"
            "    v = torch.relu(u)\n"
            "    return (v,)\n");
  EXPECT_EQ(call_nodes(r.graph), (std::vector<int>{0}));
  for (const auto& v : r.graph.values) {
    ASSERT_EQ(v.types.size(), 1u) << v.name;
    EXPECT_EQ(v.types[0], kF32) << v.name;
  }
  EXPECT_EQ(r.graph.values[r.graph.nodes[0].output].producer, 0);
}

TEST(Rewriter, LiteralsBecomeCallArguments) {
  Graph g = typed_graph(
      "def forward(in_0):\n    t = in_0.view(4, 4)\n    u = torch.relu(t)\n    return (u,)\n",
      {kF32});
  LoadedPass p = loaded(
      "def pattern(x, a, b):\n    return torch.relu(x.view(a, b))\n"
      "def replacement(x, a, b):\n    return torch.empty((a, b))\n");
  RewriteResult r = apply_passes(g, {p}, reg());
  EXPECT_EQ(print(r.graph), "def forward(in_0):\n    u = pass.Fuse(in_0, 4, 4)\n    return (u,)\n");
}

TEST(Rewriter, MultiOutputCallsGiveTupleGets) {
  Graph g = typed_graph(
      "def forward(in_0, in_1):\n"
      "    t = torch.sigmoid(in_0)\n"
      "    u = torch.relu(t)\n"
      "    v = t + in_1\n"
      "    return (u, v)\n",
      {kF32, kF32});
  LoadedPass p = loaded(
      "def pattern(x):\n    t = torch.sigmoid(x)\n    return (t, torch.relu(t))\n"
      "def replacement(x):\n    return (torch.empty_like(x), torch.empty_like(x))\n");
  RewriteResult r = apply_passes(g, {p}, reg());
  EXPECT_EQ(print(r.graph),
            "def forward(in_0, in_1):\n"
            "    Fuse_out = pass.Fuse(in_0)\n"
            "    t = Fuse_out[0]\n"
            "    u = Fuse_out[1]\n"
            "    v = torch.add(t, in_1)\n"
            "    return (u, v)\n");
  const Value& list = r.graph.values[r.graph.nodes[0].output];
  EXPECT_TRUE(list.is_list);
  EXPECT_EQ(list.types, (std::vector<TensorType>{kF32, kF32}));
}

TEST(Rewriter, NodesDependingOnAnEarlyOutputMoveAfterTheCall) {
  // The pattern returns t and u; w uses t and sits between them: after the
  // rewrite it must come after the call that now produces t.
  Graph g = typed_graph(
      "def forward(in_0, in_1):\n"
      "    t = torch.sigmoid(in_0)\n"
      "    w = torch.exp(t)\n"
      "    k = torch.tanh(in_1)\n"
      "    u = torch.relu(t) + k\n"
      "    return (u, w)\n",
      {kF32, kF32});
  LoadedPass p = loaded(
      "def pattern(x, y):\n    t = torch.sigmoid(x)\n    return (t, torch.relu(t) + y)\n"
      "def replacement(x, y):\n    return (torch.empty_like(x), torch.empty_like(x))\n");
  RewriteResult r = apply_passes(g, {p}, reg());
  ASSERT_EQ(r.total_matches(), 1);
  EXPECT_EQ(print(r.graph),
            "def forward(in_0, in_1):\n"
            "    k = torch.tanh(in_1)\n"
            "    Fuse_out = pass.Fuse(in_0, k)\n"
            "    t = Fuse_out[0]\n"
            "    u = Fuse_out[1]\n"
            "    w = torch.exp(t)\n"
            "    return (u, w)\n");
}

TEST(Rewriter, PassesApplyInOrderAndSeeEarlierRewrites) {
  Graph g = typed_graph(
      "def forward(in_0):\n"
      "    a = torch.relu(in_0)\n"
      "    b = torch.sigmoid(a)\n"
      "    c = torch.tanh(b)\n"
      "    return (c,)\n",
      {kF32});
  LoadedPass first = loaded(
      "def pattern(x):\n    return torch.sigmoid(torch.relu(x))\n"
      "def replacement(x):\n    return torch.empty_like(x)\n",
      "A");
  LoadedPass second = loaded(
      "def pattern(x):\n    return torch.tanh(torch.sigmoid(x))\n"
      "def replacement(x):\n    return torch.empty_like(x)\n",
      "B");
  RewriteResult r = apply_passes(g, {first, second}, reg());
  ASSERT_EQ(r.passes.size(), 2u);
  EXPECT_EQ(r.passes[0].matches, 1);
  EXPECT_EQ(r.passes[1].matches, 0);
  EXPECT_EQ(print(r.graph),
            "def forward(in_0):\n    b = pass.A(in_0)\n    c = torch.tanh(b)\n    return (c,)\n");
  EXPECT_EQ(r.passes[1].diagnostics,
            "B (passes/B.py) does not match: closest attempt matched 1 of 2 pattern nodes\n"
            "  pattern line 2: t1 = torch.tanh(t0)   ~ line 4: c = torch.tanh(b)\n"
            "  failed at pattern line 2: t0 = torch.sigmoid(x)\n"
            "    vs line 3: b = pass.A(in_0)\n"
            "    expected op 'sigmoid', found 'pass.A'");
}

TEST(Diagnostics, OpMismatchShowsBothStatements) {
  Graph g = typed_graph(
      "def forward(in_0, in_1, in_2):\n"
      "    tmp_0 = in_0 - in_1\n"
      "    tmp_1 = torch.cat((tmp_0, in_1), dim=-1)\n"
      "    tmp_2 = tmp_1 * in_2\n"
      "    return (tmp_2,)\n",
      {kF32, kF32, TensorType{DType::float32, {2, 16}}});
  LoadedPass p = loaded(
      "def pattern(a, b, c):\n"
      "    t0 = -a\n"
      "    t1 = torch.cat((t0, b), dim=-1)\n"
      "    return t1 * c\n"
      "def replacement(a, b, c):\n    return torch.empty_like(c)\n");
  RewriteResult r = apply_passes(g, {p}, reg());
  EXPECT_EQ(r.total_matches(), 0);
  EXPECT_EQ(r.passes[0].diagnostics,
            "Fuse (passes/Fuse.py) does not match: closest attempt matched 2 of 3 pattern nodes\n"
            "  pattern line 4: t2 = torch.mul(t1, c)   ~ line 4: tmp_2 = torch.mul(tmp_1, in_2)\n"
            "  pattern line 3: t1 = torch.cat([t0, b], dim=-1)   ~ line 3: tmp_1 = "
            "torch.cat([tmp_0, in_1], dim=-1)\n"
            "  failed at pattern line 2: t0 = torch.neg(a)\n"
            "    vs line 2: tmp_0 = torch.sub(in_0, in_1)\n"
            "    expected op 'neg', found 'sub'");
}

TEST(Diagnostics, NodeStatements) {
  Graph g = typed_graph(
      "def forward(in_0):\n    t = torch.softmax(in_0 + 1, dim=-1)\n    return (t,)\n", {kF32});
  EXPECT_EQ(node_statement(g, 0, reg()), "t0 = torch.add(in_0, 1)");
  EXPECT_EQ(node_with_line(g, 1, reg()), "line 2: t = torch.softmax(t0, dim=-1)");
}

}  // namespace
}  // namespace pf::passes::test
