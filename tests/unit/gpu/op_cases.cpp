#include "tests/unit/gpu/op_cases.h"

namespace pf::gpu::test {
namespace {

// NOLINTNEXTLINE(readability-identifier-naming): reads as the cases' own `F.`
const std::string F = "torch.nn.functional.";

void add_arith_cases(std::vector<OpCase>& c) {
  // ---------------------------------------------------------------------
  // The example to copy when adding an op:
  //   op      the canonical op name (OpRegistry); the coverage test checks
  //           that every GPU op has at least one case;
  //   params  the function's parameters, one per input below;
  //   body    what the function returns (graph dialect, i.e. PyTorch);
  //   inputs  shape and value range of each input ('T' = the swept dtype;
  //           typed('b', ...) for a bool mask, 'l' int64, 'f' float32);
  //   dtypes  the dtypes swept. Odd sizes exercise vector tails; the test
  //           also runs every case with input 0 transposed, strided and at
  //           an unaligned offset.
  c.push_back({"add", "x, y", "torch.add(x, y, alpha=2)", {in({37, 65}), in({65})}, kNum});
  // ---------------------------------------------------------------------
  c.push_back({"add", "x, y", "x + y", {in({37, 65}), in({37, 65})}, kAll});
  c.push_back({"add", "x", "x + 3", {in({1000})}, kNum});
  c.push_back({"add", "x, y", "x + y", {in({5, 1, 40}), typed('f', {7, 1})}, kAll});
  c.push_back({"sub", "x, y", "x - y", {in({37, 65}), in({1, 65})}, kNum});
  c.push_back({"rsub", "x, y", "torch.rsub(x, y, alpha=3)", {in({33, 17}), in({17})}, kNum});
  c.push_back({"mul", "x, y", "x * y", {in({4, 33, 9}), in({33, 1})}, kAll});
  c.push_back({"mul", "x", "x * 2.5", {in({1001})}, kAll});
  c.push_back({"div", "x, y", "x / y", {in({37, 65}), in({65}, 0.5, 2, 1, 3)}, kNum});
  c.push_back({"div",
               "x, y",
               "torch.div(x, y, rounding_mode='trunc')",
               {in({37, 65}, -9, 9, -20, 20), in({65}, 0.5, 2, 1, 4)},
               kNum});
  c.push_back({"div",
               "x, y",
               "torch.div(x, y, rounding_mode='floor')",
               {in({37, 65}, -9, 9, -20, 20), in({65}, -2, -0.5, 1, 4)},
               kNum});
  c.push_back({"floor_divide",
               "x, y",
               "x // y",
               {in({37, 65}, -9, 9, -20, 20), in({37, 65}, 0.5, 2, 1, 4)},
               kNum});
  c.push_back(
      {"remainder", "x, y", "x % y", {in({37, 65}, -9, 9, -20, 20), in({65}, 0.5, 2, 1, 4)}, kNum});
  c.push_back({"fmod",
               "x, y",
               "torch.fmod(x, y)",
               {in({37, 65}, -9, 9, -20, 20), in({65}, 0.5, 2, 1, 4)},
               kNum});
  c.push_back({"pow",
               "x, y",
               "torch.pow(x, y)",
               {in({37, 65}, 0.1, 2, 0, 3), in({37, 65}, -2, 2, 0, 3)},
               kNum});
  c.push_back({"pow", "x", "x ** 2", {in({999})}, kNum});
  c.push_back({"maximum", "x, y", "torch.maximum(x, y)", {in({37, 65}), in({65})}, kAll});
  c.push_back({"minimum", "x, y", "torch.minimum(x, y)", {in({37, 65}), in({65})}, kAll});
  c.push_back({"fmax", "x, y", "torch.fmax(x, y)", {in({37, 65}), in({65})}, kNum});
  c.push_back({"fmin", "x, y", "torch.fmin(x, y)", {in({37, 65}), in({65})}, kNum});
  c.push_back({"neg", "x", "-x", {in({37, 65})}, kNum});
  c.push_back({"abs", "x", "torch.abs(x)", {in({37, 65})}, kNum});
  c.push_back({"square", "x", "torch.square(x)", {in({37, 65})}, kAll});
  c.push_back({"sign", "x", "torch.sign(x)", {in({37, 65})}, kAll});
  c.push_back({"relu", "x", "torch.relu(x)", {in({37, 65})}, kNum});
  c.push_back({"relu6", "x", "torch.nn.functional.relu6(x)", {in({37, 65}, -3, 9, -3, 9)}, kNum});
  c.push_back(
      {"hardtanh", "x", "torch.nn.functional.hardtanh(x, -0.5, 1.5)", {in({37, 65})}, kFloat});
  c.push_back({"ceil", "x", "torch.ceil(x)", {in({37, 65}, -5, 5)}, kNum});
  c.push_back({"floor", "x", "torch.floor(x)", {in({37, 65}, -5, 5)}, kNum});
  c.push_back({"trunc", "x", "torch.trunc(x)", {in({37, 65}, -5, 5)}, kNum});
  c.push_back({"round", "x", "torch.round(x)", {in({37, 65}, -5, 5)}, kNum});
  c.push_back({"round", "x", "torch.round(x, decimals=2)", {in({37, 65}, -5, 5)}, kFloat});
  c.push_back({"round", "x", "torch.round(x, decimals=-1)", {in({37, 65}, -90, 90)}, kFloat});
  c.push_back({"nan_to_num",
               "x",
               "torch.nan_to_num(torch.log(x), nan=0.5)",
               {in({37, 65}, -1, 1)},
               kFloat});
}

void add_math_cases(std::vector<OpCase>& c) {
  // Float math: integers promote to float32.
  struct Math {
    const char* name;
    double lo, hi;
    int64_t ilo, ihi;
  };
  for (Math m : {Math{"exp", -3, 3, -3, 3},       Math{"exp2", -3, 3, -3, 3},
                 Math{"expm1", -3, 3, -3, 3},     Math{"log", 0.1, 4, 1, 5},
                 Math{"log2", 0.1, 4, 1, 5},      Math{"log10", 0.1, 4, 1, 5},
                 Math{"log1p", -0.5, 3, 0, 5},    Math{"sqrt", 0.1, 4, 0, 9},
                 Math{"rsqrt", 0.1, 4, 1, 9},     Math{"sin", -3, 3, -3, 3},
                 Math{"cos", -3, 3, -3, 3},       Math{"tan", -1.2, 1.2, -1, 1},
                 Math{"asin", -0.95, 0.95, 0, 0}, Math{"acos", -0.95, 0.95, 0, 0},
                 Math{"atan", -3, 3, -3, 3},      Math{"sinh", -3, 3, -3, 3},
                 Math{"cosh", -3, 3, -3, 3},      Math{"tanh", -3, 3, -3, 3},
                 Math{"sigmoid", -5, 5, -5, 5},   Math{"erf", -2, 2, -2, 2},
                 Math{"erfc", -2, 2, -2, 2},      Math{"reciprocal", 0.5, 3, 1, 4}}) {
    c.push_back({m.name,
                 "x",
                 std::string("torch.") + m.name + "(x)",
                 {in({37, 65}, m.lo, m.hi, m.ilo, m.ihi)},
                 kFloatAndLong});
  }
  // Two-operand float math; hypot and logaddexp take floating operands only.
  for (const char* name : {"atan2", "copysign", "xlogy"}) {
    c.push_back({name,
                 "x, y",
                 std::string("torch.") + name + "(x, y)",
                 {in({37, 65}, -3, 3), in({65}, 0.1, 3)},
                 kNum});
  }
  for (const char* name : {"hypot", "logaddexp"}) {
    c.push_back({name,
                 "x, y",
                 std::string("torch.") + name + "(x, y)",
                 {in({37, 65}, -3, 3), in({37, 1}, -3, 3)},
                 kFloat});
  }
  c.push_back({"logit", "x", "torch.logit(x)", {in({37, 65}, 0.01, 0.99, 0, 1)}, kAll});
  c.push_back({"logit", "x", "torch.logit(x, eps=0.05)", {in({37, 65}, -0.5, 1.5, -1, 2)}, kFloat});
  c.push_back({"lerp",
               "x, y, w",
               "torch.lerp(x, y, w)",
               {in({37, 65}), in({65}), in({37, 1}, -0.5, 1.5)},
               kFloat});
  c.push_back({"lerp", "x, y", "torch.lerp(x, y, 0.7)", {in({37, 65}), in({37, 65})}, kFloat});
  c.push_back({"heaviside",
               "x, y",
               "torch.heaviside(torch.round(x), y)",
               {in({37, 65}, -2, 2), in({65}, -1, 1)},
               kFloat});
  c.push_back({"heaviside", "x, y", "torch.heaviside(x, y)", {in({37, 65}), in({65})}, kInt});
  c.push_back({"float_power",
               "x, y",
               "torch.float_power(x, y)",
               {in({37, 65}, 0.1, 3, 0, 4), in({65}, -2, 2, 0, 3)},
               kNum});
  c.push_back({"float_power", "x", "torch.float_power(x, 3)", {in({1001}, -2, 2)}, kNum});
  // deg2rad / rad2deg / sinc / tanhshrink promote integers; frac is floating only.
  for (const char* name : {"deg2rad", "rad2deg", "sinc"}) {
    c.push_back({name, "x", std::string("torch.") + name + "(x)", {in({37, 65}, -4, 4)}, kNum});
  }
  c.push_back({"tanhshrink", "x", F + "tanhshrink(x)", {in({37, 65}, -4, 4)}, kNum});
  c.push_back({"frac", "x", "x.frac()", {in({37, 65}, -4, 4)}, kFloat});
  c.push_back({"silu", "x", F + "silu(x)", {in({37, 65}, -5, 5)}, kFloat});
  c.push_back({"hardswish", "x", F + "hardswish(x)", {in({37, 65}, -5, 5)}, kFloat});
  c.push_back({"hardsigmoid", "x", F + "hardsigmoid(x)", {in({37, 65}, -5, 5)}, kFloat});
  c.push_back({"mish", "x", F + "mish(x)", {in({37, 65}, -5, 5)}, kFloat});
  c.push_back({"logsigmoid", "x", F + "logsigmoid(x)", {in({37, 65}, -5, 5)}, kFloat});
  c.push_back({"softsign", "x", F + "softsign(x)", {in({37, 65}, -5, 5)}, kFloat});
  c.push_back({"selu", "x", F + "selu(x)", {in({37, 65})}, kFloat});
  c.push_back({"gelu", "x", F + "gelu(x)", {in({37, 65}, -4, 4)}, kFloat});
  c.push_back({"gelu", "x", F + "gelu(x, approximate='tanh')", {in({37, 65}, -4, 4)}, kFloat});
  c.push_back({"leaky_relu", "x", F + "leaky_relu(x, 0.2)", {in({37, 65})}, kFloat});
  c.push_back({"elu", "x", F + "elu(x, alpha=0.5)", {in({37, 65})}, kFloat});
  c.push_back({"celu", "x", F + "celu(x, 1.5)", {in({37, 65})}, kFloat});
  c.push_back(
      {"softplus", "x", F + "softplus(x, beta=2, threshold=5)", {in({37, 65}, -5, 5)}, kFloat});
  c.push_back({"threshold", "x", F + "threshold(x, 0.5, -1.0)", {in({37, 65})}, kFloat});
  c.push_back({"glu", "x", F + "glu(x, dim=-1)", {in({6, 64})}, kFloat});
  c.push_back({"glu", "x", F + "glu(x, dim=0)", {in({8, 33})}, kFloat});
  c.push_back({"prelu", "x, w", F + "prelu(x, w)", {in({4, 8, 5}), in({8})}, kFloat});
}

void add_logic_cases(std::vector<OpCase>& c) {
  // Comparisons, logic, predicates.
  const char* cmp_ops[][2] = {{"eq", "=="}, {"ne", "!="}, {"lt", "<"},
                              {"le", "<="}, {"gt", ">"},  {"ge", ">="}};
  for (auto& [name, sym] : cmp_ops) {
    c.push_back({name,
                 "x, y",
                 std::string("x ") + sym + " y",
                 {in({37, 65}, -2, 2, 0, 3), in({65}, -2, 2, 0, 3)},
                 kAll});
  }
  c.push_back({"lt", "x", "x < 0.5", {in({1000})}, kAll});
  for (const char* name : {"logical_and", "logical_or", "logical_xor"}) {
    c.push_back({name,
                 "x, y",
                 std::string("torch.") + name + "(x, y)",
                 {in({37, 65}, -1, 1, 0, 1), in({65}, -1, 1, 0, 1)},
                 kAll});
  }
  c.push_back({"logical_not", "x", "torch.logical_not(x)", {in({37, 65}, -1, 1, -1, 1)}, kAll});
  c.push_back({"bitwise_and",
               "x, y",
               "x & y",
               {in({37, 65}, 0, 0, -50, 50), in({65}, 0, 0, -50, 50)},
               kInt});
  c.push_back({"bitwise_or",
               "x, y",
               "x | y",
               {in({37, 65}, 0, 0, -50, 50), in({65}, 0, 0, -50, 50)},
               kInt});
  c.push_back({"bitwise_xor",
               "x, y",
               "x ^ y",
               {in({37, 65}, 0, 0, -50, 50), in({65}, 0, 0, -50, 50)},
               kInt});
  c.push_back({"bitwise_not", "x", "~x", {in({37, 65}, 0, 0, -50, 50)}, kInt});
  // Shifts: amounts up to past the narrowest width (PyTorch 2's out-of-range rule).
  const std::vector<DType> integers = {DType::uint8, DType::int8, DType::int16, DType::int32,
                                       DType::int64};
  c.push_back({"bitwise_left_shift",
               "x, y",
               "x << y",
               {in({37, 65}, 0, 0, -50, 50), in({65}, 0, 0, 0, 9)},
               integers});
  c.push_back({"bitwise_right_shift",
               "x, y",
               "torch.bitwise_right_shift(x, y)",
               {in({37, 65}, 0, 0, -50, 50), in({37, 1}, 0, 0, 0, 9)},
               integers});
  c.push_back({"bitwise_right_shift", "x", "x >> 2", {in({1001}, 0, 0, -99, 99)}, integers});
  c.push_back({"isnan", "x", "torch.isnan(torch.log(x))", {in({37, 65}, -1, 1)}, kFloat});
  c.push_back({"isnan", "x", "torch.isnan(x)", {in({37, 65})}, kNum});
  c.push_back({"isinf", "x", "torch.isinf(x * 1e38)", {in({37, 65}, -4, 4)}, kFloat});
  c.push_back({"isfinite", "x", "torch.isfinite(x * 1e38)", {in({37, 65}, -4, 4)}, kFloat});
  c.push_back({"isposinf", "x", "torch.isposinf(x * 1e38)", {in({37, 65}, -4, 4)}, kFloat});
  c.push_back({"isneginf", "x", "torch.isneginf(x * 1e38)", {in({37, 65}, -4, 4)}, kFloat});

  // Selection.
  c.push_back({"where",
               "m, x, y",
               "torch.where(m, x, y)",
               {typed('b', {37, 1}), in({37, 65}), in({65})},
               kAll});
  c.push_back(
      {"where", "m, x", "torch.where(m, x, 0.0)", {typed('b', {37, 65}), in({37, 65})}, kFloat});
  c.push_back(
      {"masked_fill", "x, m", "x.masked_fill(m, -1.5)", {in({37, 65}), typed('b', {65})}, kFloat});
  c.push_back(
      {"masked_fill", "x, m", "x.masked_fill(m, 3)", {in({37, 65}), typed('b', {37, 65})}, kNum});
  c.push_back({"clamp", "x", "torch.clamp(x, min=-0.5, max=0.5)", {in({37, 65})}, kFloat});
  c.push_back({"clamp", "x", "torch.clamp(x, 0, 2)", {in({37, 65})}, kNum});
  c.push_back({"clamp",
               "x, y, z",
               "torch.clamp(x, y, z)",
               {in({37, 65}), in({65}, -1, 0), in({37, 1}, 0, 1)},
               kFloat});
  c.push_back({"addcmul",
               "x, y, z",
               "torch.addcmul(x, y, z, value=0.5)",
               {in({37, 65}), in({65}), in({37, 1})},
               kFloat});
  c.push_back({"addcmul",
               "x, y, z",
               "x.addcmul(y, z, value=-2)",
               {in({37, 65}), in({37, 65}), in({65})},
               kNum});
  c.push_back({"addcdiv",
               "x, y, z",
               "torch.addcdiv(x, y, z, value=-0.5)",
               {in({37, 65}), in({37, 65}), in({65}, 0.5, 2)},
               kFloat});
  c.push_back({"outer", "x, y", "torch.outer(x, y)", {in({37}), in({65})}, kAll});
  c.push_back({"outer", "x, y", "x.outer(y)", {in({37}), typed('f', {65})}, kNum});
  c.push_back({"clamp_min", "x", "torch.clamp_min(x, 0.25)", {in({37, 65})}, kFloat});
  c.push_back({"clamp_max", "x", "x.clamp_max(0.25)", {in({37, 65})}, kFloat});
}

void add_copy_cases(std::vector<OpCase>& c) {
  // Casts, copies, reshapes.
  for (const char* to : {"torch.float16", "torch.bfloat16", "torch.float32", "torch.float64",
                         "torch.int64", "torch.int32", "torch.uint8", "torch.bool"}) {
    c.push_back(
        {"to", "x", std::string("x.to(") + to + ")", {in({37, 65}, -100, 300, -100, 300)}, kAll});
  }
  c.push_back({"to", "x", "x.to(torch.float32, copy=True)", {in({129})}, kFloat});
  c.push_back({"type_as", "x, y", "x.type_as(y)", {in({37, 65}), typed('h', {2})}, kAll});
  c.push_back({"contiguous", "x", "x.contiguous()", {in({37, 65})}, kAll});
  c.push_back({"clone", "x", "x.clone()", {in({37, 65})}, kAll});
  c.push_back({"reshape", "x", "x.reshape(-1, 5)", {in({37, 65})}, kAll});
  c.push_back({"flatten", "x", "torch.flatten(x, 1)", {in({3, 11, 13})}, kAll});
  c.push_back({"unflatten", "x", "x.unflatten(1, (5, 13))", {in({7, 65})}, kAll});
  c.push_back({"reshape_as", "x, y", "x.reshape_as(y)", {in({6, 10}), in({3, 20})}, kAll});
}

void add_creation_cases(std::vector<OpCase>& c) {
  // Creation.
  c.push_back({"zeros", "", "torch.zeros((3, 1001), dtype={T})", {}, kAll});
  c.push_back({"ones", "", "torch.ones((3, 1001), dtype={T})", {}, kAll});
  c.push_back({"empty", "", "torch.empty((3, 5), dtype={T}) + 1", {}, kNum});
  c.push_back({"full", "", "torch.full((4, 77), 2.5, dtype={T})", {}, kFloat});
  c.push_back({"full", "", "torch.full((4, 77), 3, dtype={T})", {}, kNum});
  c.push_back({"zeros_like", "x", "torch.zeros_like(x)", {in({37, 65})}, kAll});
  c.push_back({"ones_like", "x", "torch.ones_like(x)", {in({37, 65})}, kAll});
  c.push_back({"empty_like", "x", "torch.empty_like(x) * 0", {in({37, 65})}, kNum});
  c.push_back({"full_like", "x", "torch.full_like(x, 2)", {in({37, 65})}, kNum});
  c.push_back({"new_zeros", "x", "x.new_zeros((2, 33))", {in({5})}, kAll});
  c.push_back({"new_ones", "x", "x.new_ones((2, 33))", {in({5})}, kAll});
  c.push_back({"new_empty", "x", "x.new_empty((2, 33)) * 0", {in({5})}, kNum});
  c.push_back({"new_full", "x", "x.new_full((2, 33), 1.5)", {in({5})}, kFloat});
  c.push_back({"arange", "", "torch.arange(0, 500, 3)", {}, {DType::int64}});
  c.push_back({"arange", "", "torch.arange(0.5, 100.0, 0.25)", {}, {DType::float32}});
  c.push_back({"arange", "", "torch.arange(77, dtype={T})", {}, kNum});
  c.push_back({"linspace", "", "torch.linspace(-1.0, 2.0, 1001, dtype={T})", {}, kFloat});
  c.push_back({"linspace", "", "torch.linspace(0, 10, 7)", {}, {DType::float32}});
  c.push_back({"eye", "", "torch.eye(5, 7, dtype={T})", {}, kAll});
  c.push_back(
      {"tensor", "", "torch.tensor([[1.5, 2.0, -3.25], [3.0, -1.0, 0.5]], dtype={T})", {}, kFloat});
  c.push_back({"tensor", "", "torch.tensor([1, 2, 3])", {}, {DType::int64}});
  // 0-d literals and arithmetic on them: computed on the host, passed as parameters.
  c.push_back({"tensor",
               "x",
               "a = torch.tensor(2.5, dtype=torch.float32)\n    return x / torch.sqrt(a * 3)",
               {in({5, 33})},
               kFloat});
  c.push_back({"tensor", "x", "torch.tensor(3) * x - torch.tensor(1.5)", {in({5, 33})}, kNum});
  c.push_back({"new_tensor", "x", "x + x.new_tensor([[1, 2, 3]])", {in({5, 3})}, kAll});
  c.push_back({"triu", "x", "torch.triu(x, 1)", {in({3, 9, 11})}, kAll});
  c.push_back({"tril", "x", "torch.tril(x, -2)", {in({3, 9, 11})}, kAll});
}

void add_reduction_cases(std::vector<OpCase>& c) {
  // Reductions.
  c.push_back({"sum", "x", "torch.sum(x, dim=1)", {in({33, 130, 7})}, kAll});
  c.push_back({"sum", "x", "x.sum()", {in({3001})}, kAll});
  c.push_back({"sum", "x", "torch.sum(x, dim=(0, 2), keepdim=True)", {in({33, 13, 70})}, kFloat});
  c.push_back({"sum", "x", "torch.sum(x, dim=-1, dtype=torch.float32)", {in({17, 300})}, kHalves});
  // Long rows (the multi-block path). Positive values: a sum of 70,000 terms
  // of both signs can cancel to a value far smaller than its terms, where any
  // float32 accumulation order (PyTorch's too) misses t = -5 relative to the
  // result (one draw gave -20.06 against -20.0599).
  c.push_back({"sum",
               "x",
               "torch.sum(x, dim=-1)",
               {in({5, 70000}, 0, 1)},
               {DType::float32, DType::float64}});
  // Short outer reductions: one thread per four outputs (vector loads when
  // contiguous), the same split over blocks, rows shorter than a warp.
  c.push_back({"sum", "x", "torch.sum(x, dim=1)", {in({3, 2, 16, 12})}, kAll});
  c.push_back({"sum", "x", "torch.sum(x, dim=0)", {in({100, 8})}, kFloat});
  c.push_back({"mean", "x", "torch.mean(x, dim=-1)", {in({100, 7})}, kFloat});
  c.push_back({"var", "x", "torch.var(x, dim=0)", {in({5, 40})}, kFloat});
  c.push_back({"max_dim",
               "x",
               "v = torch.max(x, 0)\n    return (v[0], v[1])",
               {in({3, 64}, -2, 2, -3, 3)},
               kAll});
  c.push_back({"nansum", "x", "torch.nansum(x, 1)", {in({33, 130})}, kFloat});
  c.push_back({"prod", "x", "torch.prod(x, 1)", {in({13, 20}, 0.5, 1.5, -2, 2)}, kNum});
  c.push_back({"amax", "x", "torch.amax(x, dim=(1,))", {in({33, 130, 7})}, kAll});
  c.push_back({"amin", "x", "torch.amin(x, dim=-1)", {in({33, 130})}, kAll});
  c.push_back({"any", "x", "torch.any(x, 1)", {in({33, 130}, -1, 1, 0, 1)}, kAll});
  c.push_back({"all", "x", "x.all()", {in({1000}, 0.5, 1, 0, 1)}, kAll});
  c.push_back({"mean", "x", "torch.mean(x, dim=-1)", {in({33, 130})}, kFloat});
  c.push_back({"mean", "x", "x.mean(dim=(2, 3), keepdim=True)", {in({2, 8, 5, 7})}, kFloat});
  c.push_back({"mean", "x", "x.mean()", {in({100000}, -1, 1)}, {DType::float32}});
  c.push_back(
      {"mean", "x", "torch.mean(x, dim=1, dtype=torch.float32)", {in({9, 50})}, {DType::int64}});
  c.push_back({"max", "x", "torch.max(x)", {in({3001})}, kAll});
  c.push_back({"min", "x", "x.min()", {in({3001})}, kAll});
  c.push_back({"max_dim",
               "x",
               "v = torch.max(x, 1)\n    return (v[0], v[1])",
               {in({33, 130}, -2, 2, -3, 3)},
               kAll});
  c.push_back({"min_dim",
               "x",
               "v = torch.min(x, dim=0, keepdim=True)\n    return (v[0], v[1])",
               {in({130, 33}, -2, 2, -3, 3)},
               kAll});
  c.push_back({"argmax", "x", "torch.argmax(x, dim=1)", {in({33, 130}, -2, 2, -3, 3)}, kNum});
  c.push_back({"argmax", "x", "torch.argmax(x)", {in({33, 130})}, kNum});
  c.push_back({"argmin", "x", "x.argmin(-1, keepdim=True)", {in({33, 130}, -2, 2, -3, 3)}, kNum});
  c.push_back({"var", "x", "torch.var(x, dim=1)", {in({33, 130})}, kFloat});
  c.push_back({"var", "x", "torch.var(x, 1, False)", {in({33, 130})}, kFloat});
  c.push_back({"std", "x", "torch.std(x, -1, keepdim=True)", {in({33, 130})}, kFloat});
  c.push_back({"std", "x", "torch.std(x, dim=0, correction=0)", {in({5000, 3})}, kFloat});
  c.push_back({"norm", "x", "torch.norm(x, dim=-1)", {in({33, 130})}, kFloat});
  c.push_back(
      {"vector_norm", "x", "torch.linalg.vector_norm(x, ord=1, dim=0)", {in({130, 33})}, kFloat});
  c.push_back({"vector_norm",
               "x",
               "torch.linalg.vector_norm(x, 3.0, dim=1)",
               {in({33, 130}, 0.1, 2)},
               kFloat});
  // matrix_norm: vector_norm, then amax/amin over the other dim (PyTorch's
  // composite), with the dims in either order.
  c.push_back({"matrix_norm", "x", "torch.linalg.matrix_norm(x)", {in({4, 33, 30})}, kFloat});
  c.push_back({"matrix_norm",
               "x",
               "torch.linalg.matrix_norm(x, 1, dim=(0, 2), keepdim=True)",
               {in({9, 5, 40})},
               kFloat});
  c.push_back({"matrix_norm", "x", "torch.linalg.norm(x, float('-inf'))", {in({33, 40})}, kFloat});
  c.push_back({"matrix_norm",
               "x",
               "torch.linalg.matrix_norm(x, -1, dim=(-1, -3))",
               {in({6, 3, 20})},
               kFloat});
  c.push_back({"matrix_norm",
               "x",
               "torch.linalg.matrix_norm(x, float('inf'), dim=(2, 0), dtype=torch.float64)",
               {in({6, 3, 20})},
               kFloat});
  // 'nuc' and +-2 from singular values (kernels/singular.cu: a thread per
  // matrix); float16/bfloat16 are refused, as in PyTorch.
  const std::vector<DType> f32_f64 = {DType::float32, DType::float64};
  c.push_back({"matrix_norm", "x", "torch.linalg.matrix_norm(x, 'nuc')", {in({7, 9, 5})}, f32_f64});
  c.push_back({"matrix_norm",
               "x",
               "torch.linalg.matrix_norm(x, 2, dim=(2, 0), keepdim=True)",
               {in({6, 3, 20})},
               f32_f64});
  c.push_back({"matrix_norm",
               "x",
               "torch.linalg.norm(x, -2, dim=(-1, -3), dtype=torch.float64)",
               {in({12, 5, 16})},
               f32_f64});
  c.push_back({"matrix_norm", "x", "torch.norm(x, 'nuc')", {in({40, 33})}, f32_f64});
  c.push_back({"var_mean",
               "x",
               "v = torch.var_mean(x, 1)\n    return (v[0], v[1])",
               {in({33, 130})},
               kFloat});
  c.push_back({"std_mean",
               "x",
               "s, m = torch.std_mean(x, (0, 2), False, True)\n    return (s, m)",
               {in({6, 7, 20})},
               kFloat});
  // topk / sort / argsort: a thread per row picking in the CPU reference's
  // order (ties by index), so indices match exactly even where values tie.
  c.push_back({"topk",
               "x",
               "v = torch.topk(x, 5, dim=1)\n    return (v[0], v[1])",
               {in({4, 37, 3})},
               kAll});
  c.push_back({"topk",
               "x",
               "v, i = torch.topk(x, 2, largest=False)\n    return (v, i)",
               {in({9, 8})},
               kNum});
  c.push_back({"sort",
               "x",
               "v = torch.sort(x, dim=0, descending=True)\n    return (v[0], v[1])",
               {in({21, 5})},
               kAll});
  c.push_back({"argsort", "x", "x.argsort(-1)", {in({6, 130})}, kNum});
  c.push_back({"normalize", "x", F + "normalize(x, dim=-1)", {in({33, 130})}, kFloat});
  c.push_back({"logsumexp", "x", "torch.logsumexp(x, dim=1)", {in({33, 130}, -5, 5)}, kFloat});
  c.push_back({"cosine_similarity",
               "x, y",
               F + "cosine_similarity(x, y, dim=-1)",
               {in({33, 130}), in({130})},
               kFloat});
  // cdist: differences and a norm up to 25 rows, the matrix-product form past that (p = 2).
  c.push_back({"dist", "x, y", "torch.dist(x, y, 3)", {in({33, 130}), in({130})}, kFloat});
  c.push_back({"cdist", "x, y", "torch.cdist(x, y)", {in({2, 9, 33}), in({2, 17, 33})}, f32_f64});
  c.push_back({"cdist", "x, y", "torch.cdist(x, y, p=1.0)", {in({9, 5}), in({3, 12, 5})}, f32_f64});
  c.push_back({"cdist", "x, y", "torch.cdist(x, y)", {in({2, 70, 16}), in({1, 40, 16})}, f32_f64});
  c.push_back({"pairwise_distance",
               "x, y",
               F + "pairwise_distance(x, y)",
               {in({33, 130}), in({33, 130})},
               kFloat});
  c.push_back({"pairwise_distance",
               "x, y",
               F + "pairwise_distance(x, y, p=1.0, keepdim=True)",
               {in({33, 130}), in({130})},
               kNum});
  c.push_back(
      {"count_nonzero", "x", "torch.count_nonzero(x, dim=1)", {in({33, 130}, -1, 1, -1, 1)}, kAll});
  c.push_back({"nanmean",
               "x",
               "torch.nanmean(torch.where(x > 1.5, x * float('nan'), x), dim=-1)",
               {in({33, 130})},
               kFloat});
  c.push_back({"aminmax",
               "x",
               "r = torch.aminmax(x, dim=0)\n    return (r[0], r[1])",
               {in({33, 130})},
               kAll});

  // Softmax: warp-per-row, block-per-row and strided-dim kernels.
  c.push_back({"softmax", "x", "torch.softmax(x, dim=-1)", {in({64, 100}, -5, 5)}, kFloat});
  c.push_back(
      {"softmin", "x", "torch.nn.functional.softmin(x, dim=1)", {in({4, 50, 6}, -5, 5)}, kFloat});
  c.push_back({"softmax", "x", "torch.softmax(x, dim=-1)", {in({8, 3000}, -5, 5)}, kFloat});
  c.push_back({"softmax", "x", "torch.softmax(x, dim=1)", {in({4, 50, 6}, -5, 5)}, kFloat});
  c.push_back({"softmax",
               "x",
               "torch.softmax(x, -1, dtype=torch.float32)",
               {in({16, 77}, -5, 5)},
               kHalves});
  c.push_back({"log_softmax", "x", F + "log_softmax(x, dim=-1)", {in({64, 100}, -5, 5)}, kFloat});
  c.push_back({"log_softmax", "x", F + "log_softmax(x, dim=-1)", {in({3, 5000}, -5, 5)}, kFloat});
}

void add_norm_cases(std::vector<OpCase>& c) {
  // Normalisation.
  c.push_back({"layer_norm",
               "x, w, b",
               F + "layer_norm(x, (256,), w, b, 1e-5)",
               {in({16, 256}), in({256}), in({256})},
               kFloat});
  c.push_back({"layer_norm", "x", F + "layer_norm(x, (100,))", {in({10, 100})}, kFloat});
  c.push_back({"layer_norm",
               "x, w",
               F + "layer_norm(x, (3, 33), w)",
               {in({4, 3, 33}), in({3, 33})},
               kFloat});
  c.push_back({"rms_norm", "x, w", F + "rms_norm(x, (64,), w)", {in({12, 64}), in({64})}, kFloat});
  c.push_back({"batch_norm",
               "x, rm, rv, w, b",
               F + "batch_norm(x, rm, rv, w, b, False, 0.1, 1e-5)",
               {in({4, 8, 6, 5}), in({8}, -1, 1), in({8}, 0.5, 2), in({8}), in({8})},
               kFloat});
  c.push_back({"batch_norm",
               "x, rm, rv",
               F + "batch_norm(x, rm, rv)",
               {in({2, 8, 4, 8}), in({8}, -1, 1), in({8}, 0.5, 2)},
               kFloat});
  c.push_back({"batch_norm",
               "x, w, b",
               F + "batch_norm(x, None, None, w, b, True)",
               {in({4, 8, 6, 5}), in({8}), in({8})},
               kFloat});
  // Planes of 49 (not a multiple of the vector width): one block per plane.
  c.push_back({"batch_norm",
               "x, rm, rv, w, b",
               F + "batch_norm(x, rm, rv, w, b, False, 0.1, 1e-5)",
               {in({2, 8, 7, 7}), in({8}, -1, 1), in({8}, 0.5, 2), in({8}), in({8})},
               kFloat});
  // Statistics of (N, C) and (N, C, 3): threads split the rows, not a row.
  c.push_back({"batch_norm",
               "x, w, b",
               F + "batch_norm(x, None, None, w, b, True)",
               {in({300, 8}), in({8}), in({8})},
               kFloat});
  c.push_back({"batch_norm",
               "x",
               F + "batch_norm(x, None, None, None, None, True)",
               {in({70, 8, 3})},
               kFloat});
  c.push_back({"group_norm",
               "x, w, b",
               F + "group_norm(x, 4, w, b)",
               {in({2, 8, 5, 6}), in({8}), in({8})},
               kFloat});
  c.push_back({"instance_norm", "x", F + "instance_norm(x)", {in({2, 4, 9, 7})}, kFloat});
  c.push_back({"group_norm", "x", F + "group_norm(x, 2)", {in({3, 4, 4, 4})}, kFloat});
}

void add_matmul_cases(std::vector<OpCase>& c) {
  // Matrix products.
  c.push_back({"matmul",
               "x, y",
               "torch.matmul(x, y)",
               {in({3, 17, 33}, -1, 1), in({33, 21}, -1, 1)},
               kFloat});
  c.push_back(
      {"matmul", "x, y", "x @ y", {in({2, 3, 17, 33}, -1, 1), in({3, 33, 21}, -1, 1)}, kFloat});
  c.push_back(
      {"matmul", "x, y", "torch.matmul(x, y)", {in({33}, -1, 1), in({33, 5}, -1, 1)}, kFloat});
  c.push_back(
      {"matmul", "x, y", "torch.matmul(x, y)", {in({4, 33}, -1, 1), in({33}, -1, 1)}, kFloat});
  c.push_back({"matmul", "x, y", "torch.matmul(x, y)", {in({33}, -1, 1), in({33}, -1, 1)}, kFloat});
  c.push_back({"mm", "x, y", "torch.mm(x, y)", {in({17, 33}, -1, 1), in({33, 21}, -1, 1)}, kFloat});
  c.push_back(
      {"bmm", "x, y", "torch.bmm(x, y)", {in({4, 17, 33}, -1, 1), in({4, 33, 21}, -1, 1)}, kFloat});
  c.push_back({"addmm",
               "b, x, y",
               "torch.addmm(b, x, y)",
               {in({21}, -1, 1), in({17, 33}, -1, 1), in({33, 21}, -1, 1)},
               kFloat});
  c.push_back({"addmm",
               "b, x, y",
               "torch.addmm(b, x, y, beta=0.5, alpha=2.0)",
               {in({17, 21}, -1, 1), in({17, 33}, -1, 1), in({33, 21}, -1, 1)},
               kFloat});
  c.push_back({"baddbmm",
               "b, x, y",
               "torch.baddbmm(b, x, y)",
               {in({4, 17, 21}, -1, 1), in({4, 17, 33}, -1, 1), in({4, 33, 21}, -1, 1)},
               kFloat});
  c.push_back({"tensordot",
               "x, y",
               "torch.tensordot(x, y, dims=([0, 2], [2, 0]))",
               {in({6, 17, 21}, -1, 1), in({21, 9, 6}, -1, 1)},
               kFloat});
  c.push_back(
      {"tensordot", "x, y", "torch.tensordot(x, y)", {in({5, 7, 9}), in({7, 9, 3})}, kFloat});
  c.push_back({"kron", "x, y", "torch.kron(x, y)", {in({5, 7}), in({3, 1, 4})}, kAll});
  c.push_back({"linear",
               "x, w, b",
               F + "linear(x, w, b)",
               {in({8, 12, 64}, -1, 1), in({48, 64}, -1, 1), in({48}, -1, 1)},
               kFloat});
  c.push_back(
      {"linear", "x, w", F + "linear(x, w)", {in({12, 64}, -1, 1), in({48, 64}, -1, 1)}, kFloat});
  c.push_back({"linear",
               "x, w, b",
               F + "linear(x, w, b)",
               {in({64}, -1, 1), in({48, 64}, -1, 1), in({48}, -1, 1)},
               kFloat});

  // Views (no kernels of their own) feeding kernels, and aliasing ops.
  c.push_back({"getitem", "x", "x[1:, ::2] + 1", {in({9, 20})}, kNum});
  c.push_back({"getitem", "x", "x[..., None, 3] * 2", {in({4, 5, 6})}, kNum});
  // Item assignment: a copy of x with the indexed view overwritten.
  c.push_back(
      {"setitem", "x", "y = x * 1\n    y[:, 0] = 3\n    return (y,)", {in({37, 65})}, kAll});
  c.push_back({"setitem",
               "x, v",
               "x[..., 1:40:3] = v\n    return (x,)",
               {in({5, 7, 65}), typed('f', {7, 1}, 0, 2)},
               kAll});
  c.push_back({"setitem",
               "x, v",
               "x[1, None, ::2] = v\n    return (x,)",
               {in({9, 20}), in({1, 10})},
               kNum});
  c.push_back({"setitem",
               "x, m",
               "x[m] = 2\n    return (x,)",
               {in({37, 65, 3}), typed('b', {37, 65})},
               kNum});
  // Distinct indices (duplicates leave the written value to the GPU's order), some negative.
  c.push_back({"setitem",
               "x, v",
               "i = torch.arange(7) * 3 - 10\n    x[:, i] = v\n    return (x,)",
               {in({9, 20, 3}), in({7, 1})},
               kAll});
  c.push_back({"setitem",
               "x, v",
               "x.copy_(v)\n    return (x,)",
               {in({37, 65}), typed('f', {65}, 0, 2)},
               kAll});
  c.push_back({"atleast_1d", "x", "torch.atleast_1d(x) * 2", {in({})}, kNum});
  c.push_back({"atleast_2d", "x", "torch.atleast_2d(x) * 2", {in({37})}, kNum});
  c.push_back({"atleast_3d", "x", "torch.atleast_3d(x) * 2", {in({37, 65})}, kNum});
  c.push_back({"diagonal", "x", "torch.diagonal(x, 1, -2, -1) * 2", {in({3, 17, 21})}, kNum});
  // Shuffles: reshape, permute, one copy.
  c.push_back({"pixel_shuffle", "x", F + "pixel_shuffle(x, 2)", {in({3, 8, 5, 7})}, kAll});
  c.push_back({"pixel_unshuffle", "x", F + "pixel_unshuffle(x, 3)", {in({2, 3, 9, 12})}, kAll});
  c.push_back({"channel_shuffle", "x", "torch.channel_shuffle(x, 3)", {in({2, 12, 5, 3})}, kAll});
  c.push_back({"positive", "x", "torch.positive(x) * 1", {in({40})}, kNum});
  c.push_back({"transpose", "x", "x.transpose(0, 1) * 2", {in({37, 65})}, kAll});
  c.push_back({"permute", "x", "x.permute(2, 0, 1).contiguous()", {in({3, 5, 7})}, kAll});
  c.push_back({"expand", "x", "x.unsqueeze(1).expand(4, 3, 5) * 1", {in({4, 5})}, kNum});
  c.push_back(
      {"chunk", "x", "a = torch.chunk(x, 2, 1)\n    return (a[0] + a[1],)", {in({6, 10})}, kNum});
  c.push_back({"dropout", "x", F + "dropout(x, 0.1, False) * 1", {in({40})}, kFloat});
}

}  // namespace

const std::vector<OpCase>& op_cases() {
  static const std::vector<OpCase> cases = [] {
    std::vector<OpCase> c;
    add_arith_cases(c);
    add_math_cases(c);
    add_logic_cases(c);
    add_copy_cases(c);
    add_creation_cases(c);
    add_reduction_cases(c);
    add_norm_cases(c);
    add_matmul_cases(c);
    add_layout_cases(c);
    add_index_cases(c);
    add_pool_cases(c);
    add_interpolate_cases(c);
    add_conv_cases(c);
    add_attention_cases(c);
    add_scan_cases(c);
    add_einsum_cases(c);
    add_order_statistics_cases(c);
    add_index_write_cases(c);
    add_grid_sample_cases(c);
    add_loss_cases(c);
    add_lp_pool_lrn_cases(c);
    add_diag_block_cases(c);
    add_search_cases(c);
    add_cumulative_extrema_cases(c);
    add_rnn_cell_cases(c);
    add_histc_cases(c);
    add_mode_cases(c);
    return c;
  }();
  return cases;
}

DType input_dtype(const CaseInput& in, DType t) {
  switch (in.dtype) {
    case 'b':
      return DType::boolean;
    case 'l':
      return DType::int64;
    case 'f':
      return DType::float32;
    case 'h':
      return DType::float16;
    default:
      return t;
  }
}

std::string case_source(const OpCase& c, DType dtype) {
  std::string body = c.body;
  for (size_t pos; (pos = body.find("{T}")) != std::string::npos;) {
    body.replace(pos, 3, std::string("torch.") + dtype_name(dtype));
  }
  std::string src = "import torch\n\ndef f(" + c.params + "):\n    ";
  src += body.find("return") == std::string::npos ? "return " + body : body;
  return src + "\n";
}

const std::vector<std::string>& unreachable_ops() {
  static const std::vector<std::string> ops = {"float", "half",  "bfloat16", "double", "int",
                                               "long",  "short", "char",     "byte",   "bool"};
  return ops;
}

}  // namespace pf::gpu::test
