// Reads GraphNet's weight_meta.py (classes of `name = literal` attributes)
// into InputMeta records, using the dialect parser: the file is never executed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "evaluator/tasks/task.h"

namespace pf {

//! One InputMeta per class, in file order. Errors name file:line and the field.
Result<std::vector<InputMeta>> parse_weight_meta(std::string_view source, const std::string& file);

}  // namespace pf
