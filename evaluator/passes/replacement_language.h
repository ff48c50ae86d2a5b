// The replacement language (docs/design.md "The pass"): the whitelist shared by
// the load-time check (replacement_check.h) and the interpreter
// (interpreter.h). The language itself is the whitelist: nothing here
// computes on tensor data, so "call the library instead of writing a kernel"
// cannot be expressed.
#pragma once

#include <string>
#include <string_view>

namespace pf::passes::lang {

//! torch.empty / empty_like / zeros / zeros_like.
bool is_allocation(std::string_view dotted);
//! x.size(), x.stride(), x.numel(), x.dim(), x.is_contiguous(), x.element_size().
bool is_metadata_method(std::string_view name);
//! x.shape, x.dtype, x.ndim, x.device.
bool is_metadata_attribute(std::string_view name);
//! launch, cdiv, min, max.
bool is_builtin(std::string_view name);

//! One line listing what a replacement body may call, for messages.
const std::string& allowed_calls_text();
//! One line listing the metadata a replacement body may read.
const std::string& allowed_metadata_text();
//! One line listing the statements a replacement body may contain.
const std::string& allowed_statements_text();

}  // namespace pf::passes::lang
