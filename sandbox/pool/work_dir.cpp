#include "sandbox/pool/work_dir.h"

#include <signal.h>
#include <spdlog/spdlog.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <mutex>
#include <set>

#include "common/fs.h"
#include "common/strings.h"
#include "sandbox/ipc/fd.h"

namespace pf::sandbox {
namespace fs = std::filesystem;
namespace {

constexpr const char* kOwnerFile = "owner";

std::mutex g_mu;
std::set<fs::path> g_owned;  // guarded by g_mu

// Field 22 of /proc/<pid>/stat (clock ticks since boot): a pid reused by a
// later process has another start time. "" when the process does not exist.
std::string start_time(pid_t pid) {
  auto stat = read_file("/proc/" + std::to_string(pid) + "/stat");
  if (!stat.ok()) return "";
  auto close = stat->rfind(')');
  if (close == std::string::npos) return "";
  auto fields = split(stat->substr(close + 2), ' ');
  // After the command: state is field 3, starttime field 22.
  return fields.size() > 19 ? fields[19] : "";
}

bool owner_alive(const std::string& owner) {
  auto parts = split(std::string(trim(owner)), ' ');
  if (parts.size() != 2) return false;
  char* end = nullptr;
  long pid = std::strtol(parts[0].c_str(), &end, 10);
  if (end == parts[0].c_str() || *end != '\0' || pid <= 0) return false;
  if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) return false;
  const std::string now = start_time(static_cast<pid_t>(pid));
  // A live pid we cannot inspect (another user's /proc) counts as the owner.
  return now.empty() || now == parts[1];
}

}  // namespace

Result<fs::path> create_owned_work_dir(const fs::path& parent) {
  std::string templ = (parent / (std::string(kWorkDirPrefix) + "XXXXXX")).string();
  if (::mkdtemp(templ.data()) == nullptr) return sys_error("mkdtemp(" + templ + ")", errno);
  fs::path dir = templ;
  const pid_t self = ::getpid();
  Status written =
      write_file_atomic(dir / kOwnerFile, std::to_string(self) + " " + start_time(self) + "\n");
  if (!written.ok()) {
    std::error_code ec;
    fs::remove_all(dir, ec);
    return written.error();
  }
  std::lock_guard lock(g_mu);
  g_owned.insert(dir);
  return dir;
}

void remove_owned_work_dir(const fs::path& dir) {
  std::error_code ec;
  fs::remove_all(dir, ec);
  std::lock_guard lock(g_mu);
  g_owned.erase(dir);
}

void remove_owned_work_dirs() {
  std::lock_guard lock(g_mu);
  for (const auto& dir : g_owned) {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  g_owned.clear();
}

int sweep_stale_work_dirs(const fs::path& parent) {
  int removed = 0;
  std::error_code ec;
  for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code type_ec;
    if (!starts_with(name, kWorkDirPrefix) || !it->is_directory(type_ec) ||
        it->is_symlink(type_ec)) {
      continue;
    }
    {
      std::lock_guard lock(g_mu);
      if (g_owned.count(it->path())) continue;
    }
    auto owner = read_file(it->path() / kOwnerFile);
    bool stale = false;
    if (owner.ok()) {
      stale = !owner_alive(*owner);
    } else {
      std::error_code age_ec;
      auto written = fs::last_write_time(it->path(), age_ec);
      stale = !age_ec && fs::file_time_type::clock::now() - written > std::chrono::hours(1);
    }
    if (!stale) continue;
    std::error_code rm_ec;
    fs::remove_all(it->path(), rm_ec);
    if (!rm_ec) {
      ++removed;
      spdlog::info("removed the worker folder {} left by an ended process", it->path().string());
    }
  }
  return removed;
}

}  // namespace pf::sandbox
