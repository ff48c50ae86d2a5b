// pf_orchestrator_bench: the agent loop's own cost (docs/design.md "Performance
// targets": <= 2 ms per turn outside LLM waits and evaluations; 256
// concurrent episodes in <= 300 MB RSS). Runs real episodes of the built-in
// demo script (tools mode: writes, a failing and a passing compile, evaluate,
// submit) against a loopback replay server that waits --delay-ms before each
// answer (so all episodes are alive at once), with real sandboxed workers
// (compile-only) and a real store. The time per turn comes from the timers
// around the loop's parts (EpisodeTimings): total minus LLM wait, evaluator
// wait and store commits (reported separately). Prints one JSON document.
// Run from the repository root: build/pf_orchestrator_bench [--episodes 256 ...]
#include <httplib.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "agent/loop/task_context.h"
#include "agent/replay/replay_responder.h"
#include "agent/scheduler/run_tasks.h"
#include "agent/scheduler/scheduler.h"
#include "common/fs.h"
#include "common/strings.h"
#include "evaluator/ops/op_registry.h"
#include "sandbox/pool/worker_pool.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace pf::agent {
namespace {

struct Options {
  int episodes = 256;
  int concurrency = 256;
  int delay_ms = 200;
  int workers = 2;
  std::string tasks = "neg-cat-mul-add-6a5c9e,add-softmax-dropout-a73f2b";
  std::string prompts = "prompts";
};

// Resident set size now and at its peak (kB), from /proc/self/status.
std::pair<long, long> rss_kb() {
  std::ifstream in("/proc/self/status");
  std::string key;
  long now = 0, peak = 0;
  while (in >> key) {
    if (key == "VmRSS:") in >> now;
    if (key == "VmHWM:") in >> peak;
    in.ignore(1 << 20, '\n');
  }
  return {now, peak};
}

// The replay responder behind httplib, answering after `delay_ms`.
class DelayedReplay {
 public:
  DelayedReplay(const replay::ReplayScript& script, int delay_ms, int threads)
      : responder_(script, replay::ReplayOptions{}), delay_ms_(delay_ms) {
    server_.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
    server_.Post("/v1/chat/completions", [this](const httplib::Request& req,
                                                httplib::Response& res) {
      std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms_));
      auto reply = responder_.chat_completion(req.body, req.get_header_value("X-Passforge-Task"));
      res.status = reply.status;
      res.set_content(reply.body.dump(), "application/json");
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~DelayedReplay() {
    server_.stop();
    thread_.join();
  }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }

 private:
  replay::ReplayResponder responder_;
  int delay_ms_;
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
};

int run(const Options& o) {
  auto fail = [](const Error& e) {
    std::fprintf(stderr, "pf_orchestrator_bench: %s\n", e.message.c_str());
    return 1;
  };
  auto prompts = prompts::PromptVariant::load(o.prompts, "default");
  if (!prompts.ok()) return fail(prompts.error());
  auto script = replay::ReplayScript::load(fs::path(o.prompts) / "demo" / "replay.jsonl");
  if (!script.ok()) return fail(script.error());
  auto tasks = load_run_tasks(split(o.tasks, ','));
  if (!tasks.ok()) return fail(tasks.error());
  std::vector<std::shared_ptr<const TaskContext>> contexts;
  for (auto& t : *tasks) {
    auto ctx = prepare_task(std::move(t), HiddenVariants::task, 0, *prompts, AgentMode::tools,
                            OpRegistry::builtin());
    if (!ctx.ok()) return fail(ctx.error());
    contexts.push_back(std::move(ctx).value());
  }

  const fs::path dir =
      fs::temp_directory_path() / ("pf_orchestrator_bench." + std::to_string(::getpid()));
  fs::create_directories(dir);
  protocol::ServiceOptions so;
  so.pool.worker_path = (executable_dir() / "passforge-worker").string();
  if (!fs::exists(so.pool.worker_path)) {
    so.pool.worker_path = (executable_dir().parent_path() / "passforge-worker").string();
  }
  so.pool.cpu_workers = o.workers;
  so.pool.work_dir = dir / "workers";
  auto service = protocol::EvaluationService::start(std::move(so));
  if (!service.ok()) return fail(service.error());
  EvaluatorClient evaluator(**service);
  DelayedReplay server(*script, o.delay_ms, o.concurrency + 8);
  llm::LlmOptions lo;
  lo.base_url = server.base_url();
  lo.model = "replay";
  lo.max_concurrent = o.concurrency;
  auto client = llm::LlmClient::create(lo);
  if (!client.ok()) return fail(client.error());
  auto store = traj::TrajectoryStore::open(dir / "run", traj::TrajectoryStore::OpenMode::create);
  if (!store.ok()) return fail(store.error());
  traj::RunRecord record;
  record.id = "bench";
  if (auto st = (*store)->create_run(record); !st.ok()) return fail(st.error());
  for (const auto& c : contexts) {
    if (auto st = (*store)->upsert_task(c->record); !st.ok()) return fail(st.error());
  }

  llm::CancelToken cancel;
  EpisodeServices services;
  services.llm = client->get();
  services.evaluator = &evaluator;
  services.store = store->get();
  services.prompts = &*prompts;
  services.cancel = &cancel;
  services.run_id = "bench";
  services.model = "replay";
  auto system = prompts->render(prompts::kSystemFile, {{"tools_mode", true}, {"max_steps", 20}});
  if (!system.ok()) return fail(system.error());
  services.system_prompt = *system;
  const EpisodeSettings settings{};
  std::vector<EpisodeJob> jobs;
  for (int i = 0; i < o.episodes; ++i) {
    EpisodeJob job;
    job.spec.task = contexts[static_cast<size_t>(i) % contexts.size()];
    job.spec.sample = i / static_cast<int>(contexts.size());
    job.services = &services;
    job.settings = &settings;
    jobs.push_back(std::move(job));
  }

  const auto [rss_before, peak_before] = rss_kb();
  const auto start = std::chrono::steady_clock::now();
  auto results = run_episodes(jobs, o.concurrency, nullptr);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto [rss_after, peak_after] = rss_kb();

  EpisodeTimings sum;
  std::map<std::string, int> exits;
  for (const auto& r : results) {
    if (!r) continue;
    sum += r->timings;
    ++exits[std::string(to_string(r->exit_reason))];
  }
  const double turns = std::max<double>(1, static_cast<double>(sum.turns));
  json out = {{"episodes", o.episodes},
              {"concurrency", o.concurrency},
              {"delay_ms", o.delay_ms},
              {"turns", sum.turns},
              {"exit_reasons", exits},
              {"wall_s", wall},
              {"per_turn_ms",
               {{"loop", 1e3 * sum.loop_s() / turns},
                {"store", 1e3 * sum.store_s / turns},
                {"llm_wait", 1e3 * sum.llm_s / turns},
                {"eval_wait", 1e3 * sum.eval_s / turns}}},
              {"rss_mb",
               {{"before_episodes", static_cast<double>(rss_before) / 1024.0},
                {"peak", static_cast<double>(peak_after) / 1024.0},
                {"peak_minus_before", static_cast<double>(peak_after - rss_before) / 1024.0},
                {"after", static_cast<double>(rss_after) / 1024.0}}},
              {"targets", {{"loop_ms_per_turn", 2.0}, {"rss_mb_256_episodes", 300.0}}},
              {"note", "RSS includes the in-process replay server (one thread per connection)"}};
  (void)peak_before;
  std::printf("%s\n", out.dump(2).c_str());
  std::error_code ec;
  fs::remove_all(dir, ec);
  return 0;
}

}  // namespace
}  // namespace pf::agent

int main(int argc, char** argv) {
  // Allocation failures and the like end the benchmark with a message, not std::terminate.
  try {
    pf::agent::Options o;
    CLI::App app{"agent loop overhead per turn and memory with many concurrent episodes"};
    app.add_option("--episodes", o.episodes, "episodes to run");
    app.add_option("--concurrency", o.concurrency, "episodes in flight at once");
    app.add_option("--delay-ms", o.delay_ms, "replay server delay before each answer");
    app.add_option("--workers", o.workers, "compile-only worker processes");
    app.add_option("--tasks", o.tasks, "comma-separated built-in task ids the demo script covers");
    app.add_option("--prompts", o.prompts, "prompts directory (with demo/replay.jsonl)");
    CLI11_PARSE(app, argc, argv);
    return pf::agent::run(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pf_orchestrator_bench: %s\n", e.what());
    return 1;
  }
}
