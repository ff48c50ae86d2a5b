#include "serve/line_diff.h"

#include <cstdint>

namespace pf::serve {
namespace {

// 4000 x 4000 lines is 16M cells of 4 bytes: larger pass files are rare and
// shown as removed/added whole rather than costing the server seconds.
constexpr size_t kMaxCells = size_t{16} << 20;

std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> lines;
  size_t pos = 0;
  while (pos < s.size()) {
    size_t end = s.find('\n', pos);
    if (end == std::string::npos) end = s.size();
    lines.push_back(s.substr(pos, end - pos));
    pos = end + 1;
  }
  return lines;
}

}  // namespace

std::vector<DiffLine> line_diff(const std::string& before, const std::string& after) {
  if (before == after) return {};
  auto a = split_lines(before), b = split_lines(after);
  std::vector<DiffLine> out;
  const size_t n = a.size(), m = b.size();
  if ((n + 1) * (m + 1) > kMaxCells) {
    for (auto& l : a) out.push_back({'-', std::move(l)});
    for (auto& l : b) out.push_back({'+', std::move(l)});
    return out;
  }
  // lcs[i][j]: common lines of a[i..] and b[j..].
  std::vector<uint32_t> lcs((n + 1) * (m + 1), 0);
  auto at = [&](size_t i, size_t j) -> uint32_t& { return lcs[i * (m + 1) + j]; };
  for (size_t i = n; i-- > 0;) {
    for (size_t j = m; j-- > 0;) {
      at(i, j) = a[i] == b[j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
    }
  }
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] == b[j]) {
      out.push_back({' ', a[i]});
      ++i, ++j;
    } else if (j < m && (i == n || at(i, j + 1) >= at(i + 1, j))) {
      out.push_back({'+', b[j++]});
    } else {
      out.push_back({'-', a[i++]});
    }
  }
  return out;
}

}  // namespace pf::serve
