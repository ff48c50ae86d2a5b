// Doctor probe of the worker sandbox: what a worker started now would get
// (sandbox/isolation probes in a child process; nothing is applied here).
#include "cli/doctor_probes.h"

#include "sandbox/isolation/isolation.h"
#include "sandbox/isolation/landlock.h"

namespace pf::cli {

void probe_isolation(const Config& config, DoctorReport& report) {
  sandbox::IsolationOptions options;
  options.cache_dir = nvrtc_cache_dir(config);
  sandbox::IsolationReport probe = sandbox::probe_isolation(options);
  auto& facts = report.facts("isolation");
  facts["mechanisms"] = probe.to_json();
  auto abi = sandbox::landlock_abi();
  facts["landlock_abi"] = abi.ok() ? nlohmann::json(*abi) : nlohmann::json(nullptr);
  facts["complete"] = probe.complete();
  for (const auto& m : probe.mechanisms) {
    // A missing mechanism weakens the sandbox but does not stop evaluation:
    // a loud warning, as the worker itself logs when it starts.
    bool fine = m.state == sandbox::MechanismState::available ||
                m.state == sandbox::MechanismState::applied;
    report.add("isolation", m.name, fine ? CheckStatus::ok : CheckStatus::warn,
               std::string(sandbox::mechanism_state_name(m.state)) +
                   (m.detail.empty() ? "" : ": " + m.detail));
  }
}

}  // namespace pf::cli
