#include "sandbox/isolation/anon_memory.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace pf::sandbox {

std::optional<uint64_t> anon_memory_bytes(pid_t pid) {
  char path[64];
  if (pid == 0) {
    std::snprintf(path, sizeof path, "/proc/self/status");
  } else {
    std::snprintf(path, sizeof path, "/proc/%d/status", static_cast<int>(pid));
  }
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  char buf[4096];
  ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0) return std::nullopt;
  buf[n] = '\0';
  const char* line = std::strstr(buf, "\nRssAnon:");
  if (line == nullptr) return std::nullopt;
  return static_cast<uint64_t>(std::strtoull(line + 10, nullptr, 10)) << 10;
}

}  // namespace pf::sandbox
