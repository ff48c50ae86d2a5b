// How a worker ends a request that hit one of its limits (WorkerLimits): it
// writes one marker line naming the limit and its value to stderr (the pool's
// log of the worker) and exits with kWorkerExitResourceLimit. The pool reads
// the line back and answers the request with ReplyStatus::resource_limit, then
// replaces the worker: a process that ran out of memory or sits inside an
// NVRTC compile it cannot interrupt is not reused.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace pf::sandbox {

inline constexpr int kWorkerExitResourceLimit = 4;
inline constexpr const char* kResourceLimitMarker = "passforge-worker resource_limit: ";

//! Writes the marker line with `what` and _exits. Async-signal-safe (write
//! and _exit only), so usable where the heap is exhausted.
[[noreturn]] void exit_on_resource_limit(const char* what);

//! Makes a failed C++ allocation end the worker through
//! exit_on_resource_limit, naming the memory limit. Installed only where
//! RLIMIT_DATA enforces that limit: elsewhere std::bad_alloc stays an error
//! reply.
void install_memory_limit_handler(uint64_t memory_mb);

//! The text of the last marker line in a worker's output, or nullopt.
std::optional<std::string> resource_limit_reason(const std::string& output);

//! One thread that ends the worker when an armed deadline passes, or when
//! the worker's anonymous memory grows past an armed bound (checked every
//! 20 ms). Thread-safe.
class LimitWatchdog {
 public:
  LimitWatchdog() = default;
  ~LimitWatchdog();
  LimitWatchdog(const LimitWatchdog&) = delete;
  LimitWatchdog& operator=(const LimitWatchdog&) = delete;

  //! Disarms on destruction.
  class Armed {
   public:
    explicit Armed(LimitWatchdog* dog) : dog_(dog) {}
    ~Armed();
    Armed(const Armed&) = delete;
    Armed& operator=(const Armed&) = delete;

   private:
    LimitWatchdog* dog_;
  };

  //! Until the returned guard ends, exceeding `timeout` ends the worker with
  //! `what` (e.g. "compile_timeout_s = 60: ..."). A zero timeout arms nothing.
  [[nodiscard]] Armed arm(std::chrono::milliseconds timeout, std::string what);

  //! The same deadline, plus: growing RssAnon by more than `growth_bytes`
  //! over its value now ends the worker with `growth_what` (0: no bound).
  [[nodiscard]] Armed arm(std::chrono::milliseconds timeout, std::string what,
                          uint64_t growth_bytes, std::string growth_what);

 private:
  void run();
  void disarm();

  std::mutex mu_;
  std::condition_variable cv_;
  std::optional<std::chrono::steady_clock::time_point> deadline_;  // guarded by mu_
  std::string what_;                                               // guarded by mu_
  std::optional<uint64_t> memory_ceiling_;                         // guarded by mu_
  std::string memory_what_;                                        // guarded by mu_
  bool stopping_ = false;                                          // guarded by mu_
  std::thread thread_;
};

}  // namespace pf::sandbox
