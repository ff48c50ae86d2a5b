#include "sandbox/pool/cgroup_delegation.h"

#include <signal.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <vector>

#include "common/fs.h"
#include "common/strings.h"
#include "sandbox/ipc/fd.h"
#include "sandbox/pool/worker_cgroup.h"

namespace pf::sandbox {

namespace fs = std::filesystem;

namespace {

constexpr const char* kMainPrefix = "passforge-main-";
constexpr const char* kWorkersPrefix = "passforge-workers-";

// mountinfo escapes blanks and backslashes in paths as \ooo (octal).
std::string unescape_mount_path(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 3 < text.size()) {
      const std::string digits(text.substr(i + 1, 3));
      if (digits.find_first_not_of("01234567") == std::string::npos) {
        out.push_back(static_cast<char>(std::strtol(digits.c_str(), nullptr, 8)));
        i += 3;
        continue;
      }
    }
    out.push_back(text[i]);
  }
  return out;
}

struct Mount {
  std::string root;  // the part of the hierarchy the mount shows
  fs::path point;
};

// Where cgroup `path` of the hierarchy is under mount `m` (which shows it).
fs::path in_mount(const Mount& m, const std::string& path) {
  std::string relative = m.root == "/" ? path : path.substr(m.root.size());
  while (starts_with(relative, "/")) relative.erase(0, 1);
  return relative.empty() ? m.point : m.point / relative;
}

std::vector<Mount> cgroup2_mounts(const std::string& mountinfo) {
  std::vector<Mount> mounts;
  for (const auto& line : split(mountinfo, '\n')) {
    auto dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    auto after = split(line.substr(dash + 3), ' ');
    if (after.empty() || after[0] != "cgroup2") continue;
    auto before = split(line.substr(0, dash), ' ');
    if (before.size() < 5) continue;
    mounts.push_back({unescape_mount_path(before[3]), unescape_mount_path(before[4])});
  }
  return mounts;
}

// "0::/path" is the cgroup v2 line; "N:a,b:/path" are v1 hierarchies.
std::optional<std::string> v2_path(const std::string& proc_self_cgroup) {
  for (const auto& line : split(proc_self_cgroup, '\n')) {
    if (starts_with(line, "0::")) return std::string(trim(line.substr(3)));
  }
  return std::nullopt;
}

std::string v1_memory_line(const std::string& proc_self_cgroup) {
  for (const auto& line : split(proc_self_cgroup, '\n')) {
    auto parts = split(line, ':');
    if (parts.size() < 3) continue;
    for (const auto& c : split(parts[1], ',')) {
      if (c == "memory") return std::string(trim(line));
    }
  }
  return "";
}

bool has_word(const std::string& text, const std::string& word) {
  for (const auto& line : split(text, '\n')) {
    for (const auto& w : split(line, ' ')) {
      if (trim(w) == word) return true;
    }
  }
  return false;
}

std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  for (const auto& line : split(text, '\n')) {
    for (const auto& w : split(line, ' ')) {
      if (!trim(w).empty()) out.emplace_back(trim(w));
    }
  }
  return out;
}

bool writable(const fs::path& path) {
  return ::access(path.c_str(), W_OK) == 0;
}

bool pid_gone(const std::string& text) {
  char* end = nullptr;
  long pid = std::strtol(text.c_str(), &end, 10);
  if (end == text.c_str() || *end != '\0' || pid <= 0) return false;
  return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

// Cgroups of ended passforge processes: empty ones are removed (rmdir
// refuses populated ones, which are left alone).
void sweep_stale(const fs::path& dir, pid_t self) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::string pid;
    if (starts_with(name, kMainPrefix)) pid = name.substr(std::string(kMainPrefix).size());
    if (starts_with(name, kWorkersPrefix)) pid = name.substr(std::string(kWorkersPrefix).size());
    if (pid.empty() || pid == std::to_string(self) || !pid_gone(pid)) continue;
    std::error_code sub_ec;
    for (fs::directory_iterator child(it->path(), sub_ec), done; !sub_ec && child != done;
         child.increment(sub_ec)) {
      if (child->is_directory(sub_ec)) ::rmdir(child->path().c_str());
    }
    ::rmdir(it->path().c_str());
  }
}

Status make_dir(const fs::path& dir) {
  if (::mkdir(dir.c_str(), 0755) == 0 || errno == EEXIST) return ok_status();
  return sys_error("mkdir(" + dir.string() + ")", errno);
}

}  // namespace

CgroupSources CgroupSources::of_this_process() {
  CgroupSources s;
  s.proc_self_cgroup = read_file("/proc/self/cgroup").value_or("");
  s.mountinfo = read_file("/proc/self/mountinfo").value_or("");
  s.pid = ::getpid();
  return s;
}

CgroupDelegation probe_cgroup_delegation(const CgroupSources& sources) {
  CgroupDelegation d;
  auto path = v2_path(sources.proc_self_cgroup);
  if (!path) {
    d.reason = "this process is in no cgroup v2 hierarchy (/proc/self/cgroup has no '0::' line)";
    return d;
  }
  // The hierarchy may be mounted several times (whole, or a subtree of it):
  // the mount showing the deepest part of it that holds our cgroup wins, a
  // mount whose directory exists before one whose does not.
  std::optional<Mount> mount;
  bool mount_dir_exists = false;
  for (const auto& m : cgroup2_mounts(sources.mountinfo)) {
    if (m.root != "/" && *path != m.root && !starts_with(*path, m.root + "/")) continue;
    std::error_code ec;
    const bool exists = fs::is_directory(in_mount(m, *path), ec);
    const bool better = !mount || m.root.size() > mount->root.size() ||
                        (m.root.size() == mount->root.size() && exists && !mount_dir_exists);
    if (better) {
      mount = m;
      mount_dir_exists = exists;
    }
  }
  if (!mount) {
    d.reason = "no cgroup2 file system is mounted that shows this process's cgroup " + *path;
    return d;
  }
  d.dir = in_mount(*mount, *path);
  if (!mount_dir_exists) {
    d.reason = "this process's cgroup " + d.dir.string() + " is not a directory";
    return d;
  }
  if (!writable(d.dir) || !writable(d.dir / "cgroup.subtree_control")) {
    d.reason = d.dir.string() +
               " is not writable: the cgroup is not delegated to this user (run passforge in "
               "one that is, e.g. systemd-run --user --scope -p Delegate=yes)";
    return d;
  }
  const std::string controllers = read_file(d.dir / "cgroup.controllers").value_or("");
  if (!has_word(controllers, "memory")) {
    d.reason = "memory is not among the controllers of " + d.dir.string() + " ('" +
               std::string(trim(controllers)) + "')";
    if (auto v1 = v1_memory_line(sources.proc_self_cgroup); !v1.empty()) {
      d.reason += ": it is bound to a cgroup v1 hierarchy ('" + v1 + "' in /proc/self/cgroup)";
    }
    return d;
  }
  const std::string subtree = read_file(d.dir / "cgroup.subtree_control").value_or("");
  if (has_word(subtree, "memory")) {
    d.usable = true;
    d.reason = "memory is enabled for the children of " + d.dir.string();
    return d;
  }
  std::vector<std::string> others;
  for (const auto& pid : words(read_file(d.dir / "cgroup.procs").value_or(""))) {
    if (pid != std::to_string(sources.pid)) others.push_back(pid);
  }
  if (others.empty()) {
    d.usable = true;
    d.needs_leaf = true;
    d.reason = "passforge is the only process of " + d.dir.string() +
               " and moves into a leaf cgroup of its own to enable memory for its workers";
    return d;
  }
  if (*path == "/") {
    // The real root cgroup is exempt from the no-internal-processes rule; a
    // cgroup namespace's root is not, which the set-up's write then reports.
    d.usable = true;
    d.reason = "the root cgroup " + d.dir.string() + " may enable memory for its children";
    return d;
  }
  if (others.size() > 5) others.resize(5);
  d.reason = d.dir.string() + " holds other processes (" + join(others, ", ") +
             "): memory cannot be enabled for child cgroups of a cgroup with processes, and "
             "passforge moves only itself; run it alone in a delegated cgroup";
  return d;
}

Result<fs::path> set_up_worker_cgroups(const CgroupDelegation& delegation, pid_t pid) {
  if (!delegation.usable) return make_error(ErrorCode::unsupported, delegation.reason);
  const fs::path& dir = delegation.dir;
  sweep_stale(dir, pid);
  if (delegation.needs_leaf) {
    const fs::path leaf = dir / (kMainPrefix + std::to_string(pid));
    PF_TRY(make_dir(leaf));
    PF_TRY(write_cgroup_file(leaf / "cgroup.procs", std::to_string(pid)));
  }
  if (!has_word(read_file(dir / "cgroup.subtree_control").value_or(""), "memory")) {
    PF_TRY(write_cgroup_file(dir / "cgroup.subtree_control", "+memory"));
  }
  const fs::path workers = dir / (kWorkersPrefix + std::to_string(pid));
  PF_TRY(make_dir(workers));
  PF_TRY(write_cgroup_file(workers / "cgroup.subtree_control", "+memory"));
  return workers;
}

const WorkerCgroupSetup& worker_cgroup_setup() {
  static std::once_flag once;
  static WorkerCgroupSetup setup;
  std::call_once(once, [] {
    const CgroupSources sources = CgroupSources::of_this_process();
    const CgroupDelegation delegation = probe_cgroup_delegation(sources);
    auto parent = set_up_worker_cgroups(delegation, sources.pid);
    if (!parent.ok()) {
      setup.description = "no per-worker memory cgroup (" + parent.error().message +
                          "); memory capped by " + kMemoryFallback;
      spdlog::info("worker memory: {}", setup.description);
      return;
    }
    setup.parent = *parent;
    setup.description = "cgroup v2: each worker in its own cgroup under " + parent->string() +
                        " with memory.max = evaluator.worker_memory_mb and memory.swap.max = 0 (" +
                        delegation.reason + ")";
    spdlog::info("worker memory: {}", setup.description);
    std::atexit([] { ::rmdir(setup.parent.c_str()); });
  });

  return setup;
}

}  // namespace pf::sandbox
