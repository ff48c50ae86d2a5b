// The class every failed variant carries (docs/design.md "Evaluation protocol").
#pragma once

#include <optional>
#include <string_view>

namespace pf {

enum class FailureClass {
  none,            // ran; correctness is judged per tolerance level
  compile_fail,
  pass_miss,       // no pass matched in this variant
  runtime_fail,    // crash, illegal address, launch failure, bad replacement at run time
  accuracy,        // ran, outputs not close at the level in question
  shape_mismatch,
  dtype_mismatch,
  integrity,       // a dynamic integrity check failed (poison, canary, inputs modified ...)
  timeout,
  //! A worker limit ended the evaluation (memory, compile time, cubin size,
  //! interpreter value sizes); the message names the limit and its value.
  resource_limit,
  unstable,        // timing too noisy: excluded from scores, not blamed on the model
};

//! The result field (whole evaluation and each variant) that holds a class:
//! the one spelling every reader and writer of results uses.
inline constexpr const char* kFailureClassField = "failure_class";

const char* failure_class_name(FailureClass c);
std::optional<FailureClass> parse_failure_class(std::string_view name);

}  // namespace pf
