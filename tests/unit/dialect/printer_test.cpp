#include "evaluator/dialect/printer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "evaluator/dialect/graph_builder.h"
#include "evaluator/ops/op_registry.h"
#include "tests/unit/dialect/test_registry.h"

namespace pf::dialect {
namespace {

const OpRegistry& reg() {
  return testing::dialect_test_registry();
}

Graph build(const std::string& src) {
  auto r = load_graph(src, "p.py", reg(), "f");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : Graph{};
}

void expect_round_trip(const Graph& g) {
  std::string text = print_graph(g, reg());
  auto again = load_graph(text, "printed.py", reg(), g.name.empty() ? "forward" : g.name);
  ASSERT_TRUE(again.ok()) << again.error().message << "\n" << text;
  EXPECT_TRUE(*again == g) << text;
}

// A graph as another module (a pass rewriter) might build it: names reused
// while the earlier value is still needed, empty and reserved names.
Graph handmade() {
  Graph g;
  g.name = "f";
  ValueId x = g.add_value("x", false, -1);
  ValueId torch_in = g.add_value("torch", false, -1);
  g.inputs = {x, torch_in};
  auto node = [&](const std::string& op, std::vector<Arg> args, const std::string& name) {
    Node n;
    n.op = op;
    n.args = std::move(args);
    n.output = g.add_value(name, false, static_cast<int>(g.nodes.size()));
    g.nodes.push_back(n);
    return n.output;
  };
  ValueId a1 = node("neg", {Arg::make_value(x)}, "a");
  ValueId a2 = node("neg", {Arg::make_value(torch_in)}, "a");
  ValueId s = node("add", {Arg::make_value(a1), Arg::make_value(a2), Arg::make_int(1)}, "");
  g.outputs = {s};
  return g;
}

TEST(Printer, RenamesOnlyWhatWouldBeAmbiguous) {
  Graph g = handmade();
  EXPECT_EQ(
      print_graph(g, reg()),
      "def f(x, torch_1):\n    a = -x\n    a_1 = -torch_1\n    v_1 = a + a_1\n    return (v_1,)\n");
  // The printed code means the same graph (up to the names that had to change).
  auto again = load_graph(print_graph(g, reg()), "printed.py", reg(), "f");
  ASSERT_TRUE(again.ok()) << again.error().message;
  ASSERT_EQ(again->nodes.size(), 3u);
  EXPECT_EQ(again->nodes[2].args[0], Arg::make_value(again->nodes[0].output));
  EXPECT_EQ(again->nodes[2].args[1], Arg::make_value(again->nodes[1].output));
}

TEST(Printer, TypeCommentsAndInputHeader) {
  Graph g = build(
      "def f(x, y):\n    s = torch.functional.split(x, [1, 1])\n    z = s[0] + y\n    return z\n");
  TensorType t{DType::float16, {2, 3}};
  TensorType h{DType::float16, {1, 3}};
  g.values[g.inputs[0]].types = {t};
  g.values[g.inputs[1]].types = {h};
  g.values[g.nodes[0].output].types = {h, h};
  g.values[g.nodes[1].output].types = {h};
  g.values[g.nodes[2].output].types = {h};
  PrintOptions o;
  o.type_comments = true;
  o.input_header = true;
  o.function_name = "forward";
  EXPECT_EQ(print_graph(g, reg(), o),
            "# x: float16[2, 3]\n# y: float16[1, 3]\ndef forward(x, y):\n"
            "    s = torch.functional.split(x, [1, 1])  # [float16[1, 3], float16[1, 3]]\n"
            "    t0 = s[0]  # float16[1, 3]\n    z = t0 + y  # float16[1, 3]\n    return (z,)\n");
}

TEST(Printer, VarargsSpreadOnlyForMethods) {
  Graph g = build(
      "def f(x):\n    a = x.permute(0, 2, 1)\n    b = torch.reshape(x, (6,))\n    return (a, b)\n");
  EXPECT_EQ(
      print_graph(g, reg()),
      "def f(x):\n    a = torch.permute(x, [0, 2, 1])\n    b = x.reshape(6)\n    return (a, b)\n");
  expect_round_trip(g);
}

TEST(Printer, OperatorFormsFallBackWhenNotExpressible) {
  // alpha=2 cannot be written with '+': the next alias that can say it is used.
  Graph g = build(
      "def f(x, y):\n    a = torch.add(x, y, alpha=2)\n    b = torch.div(x, 2, "
      "rounding_mode='floor')\n"
      "    c = x / 2\n    return (a, b, c)\n");
  EXPECT_EQ(print_graph(g, reg()),
            "def f(x, y):\n    a = torch.add(x, y, alpha=2)\n    b = torch.div(x, 2, "
            "rounding_mode='floor')\n"
            "    c = x / 2\n    return (a, b, c)\n");
  expect_round_trip(g);
}

TEST(Printer, LiteralsRoundTrip) {
  Graph g = build(
      "def f(x):\n"
      "    a = x * float('nan')\n"
      "    b = torch.nn.functional.pad(x, [1, 2], mode='a\\'b\\\\c\\n')\n"
      "    c = x[None, ..., 1:-1:2, (0, 1)]\n"
      "    d = torch.full([2], -0.0, dtype=torch.bfloat16) + -9223372036854775808\n"
      "    e = x.to(device=torch.device('cuda', 1), dtype=torch.int64)\n"
      "    return (a, b, c, d, e)\n");
  expect_round_trip(g);
  std::vector<std::string> names = {"x"};
  EXPECT_EQ(print_arg(Arg::make_slice(Arg::make_none(), Arg::make_int(2), Arg::make_none()), names),
            "slice(None, 2, None)");
  EXPECT_EQ(print_arg(Arg::make_tuple({Arg::make_value(0)}), names), "(x,)");
  EXPECT_EQ(print_arg(Arg::make_device("cuda:0"), names), "torch.device('cuda:0')");
  EXPECT_EQ(print_arg(Arg::make_real(std::numeric_limits<double>::infinity()), names),
            "float('inf')");
  EXPECT_EQ(print_arg(Arg::make_real(1e-06), names), "1e-06");
  EXPECT_EQ(print_arg(Arg::make_real(2), names), "2.0");
}

TEST(Printer, ZeroNodeGraphAndRepeatedOutputs) {
  Graph g = build("def f(x, y):\n    return (y, x, y)\n");
  EXPECT_EQ(print_graph(g, reg()), "def f(x, y):\n    return (y, x, y)\n");
  expect_round_trip(g);
}

}  // namespace
}  // namespace pf::dialect

namespace pf::dialect {
namespace {

// Ops only an overload reaches (max_dim, median_dim, nanmedian_dim) print as
// the spelling that reaches them, so the printed graph parses back; they
// printed as `max_dim(x, 1, False)`, which no parser knows.
TEST(Printer, OverloadOnlyOpsPrintAsTheirSpelling) {
  const OpRegistry& builtin = OpRegistry::builtin();
  auto g = load_graph(
      "def f(x):\n    m = torch.max(x, dim=1)\n    v = x.median(0, True)\n"
      "    n = torch.nanmedian(x, -1)\n    return (m[1], v[0], n[0])\n",
      "p.py", builtin, "f");
  ASSERT_TRUE(g.ok()) << g.error().message;
  const std::string text = print_graph(*g, builtin);
  EXPECT_NE(text.find("torch.max(x, 1)"), std::string::npos) << text;
  EXPECT_NE(text.find("torch.median(x, 0, keepdim=True)"), std::string::npos) << text;
  EXPECT_NE(text.find("torch.nanmedian(x, -1)"), std::string::npos) << text;
  auto again = load_graph(text, "printed.py", builtin, "f");
  ASSERT_TRUE(again.ok()) << again.error().message << "\n" << text;
  EXPECT_TRUE(*again == *g) << text;
}

// F.batch_norm's running stats have no default in PyTorch (ours is None):
// `batch_norm(x, training=True)` raised a TypeError in PyTorch, which is
// how a built-in task's printed source failed to run there.
TEST(Printer, ArgumentsPyTorchRequiresArePrintedEvenAtOurDefault) {
  const OpRegistry& builtin = OpRegistry::builtin();
  auto g = load_graph(
      "def f(x):\n    y = torch.nn.functional.batch_norm(x, None, None, None, None, True, 0.1, "
      "1e-05)\n    return (y,)\n",
      "p.py", builtin, "f");
  ASSERT_TRUE(g.ok()) << g.error().message;
  const std::string text = print_graph(*g, builtin);
  EXPECT_NE(text.find("batch_norm(x, running_mean=None, running_var=None, training=True)"),
            std::string::npos)
      << text;
  auto again = load_graph(text, "printed.py", builtin, "f");
  ASSERT_TRUE(again.ok()) << again.error().message << "\n" << text;
  EXPECT_TRUE(*again == *g) << text;
}

}  // namespace
}  // namespace pf::dialect
