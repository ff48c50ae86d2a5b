// A small, stable op registry for the dialect tests: real OpInfo entries
// (PyTorch signatures and aliases) without shape rules or CPU code, so the
// parser/builder/printer tests do not move when the built-in ops change.
#pragma once

#include "evaluator/ops/op_registry.h"

namespace pf::testing {

const OpRegistry& dialect_test_registry();

}  // namespace pf::testing
