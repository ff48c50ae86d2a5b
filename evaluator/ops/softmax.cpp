// softmax, log_softmax and softmin (softmax of -input, as F.softmin) along
// a dim, computed stably (max subtracted) in float64. dim=None picks
// PyTorch's legacy implicit dim (0 for 0-, 1- and 3-d inputs, else 1); dtype=
// converts the input first.
#include <cmath>
#include <limits>

#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"
#include "evaluator/ops/reduce_util.h"
#include "evaluator/ops/type_promotion.h"

namespace pf {
namespace {

// torch.softmax(x, dim, dtype) has dtype where F.softmax has _stacklevel.
std::string softmax_overload(std::string_view, std::vector<Arg>& positional,
                             std::vector<std::pair<std::string, Arg>>& keywords) {
  if (positional.size() >= 3 && positional[2].kind == Arg::Kind::dtype) {
    keywords.emplace_back("dtype", positional[2]);
    positional.erase(positional.begin() + 2);
  }
  return "";
}

Result<Reduction> softmax_plan(const ArgReader& a, const Shape& shape) {
  if (!a.is_none(1)) return plan_dim(a, 1, shape, true);
  size_t rank = shape.size();
  int64_t dim = rank == 0 || rank == 1 || rank == 3 ? 0 : 1;
  return plan_reduction(a, 1, shape, std::vector<int64_t>{dim}, true);
}

OpInfo softmax_op(const std::string& name, bool log, bool negate = false) {
  OpInfo op;
  op.name = name;
  op.aliases = {"torch." + name, "Tensor." + name, "torch.nn.functional." + name,
                "torch.special." + name};
  if (negate) op.aliases = {"torch.nn.functional.softmin"};
  op.params = {tensor_param("input"), param("dim", ParamKind::optional_integer, Arg::make_none()),
               ParamDef{"_stacklevel", ParamKind::ignored, Arg::make_int(3)},
               param("dtype", ParamKind::optional_dtype, Arg::make_none())};
  op.overload = softmax_overload;
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& x = a.tensor(0);
    DType t = x.dtype;
    if (!a.is_none(3)) {
      PF_ASSIGN(t, a.dtype(3));
    }
    if (!is_floating(t)) {
      return a.error(0, std::string("expected a floating tensor or dtype=, got ") + dtype_name(t));
    }
    PF_TRY(softmax_plan(a, x.shape));
    return std::vector<TensorType>{{t, x.shape}};
  };
  op.cpu = [log, negate](const BoundArgs<Tensor>& a,
                         const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    DType t = out[0].dtype;
    PF_ASSIGN(Reduction r, softmax_plan(a, x.shape()));
    Tensor y = Tensor::zeros(t, out[0].shape);
    Tensor yg = grouped_view(y, r);
    std::vector<double> v = grouped_values(x, r);
    for (double& e : v) e = round_to_dtype(negate ? -e : e, t);
    for (int64_t g = 0; g < r.groups; ++g) {
      const double* group = v.data() + g * r.group_size;
      double m = -std::numeric_limits<double>::infinity();
      for (int64_t k = 0; k < r.group_size; ++k) m = std::max(m, group[k]);
      double sum = 0;
      for (int64_t k = 0; k < r.group_size; ++k) sum += std::exp(group[k] - m);
      for (int64_t k = 0; k < r.group_size; ++k) {
        double z = group[k] - m;
        yg.set(g * r.group_size + k, log ? z - std::log(sum) : std::exp(z) / sum);
      }
    }
    return std::vector<Tensor>{y};
  };
  op.doc = log      ? "log(softmax(input)) along dim"
           : negate ? "softmax(-input) along dim"
                    : "exp(x) / sum(exp(x)) along dim";
  return op;
}

}  // namespace

void register_softmax_ops(OpRegistry& r) {
  r.add(softmax_op("softmax", false));
  r.add(softmax_op("log_softmax", true));
  r.add(softmax_op("softmin", false, true));
}

}  // namespace pf
