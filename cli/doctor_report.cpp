#include "cli/doctor_report.h"

#include <algorithm>

namespace pf::cli {

const char* check_status_name(CheckStatus status) {
  switch (status) {
    case CheckStatus::ok: return "ok";
    case CheckStatus::info: return "info";
    case CheckStatus::warn: return "warn";
    case CheckStatus::fail: return "FAIL";
  }
  return "?";
}

void DoctorReport::add(std::string group, std::string name, CheckStatus status, std::string detail) {
  checks_.push_back({std::move(group), std::move(name), status, std::move(detail)});
}

std::vector<std::string> DoctorReport::failures() const {
  std::vector<std::string> out;
  for (const auto& c : checks_) {
    if (c.status == CheckStatus::fail) out.push_back(c.group + "/" + c.name + ": " + c.detail);
  }
  return out;
}

std::string DoctorReport::render_text() const {
  size_t group_w = 0, name_w = 0;
  for (const auto& c : checks_) {
    group_w = std::max(group_w, c.group.size());
    name_w = std::max(name_w, c.name.size());
  }
  std::string out;
  std::string last_group;
  for (const auto& c : checks_) {
    std::string status = check_status_name(c.status);
    std::string group = c.group == last_group ? "" : c.group;
    last_group = c.group;
    out += status + std::string(6 - status.size(), ' ') + group +
           std::string(group_w + 2 - group.size(), ' ') + c.name +
           std::string(name_w + 2 - c.name.size(), ' ') + c.detail + "\n";
  }
  return out;
}

nlohmann::json DoctorReport::to_json() const {
  nlohmann::json out = facts_;
  auto problems = failures();
  out["ok"] = problems.empty();
  out["problems"] = problems;
  auto& checks = out["checks"] = nlohmann::json::array();
  for (const auto& c : checks_) {
    checks.push_back({{"group", c.group}, {"name", c.name}, {"status", check_status_name(c.status)},
                      {"detail", c.detail}});
  }
  return out;
}

}  // namespace pf::cli
