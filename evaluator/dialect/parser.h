// Parses dialect source (model.py, weight_meta.py, pass files) into a Module.
#pragma once

#include <string>
#include <string_view>

#include "common/result.h"
#include "evaluator/dialect/ast.h"

namespace pf::dialect {

//! Syntax errors are parse_error values "file:line:col: message" naming the
//! construct (`expected ')' to close '(' opened at 7:9`). Statements the
//! dialect does not support inside functions parse as Stmt::Kind::unsupported
//! rather than failing the parse.
Result<Module> parse_module(std::string_view source, std::string file);

//! Parses one expression (the whole text), for tools and tests.
Result<Expr> parse_expression(std::string_view source, std::string file);

}  // namespace pf::dialect
