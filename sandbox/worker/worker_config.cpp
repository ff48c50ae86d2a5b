#include "sandbox/worker/worker_config.h"

#include <charconv>
#include <string_view>

namespace pf::sandbox {

namespace {

Result<uint64_t> parse_count(std::string_view arg, const std::string& text) {
  uint64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return make_error(ErrorCode::invalid_argument,
                      std::string(arg) + ": not a non-negative integer: " + text);
  }
  return n;
}

}  // namespace

std::vector<std::string> worker_limit_args(const WorkerLimits& limits, bool gpu_worker) {
  std::vector<std::string> args;
  auto add = [&](const char* flag, uint64_t value) {
    if (value == 0) return;
    args.emplace_back(flag);
    args.push_back(std::to_string(value));
  };
  add(gpu_worker ? "--memory-watch-mb" : "--memory-limit-mb", limits.memory_mb);
  add("--compile-timeout-ms", limits.compile_timeout_ms);
  add("--compile-memory-mb", limits.compile_memory_mb);
  add("--max-cubin-mb", limits.max_cubin_mb);
  add("--cache-max-mb", limits.cache_max_mb);
  return args;
}

Result<WorkerConfig> parse_worker_args(int argc, const char* const* argv) {
  WorkerConfig config;
  auto& iso = config.isolation;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    auto value = [&]() -> Result<std::string> {
      if (i + 1 >= argc) {
        return make_error(ErrorCode::invalid_argument, std::string(arg) + " needs a value");
      }
      return std::string(argv[++i]);
    };
    if (arg == "--ipc-fd") {
      PF_ASSIGN(std::string text, value());
      int fd = -1;
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), fd);
      if (ec != std::errc() || end != text.data() + text.size() || fd < 0) {
        return make_error(ErrorCode::invalid_argument, "--ipc-fd: not a descriptor: " + text);
      }
      config.ipc_fd = fd;
    } else if (arg == "--scratch") {
      PF_ASSIGN(iso.scratch_dir, value());
    } else if (arg == "--cache") {
      PF_ASSIGN(iso.cache_dir, value());
    } else if (arg == "--allow-read") {
      PF_ASSIGN(std::string path, value());
      iso.extra_read_paths.emplace_back(path);
    } else if (arg == "--allow-write") {
      PF_ASSIGN(std::string path, value());
      iso.extra_write_paths.emplace_back(path);
    } else if (arg == "--memory-limit-mb" || arg == "--memory-watch-mb") {
      PF_ASSIGN(std::string text, value());
      PF_ASSIGN(config.limits.memory_mb, parse_count(arg, text));
      if (arg == "--memory-limit-mb") iso.limits.max_data_bytes = config.limits.memory_mb << 20;
    } else if (arg == "--compile-timeout-ms") {
      PF_ASSIGN(std::string text, value());
      PF_ASSIGN(config.limits.compile_timeout_ms, parse_count(arg, text));
    } else if (arg == "--compile-memory-mb") {
      PF_ASSIGN(std::string text, value());
      PF_ASSIGN(config.limits.compile_memory_mb, parse_count(arg, text));
    } else if (arg == "--max-cubin-mb") {
      PF_ASSIGN(std::string text, value());
      PF_ASSIGN(config.limits.max_cubin_mb, parse_count(arg, text));
    } else if (arg == "--cache-max-mb") {
      PF_ASSIGN(std::string text, value());
      PF_ASSIGN(config.limits.cache_max_mb, parse_count(arg, text));
    } else if (arg == "--no-isolation") {
      iso.enabled = false;
    } else if (arg == "--no-user-namespace") {
      iso.user_namespace = false;
    } else if (arg == "--no-network-namespace") {
      iso.network_namespace = false;
    } else if (arg == "--no-landlock") {
      iso.landlock = false;
    } else if (arg == "--no-seccomp") {
      iso.seccomp = false;
    } else if (arg == "--seccomp-allow") {
      PF_ASSIGN(std::string name, value());
      iso.seccomp_allow.push_back(name);
    } else if (arg == "--no-rlimits") {
      iso.rlimits = false;
    } else if (arg == "--allow-new-privs") {
      iso.no_new_privs = false;
    } else {
      return make_error(ErrorCode::invalid_argument, "unknown argument '" + std::string(arg) + "'");
    }
  }
  return config;
}

std::string worker_usage(const std::string& program) {
  return "usage: " + program +
         " [--ipc-fd N] [--scratch DIR] [--cache DIR] [--allow-read PATH]... "
         "[--allow-write PATH]... [--no-isolation] [--no-user-namespace] "
         "[--no-network-namespace] [--no-landlock] [--no-seccomp] [--seccomp-allow SYSCALL]... "
         "[--no-rlimits] [--allow-new-privs] [--memory-limit-mb N | --memory-watch-mb N] "
         "[--compile-timeout-ms N] [--max-cubin-mb N] [--cache-max-mb N]\n"
         "Started by passforge's worker pool: speaks length-prefixed JSON on descriptor N "
         "(default 3); not meant to be run by hand.\n";
}

}  // namespace pf::sandbox
