// `passforge ab` without the command line: sets up the arms of an experiment
// file (or of the experiment stored in a directory, on --resume), runs them
// interleaved in one store (`<output_dir>/<id>/passforge.db`) and reports.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "agent/llm/cancel_token.h"
#include "agent/llm/llm_options.h"
#include "experiments/ab_report.h"
#include "experiments/ab_spec.h"
#include "experiments/arm_session.h"

namespace pf::experiments {

//! [endpoint] as LLM client options (the CLI's mapping, cli/endpoint_options.h).
using LlmOptionsFor = std::function<llm::LlmOptions(const EndpointConfig&)>;

struct AbRequest {
  std::optional<AbSpec> spec;        // a new experiment
  std::filesystem::path resume_dir;  // or: continue the one stored here
  LlmOptionsFor llm_options;
  bool terminal = false;
  std::function<void(const std::string&)> notice = [](const std::string&) {};
};

struct AbOutcome {
  std::string id;
  std::filesystem::path dir;
  SessionOutcome session;
  AbReport report;
};

Result<AbOutcome> run_ab(const AbRequest& request, const llm::CancelToken& cancel);

//! The report of the experiment stored in `dir` (no episodes run).
Result<AbReport> report_ab(const std::filesystem::path& dir);

}  // namespace pf::experiments
