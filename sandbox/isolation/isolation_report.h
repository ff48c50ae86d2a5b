// What isolation a worker applied, one entry per mechanism, each with a
// reason: "applied" (and how), "unavailable" (and why, from errno or the
// kernel's answer) or "disabled" (by option). Travels in the hello reply and
// the probe_isolation reply; `passforge doctor` prints it.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"

namespace pf::sandbox {

//! `available` appears only in probe reports (probe_isolation): the mechanism
//! would be applied by a worker started now.
enum class MechanismState { applied, available, unavailable, disabled };

const char* mechanism_state_name(MechanismState state);

// Mechanism names used in reports (stable: tests and doctor look them up).
inline constexpr const char* kNoNewPrivs = "no_new_privs";
inline constexpr const char* kUserNamespace = "user_namespace";
inline constexpr const char* kNetworkNamespace = "network_namespace";
inline constexpr const char* kLandlockFs = "landlock_fs";
inline constexpr const char* kLandlockNet = "landlock_net";
inline constexpr const char* kLandlockScope = "landlock_scope";
inline constexpr const char* kSeccomp = "seccomp";
inline constexpr const char* kRlimits = "rlimits";

struct MechanismReport {
  std::string name;
  MechanismState state = MechanismState::unavailable;
  std::string detail;  // how it was applied, or why not
};

struct IsolationReport {
  std::vector<MechanismReport> mechanisms;

  void add(std::string name, MechanismState state, std::string detail);
  const MechanismReport* find(const std::string& name) const;
  bool applied(const std::string& name) const;
  //! True when every mechanism is applied (or, in a probe, available).
  bool complete() const;
  //! One line per mechanism that is not applied ("seccomp: unavailable: ...").
  std::vector<std::string> gaps() const;

  nlohmann::json to_json() const;
  static Result<IsolationReport> from_json(const nlohmann::json& value);
};

}  // namespace pf::sandbox
