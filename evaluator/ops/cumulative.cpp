// Running reductions along one dim: cumsum and cumprod (integers and bool
// accumulate exactly into int64 unless dtype= says otherwise).
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"
#include "evaluator/ops/reduce_util.h"
#include "evaluator/ops/type_promotion.h"

namespace pf {
namespace {

OpInfo cumulative_op(const std::string& name, bool product) {
  OpInfo op;
  op.name = name;
  op.aliases = {"torch." + name, "Tensor." + name};
  op.params = {tensor_param("input"), param("dim", ParamKind::integer),
               kwarg("dtype", ParamKind::optional_dtype, Arg::make_none())};
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& x = a.tensor(0);
    PF_TRY(plan_dim(a, 1, x.shape, true));
    DType t = is_floating(x.dtype) ? x.dtype : DType::int64;
    if (!a.is_none(2)) {
      PF_ASSIGN(t, a.dtype(2));
    }
    return std::vector<TensorType>{{t, x.shape}};
  };
  op.cpu = [product](const BoundArgs<Tensor>& a,
                     const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    DType t = out[0].dtype;
    PF_ASSIGN(Reduction r, plan_dim(a, 1, x.shape(), true));
    Tensor y = Tensor::zeros(t, out[0].shape);
    Tensor xg = grouped_view(x, r);
    Tensor yg = grouped_view(y, r);
    bool exact = !is_floating(t) && !is_floating(x.dtype());
    for (int64_t g = 0; g < r.groups; ++g) {
      uint64_t iacc = product ? 1 : 0;
      double acc = product ? 1 : 0;
      for (int64_t k = 0; k < r.group_size; ++k) {
        int64_t i = g * r.group_size + k;
        if (exact) {
          auto v = static_cast<uint64_t>(xg.get_int(i));
          iacc = product ? iacc * v : iacc + v;
          yg.set_int(i, wrap_to_dtype(static_cast<int64_t>(iacc), t));
        } else {
          // A dtype= argument converts the input before accumulating.
          double v = round_to_dtype(xg.get(i), t);
          acc = product ? acc * v : acc + v;
          yg.set(i, acc);
        }
      }
    }
    return std::vector<Tensor>{y};
  };
  op.doc = product ? "running product along dim" : "running sum along dim";
  return op;
}

}  // namespace

void register_cumulative_ops(OpRegistry& r) {
  r.add(cumulative_op("cumsum", false));
  r.add(cumulative_op("cumprod", true));
}

}  // namespace pf
