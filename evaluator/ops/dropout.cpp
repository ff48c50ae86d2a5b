// Dropout in all its spellings. With training=False (or p == 0) PyTorch
// returns the input tensor itself, so the op is an alias. Training-mode
// dropout with p > 0 is random, which a reference cannot reproduce: it is
// refused with a message saying how to fix the graph. One op serves every
// variant (dropout1d/2d/3d, alpha and feature-alpha dropout): where it is
// defined at all, each is the identity.
#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_families.h"
#include "evaluator/ops/op_registry.h"

namespace pf {
namespace {

using namespace layout;

template <typename T>
Status check_dropout(const BoundArgs<T>& a) {
  PF_ASSIGN(double p, a.real(1));
  PF_ASSIGN(bool training, a.boolean(2));
  if (p < 0 || p > 1) return a.error(1, "dropout probability must be in [0, 1], got " + std::to_string(p));
  if (training && p > 0) {
    return a.error(2, "training-mode dropout with p > 0 is random and cannot be evaluated; "
                      "pass training=False (inference)");
  }
  return ok_status();
}

}  // namespace

void register_dropout_ops(OpRegistry& r) {
  OpInfo op;
  op.name = "dropout";
  op.aliases = {"torch.nn.functional.dropout",       "torch.nn.functional.dropout1d",
                "torch.nn.functional.dropout2d",     "torch.nn.functional.dropout3d",
                "torch.nn.functional.alpha_dropout", "torch.nn.functional.feature_alpha_dropout",
                "torch.dropout",                     "torch.alpha_dropout",
                "torch.feature_alpha_dropout",       "torch.feature_dropout"};
  op.params = {param_tensor("input"), param_real("p", 0.5), param_bool("training", true),
               param_ignored("inplace", Arg::make_bool(false))};
  op.is_view = true;  // the input itself
  // torch.dropout(input, p, train) names the flag `train`.
  op.overload = [](std::string_view, std::vector<Arg>&,
                   std::vector<std::pair<std::string, Arg>>& keywords) {
    for (auto& kw : keywords) {
      if (kw.first == "train") kw.first = "training";
    }
    return std::string();
  };
  op.doc = "identity at inference (training=False); training-mode dropout is refused";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_TRY(check_dropout(a));
    return std::vector<TensorType>{a.tensor(0)};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>&) -> Result<std::vector<Tensor>> {
    PF_TRY(check_dropout(a));
    return std::vector<Tensor>{a.tensor(0)};
  };
  r.add(std::move(op));
}

}  // namespace pf
