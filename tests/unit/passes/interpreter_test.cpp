// The replacement interpreter: every construct of the language on concrete
// values, launch marshalling and validation, return checks, and the run-time
// errors the load-time check cannot see. The backend here records what the
// interpreter asks of the device (the GPU backend is exercised on the GPU).
#include "evaluator/passes/interpreter.h"

#include <gtest/gtest.h>

#include <chrono>

#include "tests/unit/passes/pass_test_util.h"

namespace pf::passes::test {
namespace {

class RecordingBackend : public ReplacementBackend {
 public:
  Status allocate(int handle, const TensorType& type, bool zero) override {
    allocations.push_back({handle, type, zero});
    return ok_status();
  }
  Result<CUdeviceptr> data_ptr(int handle) override {
    return CUdeviceptr{0x10000} * static_cast<CUdeviceptr>(handle + 1);
  }
  const cuda::DeviceLimits& device_limits() const override { return limits; }
  Result<cuda::FunctionLimits> function_limits(const cuda::KernelInfo&) override {
    return function;
  }
  Status launch(const cuda::KernelInfo& k, const cuda::LaunchConfig& c,
                cuda::ArgPack args) override {
    launched.push_back(k.name + " " + c.describe() + " " + std::to_string(args.size()) + "B");
    return ok_status();
  }
  struct Alloc {
    int handle;
    TensorType type;
    bool zero;
  };
  std::vector<Alloc> allocations;
  std::vector<std::string> launched;
  cuda::DeviceLimits limits;
  cuda::FunctionLimits function;
};

cuda::KernelParam param(size_t offset, size_t size, cuda::ParamKind kind, std::string name) {
  cuda::KernelParam p;
  p.offset = offset;
  p.size = size;
  p.kind = kind;
  p.name = std::move(name);
  return p;
}

// k(const float* x, float* out, int n, float eps)
KernelTable kernels() {
  cuda::KernelInfo k;
  k.name = "scale";
  k.params = {
      param(0, 8, cuda::ParamKind::pointer, "x"), param(8, 8, cuda::ParamKind::pointer, "out"),
      param(16, 4, cuda::ParamKind::integer, "n"), param(20, 4, cuda::ParamKind::floating, "eps")};
  return kernel_table({k});
}

const char* kPattern =
    "import torch\n"
    "def pattern(x, y, s):\n"
    "    return torch.relu(x + y).reshape(s)\n"
    "def replacement(x, y, s):\n";  // the body starts on line 5

TensorMeta f32(Shape shape) {
  return TensorMeta::contiguous({DType::float32, std::move(shape)});
}

struct Outcome {
  Result<ReplacementRun> run = make_error(ErrorCode::internal, "not run");
  FailureClass failure = FailureClass::none;
  RecordingBackend backend;
};

// x: float32[4, 8] (handle 0), y: the given value, s: (32,) unless given.
std::unique_ptr<Outcome> run(const std::string& body, RValue y = RValue::integer(1),
                             std::vector<TensorType> expected = {{DType::float32, {32}}},
                             std::vector<TensorMeta> tensors = {f32({4, 8})},
                             RValue s = RValue::tuple({RValue::integer(32)})) {
  auto out = std::make_unique<Outcome>();
  auto pass = pass_from(std::string(kPattern) + body);
  EXPECT_TRUE(pass.ok()) << pass.error().message;
  if (!pass.ok()) return out;
  static const KernelTable kTable = kernels();
  ReplacementInterpreter interp(*pass, kTable, out->backend);
  out->run =
      interp.run(std::move(tensors), {RValue::of_tensor(0), std::move(y), std::move(s)}, expected);
  out->failure = interp.failure_class();
  return out;
}

std::string error_of(const std::string& body, RValue y = RValue::integer(1)) {
  auto o = run(body, std::move(y));
  return o->run.ok() ? "" : o->run.error().message;
}

TEST(Interpreter, AllocatesLaunchesAndReturns) {
  auto o = run(
      "    n = x.numel()\n"
      "    out = torch.empty(s, dtype=x.dtype)\n"
      "    scratch = torch.zeros(2, 3, dtype=torch.int64)\n"
      "    threads = min(256, n)\n"
      "    launch(\"scale\", grid=(cdiv(n, threads), 1), block=threads, args=(x, out, n, 1e-5))\n"
      "    return out\n");
  ASSERT_TRUE(o->run.ok()) << o->run.error().message;
  EXPECT_EQ(o->failure, FailureClass::none);
  const ReplacementRun& r = *o->run;
  ASSERT_EQ(r.outputs, (std::vector<int>{1}));
  ASSERT_EQ(r.tensors.size(), 3u);
  EXPECT_EQ(r.tensors[2].type(), (TensorType{DType::int64, {2, 3}}));
  ASSERT_EQ(o->backend.allocations.size(), 2u);
  EXPECT_FALSE(o->backend.allocations[0].zero);
  EXPECT_TRUE(o->backend.allocations[1].zero);
  ASSERT_EQ(r.launches.size(), 1u);
  EXPECT_EQ(r.launches[0].kernel, "scale");
  EXPECT_EQ(r.launches[0].config.grid, (std::array<int64_t, 3>{1, 1, 1}));
  EXPECT_EQ(r.launches[0].config.block, (std::array<int64_t, 3>{32, 1, 1}));
  EXPECT_EQ(r.launches[0].args, (std::vector<std::string>{"tensor float32[4, 8]",
                                                          "tensor float32[32]", "32", "1e-05"}));
  EXPECT_EQ(r.launches[0].line, 9);
  EXPECT_EQ(o->backend.launched,
            (std::vector<std::string>{"scale grid (1,1,1) block (32,1,1) smem 0 24B"}));
}

TEST(Interpreter, Metadata) {
  // x: a transposed view float16[8, 4] with strides (1, 8), offset 3.
  TensorMeta t{DType::float16, {8, 4}, {1, 8}, 3};
  auto o =
      run("    a = (x.shape, x.size(), x.size(-1), x.stride(), x.stride(0), x.numel(), x.dim())\n"
          "    b = (x.ndim, x.is_contiguous(), x.element_size(), x.dtype == torch.float16)\n"
          "    if a == ((8, 4), (8, 4), 4, (1, 8), 1, 32, 2) and b == (2, False, 2, True):\n"
          "        return torch.empty(s)\n"
          "    return x\n",
          RValue::integer(0), {{DType::float32, {32}}}, {t});
  ASSERT_TRUE(o->run.ok()) << o->run.error().message;
  EXPECT_EQ(o->run->outputs, (std::vector<int>{1}));
}

TEST(Interpreter, IntegerSemanticsLikePython) {
  auto o =
      run("    r = (-7 // 2, -7 % 2, 7 // -2, 7 % -2, cdiv(7, 2), cdiv(-7, 2), min((3, 1, 2)))\n"
          "    q = (max(4, 9, 2), (1, 2, 3, 4)[::-1], (1, 2, 3)[1:], (1,) + (2,), s[-1])\n"
          "    b = (0 or 5, 3 and 4, 2 if False else 6, not 0, 1 < 2 < 3, 1 < 3 < 2)\n"
          "    ok = r == (-4, 1, -4, -1, 4, -3, 1) and q == (9, (4, 3, 2, 1), (2, 3), (1, 2), 32)\n"
          "    if ok and b == (5, 4, 6, True, True, False):\n"
          "        return torch.empty(s)\n"
          "    return x\n");
  ASSERT_TRUE(o->run.ok()) << o->run.error().message;
  EXPECT_EQ(o->run->outputs, (std::vector<int>{1}));
}

TEST(Interpreter, IfElifElseAndUnpacking) {
  const std::string body =
      "    rows, cols = x.shape\n"
      "    n = rows\n"
      "    n += cols\n"
      "    if y is None:\n"
      "        k = 1\n"
      "    elif y == 2.5:\n"
      "        k = 2\n"
      "    else:\n"
      "        k = 3\n"
      "    return torch.empty(n * k)\n";
  EXPECT_EQ(run(body, RValue::none(), {{DType::float32, {12}}})->run->tensors.back().shape,
            (Shape{12}));
  EXPECT_EQ(run(body, RValue::real(2.5), {{DType::float32, {24}}})->run->tensors.back().shape,
            (Shape{24}));
  EXPECT_EQ(run(body, RValue::integer(0), {{DType::float32, {36}}})->run->tensors.back().shape,
            (Shape{36}));
}

TEST(Interpreter, ReturnedTypesAreChecked) {
  auto dtype = run("    return torch.empty(s, dtype=torch.float16)\n");
  EXPECT_EQ(dtype->failure, FailureClass::dtype_mismatch);
  EXPECT_EQ(dtype->run.error().message,
            "passes/Fuse.py:5:5: output 1 ('t2') is float16[32]; the pattern's output is "
            "float32[32] (allocate it with dtype=)");
  auto shape = run("    return torch.empty(4, 8)\n");
  EXPECT_EQ(shape->failure, FailureClass::shape_mismatch);
  EXPECT_EQ(shape->run.error().message,
            "passes/Fuse.py:5:5: output 1 ('t2') is float32[4, 8]; the pattern's output is "
            "float32[32]");
  auto count = run("    both = (x, x)\n    return both\n");
  EXPECT_EQ(count->failure, FailureClass::runtime_fail);
}

TEST(Interpreter, RunTimeErrors) {
  struct Case {
    std::string body;
    RValue y;
    std::string message;
  };
  const RValue tensor_y = RValue::of_tensor(0);
  const std::vector<Case> cases = {
      {"    e = y + 1\n    return x\n", RValue::real(1e-5),
       "5:11: arithmetic on floats is not allowed in replacement bodies: floats can only be "
       "passed to kernels (do float math in the kernel)"},
      {"    e = y + 1\n    return x\n", tensor_y,
       "5:11: replacement bodies cannot compute on tensors; write a kernel and launch it"},
      {"    e = 1 // (y - 1)\n    return x\n", RValue::integer(1),
       "5:11: integer division by zero ('//')"},
      {"    e = y * y * y\n    return x\n", RValue::integer(int64_t{1} << 40),
       "5:11: integer overflow in '*'"},
      {"    e = s[3]\n    return x\n", RValue::integer(1),
       "5:11: index 3 is out of range for a tuple of 1 ((32,))"},
      {"    e = y[0]\n    return x\n", tensor_y,
       "5:9: subscripting a tensor is not allowed: replacement bodies cannot read or slice "
       "tensors; pass it to a kernel"},
      {"    if y:\n        pass\n    return x\n", tensor_y,
       "5:8: the truth value of a tensor is not defined here; compare metadata instead "
       "(x.numel() > 0, ...)"},
      {"    e = y == x\n    return x\n", tensor_y,
       "5:11: tensors cannot be compared; compare their metadata (x.shape, x.dtype, ...)"},
      {"    if y == 0:\n        k = 1\n    return torch.empty(k)\n", RValue::integer(1),
       "7:24: name 'k' is not defined here (assigned only in a branch that did not run?)"},
      {"    a, b = s\n    return x\n", RValue::integer(1),
       "5:5: cannot unpack 1 values into 2 names"},
      {"    e = x.size(2)\n    return x\n", RValue::integer(1),
       "5:9: dim 2 is out of range for a 2-d tensor"},
      {"    e = torch.empty(y)\n    return e\n", RValue::integer(-1),
       "5:9: torch.empty: negative dimension -1"},
      {"    e = torch.empty(y, y)\n    return e\n", RValue::integer(int64_t{1} << 20),
       "5:9: torch.empty of float32[1048576, 1048576] exceeds the allocation limit of 16384 MiB "
       "per replacement call"},
      {"    e = torch.empty(s, dtype=y)\n    return e\n", RValue::integer(1),
       "5:24: dtype= must be a dtype such as torch.float16 or x.dtype, got 1"},
      {"    e = x.numel() + y\n    return x\n", RValue::string("a"),
       "5:19: operator '+' needs ints, got an int and a string (32, 'a')"},
      {"    launch(\"scal\", grid=1, block=32, args=(x, x, 1, 0.5))\n    return x\n",
       RValue::integer(1),
       "5:12: no kernel named 'scal' in kernels/ (did you mean 'scale'?); kernels: scale "
       "(kernels must be extern \"C\" __global__)"},
      {"    launch(\"scale\", grid=1, block=32, args=(x, x, 1))\n    return x\n",
       RValue::integer(1),
       "5:5: kernel 'scale' takes 4 parameters, launch passes 3 (parameters: x: pointer @0+8, "
       "out: pointer @8+8, n: integer @16+4, eps: floating @20+4)"},
      {"    launch(\"scale\", grid=1, block=32, args=(x, x, x, 0.5))\n    return x\n",
       RValue::integer(1),
       "5:5: kernel 'scale': parameter 2 ('n') is 4 bytes, integer, got a tensor (8-byte "
       "pointer)"},
      {"    launch(\"scale\", grid=1, block=32, args=(x, x, y, 0.5))\n    return x\n",
       RValue::of_dtype(DType::float16),
       "5:5: launch argument 3 is a dtype (torch.float16); kernels take tensors, ints and floats"},
      {"    launch(\"scale\", grid=0, block=32, args=(x, x, 1, 0.5))\n    return x\n",
       RValue::integer(1),
       "5:21: grid.x is 0; a launch needs at least 1 (skip empty tensors with an if)"},
      {"    launch(\"scale\", grid=(1, 2, 3, 4), block=32, args=(x, x, 1, 0.5))\n    return x\n",
       RValue::integer(1), "5:21: grid must be an int or a tuple of 1 to 3 ints, got (1, 2, 3, 4)"},
      {"    launch(\"scale\", grid=1, block=32, args=x)\n    return x\n", RValue::integer(1),
       "5:39: args= must be a tuple, e.g. args=(x, out, n); got a tensor"},
      {"    launch(y, grid=1, block=32)\n    return x\n", RValue::integer(3),
       "5:12: the kernel name must be a string, got an int"},
      {"    return s\n", RValue::integer(1),
       "5:5: output 1 ('t2') is an int; the replacement must return tensors"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(error_of(c.body, c.y), "passes/Fuse.py:" + c.message) << c.body;
  }
  // validate_launch's messages, through the interpreter (the device limits are the defaults).
  EXPECT_NE(
      error_of("    launch(\"scale\", grid=1, block=2048, args=(x, x, 1, 0.5))\n    return x\n")
          .find("block.x = 2048"),
      std::string::npos);
  EXPECT_NE(error_of("    launch(\"scale\", grid=1, block=32, smem=1048576, args=(x, x, 1, 0.5))\n"
                     "    return x\n")
                .find("shared memory"),
            std::string::npos);
}

TEST(Interpreter, LaunchAndAllocationCaps) {
  auto pass =
      pass_from(std::string(kPattern) +
                "    a = torch.empty(1)\n    b = torch.empty(1)\n"
                "    launch(\"scale\", grid=1, block=1, args=(a, b, 1, 0.5))\n"
                "    launch(\"scale\", grid=1, block=1, args=(a, b, 1, 0.5))\n    return x\n");
  ASSERT_TRUE(pass.ok()) << pass.error().message;
  RecordingBackend backend;
  KernelTable table = kernels();
  InterpreterLimits one;
  one.max_launches = 1;
  ReplacementInterpreter launches(*pass, table, backend, one);
  auto r = launches.run({f32({4, 8})}, {RValue::of_tensor(0), RValue::integer(1), RValue::none()},
                        {{DType::float32, {4, 8}}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "passes/Fuse.py:8:5: more than 1 launches in one replacement call");
  InterpreterLimits alloc;
  alloc.max_allocations = 1;
  ReplacementInterpreter allocs(*pass, table, backend, alloc);
  r = allocs.run({f32({4, 8})}, {RValue::of_tensor(0), RValue::integer(1), RValue::none()},
                 {{DType::float32, {4, 8}}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "passes/Fuse.py:6:9: more than 1 allocations in one replacement call");
}

// The memory bomb of issue 17: a 605-byte replacement doubling a tuple 24
// times drove a worker to 4.37 GB. It must stop at the value-size cap, long
// before the memory is used, as resource_limit naming the limit.
TEST(Interpreter, TupleDoublingBombEndsInResourceLimit) {
  std::string body = "    t = (1, 2, 3, 4, 5, 6, 7, 8)\n";
  for (int k = 0; k < 24; ++k) body += "    t = t + t\n";
  body += "    return x\n";
  const auto start = std::chrono::steady_clock::now();
  auto o = run(body);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  ASSERT_FALSE(o->run.ok());
  EXPECT_EQ(o->failure, FailureClass::resource_limit);
  EXPECT_NE(o->run.error().message.find("4096 items per tuple"), std::string::npos)
      << o->run.error().message;
}

// Nesting instead of concatenating: each tuple stays short while the value
// (copied on every use) doubles; the per-call cell budget stops it.
TEST(Interpreter, NestedTupleBombEndsInResourceLimit) {
  std::string body = "    t = (1, 2)\n";
  for (int k = 0; k < 30; ++k) body += "    t = (t, t)\n";
  body += "    return x\n";
  auto o = run(body);
  ASSERT_FALSE(o->run.ok());
  EXPECT_EQ(o->failure, FailureClass::resource_limit);
  EXPECT_NE(o->run.error().message.find("value cells"), std::string::npos)
      << o->run.error().message;
}

TEST(Interpreter, AllocationCapIsAResourceLimit) {
  auto o = run("    a = torch.empty(1048576, 1048576)\n    return x\n");
  ASSERT_FALSE(o->run.ok());
  EXPECT_EQ(o->failure, FailureClass::resource_limit);
  EXPECT_NE(o->run.error().message.find("16384 MiB"), std::string::npos) << o->run.error().message;
}

}  // namespace
}  // namespace pf::passes::test
