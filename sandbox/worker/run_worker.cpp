#include "sandbox/worker/run_worker.h"

#include <unistd.h>

#include <cstdio>
#include <exception>
#include <mutex>

#include "common/strings.h"
#include "passforge/version.h"
#include "sandbox/ipc/fd.h"
#include "sandbox/ipc/frame.h"
#include "sandbox/ipc/protocol.h"
#include "sandbox/isolation/isolation.h"
#include "sandbox/isolation/rlimits.h"
#include "sandbox/worker/resource_limit.h"

namespace pf::sandbox {
namespace {

using nlohmann::json;

std::mutex g_state_mutex;
std::string g_poisoned;  // guarded by g_state_mutex
Deadline g_request_deadline = Deadline::max();

void warn(const std::string& line) {
  std::fprintf(stderr, "passforge-worker[%d]: %s\n", static_cast<int>(::getpid()), line.c_str());
  std::fflush(stderr);
}

json hello_body(const IsolationReport& report, const HandlerTable& handlers) {
  auto types = handlers.types();
  for (const char* builtin : {ipc::kHello, ipc::kPing, ipc::kProbeIsolation, ipc::kShutdown}) {
    types.emplace_back(builtin);
  }
  return {{"pid", ::getpid()},        {"protocol", ipc::kProtocolVersion}, {"version", kVersion},
          {"git_commit", kGitCommit}, {"isolation", report.to_json()},     {"handlers", types}};
}

ipc::Reply dispatch(const ipc::Request& request, const HandlerTable& handlers,
                    const IsolationReport& report, bool* shutdown) {
  ipc::Reply reply;
  reply.id = request.id;
  auto fail = [&](Error error) {
    reply.ok = false;
    reply.error = std::move(error);
    return reply;
  };
  if (request.type == ipc::kHello) {
    auto version = request.body.find("protocol");
    if (version != request.body.end() &&
        (!version->is_number_integer() || version->get<int64_t>() != ipc::kProtocolVersion)) {
      return fail(make_error(ErrorCode::invalid_argument,
                             "orchestrator speaks protocol " + version->dump() +
                                 ", this worker speaks " + std::to_string(ipc::kProtocolVersion)));
    }
    reply.body = hello_body(report, handlers);
    return reply;
  }
  if (request.type == ipc::kPing) {
    reply.body = {{"pid", ::getpid()}, {"echo", request.body.value("echo", json())}};
    return reply;
  }
  if (request.type == ipc::kProbeIsolation) {
    reply.body = {{"isolation", report.to_json()},
                  {"complete", report.complete()},
                  {"gaps", report.gaps()},
                  {"threads", thread_count()}};
    return reply;
  }
  if (request.type == ipc::kShutdown) {
    *shutdown = true;
    return reply;
  }
  const Handler* handler = handlers.find(request.type);
  if (handler == nullptr) {
    auto types = handlers.types();
    return fail(make_error(
        ErrorCode::not_found,
        "unknown request type '" + request.type + "' (this worker handles: " + join(types, ", ") +
            (types.empty() ? "" : ", ") + "hello, ping, probe_isolation, shutdown)"));
  }
  try {
    auto result = (*handler)(request.body);
    if (!result.ok()) return fail(std::move(result).error());
    reply.body = std::move(result).value();
    if (!reply.body.is_object()) reply.body = json{{"value", std::move(reply.body)}};
  } catch (const std::exception& e) {
    return fail(
        make_error(ErrorCode::internal, "handler '" + request.type + "' threw: " + e.what()));
  } catch (...) {
    return fail(make_error(ErrorCode::internal,
                           "handler '" + request.type + "' threw a non-standard exception"));
  }
  return reply;
}

// A request that does not validate is answered (the id is echoed when it can
// be read) rather than ending the worker: the orchestrator learns what it sent.
ipc::Reply reject(const json& message, const Error& error) {
  ipc::Reply reply;
  if (message.is_object() && message.contains("id") && message["id"].is_number_unsigned()) {
    reply.id = message["id"].get<uint64_t>();
  }
  reply.ok = false;
  reply.error = error;
  return reply;
}

}  // namespace

void declare_poisoned(const std::string& reason) {
  std::lock_guard lock(g_state_mutex);
  g_poisoned = reason.empty() ? "unspecified" : reason;
}

Deadline current_request_deadline() {
  std::lock_guard lock(g_state_mutex);
  return g_request_deadline;
}

int run_worker(const WorkerConfig& config, const HandlerTable& handlers) {
  // Only where RLIMIT_DATA makes allocations fail at the configured limit;
  // elsewhere a failed allocation stays an error reply (std::bad_alloc).
  const auto& iso = config.isolation;
  if (iso.enabled && iso.rlimits && iso.limits.max_data_bytes != 0) {
    install_memory_limit_handler(config.limits.memory_mb);
  }
  // Isolation first: nothing has been read from the orchestrator yet.
  const IsolationReport report = apply_isolation(config.isolation);
  if (!config.isolation.enabled) {
    warn("WARNING: isolation disabled (--no-isolation): untrusted code runs unconfined");
  } else {
    for (const auto& gap : report.gaps()) warn("WARNING: isolation incomplete: " + gap);
  }
  const bool renew_cpu = report.applied(kRlimits);

  const int fd = config.ipc_fd;
  if (auto st = set_nonblocking(fd, true); !st.ok()) {
    warn("cannot use IPC descriptor " + std::to_string(fd) + ": " + st.error().message);
    return kWorkerExitProtocol;
  }
  for (;;) {
    auto message = ipc::read_frame(fd, no_deadline());
    if (!message.ok()) {
      if (message.error().code == ErrorCode::unavailable)
        return kWorkerExitOk;  // orchestrator gone
      warn("reading a request: " + message.error().message);
      return kWorkerExitProtocol;
    }
    auto request = ipc::decode_request(*message);
    ipc::Reply reply;
    bool shutdown = false;
    if (!request.ok()) {
      reply = reject(*message, request.error());
    } else {
      {
        std::lock_guard lock(g_state_mutex);
        g_request_deadline = request->deadline_ms
                                 ? deadline_in(std::chrono::milliseconds(*request->deadline_ms))
                                 : no_deadline();
      }
      if (renew_cpu) {
        if (auto st = renew_cpu_budget(config.isolation.limits, request->deadline_ms); !st.ok()) {
          warn("renewing the CPU budget: " + st.error().message);
        }
      }
      reply = dispatch(*request, handlers, report, &shutdown);
    }
    {
      std::lock_guard lock(g_state_mutex);
      reply.poisoned = g_poisoned;
    }
    auto st = ipc::write_frame(fd, ipc::encode_reply(reply), no_deadline());
    if (!st.ok() && st.error().code == ErrorCode::invalid_argument) {
      reply.ok = false;  // the reply exceeded the frame limit: say so instead
      reply.body = json::object();
      reply.error = make_error(ErrorCode::invalid_argument,
                               "request '" + (request.ok() ? request->type : std::string("?")) +
                                   "' produced a reply too large to send: " + st.error().message);
      st = ipc::write_frame(fd, ipc::encode_reply(reply), no_deadline());
    }
    if (!st.ok()) {
      warn("writing a reply: " + st.error().message);
      return kWorkerExitProtocol;
    }
    if (!reply.poisoned.empty()) {
      warn("exiting: process state poisoned: " + reply.poisoned);
      return kWorkerExitPoisoned;
    }
    if (shutdown) return kWorkerExitOk;
  }
}

}  // namespace pf::sandbox
