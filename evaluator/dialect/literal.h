// Literal evaluation: the parts of an expression that are constants in the
// dialect (numbers, strings, dtypes, tuples, `-0.5`, `float('inf')`,
// `math.pi`, ...). Used by the graph builder and by readers of weight_meta.py.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/result.h"
#include "evaluator/core/ir.h"
#include "evaluator/dialect/ast.h"

namespace pf::dialect {

//! Evaluates an expression made only of literals (no names other than
//! constants such as `torch.float32`, `math.pi`): numbers, strings, bools,
//! None, `...`, tuples/lists, unary minus/plus, arithmetic on numbers,
//! `float('inf')`. Errors name file:line:col and the offending construct.
Result<Arg> literal_value(const Expr& expr, std::string_view file);

//! Constants spelled as dotted paths: "torch.float32" -> dtype,
//! "math.pi" -> real, "torch.contiguous_format" -> string. nullopt otherwise.
std::optional<Arg> named_constant(std::string_view path);

//! Python arithmetic on two number Args (int/float/bool), as Python computes
//! it: `/` gives a float, `//` and `%` floor, int overflow is an error.
//! nullopt when `op` is not foldable for these operands.
std::optional<Result<Arg>> fold_binary(Operator op, const Arg& left, const Arg& right);

//! `float('inf')` and friends as a real; nullopt for any other expression.
std::optional<Arg> float_call(const Expr& call);

//! `-x`, `+x`, `~x`, `not x` on a literal; nullopt when not foldable.
std::optional<Arg> fold_unary(Operator op, const Arg& operand);

}  // namespace pf::dialect
