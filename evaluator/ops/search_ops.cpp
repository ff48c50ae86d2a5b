// torch.bucketize / torch.searchsorted (PyTorch's binary search over sorted
// boundaries, NaN searched past every number), torch.isin (membership,
// invert) and torch.angle of real tensors (pi below zero, else 0; NaN kept).
// Sortedness is the caller's promise in PyTorch; the importer refuses graphs
// whose boundaries are synthesised at random (importer.cpp).
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_families.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"
#include "evaluator/ops/search_shape.h"
#include "evaluator/ops/type_promotion.h"

namespace pf {
namespace {

// ATen's cus_lower_bound / cus_upper_bound over seq[0, n): the first index
// whose value is >= x (> x for right), comparisons written as PyTorch's so a
// NaN x lands at n.
int64_t search(const double* seq, int64_t n, double x, bool right) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    const int64_t mid = lo + ((hi - lo) >> 1);
    const bool before = right ? !(seq[mid] > x) : !(seq[mid] >= x);
    if (before) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// Shared by bucketize (boundaries param 1, values param 0) and searchsorted
// (sorted_sequence param 0, values param 1).
OpInfo search_op(bool is_bucketize) {
  OpInfo op;
  const size_t seq_i = is_bucketize ? 1 : 0, val_i = is_bucketize ? 0 : 1;
  if (is_bucketize) {
    op.name = "bucketize";
    op.aliases = {"torch.bucketize"};
    op.params = {tensor_param("input"), tensor_param("boundaries"),
                 kwarg("out_int32", ParamKind::boolean, Arg::make_bool(false)),
                 kwarg("right", ParamKind::boolean, Arg::make_bool(false))};
    op.doc = "the bucket of each element among sorted 1-d boundaries";
  } else {
    op.name = "searchsorted";
    op.aliases = {"torch.searchsorted"};
    op.params = {tensor_param("sorted_sequence"),
                 tensor_param("values"),
                 kwarg("out_int32", ParamKind::boolean, Arg::make_bool(false)),
                 kwarg("right", ParamKind::boolean, Arg::make_bool(false)),
                 kwarg("side", ParamKind::optional_string, Arg::make_none()),
                 kwarg("sorter", ParamKind::optional_tensor, Arg::make_none())};
    op.doc = "insertion indices of values into the sorted last dim of sorted_sequence";
  }
  op.infer = [seq_i, val_i](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(SearchParams p,
              read_search(a, seq_i, val_i, a.tensor(seq_i).shape, a.tensor(val_i).shape));
    return std::vector<TensorType>{{p.out_dtype, a.tensor(val_i).shape}};
  };
  op.cpu = [seq_i, val_i](const BoundArgs<Tensor>& a,
                          const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& seq = a.tensor(seq_i);
    const Tensor& val = a.tensor(val_i);
    PF_ASSIGN(SearchParams p, read_search(a, seq_i, val_i, seq.shape(), val.shape()));
    const std::vector<double> s = seq.to_doubles(), v = val.to_doubles();
    const int64_t n = seq.shape().back();
    // Values per row of a batched sequence (its leading dims match the values').
    const int64_t per_row = p.batched ? (val.shape().empty() ? 1 : val.shape().back()) : 0;
    Tensor y = Tensor::zeros(out[0].dtype, out[0].shape);
    for (int64_t i = 0; i < static_cast<int64_t>(v.size()); ++i) {
      const int64_t row = p.batched ? i / per_row : 0;
      y.set_int(i, search(s.data() + row * n, n, v[static_cast<size_t>(i)], p.right));
    }
    return std::vector<Tensor>{y};
  };
  return op;
}

// torch.isin(elements, test_elements, *, assume_unique=False, invert=False).
OpInfo isin_op() {
  OpInfo op;
  op.name = "isin";
  op.aliases = {"torch.isin"};
  op.params = {tensor_param("elements"), param("test_elements", ParamKind::tensor_or_scalar),
               kwarg("assume_unique", ParamKind::boolean, Arg::make_bool(false)),
               kwarg("invert", ParamKind::boolean, Arg::make_bool(false))};
  op.doc = "whether each element equals one of test_elements (invert: not)";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_TRY(a.boolean(2));
    PF_TRY(a.boolean(3));
    return std::vector<TensorType>{{DType::boolean, a.tensor(0).shape}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(bool invert, a.boolean(3));
    const Tensor& x = a.tensor(0);
    std::vector<double> tests;
    bool integral = !is_floating(x.dtype());
    std::vector<int64_t> int_tests;
    if (a.is_tensor(1)) {
      const Tensor& t = a.tensor(1);
      integral = integral && !is_floating(t.dtype());
      tests = t.to_doubles();
      for (int64_t i = 0; i < t.numel(); ++i) int_tests.push_back(integral ? t.get_int(i) : 0);
    } else {
      const Arg& s = a.arg(1);
      integral = integral && s.kind != Arg::Kind::real;
      PF_ASSIGN(double d, a.real(1));
      tests.push_back(d);
      int_tests.push_back(integral ? (s.kind == Arg::Kind::boolean ? int64_t{s.b} : s.i) : 0);
    }
    Tensor y = Tensor::zeros(DType::boolean, out[0].shape);
    for (int64_t i = 0; i < x.numel(); ++i) {
      bool found = false;
      for (size_t k = 0; k < tests.size() && !found; ++k)
        found = integral ? x.get_int(i) == int_tests[k] : x.get(i) == tests[k];
      y.set_int(i, found != invert ? 1 : 0);
    }
    return std::vector<Tensor>{y};
  };
  return op;
}

}  // namespace

void register_search_ops(OpRegistry& r) {
  r.add(search_op(true));
  r.add(search_op(false));
  r.add(isin_op());
  r.add(unary_op(
      {"angle",
       {"torch.angle", "Tensor.angle"},
       {},
       UnaryDtype::float_promoting,
       plain([](double x) { return std::isnan(x) ? x : (x < 0 ? std::numbers::pi : 0.0); }),
       {},
       "the argument of a real number: pi below zero, else 0 (NaN kept)"}));
}

}  // namespace pf
