// Comparisons (eq ne lt le gt ge), maximum/minimum/fmax/fmin, logical and
// bitwise ops. Operands broadcast and promote like arithmetic (a Python number
// on either side); comparisons and logical ops return bool.
#include <cmath>
#include <cstdint>

#include "evaluator/ops/elementwise.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"

namespace pf {
namespace {

template <typename Cmp>
OpInfo comparison(const std::string& name, std::vector<std::string> aliases, Cmp cmp) {
  BinaryOpDef d;
  d.name = name;
  d.aliases = std::move(aliases);
  d.dtype_rule = BinaryDtype::to_bool;
  d.bind =
      plain_binary([cmp](double x, double y) { return cmp(x, y) ? 1.0 : 0.0; },
                   [cmp](int64_t x, int64_t y) -> Result<int64_t> { return cmp(x, y) ? 1 : 0; });
  d.doc = "elementwise " + name + ", bool result";
  return binary_op(std::move(d));
}

std::vector<std::string> spell(const std::string& name, std::vector<std::string> extra) {
  std::vector<std::string> out = {"torch." + name, "Tensor." + name};
  for (auto& e : extra) out.push_back(std::move(e));
  return out;
}

// maximum/minimum propagate NaN; fmax/fmin ignore it.
OpInfo extremum(const std::string& name, std::vector<std::string> aliases, bool take_max,
                bool ignore_nan) {
  BinaryOpDef d;
  d.name = name;
  d.aliases = std::move(aliases);
  d.bind = plain_binary(
      [take_max, ignore_nan](double x, double y) {
        if (std::isnan(x)) return ignore_nan ? y : x;
        if (std::isnan(y)) return ignore_nan ? x : y;
        return take_max ? std::max(x, y) : std::min(x, y);
      },
      [take_max](int64_t x, int64_t y) -> Result<int64_t> {
        return take_max ? std::max(x, y) : std::min(x, y);
      });
  d.doc = std::string("elementwise ") + (take_max ? "maximum" : "minimum") +
          (ignore_nan ? " ignoring NaN" : " (NaN propagates)");
  return binary_op(std::move(d));
}

OpInfo logical(const std::string& name, bool (*fn)(bool, bool)) {
  BinaryOpDef d;
  d.name = name;
  // Not the in-place spellings: x.logical_and_(y) keeps x's dtype.
  d.aliases = spell(name, {});
  d.dtype_rule = BinaryDtype::to_bool;
  d.bind =
      plain_binary([fn](double x, double y) { return fn(x != 0, y != 0) ? 1.0 : 0.0; },
                   [fn](int64_t x, int64_t y) -> Result<int64_t> { return fn(x != 0, y != 0); });
  d.doc = name + " of the operands' truth values, bool result";
  return binary_op(std::move(d));
}

// Bitwise ops: integers and bool only.
OpInfo bitwise(const std::string& name, std::vector<std::string> aliases,
               int64_t (*fn)(int64_t, int64_t)) {
  BinaryOpDef d;
  d.name = name;
  d.aliases = std::move(aliases);
  d.bind = [fn](const ArgReader& a, DType compute) -> Result<BinaryKernels> {
    if (is_floating(compute))
      return dtype_error(a, compute, "bitwise ops take integer or bool tensors");
    return BinaryKernels{nullptr,
                         [fn](int64_t x, int64_t y) -> Result<int64_t> { return fn(x, y); }};
  };
  d.doc = "elementwise " + name + " of integer or bool tensors";
  return binary_op(std::move(d));
}

// x << n and x >> n on integers, computed in the promoted dtype of `bits`
// bits. PyTorch 1.13's CPU kernel leaves shift amounts outside [0, bits) to the
// C++ shift (undefined); this follows PyTorch 2's rule: a left shift out of
// range gives 0, a right shift the sign (0 or -1).
OpInfo shift_op(const std::string& name, std::vector<std::string> aliases, bool left) {
  BinaryOpDef d;
  d.name = name;
  d.aliases = std::move(aliases);
  d.bind = [left](const ArgReader& a, DType compute) -> Result<BinaryKernels> {
    if (is_floating(compute) || compute == DType::boolean) {
      return dtype_error(a, compute, "shifts take integer tensors");
    }
    const auto bits = static_cast<int64_t>(dtype_size(compute) * 8);
    return BinaryKernels{nullptr, [left, bits](int64_t x, int64_t n) -> Result<int64_t> {
                           if (n < 0 || n >= bits) return left ? 0 : (x < 0 ? -1 : 0);
                           if (left) return static_cast<int64_t>(static_cast<uint64_t>(x) << n);
                           return x >> n;
                         }};
  };
  d.doc = std::string("elementwise ") + (left ? "x << n" : "x >> n") + " of integer tensors";
  return binary_op(std::move(d));
}

// ~x: two's complement not for integers, logical not for bool.
OpInfo bitwise_not_op() {
  OpInfo op;
  op.name = "bitwise_not";
  op.aliases = spell("bitwise_not", {"Tensor.bitwise_not_", "operator.invert"});
  op.params = {tensor_param("input")};
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& t = a.tensor(0);
    if (is_floating(t.dtype)) {
      return a.error(
          0, std::string("bitwise_not takes integer or bool tensors, got ") + dtype_name(t.dtype));
    }
    return std::vector<TensorType>{t};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    DType t = out[0].dtype;
    Tensor y = Tensor::zeros(t, out[0].shape);
    for (int64_t i = 0, n = x.numel(); i < n; ++i) {
      int64_t v = x.get_int(i);
      y.set_int(i, t == DType::boolean ? (v == 0) : wrap_to_dtype(~v, t));
    }
    return std::vector<Tensor>{y};
  };
  op.doc = "~input for integer and bool tensors (logical not for bool)";
  return op;
}

}  // namespace

void register_comparison_ops(OpRegistry& r) {
  r.add(comparison("eq", spell("eq", {"operator.eq"}), [](auto x, auto y) { return x == y; }));
  r.add(comparison("ne", spell("ne", {"torch.not_equal", "Tensor.not_equal", "operator.ne"}),
                   [](auto x, auto y) { return x != y; }));
  r.add(comparison("lt", spell("lt", {"torch.less", "Tensor.less", "operator.lt"}),
                   [](auto x, auto y) { return x < y; }));
  r.add(comparison("le", spell("le", {"torch.less_equal", "Tensor.less_equal", "operator.le"}),
                   [](auto x, auto y) { return x <= y; }));
  r.add(comparison("gt", spell("gt", {"torch.greater", "Tensor.greater", "operator.gt"}),
                   [](auto x, auto y) { return x > y; }));
  r.add(comparison("ge",
                   spell("ge", {"torch.greater_equal", "Tensor.greater_equal", "operator.ge"}),
                   [](auto x, auto y) { return x >= y; }));

  r.add(extremum("maximum", spell("maximum", {}), true, false));
  r.add(extremum("minimum", spell("minimum", {}), false, false));
  r.add(extremum("fmax", spell("fmax", {}), true, true));
  r.add(extremum("fmin", spell("fmin", {}), false, true));

  r.add(logical("logical_and", [](bool x, bool y) { return x && y; }));
  r.add(logical("logical_or", [](bool x, bool y) { return x || y; }));
  r.add(logical("logical_xor", [](bool x, bool y) { return x != y; }));

  r.add(bitwise("bitwise_and",
                spell("bitwise_and", {"Tensor.bitwise_and_", "operator.and_", "operator.iand"}),
                [](int64_t x, int64_t y) { return x & y; }));
  r.add(bitwise("bitwise_or",
                spell("bitwise_or", {"Tensor.bitwise_or_", "operator.or_", "operator.ior"}),
                [](int64_t x, int64_t y) { return x | y; }));
  r.add(bitwise("bitwise_xor",
                spell("bitwise_xor", {"Tensor.bitwise_xor_", "operator.xor", "operator.ixor"}),
                [](int64_t x, int64_t y) { return x ^ y; }));

  r.add(shift_op("bitwise_left_shift",
                 spell("bitwise_left_shift",
                       {"Tensor.bitwise_left_shift_", "operator.lshift", "operator.ilshift"}),
                 true));
  r.add(shift_op("bitwise_right_shift",
                 spell("bitwise_right_shift",
                       {"Tensor.bitwise_right_shift_", "operator.rshift", "operator.irshift"}),
                 false));

  UnaryOpDef lnot;
  lnot.name = "logical_not";
  lnot.aliases = spell("logical_not", {});
  lnot.dtype_rule = UnaryDtype::to_bool;
  lnot.bind = plain([](double x) { return x == 0 ? 1.0 : 0.0; });
  lnot.int_fn = [](int64_t x) -> int64_t { return x == 0; };
  lnot.doc = "not input, bool result";
  r.add(unary_op(std::move(lnot)));

  r.add(bitwise_not_op());
}

}  // namespace pf
