#include "agent/scheduler/demo_replay.h"

#include <algorithm>

namespace pf::agent {

llm::LlmOptions DemoReplay::client_options(llm::LlmOptions options, int concurrency) const {
  options.base_url = server->base_url();
  if (options.model.empty()) options.model = model;
  options.max_concurrent = std::max(options.max_concurrent, concurrency);
  return options;
}

std::string DemoReplay::record() const {
  return "replay:" + script.string();
}

Result<DemoReplay> start_demo_replay(const std::filesystem::path& prompts_dir, int concurrency) {
  DemoReplay demo;
  demo.script = prompts_dir / "demo" / "replay.jsonl";
  auto script = replay::ReplayScript::load(demo.script);
  if (!script.ok()) return script.error().with_context("the built-in demo replay script");
  replay::ReplayServerOptions options;
  // Each episode holds a keep-alive connection; a few spare threads serve
  // the rest without waiting for one to close.
  options.threads = std::max(8, concurrency + 4);
  demo.model = options.replay.model;
  PF_ASSIGN(demo.server, replay::ReplayServer::start(std::move(script).value(), options));
  return demo;
}

}  // namespace pf::agent
