// triu / tril: zero the elements below / above the diagonal-th diagonal of
// the last two dimensions (a copy; batch dimensions are independent).
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"

namespace pf {
namespace {

OpInfo triangle_op(const std::string& name, bool upper) {
  OpInfo op;
  op.name = name;
  op.aliases = {"torch." + name, "Tensor." + name, "Tensor." + name + "_"};
  op.params = {tensor_param("input"), param("diagonal", ParamKind::integer, Arg::make_int(0))};
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    if (a.tensor(0).shape.size() < 2) {
      return a.error(0, "expected a tensor with at least 2 dimensions, got shape " +
                            shape_str(a.tensor(0).shape));
    }
    PF_TRY(a.integer(1));
    return std::vector<TensorType>{a.tensor(0)};
  };
  op.cpu = [upper](const BoundArgs<Tensor>& a,
                   const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    PF_ASSIGN(int64_t diagonal, a.integer(1));
    Tensor y = x.contiguous_copy();
    const Shape& s = out[0].shape;
    int64_t rows = s[s.size() - 2], cols = s[s.size() - 1];
    for (int64_t i = 0, n = y.numel(); i < n; ++i) {
      int64_t c = i % cols, r = (i / cols) % rows;
      bool keep = upper ? c - r >= diagonal : c - r <= diagonal;
      if (!keep) y.set_int(i, 0);
    }
    return std::vector<Tensor>{y};
  };
  op.doc = upper ? "upper triangle (elements with col - row >= diagonal)"
                 : "lower triangle (elements with col - row <= diagonal)";
  return op;
}

}  // namespace

void register_triangular_ops(OpRegistry& r) {
  r.add(triangle_op("triu", true));
  r.add(triangle_op("tril", false));
}

}  // namespace pf
