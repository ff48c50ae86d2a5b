// Doctor probes that need nothing but the configuration: the effective
// values with their sources, and the evaluation mode.
#include "cli/doctor_probes.h"

#include "common/strings.h"
#include "config/config_fields.h"
#include "config/config_json.h"

namespace pf::cli {

void probe_config(const LoadedConfig& loaded, DoctorReport& report) {
  auto& facts = report.facts("config");
  facts["file"] = loaded.file;
  facts["values"] = config_to_json(loaded.config);
  facts["sources"] = nlohmann::json::object();
  report.add("config", "file", CheckStatus::info,
             loaded.file.empty() ? "none (defaults, environment and --set only)" : loaded.file);
  // The table shows what differs from the defaults, and anything the
  // environment or --set changed; --json has every key with its source.
  Config copy = loaded.config;
  Config defaults;
  auto default_fields = describe_fields(defaults);
  auto fields = describe_fields(copy);
  int unchanged = 0;
  for (size_t i = 0; i < fields.size(); ++i) {
    const Field& f = fields[i];
    std::string source = loaded.source_of(f.key());
    facts["sources"][f.key()] = source;
    nlohmann::json value = f.get();
    bool from_file_or_default = source == "default" || starts_with(source, loaded.file + ":");
    if (value == default_fields[i].get() && from_file_or_default) {
      ++unchanged;
      continue;
    }
    report.add("config", f.key(), CheckStatus::info,
               (value.is_null() ? std::string("unset") : toml_literal(value)) + "  (" + source + ")");
  }
  report.add("config", "other keys", CheckStatus::info,
             std::to_string(unchanged) + " at their defaults (--json lists every key and its "
             "source; configs/README.md documents them)");
}

void decide_mode(const Config& config, const GpuFindings& gpu, DoctorReport& report) {
  auto& facts = report.facts("mode");
  const auto& ev = config.evaluator;
  bool full = false;
  switch (ev.compile_only) {
    case CompileOnly::yes:
      report.add("mode", "evaluation", CheckStatus::info,
                 "compile-only (evaluator.compile_only = true): no timing, no correctness checks");
      break;
    case CompileOnly::no:
      full = true;
      report.add("mode", "evaluation", gpu.usable ? CheckStatus::ok : CheckStatus::fail,
                 gpu.usable ? "full GPU evaluation"
                            : "evaluator.compile_only = false needs a GPU, but " + gpu.reason);
      break;
    case CompileOnly::auto_detect:
      full = gpu.usable;
      report.add("mode", "evaluation", gpu.usable ? CheckStatus::ok : CheckStatus::warn,
                 gpu.usable ? "full GPU evaluation"
                            : "compile-only, because " + gpu.reason +
                                  " (no timing, no correctness checks; scores are not comparable)");
      break;
  }
  if (full && gpu.usable && !ev.gpus.all) {
    for (int index : ev.gpus.indices) {
      if (index >= gpu.device_count) {
        report.add("mode", "evaluator.gpus", CheckStatus::fail,
                   "GPU " + std::to_string(index) + " does not exist (this machine has " +
                       std::to_string(gpu.device_count) + ")");
      }
    }
  }
  facts["mode"] = full ? "full" : "compile_only";
  facts["gpu_usable"] = gpu.usable;
}

}  // namespace pf::cli
