#include "evaluator/dialect/graph_builder.h"

#include <gtest/gtest.h>

#include "evaluator/dialect/parser.h"
#include "evaluator/dialect/printer.h"
#include "tests/unit/dialect/test_registry.h"

namespace pf::dialect {
namespace {

const OpRegistry& reg() {
  return testing::dialect_test_registry();
}

Result<Graph> build_src(const std::string& src, std::string_view fn = "f") {
  return load_graph(src, "g.py", reg(), fn);
}

Graph build_ok(const std::string& src, std::string_view fn = "f") {
  auto r = build_src(src, fn);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : Graph{};
}

std::string build_error(const std::string& src) {
  auto r = build_src(src);
  return r.ok() ? "(no error)" : r.error().message;
}

std::string printed(const std::string& src) {
  auto r = build_src(src);
  if (!r.ok()) return "error: " + r.error().message;
  return print_graph(*r, reg());
}

TEST(GraphBuilder, InputsNodesOutputsAndLocations) {
  auto r = load_graph(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, in_0, in_1):\n"
      "        tmp_0 = in_0 + in_1\n"
      "        tmp_1 = torch.nn.functional.relu(tmp_0)\n"
      "        tmp_0 = None\n"
      "        return (tmp_1,)\n",
      "model.py", reg());
  ASSERT_TRUE(r.ok()) << r.error().message;
  Graph g = *r;
  EXPECT_EQ(g.name, "forward");
  ASSERT_EQ(g.inputs.size(), 2u);
  EXPECT_EQ(g.values[g.inputs[0]].name, "in_0");
  ASSERT_EQ(g.nodes.size(), 2u);
  EXPECT_EQ(g.nodes[0].op, "add");
  ASSERT_EQ(g.nodes[0].args.size(), 3u);
  EXPECT_EQ(g.nodes[0].args[2], Arg::make_int(1));  // alpha default filled
  EXPECT_EQ(g.nodes[0].loc.line, 3);
  EXPECT_EQ(g.nodes[0].loc.column, 22);  // the operator
  EXPECT_EQ(g.nodes[1].op, "relu");
  EXPECT_EQ(g.nodes[1].loc.column, 17);
  EXPECT_EQ(g.values[g.nodes[1].output].name, "tmp_1");
  ASSERT_EQ(g.outputs.size(), 1u);
  EXPECT_EQ(g.outputs[0], g.nodes[1].output);
}

TEST(GraphBuilder, UndefinedAfterNoneCleanup) {
  EXPECT_EQ(build_error("def f(x):\n    y = x + x\n    y = None\n    return (y,)\n"),
            "g.py:4:13: name 'y' is not defined");
}

TEST(GraphBuilder, SpellingsOfOneOpGiveIdenticalIr) {
  const char* forms[] = {
      "import torch.nn.functional as F\ndef f(x):\n    y = F.relu(x)\n    return y\n",
      "def f(x):\n    y = torch.relu(x)\n    return y\n",
      "def f(x):\n    y = x.relu()\n    return y\n",
      "def f(x):\n    y = torch.nn.functional.relu(x, inplace=False)\n    return y\n",
      "def f(x):\n    y = torch._C._nn.relu(x)\n    return y\n",
      "def f(x):\n    y = torch.Tensor.relu(x)\n    return (y,)\n",
      "from torch.nn import functional as G\ndef f(x):\n    y = G.relu(input=x)\n    return y\n",
  };
  Graph first = build_ok(forms[0]);
  for (const char* src : forms) EXPECT_EQ(build_ok(src), first) << src;
}

TEST(GraphBuilder, KeywordPositionalAndDefaultsNormalise) {
  Graph a = build_ok(
      "def f(x, w, b):\n    y = torch.nn.functional.layer_norm(x, (8,), w, b, 1e-05)\n    return "
      "y\n");
  Graph b = build_ok(
      "def f(x, w, b):\n    y = torch.nn.functional.layer_norm(x, [8], bias=b, weight=w)\n    "
      "return y\n");
  EXPECT_EQ(a, b);
  Graph c =
      build_ok("def f(x):\n    y = torch.conv2d(x, x, None, (1, 1), 0, [1, 1], 1)\n    return y\n");
  Graph d =
      build_ok("def f(x):\n    y = torch.conv2d(x, x, stride=1, dilation=(1, 1))\n    return y\n");
  EXPECT_NE(c, d);  // stride [1, 1] vs 1: spellings are kept (printed code stays valid PyTorch)
  EXPECT_EQ(c.nodes[0].args[3], Arg::make_list({Arg::make_int(1), Arg::make_int(1)}));
  EXPECT_EQ(d.nodes[0].args[3], Arg::make_int(1));
}

TEST(GraphBuilder, NestedExpressionsGetFreshNames) {
  EXPECT_EQ(printed("def f(a, b, t0):\n    y = torch.relu(a + b * 2) - t0\n    return y\n"),
            "def f(a, b, t0):\n    t1 = b * 2\n    t2 = a + t1\n    t3 = torch.relu(t2)\n"
            "    y = t3 - t0\n    return (y,)\n");
  EXPECT_EQ(printed("def f(a, b):\n    return (torch.cat((a + b, a), dim=1), -a)\n"),
            "def f(a, b):\n    t0 = a + b\n    t1 = torch.cat([t0, a], dim=1)\n    t2 = -a\n"
            "    return (t1, t2)\n");
}

TEST(GraphBuilder, LiteralsFoldAndLiteralNamesSubstitute) {
  EXPECT_EQ(
      printed("def f(x):\n    s = (2, -1)\n    k = 1.0 / 8\n    y = x.view(s) * k\n"
              "    z = y * -0.5\n    return (z,)\n"),
      "def f(x):\n    t0 = x.view(2, -1)\n    y = t0 * 0.125\n    z = y * -0.5\n    return (z,)\n");
  EXPECT_EQ(
      printed("def f(x):\n    y = x * float('-inf') + math.pi\n    return y\n"),
      "def f(x):\n    t0 = x * float('-inf')\n    y = t0 + 3.141592653589793\n    return (y,)\n");
}

TEST(GraphBuilder, DtypeDeviceSliceLiterals) {
  Graph g = build_ok(
      "from torch import device\n"
      "def f(x):\n"
      "    a = torch.arange(end=10, device=device(type='cuda', index=0), dtype=torch.float32)\n"
      "    b = x.to(torch.bool)\n"
      "    c = x[slice(None, None, None), 1:, None, ..., ::2, -1]\n"
      "    return (a, b, c)\n");
  ASSERT_EQ(g.nodes.size(), 3u);
  EXPECT_EQ(g.nodes[0].args[1], Arg::make_dtype(DType::float32));
  EXPECT_TRUE(g.nodes[0].args[2].is_none());  // device is ignored by arange
  EXPECT_EQ(g.nodes[1].args[1], Arg::make_dtype(DType::boolean));
  Arg all = Arg::make_slice(Arg::make_none(), Arg::make_none(), Arg::make_none());
  Arg from1 = Arg::make_slice(Arg::make_int(1), Arg::make_none(), Arg::make_none());
  Arg step2 = Arg::make_slice(Arg::make_none(), Arg::make_none(), Arg::make_int(2));
  EXPECT_EQ(g.nodes[2].args[1], Arg::make_tuple({all, from1, Arg::make_none(), Arg::make_ellipsis(),
                                                 step2, Arg::make_int(-1)}));
  EXPECT_EQ(
      print_graph(g, reg()),
      "def f(x):\n    a = torch.arange(10, dtype=torch.float32)\n    b = x.to(dtype=torch.bool)\n"
      "    c = x[:, 1:, None, ..., ::2, -1]\n    return (a, b, c)\n");
}

TEST(GraphBuilder, InPlaceFormsRebind) {
  // `x += y` is operator.iadd (an alias of add here); `x.clamp_()` falls back to clamp.
  EXPECT_EQ(printed("def f(x, y):\n    z = x * 2\n    z += y\n    w = z.clamp_(0.0, 1.0)\n"
                    "    z.add_(1)\n    return (z, w)\n"),
            "def f(x, y):\n    z = x * 2\n    z = z + y\n    w = torch.clamp(z, min=0.0, "
            "max=1.0)\n    w = w + 1\n"
            "    return (w, w)\n");
  EXPECT_EQ(printed("def f(x):\n    y = torch.relu(x, inplace=True)\n    return (x, y)\n"),
            "def f(x):\n    y = torch.relu(x)\n    return (y, y)\n");
  EXPECT_EQ(printed("def f(x):\n    y = x\n    x *= 3\n    return y\n"),
            "def f(x):\n    x = x * 3\n    return (x,)\n");
}

TEST(GraphBuilder, WritesThroughViewsAreRejected) {
  EXPECT_EQ(build_error("def f(x):\n    v = x.view(-1)\n    v += 1\n    return x\n"),
            "g.py:4:12: 'v' was modified in place at 3:5; passforge graphs are pure, so tensors "
            "sharing its storage cannot be used after that (use the result of the in-place "
            "operation instead)");
  EXPECT_EQ(build_error("def f(x):\n    t = (x, x)\n    x.add_(1)\n    return torch.cat(t)\n"),
            "g.py:4:22: 'x' was modified in place at 3:5; passforge graphs are pure, so tensors "
            "sharing its storage cannot be used after that (use the result of the in-place "
            "operation instead)");
}

TEST(GraphBuilder, TensorListsBecomeTupleGet) {
  EXPECT_EQ(printed("def f(x):\n    t = torch.functional.split(x, [2, 3], dim=1)\n    a = t[0]\n"
                    "    b, c = x.unbind(1)\n    return (a, t[1], b, c)\n"),
            "def f(x):\n    t = torch.functional.split(x, [2, 3], dim=1)\n    a = t[0]\n"
            "    t0 = x.unbind(dim=1)\n    b = t0[0]\n    c = t0[1]\n    t1 = t[1]\n    return (a, "
            "t1, b, c)\n");
  EXPECT_EQ(build_error("def f(x):\n    t = x.unbind()\n    return t[0:1]\n"),
            "g.py:3:14: a tensor list ('t') can only be indexed with an integer literal");
  EXPECT_EQ(build_error("def f(x):\n    a, b = x.relu()\n    return a\n"),
            "g.py:2:5: cannot unpack a tensor into 2 names: only ops returning tensor lists "
            "(split, unbind, ...) can be unpacked");
}

TEST(GraphBuilder, PatternParametersInLiteralPositions) {
  Graph g = build_ok("def pattern(x, a, b):\n    y = x.reshape(a, b)\n    return y\n", "pattern");
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].args[1], Arg::make_list({Arg::make_value(1), Arg::make_value(2)}));
  EXPECT_EQ(print_graph(g, reg()),
            "def pattern(x, a, b):\n    y = x.reshape(a, b)\n    return (y,)\n");
}

TEST(GraphBuilder, AliasesKeepPrintableNames) {
  // `b = a` then rebinding `a`: the first value is printed under its remaining name.
  EXPECT_EQ(
      printed("def f(x):\n    a = x.relu()\n    b = a\n    a = x.neg()\n    return (a + b,)\n"),
      "def f(x):\n    b = torch.relu(x)\n    a = -x\n    t0 = a + b\n    return (t0,)\n");
}

TEST(GraphBuilder, Errors) {
  EXPECT_EQ(build_error("def f(x):\n    return torch.reluu(x)\n"),
            "g.py:2:12: unknown op 'torch.reluu' (did you mean 'torch.relu'?)");
  EXPECT_EQ(build_error("def f(x):\n    return x.frobnicate()\n"),
            "g.py:2:12: unknown op 'Tensor.frobnicate'");
  EXPECT_EQ(build_error("def f(x):\n    return torch.relu(x, foo=1)\n"),
            "g.py:2:12: in call to torch.relu: relu: unexpected keyword argument 'foo'");
  EXPECT_EQ(build_error("def f(x):\n    return torch.relu(zz)\n"),
            "g.py:2:23: name 'zz' is not defined");
  EXPECT_EQ(build_error("def f(xs):\n    return torch.relu(x)\n"),
            "g.py:2:23: name 'x' is not defined (did you mean 'xs'?)");
  EXPECT_EQ(build_error("def f(x):\n    for i in x:\n        pass\n    return x\n"),
            "g.py:2:5: 'for' statements are not supported in the graph dialect");
  EXPECT_EQ(build_error("def f(x):\n    if x:\n        pass\n    return x\n"),
            "g.py:2:5: 'if' statements are not supported in graph functions (only in replacement "
            "bodies)");
  EXPECT_EQ(build_error("def f(x):\n    return x\n    y = x\n"),
            "g.py:3:5: unreachable statement after 'return' at 2:5");
  EXPECT_EQ(build_error("def f(x):\n    y = x\n"),
            "g.py:1:1: function 'f' has no return statement; end it with 'return (...)'");
  EXPECT_EQ(build_error("def f(x):\n    return 1\n"),
            "g.py:2:12: a graph returns tensors; a number is not one");
  EXPECT_EQ(build_error("def f(x):\n    return x.shape[0]\n"),
            "g.py:2:12: tensor attributes ('x.shape') are not supported in graph functions");
  EXPECT_EQ(build_error("def f(x):\n    return x and x\n"),
            "g.py:2:14: 'and' is not supported in graph functions (on tensors use '&' / '|')");
  EXPECT_EQ(build_error("def f(x):\n    return 0 < x < 1\n"),
            "g.py:2:14: chained comparisons ('a < b < c') are not supported; compare twice and "
            "combine with '&'");
  EXPECT_EQ(build_error("def f(x):\n    x[0][1] = 1\n    return x\n"),
            "g.py:2:5: item assignment needs a plain name before '[': 'x[...] = value'");
  EXPECT_EQ(build_error("def f(x, n=2):\n    return x\n"),
            "g.py:1:12: parameter 'n' has a default value; graph function parameters cannot");
  EXPECT_EQ(build_error("def f(x):\n    return (lambda y: y)(x)\n"),
            "g.py:2:13: only functions and tensor methods can be called, not 'lambda'");
  EXPECT_EQ(build_error("def f(x):\n    return x(1)\n"),
            "g.py:2:12: 'x' is a value, not a function");
  EXPECT_EQ(build_error("def f(x):\n    return x + 1 // 0\n"),
            "g.py:2:18: integer division by zero");
  EXPECT_EQ(build_error("def f(x):\n    return torch.relu_(x.unbind())\n"),
            "g.py:2:12: in-place 'torch.relu_' needs a tensor to modify as its first argument");
}

// Every remaining error form of the builder, one line each: snippet -> message.
TEST(GraphBuilder, MoreErrorForms) {
  struct Case {
    const char* body;  // statements of `def f(x):`, indented by the test
    const char* message;
  };
  const Case cases[] = {
      {"return torch", "g.py:2:12: 'torch' is a module, not a value"},
      {"return torch.nn.functional.relu",
       "g.py:2:12: 'torch.nn.functional.relu' is not a value (a call needs parentheses)"},
      {"return (1, 2).count(1)", "g.py:2:12: method 'count' called on a tuple, not on a tensor"},
      {"return (1).real", "g.py:2:13: attribute 'real' of a literal is not supported"},
      {"return x if x else x",
       "g.py:2:12: a conditional expression ('a if c else b') is not supported in graph functions"},
      {"return not x", "g.py:2:12: 'not' on a tensor is ambiguous; use '~' or torch.logical_not"},
      {"return x + -'a'", "g.py:2:16: unary '-' is not supported on a string"},
      {"return x + ('a' + 1)",
       "g.py:2:21: operator '+' is not supported between a string and a number"},
      {"return x is None", "g.py:2:14: 'is' is not supported in graph functions"},
      {"return x in x", "g.py:2:14: 'in' is not supported in graph functions"},
      {"return x * (1 < 2)",
       "g.py:2:19: comparing two literals is not supported in graph functions"},
      {"return x[1][2] if False else (3, 4)[x]",
       "g.py:2:12: a conditional expression ('a if c else b') is not supported in graph functions"},
      {"return (3, 4)[x]", "g.py:2:12: cannot subscript a tuple"},
      {"return x * (3, 4)[5]", "g.py:2:16: index 5 out of range"},
      {"a, b = (1, 2, 3)\n    return x", "g.py:2:5: cannot unpack 3 values into 2 targets"},
      {"a, b = 1\n    return x", "g.py:2:5: cannot unpack a literal that is not a tuple or list"},
      {"x.y = 1\n    return x",
       "g.py:2:5: assignment to attribute 'y' is not supported: graphs do not mutate state"},
      {"x[0] += 1\n    return x",
       "g.py:2:5: augmented assignment '+=' needs a plain name as its target"},
      {"t = x.unbind()\n    t += 1\n    return x", "g.py:3:5: in-place '+=' on a tensor list"},
      {"n = 'a'\n    n -= 1\n    return x",
       "g.py:3:5: operator '-=' is not supported on these literals"},
      {"return", "g.py:2:5: 'return' needs the graph's outputs: 'return (a, b)'"},
      {"return ()", "g.py:2:5: a graph must return at least one tensor"},
      {"return x[0:'a']", "(no error)"},  // slice bounds are checked by the op, not the builder
      {"return slice(1, 2, 3, 4)", "g.py:2:12: slice() takes 1 to 3 positional arguments"},
      {"return x.to(device(x))", "g.py:2:24: 'x' is not a literal"},
      {"return x.to(device('cuda', 'a'))",
       "g.py:2:17: expected device('cuda'), device('cuda:0') or device(type='cuda', index=0)"},
      {"return x.to(device(kind='cuda'))", "g.py:2:24: device() has no argument 'kind'"},
      {"return x * float('1.5')",
       "g.py:2:16: float() is supported only as float('inf'), float('-inf') or float('nan')"},
      {"return x.view(torch.Size(3))", "g.py:2:19: torch.Size() takes one list of sizes"},
      {"return x * math.sqrt(x)", "g.py:2:26: 'x' is not a literal"},
      {"return x * math.sqrt('a')", "g.py:2:16: math.sqrt() takes one number literal"},
      {"return yield x", "g.py:2:12: 'yield' is not supported in graph functions"},
      {"return x[::]", "(no error)"},
      {"return x + 2 ** 64", "g.py:2:18: integer arithmetic overflows 64 bits"},
      {"import os\n    return x",
       "g.py:2:5: 'import' statements are not supported in the graph dialect"},
      {"del x\n    return x", "g.py:2:5: 'del' statements are not supported in the graph dialect"},
      {"with x:\n        pass\n    return x",
       "g.py:2:5: 'with' statements are not supported in the graph dialect"},
      {"def g(y):\n        return y\n    return x",
       "g.py:2:5: 'def' statements are not supported in the graph dialect"},
  };
  for (const auto& c : cases) {
    std::string src = std::string("def f(x):\n    ") + c.body + "\n";
    EXPECT_EQ(build_error(src), c.message) << c.body;
  }
}

TEST(GraphBuilder, UnknownOpsCanBeCollected) {
  auto m =
      parse_module("def f(x):\n    y = torch.foo(x)\n    z = y.bar(1)\n    return z + y\n", "u.py");
  ASSERT_TRUE(m.ok());
  std::vector<OpUse> unknown;
  auto r = build_graph(m->functions[0], reg(), build_options_for(*m), &unknown);
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(unknown.size(), 2u);
  EXPECT_EQ(unknown[0].spelling, "torch.foo");
  EXPECT_EQ(unknown[0].loc.line, 2);
  EXPECT_EQ(unknown[1].spelling, "Tensor.bar");
}

}  // namespace
}  // namespace pf::dialect
