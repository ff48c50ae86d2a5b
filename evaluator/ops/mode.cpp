// torch.mode(input, dim=-1, keepdim=False) -> (values, indices), as PyTorch
// 1.13's CPU loop over each row sorted by value: runs of equal values, the
// first run longer than every earlier one wins, so the value is the smallest
// most frequent one (NaN equals nothing: each NaN is a run of one, sorted
// after the numbers). The index is that of the run's last element; PyTorch's
// std::sort leaves the order of equal values unspecified, so rows of up to 16
// values (insertion sort, stable) give the last occurrence, longer rows any
// occurrence. The reference fixes the last occurrence (sort_order.h's order:
// ties by index), which the GPU baseline's composition also picks.
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"
#include "evaluator/ops/reduce_util.h"
#include "evaluator/ops/sort_order.h"

namespace pf {
namespace {

// The position (in sorted order) of the end of the first longest run.
template <typename V>
int64_t mode_run_end(const std::vector<V>& v, const std::vector<int64_t>& pos) {
  const auto n = static_cast<int64_t>(pos.size());
  int64_t best = 0, best_end = 0, run = 0;
  for (int64_t i = 0; i < n; ++i) {
    ++run;
    const bool ends = i == n - 1 || !(v[static_cast<size_t>(pos[static_cast<size_t>(i)])] ==
                                      v[static_cast<size_t>(pos[static_cast<size_t>(i + 1)])]);
    if (!ends) continue;
    if (run > best) {
      best = run;
      best_end = i;
    }
    run = 0;
  }
  return best_end;
}

OpInfo mode_op() {
  OpInfo op;
  op.name = "mode";
  op.aliases = {"torch.mode", "Tensor.mode"};
  op.params = {tensor_param("input"), param("dim", ParamKind::integer, Arg::make_int(-1)),
               param("keepdim", ParamKind::boolean, Arg::make_bool(false))};
  op.returns_list = true;
  auto plan = [](const ArgReader& a, const Shape& shape) -> Result<Reduction> {
    PF_ASSIGN(bool keepdim, a.boolean(2));
    return plan_dim(a, 1, shape, keepdim);
  };
  op.infer = [plan](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& x = a.tensor(0);
    PF_ASSIGN(Reduction r, plan(a, x.shape));
    if (r.group_size == 0 && r.groups > 0) {
      return a.error(1, "mode(): Expected reduction dim to have non-zero size");
    }
    return std::vector<TensorType>{{x.dtype, r.out_shape}, {DType::int64, r.out_shape}};
  };
  op.cpu = [plan](const BoundArgs<Tensor>& a,
                  const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    PF_ASSIGN(Reduction r, plan(a, x.shape()));
    Tensor values = Tensor::zeros(x.dtype(), out[0].shape);
    Tensor indices = Tensor::zeros(DType::int64, out[1].shape);
    const Tensor xg = grouped_view(x, r);
    const int64_t n = r.group_size;
    for (int64_t g = 0; g < r.groups; ++g) {
      const int64_t base = g * n;
      int64_t at = 0;
      if (!is_floating(x.dtype())) {
        std::vector<int64_t> v(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = xg.get_int(base + i);
        const std::vector<int64_t> pos = ordered_positions(v, n, false);
        at = pos[static_cast<size_t>(mode_run_end(v, pos))];
        values.set_int(g, xg.get_int(base + at));
      } else {
        std::vector<double> v(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = xg.get(base + i);
        const std::vector<int64_t> pos = ordered_positions(v, n, false);
        at = pos[static_cast<size_t>(mode_run_end(v, pos))];
        values.set(g, xg.get(base + at));
      }
      indices.set_int(g, at);
    }
    return std::vector<Tensor>{values, indices};
  };
  op.doc = "(values, indices) of the smallest most frequent value along dim (its last index)";
  return op;
}

}  // namespace

void register_mode_ops(OpRegistry& r) {
  r.add(mode_op());
}

}  // namespace pf
