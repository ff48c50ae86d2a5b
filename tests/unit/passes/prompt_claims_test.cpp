// What the system prompts (prompts/*/system.md) tell a model about patterns
// and replacements, checked against the matcher and the compile-only
// evaluation with a real NVRTC: the worked example serves every shape and
// dtype it claims to, two parameters may bind one tensor, operands are not
// commuted, type comments are ignored, literals bound by a parameter reach
// the kernel's C type, only the branch a variant takes is dry-run while launch
// sites are checked in every branch, there is no raise/assert, and
// is_contiguous() sees views. If one of these fails, the prompts say
// something untrue.
#include <gtest/gtest.h>

#include "common/fs.h"
#include "evaluator/dialect/graph_builder.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/passes/compile_only.h"
#include "evaluator/passes/matcher.h"
#include "tests/unit/passes/pass_test_util.h"

namespace pf::passes::test {
namespace {

const OpRegistry& reg() {
  return OpRegistry::builtin();
}

// The body of the fenced block whose info string is `info` in `text`.
std::string fenced_block(const std::string& text, const std::string& info) {
  const std::string open = "```" + info + "\n";
  auto start = text.find(open);
  if (start == std::string::npos) return "";
  start += open.size();
  auto end = text.find("\n```", start);
  return end == std::string::npos ? "" : text.substr(start, end - start + 1);
}

InputMeta input(const std::string& name, DType dtype, Shape shape) {
  InputMeta in;
  in.name = name;
  in.dtype = dtype;
  in.shape = std::move(shape);
  return in;
}

TaskVariant variant(const std::string& name, const std::string& body, std::vector<InputMeta> inputs,
                    bool hidden = false) {
  TaskVariant v;
  v.name = name;
  v.hidden = hidden;
  std::string params;
  for (const auto& in : inputs) params += (params.empty() ? "" : ", ") + in.name;
  v.source = "def forward(" + params + "):\n" + body;
  v.inputs = std::move(inputs);
  return v;
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

class PromptClaims : public ::testing::Test {
 protected:
  void SetUp() override {
    auto c = nvrtc_compile_function();
    if (!c.ok()) GTEST_SKIP() << "NVRTC unavailable: " << c.error().message;
    compile_ = *c;
  }
  CompileOnlyResult run(const Task& task, std::map<std::string, std::string> files) {
    auto ws = PassWorkspace::from_files(std::move(files));
    EXPECT_TRUE(ws.ok()) << ws.error().message;
    if (!ws.ok()) return {};
    auto r = evaluate_compile_only(task, *ws, compile_, reg());
    EXPECT_TRUE(r.ok()) << r.error().message;
    return r.ok() ? *r : CompileOnlyResult{};
  }
  KernelCompiler compile_;
};

TEST_F(PromptClaims, WorkedExampleServesEveryShapeDtypeAndSlope) {
  Task task;
  task.id = "add-leaky_relu";
  const std::string positional =
      "    tmp_0 = in_0 + in_1\n"
      "    tmp_1 = torch.nn.functional.leaky_relu(tmp_0, 0.01)\n"
      "    return (tmp_1,)\n";
  const std::string keyword =
      "    tmp_0 = in_0 + in_1\n"
      "    tmp_1 = torch.nn.functional.leaky_relu(tmp_0, negative_slope=0.2)\n"
      "    return (tmp_1,)\n";
  auto two = [](DType dt, Shape s) {
    return std::vector<InputMeta>{input("in_0", dt, s), input("in_1", dt, s)};
  };
  task.variants = {variant("f32", positional, two(DType::float32, {8, 128})),
                   variant("f16", keyword, two(DType::float16, {4, 77, 512})),
                   variant("bf16", positional, two(DType::bfloat16, {7}), /*hidden=*/true)};
  const std::map<std::string, std::string> expected_kernel = {{"f32", "add_leaky_relu_f32"},
                                                              {"f16", "add_leaky_relu_f16"},
                                                              {"bf16", "add_leaky_relu_bf16"}};
  const std::map<std::string, std::string> expected_slope = {
      {"f32", "0.01"}, {"f16", "0.2"}, {"bf16", "0.01"}};

  for (const char* name : {"default", "concise"}) {
    auto system = read_file(std::string(PF_SOURCE_DIR) + "/prompts/" + name + "/system.md");
    ASSERT_TRUE(system.ok()) << system.error().message;
    std::string pass = fenced_block(*system, "python passes/AddLeakyRelu.py");
    std::string kernel = fenced_block(*system, "cuda kernels/add_leaky_relu.cu");
    ASSERT_FALSE(pass.empty()) << name;
    ASSERT_FALSE(kernel.empty()) << name;
    if (pass.find("import torch") == std::string::npos) pass = "import torch\n" + pass;
    CompileOnlyResult r =
        run(task, {{"passes/AddLeakyRelu.py", pass}, {"kernels/add_leaky_relu.cu", kernel}});
    ASSERT_EQ(r.failure, FailureClass::none) << name << ": " << r.message;
    ASSERT_EQ(r.variants.size(), 3u);
    for (const auto& v : r.variants) {
      EXPECT_EQ(v.failure, FailureClass::none) << name << " " << v.name << ": " << v.message;
      ASSERT_EQ(v.calls.size(), 1u) << name << " " << v.name;
      ASSERT_EQ(v.calls[0].launches.size(), 1u) << name << " " << v.name;
      const LaunchRecord& launch = v.calls[0].launches[0];
      EXPECT_EQ(launch.kernel, expected_kernel.at(v.name)) << name;
      ASSERT_EQ(launch.args.size(), 5u);
      EXPECT_EQ(launch.args[4], expected_slope.at(v.name)) << name << " " << v.name;
    }
  }
}

TEST(PromptClaimsMatching, TwoParametersMayBindTheSameTensor) {
  Graph g = graph("    t = in_0 * in_0\n    return (t,)\n");
  Graph p = pattern("def pattern(x, y):\n    return x * y\n");
  MatchSearch s = find_matches(p, g, reg());
  ASSERT_EQ(s.matches.size(), 1u);
  EXPECT_EQ(s.matches[0].bindings[0], s.matches[0].bindings[1]);
}

TEST(PromptClaimsMatching, CommutativeOperandsAreNotSwapped) {
  Graph p = pattern("def pattern(x, y):\n    return torch.relu(x) + y\n");
  Graph same_order = graph("    t = torch.relu(in_0)\n    u = t + in_1\n    return (u,)\n");
  Graph swapped = graph("    t = torch.relu(in_0)\n    u = in_1 + t\n    return (u,)\n");
  EXPECT_EQ(find_matches(p, same_order, reg()).matches.size(), 1u);
  MatchSearch s = find_matches(p, swapped, reg());
  EXPECT_TRUE(s.matches.empty());
  Graph mul = graph("    t = torch.relu(in_0)\n    u = in_1 * t\n    return (u,)\n");
  Graph pm = pattern("def pattern(x, y):\n    return torch.relu(x) * y\n");
  EXPECT_TRUE(find_matches(pm, mul, reg()).matches.empty()) << "mul is not commuted either";
}

TEST(PromptClaimsMatching, TypeCommentsInPatternsAreIgnored) {
  Graph g = graph("    t = in_0 + in_1\n    u = torch.relu(t)\n    return (u,)\n");
  Graph wrong_types = pattern(
      "def pattern(x, y):\n"
      "    t = x + y  # bfloat16[3, 3]\n"
      "    return torch.relu(t)  # float16[1]\n");
  EXPECT_EQ(find_matches(wrong_types, g, reg()).matches.size(), 1u);
}

// One pass `x * s` whose kernel takes `s` as `scalar` ("float" or "long long").
std::map<std::string, std::string> scale_pass(const std::string& scalar,
                                              const std::string& extra_body = "") {
  return {{"passes/Scale.py",
           "import torch\n"
           "def pattern(x, s):\n"
           "    return x * s\n"
           "def replacement(x, s):\n"
           "    out = torch.empty_like(x)\n"
           "    n = x.numel()\n" +
               extra_body +
               "    launch(\"scale\", grid=cdiv(n, 128), block=128, args=(x, out, n, s))\n"
               "    return out\n"},
          {"kernels/scale.cu",
           "extern \"C\" __global__ void scale(const float* x, float* out, long long n, " + scalar +
               " s) {\n"
               "  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
               "  if (i < n) out[i] = x[i] * s;\n"
               "}\n"}};
}

Task scale_task(const std::string& literal) {
  Task t;
  t.id = "mul";
  t.variants = {variant("v", "    t = in_0 * " + literal + "\n    return (t,)\n",
                        {input("in_0", DType::float32, {4, 8})})};
  return t;
}

TEST_F(PromptClaims, LiteralsBoundByAParameterBecomeTheKernelParametersCType) {
  // A bound int reaches a float parameter, converted as C would.
  CompileOnlyResult int_to_float = run(scale_task("2"), scale_pass("float"));
  ASSERT_EQ(int_to_float.failure, FailureClass::none) << int_to_float.message;
  EXPECT_EQ(int_to_float.variants[0].failure, FailureClass::none)
      << int_to_float.variants[0].message;
  // A bound float into an integer parameter fails the launch.
  CompileOnlyResult float_to_int = run(scale_task("0.5"), scale_pass("long long"));
  ASSERT_EQ(float_to_int.failure, FailureClass::none) << float_to_int.message;
  EXPECT_EQ(float_to_int.variants[0].failure, FailureClass::runtime_fail);
  EXPECT_NE(float_to_int.variants[0].message.find("is an integer, got float"), std::string::npos)
      << float_to_int.variants[0].message;
}

TEST_F(PromptClaims, OnlyTheBranchAVariantTakesIsDryRun) {
  // The untaken branch passes a float to the `long long` parameter of `scale`.
  const std::string bad_branch =
      "    if x.dim() == COND:\n"
      "        launch(\"scale\", grid=1, block=1, args=(x, out, n, 0.5))\n";
  auto with = [&](const std::string& cond) {
    std::string body = bad_branch;
    body.replace(body.find("COND"), 4, cond);
    return scale_pass("long long", body);
  };
  CompileOnlyResult untaken = run(scale_task("3"), with("7"));
  ASSERT_EQ(untaken.failure, FailureClass::none) << untaken.message;
  EXPECT_EQ(untaken.variants[0].failure, FailureClass::none) << untaken.variants[0].message;
  CompileOnlyResult taken = run(scale_task("3"), with("2"));
  ASSERT_EQ(taken.failure, FailureClass::none) << taken.message;
  EXPECT_EQ(taken.variants[0].failure, FailureClass::runtime_fail);
}

TEST_F(PromptClaims, LaunchSitesAreCheckedInEveryBranch) {
  CompileOnlyResult r =
      run(scale_task("3"), scale_pass("long long",
                                      "    if x.dim() == 7:\n"
                                      "        launch(\"no_such_kernel\", grid=1, block=1, "
                                      "args=(x, out, n, 1))\n"));
  EXPECT_EQ(r.failure, FailureClass::compile_fail);
  EXPECT_NE(r.message.find("no_such_kernel"), std::string::npos) << r.message;
}

TEST_F(PromptClaims, ThereIsNoAssertOrRaise) {
  for (const char* stmt : {"    assert x.is_contiguous()\n", "    raise ValueError(\"x\")\n"}) {
    CompileOnlyResult r = run(scale_task("3"), scale_pass("long long", stmt));
    EXPECT_EQ(r.failure, FailureClass::compile_fail) << stmt;
  }
}

TEST_F(PromptClaims, IsContiguousSeesViewsAndSelectsTheBranch) {
  Task t;
  t.id = "transpose-relu";
  t.variants = {
      variant("view", "    t = in_0.transpose(0, 1)\n    u = torch.relu(t)\n    return (u,)\n",
              {input("in_0", DType::float32, {4, 8})}),
      variant("plain", "    u = torch.relu(in_0)\n    return (u,)\n",
              {input("in_0", DType::float32, {4, 8})})};
  const char* kernels =
      "extern \"C\" __global__ void relu_contiguous(const float* x, float* out, long long n) {}\n"
      "extern \"C\" __global__ void relu_strided(const float* x, float* out, long long rows,\n"
      "                                          long long cols, long long s0, long long s1) {}\n";
  CompileOnlyResult r = run(t, {{"passes/Relu.py",
                                 "import torch\n"
                                 "def pattern(x):\n"
                                 "    return torch.relu(x)\n"
                                 "def replacement(x):\n"
                                 "    out = torch.empty_like(x)\n"
                                 "    if x.is_contiguous():\n"
                                 "        launch(\"relu_contiguous\", grid=1, block=32, "
                                 "args=(x, out, x.numel()))\n"
                                 "    else:\n"
                                 "        launch(\"relu_strided\", grid=1, block=32, args=(x, out, "
                                 "x.size(0), x.size(1), x.stride(0), x.stride(1)))\n"
                                 "    return out\n"},
                                {"kernels/relu.cu", kernels}});
  ASSERT_EQ(r.failure, FailureClass::none) << r.message;
  ASSERT_EQ(r.variants.size(), 2u);
  for (const auto& v : r.variants) {
    ASSERT_EQ(v.failure, FailureClass::none) << v.name << ": " << v.message;
    ASSERT_EQ(v.calls.size(), 1u);
    ASSERT_EQ(v.calls[0].launches.size(), 1u);
    EXPECT_EQ(v.calls[0].launches[0].kernel, v.name == "view" ? "relu_strided" : "relu_contiguous");
  }
}

}  // namespace
}  // namespace pf::passes::test
