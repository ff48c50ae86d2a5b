// Line diffs between two versions of a pass file (the episode page shows what
// each turn changed). Longest common subsequence over lines; files too large
// for the quadratic table are reported as replaced whole.
#pragma once

#include <string>
#include <vector>

namespace pf::serve {

struct DiffLine {
  char op = ' ';  // ' ' kept, '-' removed, '+' added
  std::string text;
};

//! Every line of both texts, in order, tagged; empty when they are equal.
std::vector<DiffLine> line_diff(const std::string& before, const std::string& after);

}  // namespace pf::serve
