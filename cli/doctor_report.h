// What `passforge doctor` found: one line per check (for the table) plus the
// machine-readable facts of each group (for --json).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace pf::cli {

//! fail: the configured mode cannot work; warn: it works, degraded (e.g. an
//! isolation mechanism missing); info: a fact, no judgement.
enum class CheckStatus { ok, info, warn, fail };

const char* check_status_name(CheckStatus status);

struct DoctorCheck {
  std::string group;  // "cuda", "nvrtc", "isolation", "compile_cache", "endpoint", "config"
  std::string name;
  CheckStatus status = CheckStatus::info;
  std::string detail;
};

class DoctorReport {
 public:
  void add(std::string group, std::string name, CheckStatus status, std::string detail);

  //! Facts of one group, e.g. facts("cuda")["gpus"]; becomes the group's JSON object.
  nlohmann::json& facts(const std::string& group) { return facts_[group]; }

  //! "group/name: detail" for every failed check.
  std::vector<std::string> failures() const;
  const std::vector<DoctorCheck>& checks() const { return checks_; }

  //! An aligned table: STATUS  group  name  detail.
  std::string render_text() const;
  //! {"ok", "problems", "checks", <group>: facts...}.
  nlohmann::json to_json() const;

 private:
  std::vector<DoctorCheck> checks_;
  nlohmann::json facts_ = nlohmann::json::object();
};

}  // namespace pf::cli
