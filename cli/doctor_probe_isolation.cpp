// Doctor probe of the worker sandbox: what a worker started now would get
// (sandbox/isolation probes in a child process; nothing is applied here).
#include "cli/doctor_probes.h"
#include "sandbox/isolation/isolation.h"
#include "sandbox/isolation/landlock.h"
#include "sandbox/pool/cgroup_delegation.h"

namespace pf::cli {
namespace {

// How a run would cap each worker's memory: a cgroup of its own where the
// cgroup v2 hierarchy is delegated (read only here: a run sets it up), else
// the fallback, which leaves a GPU worker only the pool's sampling: a warning.
void probe_worker_memory(const Config& config, DoctorReport& report) {
  const int mb = config.evaluator.worker_memory_mb;
  const auto delegation =
      sandbox::probe_cgroup_delegation(sandbox::CgroupSources::of_this_process());
  auto& facts = report.facts("isolation")["worker_memory"];
  facts = {{"limit_mb", mb},
           {"cgroup", delegation.usable},
           {"cgroup_dir", delegation.dir.string()},
           {"reason", delegation.reason}};
  const std::string limit = std::to_string(mb) + " MiB (evaluator.worker_memory_mb)";
  if (mb <= 0) {
    report.add("isolation", "worker_memory", CheckStatus::warn,
               "not limited (evaluator.worker_memory_mb = 0)");
  } else if (delegation.usable) {
    report.add("isolation", "worker_memory", CheckStatus::ok,
               "cgroup v2: each worker in its own cgroup with memory.max = " + limit +
                   " and memory.swap.max = 0 (" + delegation.reason + ")");
  } else {
    report.add("isolation", "worker_memory", CheckStatus::warn,
               limit + " through " + sandbox::kMemoryFallback +
                   "; no cgroup v2 memory.max: " + delegation.reason);
  }
}

}  // namespace

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
  probe_worker_memory(config, report);
}

}  // namespace pf::cli
