// What the experiment commands (`passforge ab`, `passforge improve`) share:
// a new experiment from --config or a stored one with --resume, --report-only
// (print a stored report, run nothing), the report as a table or --json with
// an optional --svg chart, progress lines, SIGINT handling and exit codes.
// Each command supplies its spec loader, runner and report reader; a Report
// has table(), to_json() and svg(), a Request has spec, resume_dir,
// llm_options, terminal and notice.
#pragma once

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <string>

#include "cli/endpoint_options.h"
#include "cli/exit_codes.h"
#include "cli/signal_watch.h"
#include "common/fs.h"
#include "common/result.h"

namespace pf::cli {

struct ExperimentArgs {
  std::string config;
  std::string resume;
  std::string svg;
  bool json = false;
  bool report_only = false;
};

struct ExperimentWords {
  std::string command;  // "ab"
  std::string noun;     // "experiment", "loop"
  std::string file;     // "EXPERIMENT.toml"
};

//! --config, --resume, --json, --svg, --report-only.
void add_experiment_options(CLI::App* cmd, ExperimentArgs& args, const ExperimentWords& words,
                            const std::string& config_help, const std::string& json_help,
                            const std::string& svg_help);

//! kExitUsage (with the message printed) unless exactly one of --config /
//! --resume is given, and --report-only comes with --resume.
std::optional<int> experiment_usage_error(const ExperimentArgs& args, const ExperimentWords& words);

//! "passforge <command>: <message>" on stderr.
void experiment_error(const ExperimentWords& words, const std::string& message);

//! Where lines about the data go: stderr with --json (stdout carries only the report).
std::ostream& experiment_out(const ExperimentArgs& args);

template <class Report>
int print_experiment_report(const Report& report, const ExperimentArgs& args,
                            const ExperimentWords& words) {
  if (args.json) {
    std::cout << report.to_json().dump(2) << "\n";
  } else {
    std::cout << "\n" << report.table();
  }
  if (!args.svg.empty()) {
    if (auto st = write_file_atomic(args.svg, report.svg()); !st.ok()) {
      experiment_error(words, st.error().message);
      return kExitFailure;
    }
    if (!args.json) std::cout << "chart: " << args.svg << "\n";
  }
  return kExitOk;
}

//! The report of a stored experiment (--report-only), printed; the exit code.
template <class ReadReport>
int print_stored_report(const ExperimentArgs& args, const ExperimentWords& words,
                        ReadReport read_report) {
  auto report = read_report(args.resume);
  if (!report.ok()) {
    experiment_error(words, report.error().message);
    return kExitUsage;
  }
  return print_experiment_report(*report, args, words);
}

//! A request from --config's spec (or none, with --resume) with the shared
//! fields filled: resume directory, endpoint options, terminal progress, and
//! progress lines on stdout (stderr with --json).
template <class Request, class LoadSpec>
Result<Request> experiment_request(const ExperimentArgs& args, const ExperimentWords& words,
                                   LoadSpec load_spec) {
  Request request;
  if (!args.config.empty()) {
    auto spec = load_spec(args.config);
    if (!spec.ok()) return spec.error();
    request.spec = std::move(spec).value();
  }
  request.resume_dir = args.resume;
  request.llm_options = llm_options_from;
  request.terminal = !args.json && isatty(2) != 0;
  request.notice = [json = args.json, command = words.command](const std::string& line) {
    (json ? std::cerr : std::cout) << "passforge " << command << ": " << line << std::endl;
  };
  return request;
}

//! run(cancel) while SIGINT/SIGTERM cancel it (SignalWatcher).
template <class Run>
auto run_cancellable(const ExperimentWords& words, Run run) {
  llm::CancelToken cancel;
  SignalWatcher signals(cancel, words.command);
  return run(cancel);
}

}  // namespace pf::cli
