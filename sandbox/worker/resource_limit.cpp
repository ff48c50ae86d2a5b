#include "sandbox/worker/resource_limit.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>

#include "sandbox/isolation/anon_memory.h"

namespace pf::sandbox {
namespace {

// Formatted once at start-up: the handler runs when no memory is left.
char g_memory_message[200] = "memory: an allocation failed";

void write_all(const char* text, size_t n) {
  while (n > 0) {
    ssize_t w = ::write(STDERR_FILENO, text, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    text += w;
    n -= static_cast<size_t>(w);
  }
}

void on_allocation_failure() {
  exit_on_resource_limit(g_memory_message);
}

}  // namespace

void exit_on_resource_limit(const char* what) {
  write_all("\n", 1);
  write_all(kResourceLimitMarker, std::strlen(kResourceLimitMarker));
  write_all(what, std::strlen(what));
  write_all("\n", 1);
  ::_exit(kWorkerExitResourceLimit);
}

void install_memory_limit_handler(uint64_t memory_mb) {
  std::snprintf(g_memory_message, sizeof g_memory_message,
                "memory: an allocation failed at the worker's limit of %llu MiB "
                "(evaluator.worker_memory_mb)",
                static_cast<unsigned long long>(memory_mb));
  std::set_new_handler(on_allocation_failure);
}

std::optional<std::string> resource_limit_reason(const std::string& output) {
  auto at = output.rfind(kResourceLimitMarker);
  if (at == std::string::npos) return std::nullopt;
  at += std::strlen(kResourceLimitMarker);
  auto end = output.find('\n', at);
  return output.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

LimitWatchdog::~LimitWatchdog() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

LimitWatchdog::Armed::~Armed() {
  if (dog_ != nullptr) dog_->disarm();
}

LimitWatchdog::Armed LimitWatchdog::arm(std::chrono::milliseconds timeout, std::string what) {
  return arm(timeout, std::move(what), 0, {});
}

LimitWatchdog::Armed LimitWatchdog::arm(std::chrono::milliseconds timeout, std::string what,
                                        uint64_t growth_bytes, std::string growth_what) {
  std::optional<uint64_t> ceiling;
  if (growth_bytes > 0) {
    if (auto now = anon_memory_bytes(0)) ceiling = *now + growth_bytes;
  }
  if (timeout.count() <= 0 && !ceiling) return Armed(nullptr);
  {
    std::lock_guard lock(mu_);
    deadline_.reset();
    if (timeout.count() > 0) deadline_ = std::chrono::steady_clock::now() + timeout;
    what_ = std::move(what);
    memory_ceiling_ = ceiling;
    memory_what_ = std::move(growth_what);
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  }
  cv_.notify_all();
  return Armed(this);
}

void LimitWatchdog::disarm() {
  std::lock_guard lock(mu_);
  deadline_.reset();
  memory_ceiling_.reset();
}

void LimitWatchdog::run() {
  constexpr auto kMemoryPoll = std::chrono::milliseconds(20);
  std::unique_lock lock(mu_);
  for (;;) {
    if (stopping_) return;
    if (!deadline_ && !memory_ceiling_) {
      cv_.wait(lock);
      continue;
    }
    const auto now = std::chrono::steady_clock::now();
    if (deadline_ && now >= *deadline_) exit_on_resource_limit(what_.c_str());
    if (memory_ceiling_) {
      auto anon = anon_memory_bytes(0);
      if (anon && *anon > *memory_ceiling_) exit_on_resource_limit(memory_what_.c_str());
    }
    auto wake = memory_ceiling_ ? now + kMemoryPoll : *deadline_;
    if (deadline_ && *deadline_ < wake) wake = *deadline_;
    cv_.wait_until(lock, wake);
  }
}

}  // namespace pf::sandbox
