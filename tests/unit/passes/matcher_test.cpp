// find_matches: wildcards (tensors and literals), repeated parameters,
// literal mismatches, outside users, multiple outputs, non-overlap, order,
// and the rules that keep a match replaceable by one call.
#include "evaluator/passes/matcher.h"

#include <gtest/gtest.h>

#include "evaluator/dialect/graph_builder.h"
#include "evaluator/ops/op_registry.h"
#include "tests/unit/passes/pass_test_util.h"

namespace pf::passes::test {
namespace {

const OpRegistry& reg() {
  return OpRegistry::builtin();
}

Graph graph(const std::string& body, const std::string& params = "in_0, in_1") {
  auto g = dialect::load_graph("def forward(" + params + "):\n" + body, "model.py", reg());
  EXPECT_TRUE(g.ok()) << g.error().message;
  return g.ok() ? *g : Graph{};
}

Graph pattern(const std::string& source) {
  auto g = dialect::load_graph(source, "passes/Fuse.py", reg(), "pattern");
  EXPECT_TRUE(g.ok()) << g.error().message;
  return g.ok() ? *g : Graph{};
}

std::string name_of(const Graph& g, const Arg& a) {
  return a.is_value() ? g.values[a.value].name : arg_to_string(a, {});
}

TEST(Matcher, WildcardsBindTensorsAndLiterals) {
  Graph g = graph("    t = in_0.reshape(2, 8)\n    u = torch.relu(t)\n    return (u,)\n");
  Graph p = pattern("def pattern(x, a, b):\n    return torch.relu(x.reshape(a, b))\n");
  MatchSearch s = find_matches(p, g, reg());
  ASSERT_EQ(s.matches.size(), 1u);
  const Match& m = s.matches[0];
  ASSERT_EQ(m.bindings.size(), 3u);
  EXPECT_EQ(name_of(g, m.bindings[0]), "in_0");
  EXPECT_EQ(m.bindings[1], Arg::make_int(2));
  EXPECT_EQ(m.bindings[2], Arg::make_int(8));
  EXPECT_EQ(m.nodes, (std::vector<int>{0, 1}));
  EXPECT_EQ(m.outputs.size(), 1u);
  EXPECT_EQ(g.values[m.outputs[0]].name, "u");
  EXPECT_EQ(m.last_node, 1);
}

TEST(Matcher, OneParameterBindsAWholeShape) {
  Graph g = graph("    t = in_0.reshape(2, 8)\n    return (t,)\n");
  Graph p = pattern("def pattern(x, shape):\n    return x.reshape(shape)\n");
  MatchSearch s = find_matches(p, g, reg());
  ASSERT_EQ(s.matches.size(), 1u);
  EXPECT_EQ(s.matches[0].bindings[1], Arg::make_list({Arg::make_int(2), Arg::make_int(8)}));
}

TEST(Matcher, NormalisedArgumentsMatch) {
  Graph g = graph("    t = torch.softmax(in_0, -1)\n    return (t,)\n");
  Graph p = pattern("def pattern(x):\n    return torch.nn.functional.softmax(x, dim=-1)\n");
  EXPECT_EQ(find_matches(p, g, reg()).matches.size(), 1u);
}

TEST(Matcher, LoneIntMatchesOneElementIntList) {
  Graph g = graph("    t = in_0.mean(dim=[-1], keepdim=True)\n    return (t,)\n");
  Graph p = pattern("def pattern(x):\n    return torch.mean(x, -1, True)\n");
  EXPECT_EQ(find_matches(p, g, reg()).matches.size(), 1u);
  Graph p2 = pattern("def pattern(x):\n    return torch.mean(x, [1], True)\n");
  EXPECT_TRUE(find_matches(p2, g, reg()).matches.empty());
}

TEST(Matcher, LiteralsMustBeEqual) {
  Graph g = graph("    t = torch.softmax(in_0, -1)\n    return (t,)\n");
  Graph p = pattern("def pattern(x):\n    return torch.softmax(x, dim=1)\n");
  MatchSearch s = find_matches(p, g, reg());
  EXPECT_TRUE(s.matches.empty());
  ASSERT_TRUE(s.closest);
  EXPECT_EQ(s.closest->matched, 1);
  EXPECT_EQ(s.closest->reason, "argument 'dim': the pattern has 1, the variant has -1");
  // An int is not a float.
  Graph g2 = graph("    t = in_0 * 2.0\n    return (t,)\n");
  Graph p2 = pattern("def pattern(x):\n    return x * 2\n");
  ASSERT_TRUE(find_matches(p2, g2, reg()).closest);
  EXPECT_EQ(find_matches(p2, g2, reg()).closest->reason,
            "argument 'other': the pattern has 2, the variant has 2.0");
}

TEST(Matcher, RepeatedParameterMustBindTheSameThing) {
  Graph p = pattern("def pattern(x):\n    return x * x\n");
  Graph same = graph("    t = in_0 * in_0\n    return (t,)\n");
  Graph different = graph("    t = in_0 * in_1\n    return (t,)\n");
  EXPECT_EQ(find_matches(p, same, reg()).matches.size(), 1u);
  MatchSearch s = find_matches(p, different, reg());
  ASSERT_TRUE(s.matches.empty());
  EXPECT_EQ(s.closest->reason,
            "argument 'other': parameter 'x' is already bound to the input in_0, but here the "
            "variant has the input in_1");
}

TEST(Matcher, ComputedValueExpectedButInputFound) {
  Graph g = graph("    t = torch.relu(in_0)\n    return (t,)\n");
  Graph p = pattern("def pattern(x):\n    return torch.relu(torch.sigmoid(x))\n");
  MatchSearch s = find_matches(p, g, reg());
  ASSERT_TRUE(s.closest);
  EXPECT_EQ(s.closest->reason,
            "argument 'input': the pattern expects 't0' computed by 'sigmoid', the variant has "
            "the input in_0; make it a parameter of the pattern");
}

TEST(Matcher, IntermediateUsedOutsideBlocksTheMatch) {
  Graph g = graph(
      "    t = torch.sigmoid(in_0)\n"
      "    u = torch.relu(t)\n"
      "    v = t + in_1\n"
      "    return (u, v)\n");
  Graph p = pattern("def pattern(x):\n    t = torch.sigmoid(x)\n    return torch.relu(t)\n");
  MatchSearch s = find_matches(p, g, reg());
  ASSERT_TRUE(s.matches.empty());
  ASSERT_TRUE(s.closest);
  EXPECT_EQ(s.closest->matched, 2);
  EXPECT_EQ(s.closest->reason,
            "t is also used by v (line 4), outside the pattern; return it from the pattern or "
            "include its user");
  // Returning it makes the match legal: a multi-output pattern.
  Graph p2 = pattern("def pattern(x):\n    t = torch.sigmoid(x)\n    return (t, torch.relu(t))\n");
  MatchSearch s2 = find_matches(p2, g, reg());
  ASSERT_EQ(s2.matches.size(), 1u);
  ASSERT_EQ(s2.matches[0].outputs.size(), 2u);
  EXPECT_EQ(g.values[s2.matches[0].outputs[0]].name, "t");
  EXPECT_EQ(g.values[s2.matches[0].outputs[1]].name, "u");
}

TEST(Matcher, IntermediateThatIsAGraphOutputMustBeReturned) {
  Graph g = graph("    t = torch.sigmoid(in_0)\n    u = torch.relu(t)\n    return (t, u)\n");
  Graph p = pattern("def pattern(x):\n    t = torch.sigmoid(x)\n    return torch.relu(t)\n");
  MatchSearch s = find_matches(p, g, reg());
  ASSERT_TRUE(s.closest);
  EXPECT_EQ(s.closest->reason,
            "t is an output of the variant, but the pattern does not return it ('t'); return it "
            "from the pattern");
}

TEST(Matcher, MultiOutputWithIndependentAnchors) {
  Graph g = graph(
      "    a = torch.sin(in_0)\n"
      "    b = torch.cos(in_1)\n"
      "    c = torch.cos(in_0)\n"
      "    return (a, b, c)\n");
  Graph p = pattern("def pattern(x):\n    return (torch.sin(x), torch.cos(x))\n");
  MatchSearch s = find_matches(p, g, reg());
  ASSERT_EQ(s.matches.size(), 1u);
  // cos(in_1) comes first in program order but binds x differently.
  EXPECT_EQ(s.matches[0].nodes, (std::vector<int>{0, 2}));
}

TEST(Matcher, NonOverlappingInProgramOrder) {
  Graph g = graph(
      "    a = torch.relu(in_0)\n"
      "    b = torch.relu(a)\n"
      "    c = torch.relu(b)\n"
      "    return (c,)\n",
      "in_0");
  Graph p = pattern("def pattern(x):\n    return torch.relu(torch.relu(x))\n");
  MatchSearch s = find_matches(p, g, reg());
  // Anchors in program order: a cannot (its operand is an input), b can
  // ({a, b}; b is the pattern's output, so c may use it), c cannot (b is taken).
  ASSERT_EQ(s.matches.size(), 1u);
  EXPECT_EQ(s.matches[0].nodes, (std::vector<int>{0, 1}));
}

TEST(Matcher, EveryDisjointMatchIsFound) {
  Graph g = graph(
      "    a = torch.relu(torch.sigmoid(in_0))\n"
      "    b = torch.relu(torch.sigmoid(in_1))\n"
      "    return (a, b)\n");
  Graph p = pattern("def pattern(x):\n    return torch.relu(torch.sigmoid(x))\n");
  MatchSearch s = find_matches(p, g, reg());
  ASSERT_EQ(s.matches.size(), 2u);
  EXPECT_EQ(name_of(g, s.matches[0].bindings[0]), "in_0");
  EXPECT_EQ(name_of(g, s.matches[1].bindings[0]), "in_1");
}

TEST(Matcher, ShapeLiteralsDifferAcrossVariants) {
  Graph p = pattern("def pattern(x, a, b):\n    return x.view(a, b).sum(-1)\n");
  for (const char* dims : {"2, 8", "4, 77"}) {
    Graph g =
        graph(std::string("    t = in_0.view(") + dims + ")\n    u = t.sum(-1)\n    return (u,)\n",
              "in_0");
    EXPECT_EQ(find_matches(p, g, reg()).matches.size(), 1u) << dims;
  }
}

TEST(Matcher, ParameterCannotBindWhatTheMatchComputes) {
  Graph g = graph("    t = torch.sigmoid(in_0)\n    u = t * t\n    return (u,)\n", "in_0");
  Graph p = pattern("def pattern(x, y):\n    t = torch.sigmoid(x)\n    return t * y\n");
  MatchSearch s = find_matches(p, g, reg());
  ASSERT_TRUE(s.matches.empty());
  EXPECT_EQ(s.closest->reason,
            "parameter 'y' binds t (line 2), which the match itself computes; the match cannot "
            "be replaced by one call");
}

TEST(Matcher, ParameterCannotDependOnTheMatch) {
  Graph g = graph(
      "    t = torch.sigmoid(in_0)\n"
      "    e = torch.exp(t)\n"
      "    u = t + e\n"
      "    return (u,)\n",
      "in_0");
  Graph p = pattern("def pattern(x, y):\n    t = torch.sigmoid(x)\n    return (t, t + y)\n");
  MatchSearch s = find_matches(p, g, reg());
  ASSERT_TRUE(s.matches.empty());
  EXPECT_EQ(s.closest->reason,
            "parameter 'y' binds e (line 3), which depends on a value computed inside the match; "
            "the match cannot be replaced by one call");
}

TEST(Matcher, NoNodeWithTheAnchorOp) {
  Graph g = graph("    t = torch.relu(in_0)\n    return (t,)\n", "in_0");
  Graph p = pattern("def pattern(x):\n    return torch.tanh(x)\n");
  MatchSearch s = find_matches(p, g, reg());
  ASSERT_TRUE(s.closest);
  EXPECT_EQ(s.closest->matched, 0);
  EXPECT_EQ(s.closest->reason, "the variant has no 'tanh' node (its ops: relu)");
}

TEST(Matcher, BudgetStopsTheSearch) {
  Graph g =
      graph("    a = torch.relu(in_0)\n    b = torch.relu(in_0)\n    return (a, b)\n", "in_0");
  Graph p = pattern("def pattern(x):\n    return torch.relu(x)\n");
  MatchOptions tiny;
  tiny.max_steps = 1;
  MatchSearch s = find_matches(p, g, reg(), tiny);
  EXPECT_TRUE(s.budget_exhausted);
  EXPECT_EQ(s.matches.size(), 1u);
}

}  // namespace
}  // namespace pf::passes::test
