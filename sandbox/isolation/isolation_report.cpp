#include "sandbox/isolation/isolation_report.h"

namespace pf::sandbox {

const char* mechanism_state_name(MechanismState state) {
  switch (state) {
    case MechanismState::applied:
      return "applied";
    case MechanismState::available:
      return "available";
    case MechanismState::unavailable:
      return "unavailable";
    case MechanismState::disabled:
      return "disabled";
  }
  return "unavailable";
}

void IsolationReport::add(std::string name, MechanismState state, std::string detail) {
  mechanisms.push_back({std::move(name), state, std::move(detail)});
}

const MechanismReport* IsolationReport::find(const std::string& name) const {
  for (const auto& m : mechanisms) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

bool IsolationReport::applied(const std::string& name) const {
  const auto* m = find(name);
  return m != nullptr && m->state == MechanismState::applied;
}

bool IsolationReport::complete() const {
  for (const auto& m : mechanisms) {
    if (m.state != MechanismState::applied && m.state != MechanismState::available) return false;
  }
  return true;
}

std::vector<std::string> IsolationReport::gaps() const {
  std::vector<std::string> out;
  for (const auto& m : mechanisms) {
    if (m.state != MechanismState::applied && m.state != MechanismState::available) {
      out.push_back(m.name + ": " + mechanism_state_name(m.state) + ": " + m.detail);
    }
  }
  return out;
}

nlohmann::json IsolationReport::to_json() const {
  auto out = nlohmann::json::array();
  for (const auto& m : mechanisms) {
    out.push_back(
        {{"name", m.name}, {"state", mechanism_state_name(m.state)}, {"detail", m.detail}});
  }
  return out;
}

Result<IsolationReport> IsolationReport::from_json(const nlohmann::json& value) {
  auto bad = [](const std::string& what) {
    return make_error(ErrorCode::parse_error, "bad isolation report: " + what);
  };
  if (!value.is_array()) return bad("not an array");
  IsolationReport report;
  for (const auto& item : value) {
    if (!item.is_object() || !item.contains("name") || !item["name"].is_string() ||
        !item.contains("state") || !item["state"].is_string() || !item.contains("detail") ||
        !item["detail"].is_string()) {
      return bad("entries need string name, state and detail");
    }
    auto state_name = item["state"].get<std::string>();
    std::optional<MechanismState> state;
    for (auto s : {MechanismState::applied, MechanismState::available, MechanismState::unavailable,
                   MechanismState::disabled}) {
      if (state_name == mechanism_state_name(s)) state = s;
    }
    if (!state) return bad("unknown state '" + state_name + "'");
    report.add(item["name"].get<std::string>(), *state, item["detail"].get<std::string>());
  }
  return report;
}

}  // namespace pf::sandbox
