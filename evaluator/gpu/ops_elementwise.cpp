// Elementwise ops: arithmetic, math, activations, rounding, comparisons,
// logical and bitwise ops, addcmul/addcdiv, outer (kernels ew_arith.cu,
// ew_math.cu, ew_logic.cu).
// Each op is one kernel launch, as in PyTorch eager. The compute dtype is the
// output dtype, except for predicates (bool out), which compute in the
// operands' result type; operands of other dtypes convert on load.
#include <cmath>
#include <functional>

#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/op_support.h"

namespace pf::gpu {
namespace {

//! Fills the functor parameters from the op's literal parameters.
using Binder = std::function<Status(const GpuArgs&, DType compute, EwLaunch&)>;

//! The kernel for a call ("gelu" -> "gelu" or "gelu_tanh").
using KernelPicker = std::function<Result<std::string>(const GpuArgs&)>;

enum class Compute : uint8_t {
  output,  // compute in the output dtype
  common,  // compute in result_type of the operands (bool-valued ops)
  input,   // compute in the first input's dtype (unary predicates)
};

struct EwDef {
  std::string op;
  std::string file;
  KernelPicker kernel;
  std::vector<size_t> operands;  // parameter indices of the inputs, in functor order
  Compute compute = Compute::output;
  Binder bind;
  std::set<DType> dtypes;
};

KernelPicker fixed(const std::string& kernel) {
  return [kernel](const GpuArgs&) -> Result<std::string> { return kernel; };
}

Binder no_params() {
  return [](const GpuArgs&, DType, EwLaunch&) { return ok_status(); };
}

// si[0] = mode (comparison kind, rounding kind, ...).
Binder mode(int64_t m) {
  return [m](const GpuArgs&, DType, EwLaunch& l) {
    l.si[0] = m;
    return ok_status();
  };
}

// s[i] = the real parameter p_i for each (slot, param) pair.
Binder reals(const std::vector<std::pair<size_t, size_t>>& slots) {
  return [slots](const GpuArgs& a, DType, EwLaunch& l) -> Status {
    for (auto [slot, param] : slots) {
      PF_ASSIGN(l.s[slot], a.real(param));
    }
    return ok_status();
  };
}

// alpha * sign for add/sub/rsub (param 2), addcmul's value (param 3).
Binder alpha(double sign, size_t param = 2) {
  return [sign, param](const GpuArgs& a, DType, EwLaunch& l) -> Status {
    const Arg& arg = a.arg(param);
    PF_ASSIGN(double v, a.real(param));
    int64_t vi = arg.kind == Arg::Kind::integer   ? arg.i
                 : arg.kind == Arg::Kind::boolean ? (arg.b ? 1 : 0)
                                                  : 0;
    l.s[0] = sign * v;
    l.si[0] = static_cast<int64_t>(sign) * vi;
    return ok_status();
  };
}

// hardtanh-style clamps: si[2] bit 1 = lower bound present, bit 2 = upper.
Binder clamp_bounds(std::optional<double> lo, std::optional<double> hi, int lo_param = -1,
                    int hi_param = -1) {
  return [=](const GpuArgs& a, DType, EwLaunch& l) -> Status {
    double vlo = lo.value_or(0), vhi = hi.value_or(0);
    if (lo_param >= 0) {
      PF_ASSIGN(vlo, a.real(static_cast<size_t>(lo_param)));
    }
    if (hi_param >= 0) {
      PF_ASSIGN(vhi, a.real(static_cast<size_t>(hi_param)));
    }
    bool has_lo = lo.has_value() || lo_param >= 0, has_hi = hi.has_value() || hi_param >= 0;
    l.s[0] = vlo;
    l.s[1] = vhi;
    l.si[0] = static_cast<int64_t>(vlo);
    l.si[1] = static_cast<int64_t>(vhi);
    l.si[2] = (has_lo ? 1 : 0) | (has_hi ? 2 : 0);
    return ok_status();
  };
}

double dtype_max(DType t) {
  switch (t) {
    case DType::float16:
      return 65504.0;
    case DType::bfloat16:
      return 3.3895313892515355e38;
    case DType::float32:
      return 3.4028234663852886e38;
    default:
      return 1.7976931348623157e308;
  }
}

Result<std::vector<DeviceTensor>> run_ew(const EwDef& def, const GpuArgs& a,
                                         const std::vector<TensorType>& out, PlanBuilder& b) {
  EwLaunch l;
  l.file = def.file;
  PF_ASSIGN(l.kernel, def.kernel(a));
  l.out = out[0].dtype;
  l.shape = out[0].shape;
  switch (def.compute) {
    case Compute::output:
      l.compute = out[0].dtype;
      break;
    case Compute::input:
      l.compute = a.tensor(def.operands[0]).dtype();
      break;
    case Compute::common: {
      std::vector<OperandType> types;
      for (size_t p : def.operands) types.push_back(operand_type_of(a, p));
      l.compute = result_type(types);
      break;
    }
  }
  for (size_t p : def.operands) l.inputs.push_back(operand(a, p));
  PF_TRY(def.bind(a, l.compute, l));
  PF_ASSIGN(DeviceTensor y, launch_elementwise(b, l));
  PF_TRY(expect_type(a, out[0], y));
  return std::vector<DeviceTensor>{y};
}

void add(GpuOpRegistry& r, EwDef def) {
  auto shared = std::make_shared<const EwDef>(std::move(def));
  r.add(GpuOpInfo{shared->op,
                  [shared](const GpuArgs& a, const std::vector<TensorType>& out, PlanBuilder& b) {
                    return run_ew(*shared, a, out, b);
                  },
                  shared->dtypes});
}

constexpr const char* kArith = "ew_arith.cu";
constexpr const char* kMath = "ew_math.cu";
constexpr const char* kLogic = "ew_logic.cu";

void add_math(GpuOpRegistry& r) {
  // Float-promoting math: integer inputs compute in float32.
  for (const char* name :
       {"exp",        "exp2",    "expm1",   "log",  "log2",      "log10", "log1p",
        "sqrt",       "rsqrt",   "sin",     "cos",  "tan",       "asin",  "acos",
        "atan",       "sinh",    "cosh",    "tanh", "sigmoid",   "erf",   "erfc",
        "reciprocal", "deg2rad", "rad2deg", "sinc", "tanhshrink"}) {
    add(r, {name, kMath, fixed(name), {0}, Compute::output, no_params(), all_dtypes()});
  }
  // Two-operand float-promoting math.
  for (const char* name : {"atan2", "hypot", "copysign", "logaddexp", "xlogy"}) {
    add(r, {name, kMath, fixed(name), {0, 1}, Compute::output, no_params(), all_dtypes()});
  }
  // logit: si[0] = eps given (>= 0), s[0] = eps.
  add(r, {"logit",
          kMath,
          fixed("logit"),
          {0},
          Compute::output,
          [](const GpuArgs& a, DType, EwLaunch& l) -> Status {
            if (a.is_none(1)) return ok_status();
            PF_ASSIGN(double eps, a.real(1));
            l.si[0] = eps >= 0 ? 1 : 0;
            l.s[0] = eps;
            return ok_status();
          },
          all_dtypes()});
  add(r, {"lerp", kMath, fixed("lerp"), {0, 1, 2}, Compute::output, no_params(), float_dtypes()});
  // Floating-only activations.
  for (const char* name :
       {"silu", "hardswish", "hardsigmoid", "mish", "logsigmoid", "softsign", "selu", "frac"}) {
    add(r, {name, kMath, fixed(name), {0}, Compute::output, no_params(), float_dtypes()});
  }
  add(r, {"gelu",
          kMath,
          [](const GpuArgs& a) -> Result<std::string> {
            return std::string(a.arg(1).s == "tanh" ? "gelu_tanh" : "gelu");
          },
          {0},
          Compute::output,
          no_params(),
          float_dtypes()});
  add(r, {"leaky_relu",
          kMath,
          fixed("leaky_relu"),
          {0},
          Compute::output,
          reals({{0, 1}}),
          float_dtypes()});
  add(r, {"elu", kMath, fixed("elu"), {0}, Compute::output, reals({{0, 1}}), float_dtypes()});
  add(r, {"celu", kMath, fixed("celu"), {0}, Compute::output, reals({{0, 1}}), float_dtypes()});
  add(r, {"softplus",
          kMath,
          fixed("softplus"),
          {0},
          Compute::output,
          reals({{0, 1}, {1, 2}}),
          float_dtypes()});
  add(r, {"threshold",
          kMath,
          fixed("threshold"),
          {0},
          Compute::output,
          reals({{0, 1}, {1, 2}}),
          float_dtypes()});
}

void add_arith(GpuOpRegistry& r) {
  add(r, {"add", kArith, fixed("add"), {0, 1}, Compute::output, alpha(1), all_dtypes()});
  add(r, {"sub", kArith, fixed("add"), {0, 1}, Compute::output, alpha(-1), all_dtypes()});
  add(r, {"rsub", kArith, fixed("add"), {1, 0}, Compute::output, alpha(-1), all_dtypes()});
  add(r, {"mul", kArith, fixed("mul"), {0, 1}, Compute::output, no_params(), all_dtypes()});
  add(r, {"heaviside",
          kArith,
          fixed("heaviside"),
          {0, 1},
          Compute::output,
          no_params(),
          all_dtypes()});
  // float_power: both operands convert to float64 on load, then pow (PyTorch
  // casts them in two extra kernels first).
  add(r, {"float_power", kArith, fixed("pow"), {0, 1}, Compute::output, no_params(), all_dtypes()});
  add(r,
      {"addcmul", kArith, fixed("addcmul"), {0, 1, 2}, Compute::output, alpha(1, 3), all_dtypes()});
  add(r, {"addcdiv",
          kArith,
          fixed("addcdiv"),
          {0, 1, 2},
          Compute::output,
          alpha(1, 3),
          float_dtypes()});
  add(r, {"div",
          kArith,
          [](const GpuArgs& a) -> Result<std::string> {
            if (a.is_none(2)) return std::string("div");
            const std::string& m = a.arg(2).s;
            if (m == "trunc") return std::string("div_trunc");
            if (m == "floor") return std::string("div_floor");
            return a.error(2, "expected None, 'trunc' or 'floor'");
          },
          {0, 1},
          Compute::output,
          no_params(),
          all_dtypes()});
  add(r, {"floor_divide",
          kArith,
          fixed("div_floor"),
          {0, 1},
          Compute::output,
          no_params(),
          all_dtypes()});
  add(r, {"remainder",
          kArith,
          fixed("remainder"),
          {0, 1},
          Compute::output,
          no_params(),
          all_dtypes()});
  add(r, {"fmod", kArith, fixed("fmod"), {0, 1}, Compute::output, no_params(), all_dtypes()});
  add(r, {"pow", kArith, fixed("pow"), {0, 1}, Compute::output, no_params(), all_dtypes()});
  add(r, {"maximum", kArith, fixed("maximum"), {0, 1}, Compute::output, mode(1), all_dtypes()});
  add(r, {"minimum", kArith, fixed("maximum"), {0, 1}, Compute::output, mode(0), all_dtypes()});
  add(r, {"fmax", kArith, fixed("fmax"), {0, 1}, Compute::output, mode(1), all_dtypes()});
  add(r, {"fmin", kArith, fixed("fmax"), {0, 1}, Compute::output, mode(0), all_dtypes()});
  for (const char* name : {"neg", "abs", "square", "sign"}) {
    add(r, {name, kArith, fixed(name), {0}, Compute::output, no_params(), all_dtypes()});
  }
  add(r, {"relu",
          kArith,
          fixed("hardtanh"),
          {0},
          Compute::output,
          clamp_bounds(0.0, std::nullopt),
          all_dtypes()});
  add(r, {"relu6",
          kArith,
          fixed("hardtanh"),
          {0},
          Compute::output,
          clamp_bounds(0.0, 6.0),
          all_dtypes()});
  add(r, {"hardtanh",
          kArith,
          fixed("hardtanh"),
          {0},
          Compute::output,
          clamp_bounds(std::nullopt, std::nullopt, 1, 2),
          all_dtypes()});
  add(r, {"ceil", kArith, fixed("rounding"), {0}, Compute::output, mode(0), all_dtypes()});
  add(r, {"floor", kArith, fixed("rounding"), {0}, Compute::output, mode(1), all_dtypes()});
  add(r, {"trunc", kArith, fixed("rounding"), {0}, Compute::output, mode(2), all_dtypes()});
  add(r, {"round",
          kArith,
          [](const GpuArgs& a) -> Result<std::string> {
            PF_ASSIGN(int64_t d, a.integer(1));
            return std::string(d == 0 ? "rounding" : "round_decimals");
          },
          {0},
          Compute::output,
          [](const GpuArgs& a, DType, EwLaunch& l) -> Status {
            PF_ASSIGN(int64_t d, a.integer(1));
            l.si[0] = d == 0 ? 3 : (d < 0 ? 1 : 0);
            l.s[0] = std::pow(10.0, static_cast<double>(std::llabs(d)));
            return ok_status();
          },
          all_dtypes()});
  add(r, {"nan_to_num",
          kArith,
          fixed("nan_to_num"),
          {0},
          Compute::output,
          [](const GpuArgs& a, DType compute, EwLaunch& l) -> Status {
            PF_ASSIGN(l.s[0], a.real(1));
            l.s[1] = dtype_max(compute);
            l.s[2] = -dtype_max(compute);
            if (!a.is_none(2)) {
              PF_ASSIGN(l.s[1], a.real(2));
            }
            if (!a.is_none(3)) {
              PF_ASSIGN(l.s[2], a.real(3));
            }
            return ok_status();
          },
          all_dtypes()});
}

void add_logic(GpuOpRegistry& r) {
  const char* comparisons[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  for (int i = 0; i < 6; ++i) {
    add(r,
        {comparisons[i], kLogic, fixed("compare"), {0, 1}, Compute::common, mode(i), all_dtypes()});
  }
  const char* logical[] = {"logical_and", "logical_or", "logical_xor"};
  for (int i = 0; i < 3; ++i) {
    add(r, {logical[i], kLogic, fixed("logical"), {0, 1}, Compute::common, mode(i), all_dtypes()});
  }
  add(r, {"logical_not",
          kLogic,
          fixed("logical_not"),
          {0},
          Compute::input,
          no_params(),
          all_dtypes()});
  const char* bitwise[] = {"bitwise_and", "bitwise_or", "bitwise_xor"};
  for (int i = 0; i < 3; ++i) {
    add(r, {bitwise[i], kLogic, fixed("bitwise"), {0, 1}, Compute::output, mode(i), all_dtypes()});
  }
  add(r, {"bitwise_left_shift",
          kLogic,
          fixed("shift"),
          {0, 1},
          Compute::output,
          mode(0),
          all_dtypes()});
  add(r, {"bitwise_right_shift",
          kLogic,
          fixed("shift"),
          {0, 1},
          Compute::output,
          mode(1),
          all_dtypes()});
  add(r, {"bitwise_not",
          kLogic,
          fixed("bitwise_not"),
          {0},
          Compute::output,
          no_params(),
          all_dtypes()});
  const char* predicates[] = {"isnan", "isinf", "isfinite", "isposinf", "isneginf"};
  for (int i = 0; i < 5; ++i) {
    add(r, {predicates[i], kLogic, fixed("predicate"), {0}, Compute::input, mode(i), all_dtypes()});
  }
}

// glu(x, dim): the two halves along dim are views; one binary kernel.
Result<std::vector<DeviceTensor>> run_glu(const GpuArgs& a, const std::vector<TensorType>& out,
                                          PlanBuilder& b) {
  const DeviceTensor& x = a.tensor(0);
  PF_ASSIGN(int64_t raw, a.integer(1));
  PF_ASSIGN(int64_t dim, normalize_dim(raw, x.dim(), "glu"));
  const Shape& shape = out[0].shape;
  DeviceTensor first = DeviceTensor::view_of(x, shape, x.strides(), x.offset());
  DeviceTensor second =
      DeviceTensor::view_of(x, shape, x.strides(), x.offset() + shape[dim] * x.strides()[dim]);
  EwLaunch l{
      kMath, "glu", out[0].dtype, out[0].dtype, {EwOperand::of(first), EwOperand::of(second)},
      0,     {},    {},           shape};
  PF_ASSIGN(DeviceTensor y, launch_elementwise(b, l));
  return std::vector<DeviceTensor>{y};
}

// prelu(x, weight): weight viewed with stride 1 along the channel dim (1).
Result<std::vector<DeviceTensor>> run_prelu(const GpuArgs& a, const std::vector<TensorType>& out,
                                            PlanBuilder& b) {
  const DeviceTensor& x = a.tensor(0);
  const DeviceTensor& w = a.tensor(1);
  Shape wshape(x.shape().size(), 1);
  Strides wstrides(x.shape().size(), 0);
  if (w.numel() != 1) {
    wshape[1] = x.shape()[1];
    wstrides[1] = w.strides().empty() ? 1 : w.strides()[0];
  }
  DeviceTensor wv = DeviceTensor::view_of(w, wshape, wstrides, w.offset());
  EwLaunch l{kMath, "prelu", out[0].dtype, out[0].dtype, {EwOperand::of(x), EwOperand::of(wv)},
             0,     {},      {},           out[0].shape};
  PF_ASSIGN(DeviceTensor y, launch_elementwise(b, l));
  return std::vector<DeviceTensor>{y};
}

// outer(x, y) as PyTorch computes it: x viewed as [n, 1] times y, one mul.
Result<std::vector<DeviceTensor>> run_outer(const GpuArgs& a, const std::vector<TensorType>& out,
                                            PlanBuilder& b) {
  const DeviceTensor& x = a.tensor(0);
  const DeviceTensor& y = a.tensor(1);
  DeviceTensor column =
      DeviceTensor::view_of(x, {x.shape()[0], 1}, {x.strides()[0], 0}, x.offset());
  EwLaunch l{kArith, "mul", out[0].dtype, out[0].dtype, {EwOperand::of(column), EwOperand::of(y)},
             0,      {},    {},           out[0].shape};
  PF_ASSIGN(DeviceTensor result, launch_elementwise(b, l));
  return std::vector<DeviceTensor>{result};
}

}  // namespace

void register_gpu_elementwise_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"outer", run_outer, all_dtypes()});
  add_math(r);
  add_arith(r);
  add_logic(r);
  r.add(GpuOpInfo{"glu", run_glu, float_dtypes()});
  r.add(GpuOpInfo{"prelu", run_prelu, float_dtypes()});
}

}  // namespace pf::gpu
