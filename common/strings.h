// Small string utilities shared by the parser, config and reports.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pf {

std::vector<std::string> split(std::string_view s, char sep);
std::string_view trim(std::string_view s);
std::string join(const std::vector<std::string>& parts, std::string_view sep);
bool starts_with(std::string_view s, std::string_view prefix);
bool ends_with(std::string_view s, std::string_view suffix);

//! Levenshtein distance, for "did you mean" suggestions.
size_t edit_distance(std::string_view a, std::string_view b);

//! The candidate closest to `word`, or "" when none is plausibly meant.
std::string closest_match(std::string_view word, const std::vector<std::string>& candidates);

//! Shortest decimal that round-trips through double ("0.1", "1e-06").
std::string format_double(double v);

}  // namespace pf
