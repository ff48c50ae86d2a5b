// Tensors from literals and ranges: arange, linspace, eye and torch.tensor.
// arange infers int64 when start/end/step are all integers, float32
// otherwise; torch.tensor infers bool, int64 or float32 from its data.
#include <algorithm>
#include <cmath>

#include "evaluator/ops/linspace_values.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"
#include "evaluator/ops/type_promotion.h"

namespace pf {

std::vector<double> linspace_values(double start, double end, int64_t steps, DType dtype) {
  const DType math = is_floating(dtype) ? opmath_type(dtype) : DType::float64;
  auto rnd = [math](double v) { return round_to_dtype(v, math); };
  start = rnd(start);
  end = rnd(end);
  std::vector<double> y(static_cast<size_t>(std::max<int64_t>(steps, 0)));
  if (steps == 1) y[0] = start;
  const double step = steps > 1 ? rnd((end - start) / static_cast<double>(steps - 1)) : 0;
  const int64_t halfway = steps / 2;
  for (int64_t i = 0; steps > 1 && i < steps; ++i) {
    y[static_cast<size_t>(i)] = i < halfway
                                    ? rnd(start + rnd(step * static_cast<double>(i)))
                                    : rnd(end - rnd(step * static_cast<double>(steps - 1 - i)));
  }
  return y;
}

namespace {

bool any_real(const ArgReader& a, std::initializer_list<size_t> params) {
  for (size_t p : params) {
    if (a.arg(p).kind == Arg::Kind::real) return true;
  }
  return false;
}

// arange(end) is arange(0, end): one canonical form for both spellings.
std::string arange_overload(std::string_view, std::vector<Arg>& positional,
                            std::vector<std::pair<std::string, Arg>>& keywords) {
  bool end_keyword = false;
  for (const auto& [key, value] : keywords) end_keyword = end_keyword || key == "end";
  if (positional.size() == 1 && !end_keyword)
    positional.insert(positional.begin(), Arg::make_int(0));
  return "";
}

struct Range {
  double start = 0, end = 0, step = 1;
  int64_t length = 0;
};

// exact: all three bounds are integers and the output is integral, so the
// length comes from an int64 difference (exact beyond 2^53), as in PyTorch.
Result<Range> read_range(const ArgReader& a, bool exact) {
  if (a.is_none(1)) return a.error(1, "arange needs an end");
  Range r;
  PF_ASSIGN(r.start, a.real(0));
  PF_ASSIGN(r.end, a.real(1));
  PF_ASSIGN(r.step, a.real(2));
  if (r.step == 0) return a.error(2, "step must be nonzero");
  if (!std::isfinite(r.start) || !std::isfinite(r.end)) return a.error(1, "bounds must be finite");
  double span = exact ? static_cast<double>(static_cast<int64_t>(static_cast<uint64_t>(a.arg(1).i) -
                                                                 static_cast<uint64_t>(a.arg(0).i)))
                      : r.end - r.start;
  double n = std::ceil(span / r.step);
  if (n < 0) return a.error(2, "upper bound and lower bound inconsistent with the step sign");
  if (n > 1e12) return a.error(1, "range too large");
  r.length = static_cast<int64_t>(n);
  return r;
}

bool integer_range(const ArgReader& a, DType out) {
  for (size_t p : {0, 1, 2}) {
    if (a.arg(p).kind != Arg::Kind::integer) return false;
  }
  return !is_floating(out);
}

OpInfo arange_op() {
  OpInfo op;
  op.name = "arange";
  op.aliases = {"torch.arange"};
  op.params = {param("start", ParamKind::real, Arg::make_int(0)),
               param("end", ParamKind::optional_real, Arg::make_none()),
               param("step", ParamKind::real, Arg::make_int(1))};
  for (auto& p : factory_kwargs()) op.params.push_back(p);
  op.overload = arange_overload;
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    DType t = any_real(a, {0, 1, 2}) ? kDefaultFloat : DType::int64;
    if (!a.is_none(3)) {
      PF_ASSIGN(t, a.dtype(3));
    }
    PF_ASSIGN(Range r, read_range(a, integer_range(a, t)));
    return std::vector<TensorType>{{t, {r.length}}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    bool exact = integer_range(a, out[0].dtype);
    PF_ASSIGN(Range r, read_range(a, exact));
    Tensor y = Tensor::zeros(out[0].dtype, out[0].shape);
    for (int64_t i = 0; i < r.length; ++i) {
      if (exact) {
        y.set_int(i, static_cast<int64_t>(static_cast<uint64_t>(a.arg(0).i) +
                                          static_cast<uint64_t>(i * a.arg(2).i)));
      } else {
        y.set(i, r.start + static_cast<double>(i) * r.step);
      }
    }
    return std::vector<Tensor>{y};
  };
  op.doc = "values start, start + step, ... below end";
  return op;
}

OpInfo linspace_op() {
  OpInfo op;
  op.name = "linspace";
  op.aliases = {"torch.linspace"};
  op.params = {param("start", ParamKind::real), param("end", ParamKind::real),
               param("steps", ParamKind::integer)};
  for (auto& p : factory_kwargs()) op.params.push_back(p);
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(int64_t steps, a.integer(2));
    if (steps < 0) return a.error(2, "number of steps must be non-negative");
    DType t = kDefaultFloat;
    if (!a.is_none(3)) {
      PF_ASSIGN(t, a.dtype(3));
    }
    return std::vector<TensorType>{{t, {steps}}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(double start, a.real(0));
    PF_ASSIGN(double end, a.real(1));
    const int64_t steps = out[0].shape[0];
    Tensor y = Tensor::zeros(out[0].dtype, out[0].shape);
    const std::vector<double> v = linspace_values(start, end, steps, out[0].dtype);
    for (int64_t i = 0; i < steps; ++i) y.set(i, v[static_cast<size_t>(i)]);
    return std::vector<Tensor>{y};
  };
  op.doc = "steps evenly spaced values from start to end inclusive";
  return op;
}

OpInfo eye_op() {
  OpInfo op;
  op.name = "eye";
  op.aliases = {"torch.eye"};
  op.params = {param("n", ParamKind::integer),
               param("m", ParamKind::optional_integer, Arg::make_none())};
  for (auto& p : factory_kwargs()) op.params.push_back(p);
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(int64_t n, a.integer(0));
    int64_t m = n;
    if (!a.is_none(1)) {
      PF_ASSIGN(m, a.integer(1));
    }
    if (n < 0 || m < 0) return a.error(n < 0 ? 0 : 1, "must be non-negative");
    DType t = kDefaultFloat;
    if (!a.is_none(2)) {
      PF_ASSIGN(t, a.dtype(2));
    }
    return std::vector<TensorType>{{t, {n, m}}};
  };
  op.cpu = [](const BoundArgs<Tensor>&,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    Tensor y = Tensor::zeros(out[0].dtype, out[0].shape);
    int64_t n = out[0].shape[0], m = out[0].shape[1];
    for (int64_t i = 0; i < std::min(n, m); ++i) y.set(i * m + i, 1);
    return std::vector<Tensor>{y};
  };
  op.doc = "identity matrix n x m";
  return op;
}

// torch.tensor's data: a number, a bool or nested lists of them (rectangular).
struct Literal {
  Shape shape;
  std::vector<const Arg*> leaves;
  bool any_real = false, all_bool = true;
};

Status flatten_literal(const ArgReader& a, size_t i, const Arg& v, size_t depth, Literal& out) {
  if (v.is_sequence()) {
    int64_t n = static_cast<int64_t>(v.items.size());
    if (depth == out.shape.size()) {
      if (!out.leaves.empty()) return a.error(i, "nested lists have uneven depth");
      out.shape.push_back(n);
    } else if (depth > out.shape.size() || out.shape[depth] != n) {
      return a.error(i, "nested lists are not rectangular");
    }
    for (const auto& item : v.items) PF_TRY(flatten_literal(a, i, item, depth + 1, out));
    return ok_status();
  }
  if (!v.is_number() && v.kind != Arg::Kind::boolean) {
    return a.error(i, "expected numbers, bools or lists of them");
  }
  if (depth != out.shape.size()) return a.error(i, "nested lists have uneven depth");
  out.any_real = out.any_real || v.kind == Arg::Kind::real;
  out.all_bool = out.all_bool && v.kind == Arg::Kind::boolean;
  out.leaves.push_back(&v);
  return ok_status();
}

// torch.tensor(data, dtype=None) and x.new_tensor(data, dtype=None), whose
// dtype defaults to x's.
OpInfo tensor_op(bool method) {
  const size_t d = method ? 1 : 0;  // the data parameter
  OpInfo op;
  op.name = method ? "new_tensor" : "tensor";
  op.aliases = {method ? "Tensor.new_tensor" : "torch.tensor"};
  if (method) op.params.push_back(tensor_param("input"));
  for (ParamDef p :
       {param("data", ParamKind::scalar),
        kwarg("dtype", ParamKind::optional_dtype, Arg::make_none()), ignored_param("device"),
        ignored_param("requires_grad"), ignored_param("pin_memory")}) {
    op.params.push_back(std::move(p));
  }
  op.infer = [method, d](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    Literal lit;
    PF_TRY(flatten_literal(a, d, a.arg(d), 0, lit));
    DType t = lit.any_real                          ? kDefaultFloat
              : lit.all_bool && !lit.leaves.empty() ? DType::boolean
                                                    : DType::int64;
    if (lit.leaves.empty() && !lit.any_real) t = kDefaultFloat;  // torch.tensor([]) is float32
    if (method) t = a.tensor(0).dtype;
    if (!a.is_none(d + 1)) {
      PF_ASSIGN(t, a.dtype(d + 1));
    }
    return std::vector<TensorType>{{t, lit.shape}};
  };
  op.cpu = [d](const BoundArgs<Tensor>& a,
               const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    Literal lit;
    PF_TRY(flatten_literal(a, d, a.arg(d), 0, lit));
    Tensor y = Tensor::zeros(out[0].dtype, out[0].shape);
    for (size_t i = 0; i < lit.leaves.size(); ++i) {
      const Arg& v = *lit.leaves[i];
      auto idx = static_cast<int64_t>(i);
      if (v.kind == Arg::Kind::integer && !is_floating(out[0].dtype)) {
        y.set_int(idx, wrap_to_dtype(v.i, out[0].dtype));
      } else {
        y.set(idx, v.kind == Arg::Kind::real      ? v.f
                   : v.kind == Arg::Kind::integer ? static_cast<double>(v.i)
                                                  : (v.b ? 1.0 : 0.0));
      }
    }
    return std::vector<Tensor>{y};
  };
  op.doc = method ? "a tensor holding literal data, of input's dtype unless dtype= is given"
                  : "a tensor holding literal data (a number or nested lists)";
  return op;
}

}  // namespace

void register_sequence_ops(OpRegistry& r) {
  r.add(arange_op());
  r.add(linspace_op());
  r.add(eye_op());
  r.add(tensor_op(false));
  r.add(tensor_op(true));
}

}  // namespace pf
