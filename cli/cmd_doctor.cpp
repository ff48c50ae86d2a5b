// `passforge doctor`: what this machine and configuration can do. Never
// crashes on a machine without a GPU, driver, NVRTC or network; every probe
// reports what it found or why it could not look. Exit code 0 when the
// configured mode (full GPU evaluation or compile-only, and the endpoint)
// works, 1 otherwise with the reasons, 2 for a bad configuration.
#include "cli/cmd_doctor.h"

#include <iostream>
#include <memory>

#include "cli/config_options.h"
#include "cli/doctor_probes.h"
#include "cli/doctor_report.h"
#include "cli/exit_codes.h"
#include "config/config_fields.h"
#include "passforge/version.h"

namespace pf::cli {
namespace {

struct DoctorOptions {
  ConfigOptions config;
  bool json = false;
  bool config_keys = false;
  double endpoint_timeout_s = 5;
};

int run_doctor(const DoctorOptions& options) {
  if (options.config_keys) {
    std::cout << config_reference_markdown();
    return kExitOk;
  }
  auto loaded = load_config_or_report(options.config);
  if (!loaded.ok()) return kExitUsage;

  DoctorReport report;
  report.facts("passforge") = {{"version", kVersion}, {"commit", kGitCommit}};
  report.add("passforge", "version", CheckStatus::info,
             std::string(kVersion) + " (" + kGitCommit + ")");
  probe_config(*loaded, report);
  // Isolation first: its probe forks, best done before CUDA starts threads.
  probe_isolation(loaded->config, report);
  GpuFindings gpu = probe_gpu(report);
  probe_nvrtc(loaded->config, gpu, report);
  probe_endpoint(loaded->config, options.endpoint_timeout_s, report);
  decide_mode(loaded->config, gpu, report);

  auto problems = report.failures();
  if (options.json) {
    std::cout << report.to_json().dump(2) << "\n";
  } else {
    std::cout << report.render_text();
    if (problems.empty()) {
      std::cout << "\ndoctor: ready (" << report.facts("mode")["mode"].get<std::string>() << ")\n";
    } else {
      std::cout << "\ndoctor: not ready:\n";
      for (const auto& p : problems) std::cout << "  - " << p << "\n";
    }
  }
  return problems.empty() ? kExitOk : kExitFailure;
}

}  // namespace

void add_doctor_command(CLI::App& app, CommandContext& ctx) {
  auto options = std::make_shared<DoctorOptions>();
  auto* cmd = app.add_subcommand(
      "doctor",
      "check this machine's setup: CUDA driver and GPUs, NVRTC, sandbox isolation, compile "
      "cache, LLM endpoint, and the effective configuration with each value's source");
  add_config_options(*cmd, options->config);
  cmd->add_flag("--json", options->json, "print the report as JSON");
  cmd->add_flag("--config-keys", options->config_keys,
                "print the reference of every configuration key (markdown) and exit");
  cmd->add_option("--endpoint-timeout", options->endpoint_timeout_s,
                  "seconds to wait for GET {base_url}/models")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 120.0));
  cmd->callback([options, &ctx] { ctx.exit_code = run_doctor(*options); });
}

}  // namespace pf::cli
