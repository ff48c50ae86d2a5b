// Pointwise activations. Each entry: aliases, signature, shape rule (same as
// input), CPU reference in float64 rounded to the input dtype.
#include <cmath>

#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"

namespace pf {

void register_activation_ops(OpRegistry& r) {
  r.add(unary_float_op("relu",
                       {"torch.relu", "Tensor.relu", "torch.nn.functional.relu",
                        "torch._C._nn.relu"},
                       {inplace_param()},
                       [](double x, const ArgReader&) { return x > 0 ? x : (std::isnan(x) ? x : 0.0); }));
}

}  // namespace pf
