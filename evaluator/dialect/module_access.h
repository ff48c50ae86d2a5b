// Finding the functions other modules need in a parsed Module: `forward` of
// a dynamo GraphModule, top-level `pattern` / `replacement` of a pass file,
// the weight_meta classes.
#pragma once

#include <string_view>

#include "common/result.h"
#include "evaluator/dialect/ast.h"

namespace pf::dialect {

//! A top-level function, or nullptr.
const FunctionDef* find_function(const Module& module, std::string_view name);
//! A method of a class, or nullptr.
const FunctionDef* find_method(const Module& module, std::string_view class_name,
                               std::string_view name);
const ClassDef* find_class(const Module& module, std::string_view name);

//! `forward` of class GraphModule; else of the only class that has one; else
//! a top-level `forward`. The error lists what the module does define.
Result<const FunctionDef*> find_forward(const Module& module);

//! A top-level function; the error names the file and lists the functions
//! defined ("passes/Fuse.py: no function 'pattern' (defined: replacement)").
Result<const FunctionDef*> require_function(const Module& module, std::string_view name);

}  // namespace pf::dialect
