// From source spellings to registry aliases: dotted paths, import aliases
// ("F" -> "torch.nn.functional"), in-place forms ("clamp_" -> "clamp") and
// the "unknown op" message with its suggestion.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "evaluator/dialect/ast.h"
#include "evaluator/ops/op_registry.h"

namespace pf::dialect {

//! Local name -> dotted module path, from imports ("F" -> "torch.nn.functional",
//! "device" -> "torch.device").
using ModuleAliases = std::map<std::string, std::string, std::less<>>;

//! The aliases a module's imports define, on top of the conventional ones
//! (`F` for torch.nn.functional, `nn` for torch.nn) so a pass that forgets its
//! import line still reads as intended.
ModuleAliases module_aliases(const Module& module);
ModuleAliases default_module_aliases();

//! "torch.nn.functional.relu" for a chain of names and attributes; nullopt
//! for anything else (a call result, a subscript, ...).
std::optional<std::string> dotted_path(const Expr& expr);

//! Rewrites the first component through `aliases` and spells tensor methods
//! written as functions ("torch.Tensor.add") as the registry does ("Tensor.add").
std::string canonical_spelling(std::string_view path, const ModuleAliases& aliases);

//! True for in-place spellings: the last component ends in one '_'
//! ("Tensor.clamp_", "torch.relu_"; not "__add__").
bool is_inplace_spelling(std::string_view spelling);

//! Looks `spelling` up; an in-place spelling falls back to its out-of-place
//! form ("Tensor.clamp_" then "Tensor.clamp"). nullptr if neither exists.
//! `found_alias` receives the alias that matched.
const OpInfo* find_op(const OpRegistry& registry, std::string_view spelling,
                      std::string* found_alias = nullptr);

//! For a reflected dunder ("Tensor.__rsub__": `x.__rsub__(y)` is `y - x`),
//! the operator spelling it applies with swapped operands ("operator.sub");
//! nullopt for anything else.
std::optional<std::string> reflected_operator(const OpRegistry& registry,
                                              std::string_view spelling);

//! For an in-place dunder ("Tensor.__isub__": `x.__isub__(y)` is `x -= y`),
//! the operator spelling of the augmented assignment ("operator.isub");
//! nullopt for anything else, and for operators PyTorch has no in-place form of.
std::optional<std::string> inplace_operator(const OpRegistry& registry, std::string_view spelling);

//! "unknown op 'torch.reluu' (did you mean 'torch.relu'?)".
std::string unknown_op_message(const OpRegistry& registry, std::string_view spelling);

}  // namespace pf::dialect
