// Registration entry points, one per op family file (ops/<family>.cpp).
// Adding a family: write the file, declare its function here, call it in
// register_all_builtin_ops (op_families.cpp), list the file in CMakeLists.txt.
#pragma once

namespace pf {

class OpRegistry;

void register_activation_ops(OpRegistry& r);
void register_math_ops(OpRegistry& r);
void register_arithmetic_ops(OpRegistry& r);

void register_all_builtin_ops(OpRegistry& r);

}  // namespace pf
