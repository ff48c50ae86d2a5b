#include "sandbox/pool/worker_pool.h"

#include <poll.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <thread>

#include "common/fs.h"
#include "common/strings.h"
#include "sandbox/ipc/frame.h"
#include "sandbox/ipc/protocol.h"
#include "sandbox/pool/cgroup_delegation.h"
#include "sandbox/pool/work_dir.h"
#include "sandbox/worker/resource_limit.h"

namespace pf::sandbox {

namespace fs = std::filesystem;
using nlohmann::json;

struct WorkerPool::Slot {
  int index = 0;
  std::string cuda_devices;
  fs::path scratch;
  fs::path log;
  // Guarded by the pool's mu_.
  bool busy = false;
  pid_t pid = 0;
  Clock::time_point resting_until{};
  std::string rest_reason;
  uint64_t requests = 0;
  Clock::time_point busy_since{};
  Clock::duration busy_total{};
  double recent_busy_s = 0;  // decayed to recent_at
  Clock::time_point recent_at{};
  // Used only by the thread holding `busy` (or by start() before sharing).
  std::unique_ptr<WorkerProcess> proc;
  std::deque<Clock::time_point> recent_restarts;
  uint64_t next_id = 1;
};

namespace {

// The environment is an allowlist: the orchestrator's secrets (API keys in
// its environment) never reach code that runs untrusted kernels.
bool passes_to_worker(std::string_view entry) {
  auto eq = entry.find('=');
  if (eq == std::string_view::npos) return false;
  std::string_view name = entry.substr(0, eq);
  for (std::string_view exact :
       {"PATH", "HOME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "LD_LIBRARY_PATH", "XDG_CACHE_HOME"}) {
    if (name == exact) return true;
  }
  if (name == "CUDA_VISIBLE_DEVICES") return false;  // set per worker
  for (std::string_view prefix : {"LC_", "CUDA_", "NVIDIA_", "__NV"}) {
    if (starts_with(name, prefix)) return true;
  }
  return false;
}

std::string ms_text(std::chrono::milliseconds ms) {
  return std::to_string(ms.count()) + " ms";
}

// The time constant of "recent" busy time in routing.
constexpr double kRecentBusyTau = 30.0;

double seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

double decayed(double value, Clock::time_point at, Clock::time_point now) {
  return value * std::exp(-std::max(0.0, seconds(now - at)) / kRecentBusyTau);
}

void clear_directory(const fs::path& dir) {
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir, ec);
}

}  // namespace

json PoolStats::to_json() const {
  return {{"requests", requests},
          {"ok", ok},
          {"errors", errors},
          {"timeouts", timeouts},
          {"crashes", crashes},
          {"protocol_errors", protocol_errors},
          {"resource_limits", resource_limits},
          {"unavailable", unavailable},
          {"restarts", restarts},
          {"start_failures", start_failures}};
}

json SlotLoad::to_json() const {
  return {{"device", device}, {"busy", busy}, {"requests", requests}, {"busy_s", busy_s}};
}

json PoolLoad::to_json() const {
  json slots_json = json::array();
  for (const auto& s : slots) slots_json.push_back(s.to_json());
  return {{"wall_s", wall_s},
          {"waiting", waiting},
          {"max_waiting", max_waiting},
          {"queue_wait_s", queue_wait_s},
          {"slots", slots_json}};
}

Result<fs::path> WorkerPool::resolve_worker_path(const WorkerPoolOptions& options) {
  fs::path path = options.worker_path;
  std::string source = "WorkerPoolOptions::worker_path";
  if (path.empty()) {
    if (const char* env = std::getenv("PASSFORGE_WORKER"); env != nullptr && *env != '\0') {
      path = env;
      source = "$PASSFORGE_WORKER";
    } else {
      path = executable_dir() / "passforge-worker";
      source = "the running executable's directory";
    }
  }
  std::error_code ec;
  if (!fs::is_regular_file(path, ec) || ::access(path.c_str(), X_OK) != 0) {
    return make_error(ErrorCode::not_found,
                      "worker executable " + path.string() + " (from " + source +
                          ") is missing or not executable; build the passforge-worker target "
                          "or point PASSFORGE_WORKER at it");
  }
  return fs::absolute(path, ec);
}

Result<std::unique_ptr<WorkerPool>> WorkerPool::start(WorkerPoolOptions options) {
  std::unique_ptr<WorkerPool> pool(new WorkerPool());
  PF_ASSIGN(pool->worker_path_, resolve_worker_path(options));
  if (options.work_dir.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    const fs::path parent = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
    sweep_stale_work_dirs(parent);
    PF_ASSIGN(options.work_dir, create_owned_work_dir(parent));
    pool->owns_work_dir_ = true;
  }
  std::vector<std::string> devices = options.gpu_devices;
  if (devices.empty()) devices.assign(static_cast<size_t>(std::max(1, options.cpu_workers)), "");
  for (size_t i = 0; i < devices.size(); ++i) {
    auto slot = std::make_unique<Slot>();
    slot->index = static_cast<int>(i);
    slot->cuda_devices = devices[i];
    slot->scratch = options.work_dir / ("worker-" + std::to_string(i)) / "scratch";
    slot->log = options.work_dir / ("worker-" + std::to_string(i) + ".log");
    std::error_code ec;
    fs::create_directories(slot->scratch, ec);
    if (ec) {
      return make_error(ErrorCode::io_error,
                        "cannot create " + slot->scratch.string() + ": " + ec.message());
    }
    pool->slots_.push_back(std::move(slot));
  }
  if (options.limits.memory_mb > 0 && !options.cgroup_parent.empty()) {
    pool->cgroup_parent_ = options.cgroup_parent;
    pool->memory_cap_ = "cgroup v2: each worker in its own cgroup under " +
                        options.cgroup_parent.string() + " (WorkerPoolOptions::cgroup_parent)";
  } else if (options.limits.memory_mb > 0) {
    const WorkerCgroupSetup& setup = worker_cgroup_setup();
    pool->cgroup_parent_ = setup.parent;
    pool->memory_cap_ = setup.description;
  }
  pool->options_ = std::move(options);
  for (auto& slot : pool->slots_) PF_TRY(pool->start_slot(*slot));
  return pool;
}

WorkerPool::~WorkerPool() {
  std::unique_lock lock(mu_);
  closing_ = true;
  for (auto& slot : slots_) {
    if (slot->busy && slot->pid > 0) ::kill(-slot->pid, SIGKILL);
  }
  idle_cv_.notify_all();
  idle_cv_.wait(lock, [&] {
    return std::none_of(slots_.begin(), slots_.end(), [](const auto& s) { return s->busy; });
  });
  lock.unlock();
  for (auto& slot : slots_) slot->proc.reset();
  if (owns_work_dir_) remove_owned_work_dir(options_.work_dir);
}

std::vector<std::string> WorkerPool::worker_environment(const Slot& slot) const {
  std::vector<std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    if (passes_to_worker(*e)) env.emplace_back(*e);
  }
  env.push_back("CUDA_VISIBLE_DEVICES=" + slot.cuda_devices);
  env.insert(env.end(), options_.extra_env.begin(), options_.extra_env.end());
  return env;
}

Status WorkerPool::spawn_and_hello(Slot& slot) {
  clear_directory(slot.scratch);
  SpawnSpec spec;
  spec.executable = worker_path_;
  spec.args = {"--scratch", slot.scratch.string()};
  if (!options_.cache_dir.empty()) {
    spec.args.push_back("--cache");
    spec.args.push_back(options_.cache_dir.string());
  }
  if (!options_.isolation) spec.args.push_back("--no-isolation");
  for (auto& arg : worker_limit_args(options_.limits, !slot.cuda_devices.empty())) {
    spec.args.push_back(std::move(arg));
  }
  spec.args.insert(spec.args.end(), options_.worker_args.begin(), options_.worker_args.end());
  spec.env = worker_environment(slot);
  spec.log_path = slot.log;
  if (!cgroup_parent_.empty()) {
    // Unique across the pools of this process, which share one parent.
    static std::atomic<uint64_t> next_cgroup{0};
    spec.cgroup = CgroupSpec{cgroup_parent_, "worker-" + std::to_string(next_cgroup++),
                             options_.limits.memory_mb << 20};
  }
  PF_ASSIGN(slot.proc, WorkerProcess::spawn(spec));
  {
    std::lock_guard lock(mu_);
    slot.pid = slot.proc->pid();
  }

  const Deadline deadline = deadline_in(options_.start_timeout);
  auto handshake = [&]() -> Result<IsolationReport> {
    ipc::Request hello{slot.next_id++, ipc::kHello, json{{"protocol", ipc::kProtocolVersion}}, {}};
    PF_TRY(ipc::write_frame(slot.proc->ipc_fd(), ipc::encode_request(hello), deadline));
    PF_ASSIGN(json message, ipc::read_frame(slot.proc->ipc_fd(), deadline));
    PF_ASSIGN(ipc::Reply reply, ipc::decode_reply(message));
    if (!reply.ok) return reply.error;
    auto protocol = reply.body.find("protocol");
    if (reply.id != hello.id || protocol == reply.body.end() ||
        *protocol != ipc::kProtocolVersion) {
      return make_error(ErrorCode::parse_error,
                        "hello reply does not match (id " + std::to_string(reply.id) +
                            ", protocol " + reply.body.value("protocol", json()).dump() + ")");
    }
    return IsolationReport::from_json(reply.body.value("isolation", json()));
  };
  auto report = handshake();
  if (!report.ok()) {
    auto exit = slot.proc->wait_exit(std::chrono::milliseconds(200));
    if (!exit) exit = slot.proc->kill();
    std::string message = "worker " + worker_path_.string() + " (pid " +
                          std::to_string(slot.proc->pid()) +
                          ") failed its start-up handshake: " + report.error().message;
    if (exit) message += "; it " + exit->describe();
    auto tail = slot.proc->log_tail(options_.stderr_tail_bytes);
    if (!tail.empty()) message += "; its output: " + tail;
    slot.proc.reset();
    return make_error(ErrorCode::unavailable, message);
  }

  std::lock_guard lock(mu_);
  if (slot.index == 0) report_ = *report;
  if (!isolation_logged_) {
    isolation_logged_ = true;
    auto gaps = report->gaps();
    for (const auto& gap : gaps) spdlog::warn("worker isolation incomplete: {}", gap);
    if (gaps.empty())
      spdlog::info("worker isolation: all {} mechanisms applied", report->mechanisms.size());
  }
  return ok_status();
}

Status WorkerPool::start_slot(Slot& slot) {
  Status last;
  for (int attempt = 0; attempt < std::max(1, options_.max_start_attempts); ++attempt) {
    if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(100 << (attempt - 1)));
    last = spawn_and_hello(slot);
    if (last.ok()) {
      std::lock_guard lock(mu_);
      slot.resting_until = {};
      return last;
    }
    std::lock_guard lock(mu_);
    ++stats_.start_failures;
  }
  const std::string why = "worker slot " + std::to_string(slot.index) + " could not start after " +
                          std::to_string(std::max(1, options_.max_start_attempts)) +
                          " attempts: " + last.error().message;
  spdlog::error("{}", why);
  std::lock_guard lock(mu_);
  slot.resting_until = Clock::now() + options_.start_cooldown;
  slot.rest_reason = why;
  slot.pid = 0;
  return make_error(ErrorCode::unavailable, why);
}

Status WorkerPool::replace(Slot& slot, const std::string& reason) {
  if (slot.proc) {
    spdlog::info("replacing worker {} (slot {}): {}", slot.proc->pid(), slot.index, reason);
    slot.proc->kill();
    slot.proc.reset();
  }
  {
    std::lock_guard lock(mu_);
    slot.pid = 0;
    if (closing_) return make_error(ErrorCode::unavailable, "worker pool is shutting down");
    ++stats_.restarts;
  }
  auto now = Clock::now();
  while (!slot.recent_restarts.empty() &&
         now - slot.recent_restarts.front() > std::chrono::minutes(1)) {
    slot.recent_restarts.pop_front();
  }
  const int limit = std::max(1, options_.max_restarts_per_minute);
  if (static_cast<int>(slot.recent_restarts.size()) >= limit) {
    spdlog::warn("worker slot {} restarted {} times in the last minute; spacing restarts out",
                 slot.index, slot.recent_restarts.size());
    std::this_thread::sleep_for(std::chrono::milliseconds(60'000 / limit));
  }
  slot.recent_restarts.push_back(Clock::now());
  return start_slot(slot);
}

WorkerReply WorkerPool::fail(Slot& slot, WorkerReply reply, ReplyStatus status, Error error) {
  reply.status = status;
  reply.error = std::move(error);
  if (slot.proc) reply.stderr_tail = slot.proc->log_tail(options_.stderr_tail_bytes);
  (void)replace(slot, std::string(reply_status_name(status)) + ": " + reply.error.message);
  reply.worker_replaced = true;
  return reply;
}

Result<json> WorkerPool::await_reply(WorkerProcess& proc, Deadline deadline, bool& over_memory) {
  over_memory = false;
  const uint64_t limit = options_.limits.memory_mb << 20;
  if (limit == 0) return ipc::read_frame(proc.ipc_fd(), deadline);
  const auto poll_every = std::max(options_.memory_poll, std::chrono::milliseconds(1));
  for (;;) {
    auto bytes = proc.anon_memory_bytes();
    if (bytes && *bytes > limit) {
      over_memory = true;
      return make_error(ErrorCode::unavailable,
                        "memory: the worker held " + std::to_string(*bytes >> 20) +
                            " MiB of anonymous memory, over its limit of " +
                            std::to_string(options_.limits.memory_mb) +
                            " MiB (evaluator.worker_memory_mb); killed and replaced");
    }
    const Deadline slice = std::min(deadline, Clock::now() + poll_every);
    pollfd p{proc.ipc_fd(), POLLIN, 0};
    int ready = ::poll(&p, 1, poll_timeout_ms(slice));
    if (ready < 0 && errno != EINTR) return sys_error("poll(worker reply)", errno);
    // Readable (or closed): the frame follows at once; read it under the
    // request's own deadline.
    if (ready > 0 || Clock::now() >= deadline) return ipc::read_frame(proc.ipc_fd(), deadline);
  }
}

WorkerReply WorkerPool::exchange(Slot& slot, const std::string& type, const json& body,
                                 Deadline deadline) {
  WorkerReply reply;
  reply.slot = slot.index;
  if (!slot.proc || slot.proc->poll_exit()) {
    // Died while idle (or never started): replaced before the request, which
    // then runs normally.
    std::string why = slot.proc ? "worker " + std::to_string(slot.proc->pid()) + " " +
                                      slot.proc->poll_exit()->describe() + " while idle"
                                : "no worker running";
    if (auto st = slot.proc ? replace(slot, why) : start_slot(slot); !st.ok()) {
      reply.status = ReplyStatus::unavailable;
      reply.error = st.error();
      return reply;
    }
  }
  WorkerProcess& proc = *slot.proc;
  reply.worker_pid = proc.pid();
  proc.truncate_log();

  ipc::Request request{slot.next_id++, type, body, {}};
  if (deadline != no_deadline()) {
    request.deadline_ms = std::max<int64_t>(
        0, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
  }
  const std::string what = "worker " + std::to_string(proc.pid()) + " handling '" + type + "'";
  auto sent = ipc::write_frame(proc.ipc_fd(), ipc::encode_request(request), deadline);
  bool over_memory = false;
  Result<json> message =
      sent.ok() ? await_reply(proc, deadline, over_memory) : Result<json>(std::move(sent).error());
  if (over_memory) {
    return fail(slot, std::move(reply), ReplyStatus::resource_limit, message.error());
  }
  if (!message.ok() && message.error().code == ErrorCode::timeout) {
    std::string limit = request.deadline_ms
                            ? ms_text(std::chrono::milliseconds(*request.deadline_ms))
                            : "the deadline";
    return fail(slot, std::move(reply), ReplyStatus::timeout,
                make_error(ErrorCode::timeout,
                           "no reply within " + limit + " from " + what + "; killed and replaced"));
  }
  if (!message.ok()) {
    if (auto exit = proc.wait_exit(std::chrono::milliseconds(500))) {
      reply.signal = exit->signal_name();
      reply.exit_code = exit->signaled ? -1 : exit->exit_code;
      if (!exit->signaled && exit->exit_code == kWorkerExitResourceLimit) {
        auto why = resource_limit_reason(proc.log_tail(options_.stderr_tail_bytes));
        return fail(slot, std::move(reply), ReplyStatus::resource_limit,
                    make_error(ErrorCode::unavailable,
                               why.value_or("a worker limit (the worker gave no reason)") +
                                   "; the worker was replaced"));
      }
      // The kernel's OOM killer ends a worker at its cgroup's memory.max with
      // SIGKILL; memory.events says that it did.
      if (exit->signaled && exit->signal == SIGKILL && proc.cgroup() != nullptr &&
          proc.cgroup()->oom_kills() > 0) {
        return fail(slot, std::move(reply), ReplyStatus::resource_limit,
                    make_error(ErrorCode::unavailable,
                               "memory: " + what + " reached its cgroup's memory.max of " +
                                   std::to_string(options_.limits.memory_mb) +
                                   " MiB (evaluator.worker_memory_mb) and the kernel's OOM "
                                   "killer ended it; the worker was replaced"));
      }
      // Libraries with their own allocators (NVRTC's LLVM: "LLVM ERROR: out of
      // memory") abort when RLIMIT_DATA refuses them memory: the worker's
      // memory limit ended the request, not a crash of the pass's making.
      if (options_.limits.memory_mb > 0 && exit->signaled && exit->signal == SIGABRT) {
        const std::string tail = proc.log_tail(options_.stderr_tail_bytes);
        if (tail.find("out of memory") != std::string::npos ||
            tail.find("std::bad_alloc") != std::string::npos) {
          return fail(slot, std::move(reply), ReplyStatus::resource_limit,
                      make_error(ErrorCode::unavailable,
                                 "memory: an allocation failed at the worker's limit of " +
                                     std::to_string(options_.limits.memory_mb) +
                                     " MiB (evaluator.worker_memory_mb) (" + what +
                                     " aborted: out of memory); the worker was replaced"));
        }
      }
      return fail(slot, std::move(reply), ReplyStatus::crashed,
                  make_error(ErrorCode::unavailable, what + " " + exit->describe()));
    }
    return fail(slot, std::move(reply), ReplyStatus::protocol_error,
                make_error(ErrorCode::parse_error, what + ": " + message.error().message));
  }
  auto decoded = ipc::decode_reply(*message);
  if (decoded.ok() && decoded->id != request.id) {
    decoded =
        make_error(ErrorCode::parse_error, "reply id " + std::to_string(decoded->id) +
                                               " for request id " + std::to_string(request.id));
  }
  if (!decoded.ok()) {
    return fail(slot, std::move(reply), ReplyStatus::protocol_error,
                make_error(ErrorCode::parse_error, what + ": " + decoded.error().message));
  }
  if (decoded->ok) {
    reply.status = ReplyStatus::ok;
    reply.body = std::move(decoded->body);
  } else {
    reply.status = ReplyStatus::error;
    reply.error = std::move(decoded->error);
  }
  if (!decoded->poisoned.empty()) {
    reply.poisoned = decoded->poisoned;
    proc.wait_exit(std::chrono::seconds(1));  // it exits by itself after replying
    (void)replace(slot, "declared itself poisoned: " + reply.poisoned);
    reply.worker_replaced = true;
  }
  return reply;
}

WorkerReply WorkerPool::call(const std::string& type, const json& body, Deadline deadline) {
  return call(type, body, deadline, RetireCheck());
}

WorkerReply WorkerPool::call(const std::string& type, const json& body, Deadline deadline,
                             const RetireCheck& retire_if) {
  const auto started = Clock::now();
  Slot* slot = nullptr;
  WorkerReply reply;
  {
    std::unique_lock lock(mu_);
    ++stats_.requests;
    for (;;) {
      if (closing_) {
        reply.error = make_error(ErrorCode::unavailable, "worker pool is shutting down");
        break;
      }
      const auto now = Clock::now();
      std::string rest_reason;
      const bool any_usable = std::any_of(slots_.begin(), slots_.end(), [&](const auto& s) {
        if (s->resting_until <= now) return true;
        rest_reason = s->rest_reason;
        return false;
      });
      slot = pick_idle_slot(now);
      if (slot != nullptr) {
        slot->busy = true;
        slot->busy_since = now;
        ++slot->requests;
        break;
      }
      if (!any_usable) {
        reply.error = make_error(ErrorCode::unavailable, "no worker can start: " + rest_reason);
        break;
      }
      ++waiting_;
      max_waiting_ = std::max(max_waiting_, waiting_);
      const auto queued_at = Clock::now();
      bool timed_out = false;
      if (deadline == no_deadline()) {
        idle_cv_.wait(lock);
      } else {
        timed_out = idle_cv_.wait_until(lock, deadline) == std::cv_status::timeout &&
                    Clock::now() >= deadline;
      }
      --waiting_;
      queue_wait_ += Clock::now() - queued_at;
      if (timed_out) {
        reply.error =
            make_error(ErrorCode::unavailable, "all " + std::to_string(slots_.size()) +
                                                   " workers stayed busy until the deadline");
        break;
      }
    }
  }
  if (slot != nullptr) {
    reply = exchange(*slot, type, body, deadline);
    const bool answered = reply.status == ReplyStatus::ok || reply.status == ReplyStatus::error;
    if (retire_if && answered) {
      if (std::string why = retire_if(reply); !why.empty() && !reply.worker_replaced) {
        (void)replace(*slot, why);
        reply.worker_replaced = true;
      }
    }
  }
  reply.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);

  std::lock_guard lock(mu_);
  if (slot != nullptr) {
    const auto now = Clock::now();
    slot->busy = false;
    slot->busy_total += now - slot->busy_since;
    slot->recent_busy_s =
        decayed(slot->recent_busy_s, slot->recent_at, now) + seconds(now - slot->busy_since);
    slot->recent_at = now;
    idle_cv_.notify_all();
  }
  switch (reply.status) {
    case ReplyStatus::ok:
      ++stats_.ok;
      break;
    case ReplyStatus::error:
      ++stats_.errors;
      break;
    case ReplyStatus::timeout:
      ++stats_.timeouts;
      break;
    case ReplyStatus::crashed:
      ++stats_.crashes;
      break;
    case ReplyStatus::protocol_error:
      ++stats_.protocol_errors;
      break;
    case ReplyStatus::resource_limit:
      ++stats_.resource_limits;
      break;
    case ReplyStatus::unavailable:
      ++stats_.unavailable;
      break;
  }
  return reply;
}

WorkerPool::Slot* WorkerPool::pick_idle_slot(Clock::time_point now) const {
  Slot* best = nullptr;
  double best_recent = 0;
  for (const auto& s : slots_) {
    if (s->busy || s->resting_until > now) continue;
    const double recent = decayed(s->recent_busy_s, s->recent_at, now);
    if (best == nullptr || recent < best_recent) {
      best = s.get();
      best_recent = recent;
    }
  }
  return best;
}

PoolLoad WorkerPool::load() const {
  std::lock_guard lock(mu_);
  const auto now = Clock::now();
  PoolLoad out;
  out.wall_s = seconds(now - started_);
  out.waiting = waiting_;
  out.max_waiting = max_waiting_;
  out.queue_wait_s = seconds(queue_wait_);
  for (const auto& s : slots_) {
    SlotLoad l;
    l.device = s->cuda_devices;
    l.busy = s->busy;
    l.requests = s->requests;
    l.busy_s = seconds(s->busy_total + (s->busy ? now - s->busy_since : Clock::duration{}));
    out.slots.push_back(std::move(l));
  }
  return out;
}

PoolStats WorkerPool::stats() const {
  std::lock_guard lock(mu_);
  return stats_;
}

IsolationReport WorkerPool::isolation_report() const {
  std::lock_guard lock(mu_);
  return report_;
}

}  // namespace pf::sandbox
