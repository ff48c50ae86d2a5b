#include "agent/llm/retry_policy.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <ctime>
#include <string>

#include "common/strings.h"

namespace pf::llm {
namespace {

std::optional<double> parse_number(std::string_view s) {
  s = trim(s);
  if (s.empty() || !std::all_of(s.begin(), s.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) || c == '.';
      })) {
    return std::nullopt;
  }
  double v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<int> month_index(std::string_view name) {
  static constexpr std::array<std::string_view, 12> kMonths = {
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  for (size_t i = 0; i < kMonths.size(); ++i) {
    if (name == kMonths[i]) return static_cast<int>(i);
  }
  return std::nullopt;
}

std::optional<int> to_int(std::string_view s) {
  int v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

// "08:49:37" -> tm fields.
bool parse_clock(std::string_view s, std::tm& tm) {
  auto parts = split(s, ':');
  if (parts.size() != 3) return false;
  auto h = to_int(parts[0]), m = to_int(parts[1]), sec = to_int(parts[2]);
  if (!h || !m || !sec || *h > 23 || *m > 59 || *sec > 60) return false;
  tm.tm_hour = *h;
  tm.tm_min = *m;
  tm.tm_sec = *sec;
  return true;
}

// The three HTTP-date forms of RFC 9110 section 5.6.7, all in GMT.
std::optional<std::time_t> parse_http_date(std::string_view value) {
  std::vector<std::string> words;
  for (auto& w : split(trim(value), ' ')) {
    if (!w.empty()) words.push_back(w);
  }
  std::tm tm{};
  std::optional<int> day, month, year;
  if (words.size() == 6 && words[5] == "GMT") {  // Sun, 06 Nov 1994 08:49:37 GMT
    day = to_int(words[1]);
    month = month_index(words[2]);
    year = to_int(words[3]);
    if (!parse_clock(words[4], tm)) return std::nullopt;
  } else if (words.size() == 4 && words[3] == "GMT") {  // Sunday, 06-Nov-94 08:49:37 GMT
    auto dmy = split(words[1], '-');
    if (dmy.size() != 3) return std::nullopt;
    day = to_int(dmy[0]);
    month = month_index(dmy[1]);
    year = to_int(dmy[2]);
    if (year && *year < 100) *year += *year < 70 ? 2000 : 1900;
    if (!parse_clock(words[2], tm)) return std::nullopt;
  } else if (words.size() == 5) {  // Sun Nov  6 08:49:37 1994
    month = month_index(words[1]);
    day = to_int(words[2]);
    year = to_int(words[4]);
    if (!parse_clock(words[3], tm)) return std::nullopt;
  } else {
    return std::nullopt;
  }
  if (!day || !month || !year || *day < 1 || *day > 31 || *year < 1970) return std::nullopt;
  tm.tm_mday = *day;
  tm.tm_mon = *month;
  tm.tm_year = *year - 1900;
  std::time_t t = timegm(&tm);
  if (t == static_cast<std::time_t>(-1)) return std::nullopt;
  return t;
}

}  // namespace

double backoff_delay_s(int retry, double initial_s, double max_s, double u01) {
  retry = std::max(retry, 1);
  double ceiling = initial_s * std::pow(2.0, std::min(retry - 1, 62));
  ceiling = std::min(ceiling, max_s);
  return std::clamp(u01, 0.0, 1.0) * std::max(ceiling, 0.0);
}

std::optional<double> parse_retry_after(std::string_view value,
                                        std::chrono::system_clock::time_point now) {
  if (auto seconds = parse_number(value)) return seconds;
  auto date = parse_http_date(value);
  if (!date) return std::nullopt;
  double delta =
      std::chrono::duration<double>(std::chrono::system_clock::from_time_t(*date) - now).count();
  return std::max(delta, 0.0);
}

std::optional<double> parse_retry_after_ms(std::string_view value) {
  auto ms = parse_number(value);
  if (!ms) return std::nullopt;
  return *ms / 1000.0;
}

}  // namespace pf::llm
