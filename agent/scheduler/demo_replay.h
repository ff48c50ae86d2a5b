// The built-in replay endpoint: with no endpoint.base_url configured, runs
// and experiments answer from the demo script <prompts dir>/demo/replay.jsonl
// (recorded answers, no model), served on a local port. The one place that
// names the script and the model it reports.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "agent/llm/llm_options.h"
#include "agent/replay/replay_server.h"
#include "common/result.h"

namespace pf::agent {

struct DemoReplay {
  std::unique_ptr<replay::ReplayServer> server;
  std::filesystem::path script;
  std::string model;  // what it reports; clients that name no model use it

  //! `options` aimed at this endpoint (its base URL; its model when none is
  //! set) with room for `concurrency` calls at once.
  llm::LlmOptions client_options(llm::LlmOptions options, int concurrency) const;
  //! The run record's endpoint: "replay:<script path>".
  std::string record() const;
};

//! Serves the demo script of `prompts_dir` with enough threads for
//! `concurrency` episodes. Errors: the script is missing or malformed.
Result<DemoReplay> start_demo_replay(const std::filesystem::path& prompts_dir, int concurrency);

}  // namespace pf::agent
