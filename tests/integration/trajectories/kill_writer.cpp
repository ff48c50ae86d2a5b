// Test helper for kill_test: appends turns to one episode per thread until it
// is killed, reporting each turn on the log (one fsync'ed line
// "<episode index> <turn>") only after the turn's transaction committed.
// Restarted on the same run directory it resumes every episode.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "trajectories/ids.h"
#include "trajectories/result_summary.h"
#include "trajectories/trajectory_reader.h"
#include "trajectories/trajectory_store.h"

using namespace pf::traj;

namespace {

constexpr const char* kRunId = "20250101T000000Z-0000dead";

int fail(const std::string& what) {
  std::fprintf(stderr, "kill_writer: %s\n", what.c_str());
  return 2;
}

TurnRecord make_turn(const std::string& episode, int64_t turn) {
  TurnRecord rec;
  rec.episode_id = episode;
  rec.turn = turn;
  MessageRecord a;
  a.role = Role::assistant;
  a.content = std::string(4000, 'a') + std::to_string(turn);
  std::string call = "call_" + std::to_string(turn);
  a.tool_calls = Json::array({{{"id", call},
                               {"type", "function"},
                               {"function", {{"name", "evaluate"}, {"arguments", "{}"}}}}});
  MessageRecord t;
  t.role = Role::tool;
  t.tool_call_id = call;
  t.name = "evaluate";
  t.content = std::string(8000, 'r') + std::to_string(turn);
  rec.messages = {a, t};
  LlmCallRecord c;
  c.request = std::string(16000, 'q');
  c.response = "{}";
  c.http_status = 200;
  rec.llm_call = c;
  Json result = {{"mode", "full"}, {"as", 1.0 + 0.001 * static_cast<double>(turn)},
                 {"variants", Json::array({{{"name", "v0"}, {"correct", true}, {"speedup", 1.0}}})}};
  auto e = evaluation_from_result(EvalKind::evaluate, result);
  e->workspace = {{"passes/P.py", "turn " + std::to_string(turn) + std::string(2000, 'p')},
                  {"kernels/k.cu", "shared kernel"}};
  rec.evaluations.push_back(std::move(*e));
  return rec;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) return fail("usage: traj_kill_writer <run-dir> <log-file> <episodes>");
  std::string dir = argv[1];
  int log_fd = ::open(argv[2], O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (log_fd < 0) return fail("cannot open log");
  int episodes = std::atoi(argv[3]);
  auto store = TrajectoryStore::open(dir, TrajectoryStore::OpenMode::create);
  if (!store.ok()) return fail(store.error().message);
  auto& s = **store;

  auto reader = s.reader();
  if (!reader.ok()) return fail(reader.error().message);
  if (reader->runs()->empty()) {
    RunRecord run;
    run.id = kRunId;
    if (auto st = s.create_run(run); !st.ok()) return fail(st.error().message);
    TaskRecord task;
    task.id = "t";
    task.suite_hash = "suite";
    if (auto st = s.upsert_task(task); !st.ok()) return fail(st.error().message);
  }

  std::mutex log_mu;
  std::vector<std::thread> threads;
  for (int i = 0; i < episodes; ++i) {
    threads.emplace_back([&, i] {
      std::string id = episode_id(kRunId, "t", i);
      int64_t turn = 0;
      auto own = s.reader();  // readers are per thread
      if (!own.ok()) std::_Exit(fail(own.error().message));
      if (own->episode(id).ok()) {
        auto resumed = s.resume_episode(id);
        if (!resumed.ok()) std::_Exit(fail(resumed.error().message));
        turn = resumed->last_turn;
      } else {
        EpisodeRecord ep;
        ep.run_id = kRunId;
        ep.task_id = "t";
        ep.sample_index = i;
        MessageRecord sys;
        sys.role = Role::system;
        sys.content = "system";
        if (auto r = s.start_episode(ep, {sys}); !r.ok()) std::_Exit(fail(r.error().message));
      }
      for (int n = 0; n < 100000; ++n) {
        ++turn;
        auto c = s.append_turn(make_turn(id, turn));
        if (!c.ok()) std::_Exit(fail(c.error().message));
        std::lock_guard lock(log_mu);
        std::string line = std::to_string(i) + " " + std::to_string(turn) + "\n";
        if (::write(log_fd, line.data(), line.size()) != static_cast<ssize_t>(line.size()) ||
            ::fsync(log_fd) != 0) {
          std::_Exit(fail("log write failed"));
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  return 0;
}
