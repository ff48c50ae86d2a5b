#include "evaluator/ops/op_families.h"

#include "evaluator/ops/op_registry.h"

namespace pf {

void register_all_builtin_ops(OpRegistry& r) {
  register_activation_ops(r);
  register_math_ops(r);
  register_arithmetic_ops(r);
}

}  // namespace pf
