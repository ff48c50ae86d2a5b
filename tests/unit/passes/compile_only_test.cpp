// Compile-only evaluation end to end with a real NVRTC: whole-evaluation
// failures (load, compile, launch sites), per-variant pass_miss and dry-run
// failures, hidden variants, static hack flags, and the JSON fields.
#include "evaluator/passes/compile_only.h"

#include <gtest/gtest.h>

#include "evaluator/ops/op_registry.h"
#include "tests/unit/passes/pass_test_util.h"

namespace pf::passes::test {
namespace {

using nlohmann::json;

TaskVariant variant(const std::string& name, const std::string& body, Shape shape,
                    bool hidden = false) {
  TaskVariant v;
  v.name = name;
  v.hidden = hidden;
  v.source = "def forward(in_0):\n" + body;
  InputMeta in;
  in.name = "in_0";
  in.shape = std::move(shape);
  v.inputs = {in};
  return v;
}

Task relu_task() {
  Task t;
  t.id = "relu-sigmoid";
  const std::string body = "    t = torch.relu(in_0)\n    u = torch.sigmoid(t)\n    return (u,)\n";
  t.variants = {variant("small", body, {4, 8}), variant("big", body, {64, 1024}),
                variant("other", "    t = torch.tanh(in_0)\n    return (t,)\n", {8}),
                variant("secret", body, {2, 2}, true)};
  return t;
}

const char* kKernel =
    "extern \"C\" __global__ void relu_sigmoid(const float* x, float* out, long long n) {\n"
    "  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
    "  if (i < n) { float v = fmaxf(x[i], 0.f); out[i] = 1.f / (1.f + expf(-v)); }\n"
    "}\n";

std::string pass_with(const std::string& body) {
  return "import torch\n"
         "def pattern(x):\n"
         "    return torch.sigmoid(torch.relu(x))\n"
         "def replacement(x):\n" +
         body;
}

const char* kGoodBody =
    "    out = torch.empty_like(x)\n"
    "    n = x.numel()\n"
    "    launch(\"relu_sigmoid\", grid=cdiv(n, 256), block=256, args=(x, out, n))\n"
    "    return out\n";

class CompileOnly : public ::testing::Test {
 protected:
  void SetUp() override {
    auto c = nvrtc_compile_function();
    if (!c.ok()) GTEST_SKIP() << "NVRTC unavailable: " << c.error().message;
    compile_ = *c;
  }
  CompileOnlyResult run(std::map<std::string, std::string> files, const Task& task = relu_task()) {
    auto ws = PassWorkspace::from_files(std::move(files));
    EXPECT_TRUE(ws.ok()) << ws.error().message;
    auto r = evaluate_compile_only(task, *ws, compile_, OpRegistry::builtin());
    EXPECT_TRUE(r.ok()) << r.error().message;
    return r.ok() ? *r : CompileOnlyResult{};
  }
  KernelCompiler compile_;
};

TEST_F(CompileOnly, MatchesDryRunsAndReportsPerVariant) {
  CompileOnlyResult r = run({{"passes/Fuse.py", pass_with(kGoodBody)}, {"kernels/k.cu", kKernel}});
  EXPECT_EQ(r.failure, FailureClass::none) << r.message;
  ASSERT_EQ(r.variants.size(), 4u);
  EXPECT_EQ(r.variants[0].failure, FailureClass::none) << r.variants[0].message;
  EXPECT_EQ(r.variants[1].failure, FailureClass::none) << r.variants[1].message;
  EXPECT_EQ(r.variants[2].failure, FailureClass::pass_miss);
  EXPECT_EQ(r.variants[2].message,
            "Fuse (passes/Fuse.py) does not match: the variant has no 'sigmoid' node (its ops: "
            "tanh)\n  pattern line 3: t1 = torch.sigmoid(t0)");
  EXPECT_TRUE(r.variants[3].hidden);
  EXPECT_FALSE(r.ok());

  json j = r.to_json();
  EXPECT_EQ(j["mode"], "compile_only");
  EXPECT_TRUE(j["as"].is_null());
  EXPECT_TRUE(j["failure_class"].is_null());
  EXPECT_EQ(j["ok"], false);
  EXPECT_EQ(j["summary"]["variants"], 4);
  EXPECT_EQ(j["summary"]["pass_miss"], 1);
  EXPECT_EQ(j["summary"]["hidden_variants"], 1);
  EXPECT_EQ(j["compile"]["status"], "ok");
  const json& big = j["variants"][1];
  EXPECT_EQ(big["name"], "big");
  EXPECT_TRUE(big["failure_class"].is_null());
  EXPECT_EQ(big["matched"], true);
  EXPECT_EQ(big["matches"][0]["pass"], "Fuse");
  EXPECT_EQ(big["matches"][0]["count"], 1);
  ASSERT_EQ(big["launches"].size(), 1u);
  EXPECT_EQ(big["launches"][0]["kernel"], "relu_sigmoid");
  EXPECT_EQ(big["launches"][0]["grid"], json::array({256, 1, 1}));
  EXPECT_EQ(big["launches"][0]["args"],
            json::array({"tensor float32[64, 1024]", "tensor float32[64, 1024]", "65536"}));
  EXPECT_NE(big["rewritten"].get<std::string>().find("u = pass.Fuse(in_0)  # float32[64, 1024]"),
            std::string::npos)
      << big["rewritten"];
  EXPECT_EQ(j["variants"][2]["failure_class"], "pass_miss");
  EXPECT_EQ(j["variants"][3]["hidden"], true);
}

TEST_F(CompileOnly, LoadErrorsAreCompileFailures) {
  CompileOnlyResult r = run({{"passes/Fuse.py", pass_with("    return torch.sigmoid(x)\n")}});
  EXPECT_EQ(r.failure, FailureClass::compile_fail);
  EXPECT_EQ(r.message,
            "passes/Fuse.py:5:12: replacement bodies cannot compute: 'torch.sigmoid' is a tensor "
            "op; write a kernel and launch it");
  EXPECT_TRUE(r.variants.empty());
  EXPECT_EQ(r.to_json()["failure_class"], "compile_fail");
}

TEST_F(CompileOnly, KernelCompileErrorsComeBackWithTheirLine) {
  CompileOnlyResult r =
      run({{"passes/Fuse.py", pass_with(kGoodBody)},
           {"kernels/k.cu", "extern \"C\" __global__ void relu_sigmoid() {\n  oops;\n}\n"}});
  EXPECT_EQ(r.failure, FailureClass::compile_fail);
  EXPECT_NE(r.message.find("kernels/k.cu(2): error: identifier \"oops\" is undefined"),
            std::string::npos)
      << r.message;
}

TEST_F(CompileOnly, LaunchSitesAreCheckedAgainstTheKernels) {
  CompileOnlyResult unknown =
      run({{"passes/Fuse.py",
            pass_with("    out = torch.empty_like(x)\n"
                      "    launch(\"relu_sigmod\", grid=1, block=1, args=(x, out, 1))\n"
                      "    return out\n")},
           {"kernels/k.cu", kKernel}});
  EXPECT_EQ(unknown.failure, FailureClass::compile_fail);
  EXPECT_EQ(unknown.message,
            "passes/Fuse.py:6:5: launch of unknown kernel 'relu_sigmod' (did you mean "
            "'relu_sigmoid'?); kernels: relu_sigmoid (kernels must be extern \"C\" __global__)");
  CompileOnlyResult arity = run(
      {{"passes/Fuse.py", pass_with("    out = torch.empty_like(x)\n"
                                    "    launch(\"relu_sigmoid\", grid=1, block=1, args=(x, out))\n"
                                    "    return out\n")},
       {"kernels/k.cu", kKernel}});
  EXPECT_EQ(arity.failure, FailureClass::compile_fail);
  EXPECT_EQ(arity.message,
            "passes/Fuse.py:6:5: kernel 'relu_sigmoid' takes 3 parameters, launch passes 2 (x: "
            "const float* @0+8, out: float* @8+8, n: long long @16+8)");
}

TEST_F(CompileOnly, DryRunFailuresAreClassifiedPerVariant) {
  // One thread per element: fine for 32 elements, too many for 65536.
  CompileOnlyResult r =
      run({{"passes/Fuse.py",
            pass_with("    out = torch.empty_like(x)\n"
                      "    n = x.numel()\n"
                      "    launch(\"relu_sigmoid\", grid=1, block=n, args=(x, out, n))\n"
                      "    if n > 1000:\n"
                      "        return torch.empty(n, dtype=x.dtype)\n"
                      "    return out\n")},
           {"kernels/k.cu", kKernel}});
  EXPECT_EQ(r.failure, FailureClass::none) << r.message;
  EXPECT_EQ(r.variants[0].failure, FailureClass::none) << r.variants[0].message;
  EXPECT_EQ(r.variants[1].failure, FailureClass::runtime_fail);
  EXPECT_NE(r.variants[1].message.find("passes/Fuse.py:7:5: "), std::string::npos)
      << r.variants[1].message;
  EXPECT_NE(r.variants[1].message.find("65536"), std::string::npos) << r.variants[1].message;

  CompileOnlyResult shape =
      run({{"passes/Fuse.py", pass_with("    return torch.empty(x.numel(), dtype=x.dtype)\n")}});
  EXPECT_EQ(shape.variants[0].failure, FailureClass::shape_mismatch);
  EXPECT_EQ(shape.variants[0].message,
            "passes/Fuse.py:5:5: output 1 ('t1') is float32[32]; the pattern's output is "
            "float32[4, 8]");
  EXPECT_EQ(shape.to_json()["variants"][0]["failure_class"], "shape_mismatch");
}

TEST_F(CompileOnly, StaticSourceFlagsBecomeHackFlags) {
  std::string timed = std::string(kKernel) +
                      "extern \"C\" __global__ void stamp(long long* t) { *t = clock64(); }\n";
  CompileOnlyResult r = run({{"passes/Fuse.py", pass_with(kGoodBody)}, {"kernels/k.cu", timed}});
  EXPECT_EQ(r.hack_flags, (std::vector<std::string>{"timer_read"}));
  EXPECT_EQ(r.to_json()["hack_flags"], json::array({"timer_read"}));
}

TEST(CompileOnlyNoKernels, DoesNotNeedTheCompiler) {
  KernelCompiler refuse =
      [](const std::map<std::string, std::string>&) -> Result<nvrtc::CompileOutcome> {
    ADD_FAILURE() << "the compiler was called";
    return make_error(ErrorCode::unavailable, "no compiler");
  };
  auto ws = PassWorkspace::from_files(
      {{"passes/Fuse.py", pass_with("    return torch.zeros_like(x)\n")}});
  ASSERT_TRUE(ws.ok());
  auto r = evaluate_compile_only(relu_task(), *ws, refuse, OpRegistry::builtin());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->variants[0].failure, FailureClass::none) << r->variants[0].message;
}

TEST(CompileOnlyNoKernels, AnUnusableCompilerIsAnError) {
  KernelCompiler broken =
      [](const std::map<std::string, std::string>&) -> Result<nvrtc::CompileOutcome> {
    return make_error(ErrorCode::unavailable, "NVRTC not found");
  };
  auto ws = PassWorkspace::from_files(
      {{"passes/Fuse.py", pass_with(kGoodBody)}, {"kernels/k.cu", kKernel}});
  ASSERT_TRUE(ws.ok());
  auto r = evaluate_compile_only(relu_task(), *ws, broken, OpRegistry::builtin());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "NVRTC not found");
}

}  // namespace
}  // namespace pf::passes::test
