#include "sandbox/pool/worker_cgroup.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "common/fs.h"
#include "common/strings.h"
#include "sandbox/ipc/fd.h"

namespace pf::sandbox {

namespace fs = std::filesystem;

Status write_cgroup_file(const fs::path& file, const std::string& text) {
  Fd fd(::open(file.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
  if (!fd.valid()) return sys_error("open(" + file.string() + ")", errno);
  for (;;) {
    ssize_t n = ::write(fd.get(), text.data(), text.size());
    if (n == static_cast<ssize_t>(text.size())) return ok_status();
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return sys_error("write(" + file.string() + ", \"" + text + "\")", errno);
    return make_error(ErrorCode::io_error, "short write to " + file.string());
  }
}

uint64_t cgroup_counter(const std::string& text, const std::string& key) {
  for (const auto& line : split(text, '\n')) {
    auto parts = split(std::string(trim(line)), ' ');
    if (parts.size() == 2 && parts[0] == key) return std::strtoull(parts[1].c_str(), nullptr, 10);
  }
  return 0;
}

Result<std::unique_ptr<WorkerCgroup>> WorkerCgroup::create(const fs::path& parent,
                                                           const std::string& name,
                                                           uint64_t memory_max_bytes) {
  fs::path dir = parent / name;
  if (::mkdir(dir.c_str(), 0755) != 0) return sys_error("mkdir(" + dir.string() + ")", errno);
  std::unique_ptr<WorkerCgroup> cgroup(new WorkerCgroup(dir, memory_max_bytes));
  PF_TRY(write_cgroup_file(dir / "memory.max", std::to_string(memory_max_bytes)));
  std::vector<std::string> notes;
  if (auto st = write_cgroup_file(dir / "memory.swap.max", "0"); !st.ok()) {
    notes.push_back("swap not limited (" + st.error().message + ")");
  }
  if (auto st = write_cgroup_file(dir / "memory.oom.group", "1"); !st.ok()) {
    notes.push_back("memory.oom.group not set (" + st.error().message + ")");
  }
  cgroup->notes_ = join(notes, "; ");
  return cgroup;
}

WorkerCgroup::~WorkerCgroup() {
  // The worker was reaped before; a cgroup may still read as populated for a
  // moment while the kernel finishes the exit.
  for (int attempt = 0; attempt < 20; ++attempt) {
    if (::rmdir(dir_.c_str()) == 0 || errno == ENOENT) return;
    if (errno != EBUSY) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  spdlog::debug("cgroup {} not removed: {}", dir_.string(), sys_error("rmdir", errno).message);
}

Status WorkerCgroup::add(pid_t pid) const {
  return write_cgroup_file(dir_ / "cgroup.procs", std::to_string(pid));
}

uint64_t WorkerCgroup::oom_kills() const {
  auto events = read_file(dir_ / "memory.events");
  return events.ok() ? cgroup_counter(*events, "oom_kill") : 0;
}

}  // namespace pf::sandbox
