// load_pass: the structure of a pass file and of its pattern. Replacement
// bodies have their own suite (replacement_check_test.cpp).
#include <gtest/gtest.h>

#include "evaluator/ops/op_registry.h"
#include "evaluator/passes/workspace.h"
#include "tests/unit/passes/pass_test_util.h"

namespace pf::passes::test {
namespace {

std::string load_error(const std::string& source) {
  auto p = pass_from(source);
  return p.ok() ? "" : p.error().message;
}

TEST(PassLoad, AGoodPass) {
  auto p = pass_from(
      "import torch\n"
      "def pattern(x, s):\n"
      "    t = torch.relu(x)\n"
      "    return t.reshape(s)\n"
      "def replacement(x, s):\n"
      "    out = torch.empty(s, dtype=x.dtype)\n"
      "    launch(\"k\", grid=1, block=32, args=(x, out, x.numel()))\n"
      "    return out\n");
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->name, "Fuse");
  EXPECT_EQ(p->file, "passes/Fuse.py");
  EXPECT_EQ(p->call_op(), "pass.Fuse");
  EXPECT_TRUE(is_call_op(p->call_op()));
  EXPECT_EQ(call_op_pass_name(p->call_op()), "Fuse");
  EXPECT_EQ(p->pattern.nodes.size(), 2u);
  ASSERT_EQ(p->param_uses.size(), 2u);
  EXPECT_EQ(p->param_uses[0], ParamUse::tensor);
  EXPECT_EQ(p->param_uses[1], ParamUse::literal);
  ASSERT_EQ(p->launches.size(), 1u);
  EXPECT_EQ(p->launches[0].kernel, "k");
  EXPECT_EQ(p->launches[0].arg_count, 3);
  EXPECT_EQ(p->launches[0].loc.line, 7);
}

TEST(PassLoad, MissingFunctions) {
  EXPECT_EQ(load_error("def pattern(x):\n    return x.relu()\n"),
            "passes/Fuse.py: no top-level function 'replacement' (defined: pattern)");
}

TEST(PassLoad, OnlyPatternAndReplacementAtTopLevel) {
  std::string e = load_error(
      "EPS = 1e-5\n"
      "def helper(x):\n    return x\n"
      "class C:\n    pass\n"
      "def pattern(x):\n    return x.relu()\n"
      "def replacement(x):\n    return x\n");
  EXPECT_NE(e.find("passes/Fuse.py:2:1: only 'pattern' and 'replacement' may be defined; a "
                   "replacement cannot call 'helper' (inline it)"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("passes/Fuse.py:4:1: classes are not allowed in a pass file"), std::string::npos)
      << e;
  EXPECT_NE(e.find("passes/Fuse.py:1:1: top-level statements other than imports are not allowed; "
                   "put constants inside the functions"),
            std::string::npos)
      << e;
}

TEST(PassLoad, DecoratorsAreRejected) {
  EXPECT_EQ(load_error("@torch.no_grad()\ndef pattern(x):\n    return x.relu()\n"
                       "def replacement(x):\n    return x\n"),
            "passes/Fuse.py:1:2: decorators are not allowed");
}

TEST(PassLoad, UnknownOpsAreAllReported) {
  std::string e = load_error(
      "def pattern(x):\n"
      "    t = torch.reluu(x)\n"
      "    return torch.sigmoidd(t)\n"
      "def replacement(x):\n    return x\n");
  EXPECT_NE(e.find("passes/Fuse.py:2:9: unknown op 'torch.reluu' (did you mean 'torch.relu'?)"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("passes/Fuse.py:3:12: unknown op 'torch.sigmoidd'"), std::string::npos) << e;
}

TEST(PassLoad, PatternStructure) {
  EXPECT_EQ(load_error("def pattern(x):\n    return x\ndef replacement(x):\n    return x\n"),
            "passes/Fuse.py:1:1: the pattern computes nothing; it must contain the ops to replace");
  std::string e = load_error(
      "def pattern(x, y, z):\n"
      "    a = x.relu()\n"
      "    b = x.sigmoid()\n"
      "    return (a, y)\n"
      "def replacement(x, y, z):\n    return (x, y)\n");
  EXPECT_NE(e.find("passes/Fuse.py:1:1: the pattern returns its parameter 'y'; return values the "
                   "pattern computes"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("passes/Fuse.py:3:9: 'b' is computed but does not lead to the pattern's "
                   "outputs; remove it or return it"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("passes/Fuse.py:1:1: parameter 'z' is not used by the pattern; remove it"),
            std::string::npos)
      << e;
  EXPECT_NE(load_error("def pattern(x):\n    a = x.relu()\n    return (a, a)\n"
                       "def replacement(x):\n    return (x, x)\n")
                .find("the pattern returns 'a' twice"),
            std::string::npos);
  EXPECT_NE(load_error("def pattern(x):\n    return torch.split(x, 2)\n"
                       "def replacement(x):\n    return x\n")
                .find("the pattern returns the tensor list"),
            std::string::npos);
}

TEST(PassLoad, ReplacementParameters) {
  EXPECT_EQ(load_error("def pattern(x, y):\n    return x + y\n"
                       "def replacement(y, x):\n    return x\n"),
            "passes/Fuse.py:3:1: the replacement's parameters (y, x) must be the pattern's (x, "
            "y), in the same order");
  EXPECT_EQ(load_error("def pattern(x):\n    return x.relu()\n"
                       "def replacement(x=None):\n    return x\n"),
            "passes/Fuse.py:3:17: parameter 'x' has a default value; replacement parameters "
            "cannot");
}

TEST(PassLoad, SyntaxErrorsCarryTheLine) {
  EXPECT_EQ(load_error("def pattern(x):\n    return x.relu(\n").rfind("passes/Fuse.py:", 0), 0u);
  std::string e = load_error("def pattern(x):\n    return [v for v in x]\n");
  EXPECT_NE(e.find("passes/Fuse.py:2:"), std::string::npos) << e;
}

TEST(PassLoad, WorkspaceErrorsOfAllPassesTogether) {
  auto ws = PassWorkspace::from_files({{"passes/A.py", "def pattern(x):\n    return x\n"},
                                       {"passes/B.py", "def pattern(x):\n    return x.relu()\n"}});
  ASSERT_TRUE(ws.ok()) << ws.error().message;
  auto passes = load_passes(*ws, OpRegistry::builtin());
  ASSERT_FALSE(passes.ok());
  EXPECT_NE(passes.error().message.find("passes/A.py"), std::string::npos);
  EXPECT_NE(passes.error().message.find("passes/B.py"), std::string::npos);
}

}  // namespace
}  // namespace pf::passes::test
