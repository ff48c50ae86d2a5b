// Mustache templates rendered from JSON contexts (kainjow mustache). Prompt
// text is plain text, not HTML: nothing is escaped.
//
// JSON maps onto mustache data as one would expect, with one convenience:
// null and "" are false, so `{{#compile_log}}...{{/compile_log}}` renders
// only when there is a log. Numbers render in their shortest round-trip form.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "common/result.h"

namespace pf::prompts {

//! Partial templates by name, for `{{> name}}`.
using Partials = std::map<std::string, std::string>;

//! Checks that `text` parses as a template; the error names `source`.
Status check_template(std::string_view text, const std::string& source);

//! Renders `text` with `context` (an object). Errors: the template does not
//! parse, or rendering failed; the message names `source`.
Result<std::string> render_template(std::string_view text, const nlohmann::json& context,
                                    const Partials& partials = {},
                                    const std::string& source = "<template>");

}  // namespace pf::prompts
