#include "trajectories/ids.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>

namespace pf::traj {

std::string make_run_id() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
  std::random_device rd;
  char suffix[16];
  std::snprintf(suffix, sizeof suffix, "%08x", static_cast<unsigned>(rd()));
  return std::string(stamp) + "-" + suffix;
}

std::string episode_id(std::string_view run_id, std::string_view task_id, int64_t sample) {
  return std::string(run_id) + ":" + std::string(task_id) + ":s" + std::to_string(sample);
}

std::string evaluation_id(std::string_view episode_id, int64_t turn, int64_t index) {
  return std::string(episode_id) + ":t" + std::to_string(turn) + ":e" + std::to_string(index);
}

std::string now_iso8601() {
  auto now = std::chrono::system_clock::now();
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
  std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>(ms % 1000));
  return buf;
}

std::optional<double> parse_iso8601(std::string_view text) {
  std::string s(text);
  std::tm tm{};
  int year = 0, mon = 0, day = 0, hour = 0, min = 0, consumed = 0;
  double sec = 0;
  if (std::sscanf(s.c_str(), "%4d-%2d-%2dT%2d:%2d:%lf%n", &year, &mon, &day, &hour, &min, &sec,
                  &consumed) != 6) {
    return std::nullopt;
  }
  std::string_view rest = text.substr(static_cast<size_t>(consumed));
  if (!(rest.empty() || rest == "Z")) return std::nullopt;
  if (mon < 1 || mon > 12 || day < 1 || day > 31 || hour > 23 || min > 59 || sec < 0 ||
      sec >= 61) {
    return std::nullopt;
  }
  tm.tm_year = year - 1900;
  tm.tm_mon = mon - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = min;
  return static_cast<double>(timegm(&tm)) + sec;
}

}  // namespace pf::traj
