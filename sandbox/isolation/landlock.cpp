#include "sandbox/isolation/landlock.h"

#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "common/fs.h"
#include "common/strings.h"
#include "sandbox/ipc/fd.h"

namespace pf::sandbox {
namespace {

namespace fs = std::filesystem;

// Rights newer than the build machine's <linux/landlock.h> (Linux 6.1, ABI 2)
// are spelled out from the kernel's UAPI so one binary uses what the running
// kernel offers.
constexpr uint64_t kFsTruncate = 1ull << 14;  // ABI 3
constexpr uint64_t kFsIoctlDev = 1ull << 15;  // ABI 5
constexpr uint64_t kNetBindTcp = 1ull << 0;   // ABI 4
constexpr uint64_t kNetConnectTcp = 1ull << 1;
constexpr uint64_t kScopeAbstractUnixSocket = 1ull << 0;  // ABI 6
constexpr uint64_t kScopeSignal = 1ull << 1;
constexpr int kNewestKnownAbi = 7;

// struct landlock_ruleset_attr as of ABI 6; the size passed tells the kernel
// which fields we fill.
struct RulesetAttr {
  uint64_t handled_access_fs = 0;
  uint64_t handled_access_net = 0;
  uint64_t scoped = 0;
};

constexpr uint64_t kFsAbi1 =
    LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE |
    LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
    LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
    LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
    LANDLOCK_ACCESS_FS_MAKE_SYM;
// Rights that apply to a non-directory; rules on files may hold only these.
constexpr uint64_t kFileRights = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE |
                                 LANDLOCK_ACCESS_FS_READ_FILE | kFsTruncate | kFsIoctlDev;

uint64_t handled_fs(int abi) {
  uint64_t mask = kFsAbi1;
  if (abi >= 2) mask |= LANDLOCK_ACCESS_FS_REFER;
  if (abi >= 3) mask |= kFsTruncate;
  if (abi >= 5) mask |= kFsIoctlDev;
  return mask;
}

// No EXECUTE anywhere: execve is denied by the file system as well as by
// seccomp (mapping libraries with PROT_EXEC needs only read access).
constexpr uint64_t kReadRights = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
constexpr uint64_t kWriteRights = kReadRights | LANDLOCK_ACCESS_FS_WRITE_FILE |
                                  LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
                                  LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                                  LANDLOCK_ACCESS_FS_REFER | kFsTruncate;
constexpr uint64_t kDeviceRights = kReadRights | LANDLOCK_ACCESS_FS_WRITE_FILE | kFsIoctlDev;

// Adds one path-beneath rule. Returns false when the path is absent (`why`
// left empty: the allowlist names paths of many distributions) or when it
// cannot be added (`why` says so).
bool add_path_rule(int ruleset_fd, const fs::path& path, uint64_t rights, int abi,
                   std::string* why) {
  Fd dir(::open(path.c_str(), O_PATH | O_CLOEXEC));
  if (!dir.valid()) {
    if (errno != ENOENT && errno != ENOTDIR) *why = path.string() + " (" + errno_name(errno) + ")";
    return false;
  }
  struct stat st {};
  if (::fstat(dir.get(), &st) != 0) {
    *why = path.string() + " (fstat " + errno_name(errno) + ")";
    return false;
  }
  rights &= handled_fs(abi);
  if (!S_ISDIR(st.st_mode)) rights &= kFileRights;
  landlock_path_beneath_attr attr{};
  attr.allowed_access = rights;
  attr.parent_fd = dir.get();
  if (::syscall(SYS_landlock_add_rule, ruleset_fd, LANDLOCK_RULE_PATH_BENEATH, &attr, 0) != 0) {
    *why = path.string() + " (landlock_add_rule " + errno_name(errno) + ")";
    return false;
  }
  return true;
}

void add_children_with_prefix(const fs::path& dir, const std::string& prefix,
                              std::vector<fs::path>& out) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (starts_with(it->path().filename().string(), prefix)) out.push_back(it->path());
  }
}

void add_env_dirs(const char* variable, std::vector<fs::path>& out, bool split_colons) {
  const char* value = std::getenv(variable);
  if (value == nullptr || *value == '\0') return;
  if (!split_colons) {
    out.emplace_back(value);
    return;
  }
  for (const auto& part : split(value, ':')) {
    if (!part.empty()) out.emplace_back(part);
  }
}

}  // namespace

Result<int> landlock_abi() {
  long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
  if (abi < 0) {
    int err = errno;
    if (err == ENOSYS) {
      return make_error(ErrorCode::unsupported, "kernel built without Landlock (ENOSYS)");
    }
    if (err == EOPNOTSUPP) {
      return make_error(ErrorCode::unsupported,
                        "Landlock is built in but disabled (add 'landlock' to the lsm= boot "
                        "parameter)");
    }
    return sys_error("landlock_create_ruleset(VERSION)", err);
  }
  return static_cast<int>(abi);
}

LandlockPaths default_landlock_paths(const fs::path& scratch_dir, const fs::path& cache_dir,
                                     const std::vector<fs::path>& extra_read,
                                     const std::vector<fs::path>& extra_write) {
  LandlockPaths paths;
  auto& ro = paths.read_only;
  for (const char* p : {"/usr/lib", "/usr/lib64", "/usr/lib32", "/lib", "/lib64", "/usr/local/lib",
                        "/usr/local/nvidia", "/etc/ld.so.cache", "/etc/ld.so.conf",
                        "/etc/ld.so.conf.d", "/etc/localtime", "/usr/share/zoneinfo",
                        // What glibc, libstdc++ and the CUDA driver read about this machine.
                        "/proc/self", "/proc/cpuinfo", "/proc/meminfo", "/proc/stat",
                        "/proc/devices", "/proc/modules", "/proc/filesystems", "/proc/sys/vm",
                        "/proc/sys/kernel", "/proc/driver/nvidia", "/sys/devices", "/sys/bus",
                        "/sys/class", "/sys/module", "/sys/kernel/mm", "/dev/nvidia-caps"}) {
    ro.emplace_back(p);
  }
  add_children_with_prefix("/usr/local", "cuda", ro);
  add_env_dirs("CUDA_HOME", ro, false);
  add_env_dirs("CUDA_PATH", ro, false);
  add_env_dirs("LD_LIBRARY_PATH", ro, true);
  // The worker binary and the libraries shipped beside it (build/lib).
  std::error_code ec;
  auto exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    ro.push_back(exe);
    ro.push_back(exe.parent_path() / "lib");
    ro.push_back(exe.parent_path().parent_path() / "lib");
  }
  ro.insert(ro.end(), extra_read.begin(), extra_read.end());

  for (const char* p : {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"}) {
    paths.devices.emplace_back(p);
  }
  add_children_with_prefix("/dev", "nvidia", paths.devices);
  // The CUDA driver names its threads (writes /proc/self/task/<tid>/comm);
  // the rule resolves /proc/self to this process, so it covers only its own
  // threads, and it is added by the worker itself before its threads exist.
  paths.devices.emplace_back("/proc/self/task");

  if (!scratch_dir.empty()) paths.read_write.push_back(scratch_dir);
  if (!cache_dir.empty()) paths.read_write.push_back(cache_dir);
  paths.read_write.insert(paths.read_write.end(), extra_write.begin(), extra_write.end());
  return paths;
}

void apply_landlock(const LandlockPaths& paths, IsolationReport& report) {
  auto abi_or = landlock_abi();
  if (!abi_or.ok()) {
    const std::string why = abi_or.error().message;
    report.add(kLandlockFs, MechanismState::unavailable, why);
    report.add(kLandlockNet, MechanismState::unavailable, why);
    report.add(kLandlockScope, MechanismState::unavailable, why);
    return;
  }
  const int kernel_abi = *abi_or;
  const int abi = std::min(kernel_abi, kNewestKnownAbi);

  RulesetAttr attr;
  attr.handled_access_fs = handled_fs(abi);
  size_t attr_size = sizeof(uint64_t);
  if (abi >= 4) {
    attr.handled_access_net = kNetBindTcp | kNetConnectTcp;  // no net rules: all TCP denied
    attr_size = 2 * sizeof(uint64_t);
  }
  if (abi >= 6) {
    attr.scoped = kScopeAbstractUnixSocket | kScopeSignal;
    attr_size = sizeof(RulesetAttr);
  }
  Fd ruleset(static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attr, attr_size, 0)));
  if (!ruleset.valid()) {
    auto why = sys_error("landlock_create_ruleset", errno).message;
    report.add(kLandlockFs, MechanismState::unavailable, why);
    report.add(kLandlockNet, MechanismState::unavailable, why);
    report.add(kLandlockScope, MechanismState::unavailable, why);
    return;
  }

  int counts[3] = {0, 0, 0};
  int absent = 0;
  std::vector<std::string> skipped;
  auto add_all = [&](const std::vector<fs::path>& list, uint64_t rights, int* count) {
    for (const auto& p : list) {
      std::string why;
      if (add_path_rule(ruleset.get(), p, rights, abi, &why)) {
        ++*count;
      } else if (why.empty()) {
        ++absent;
      } else {
        skipped.push_back(why);
      }
    }
  };
  add_all(paths.read_only, kReadRights, &counts[0]);
  add_all(paths.read_write, kWriteRights, &counts[1]);
  add_all(paths.devices, kDeviceRights, &counts[2]);

  if (::syscall(SYS_landlock_restrict_self, ruleset.get(), 0) != 0) {
    auto why = sys_error("landlock_restrict_self", errno).message;
    report.add(kLandlockFs, MechanismState::unavailable, why);
    report.add(kLandlockNet, MechanismState::unavailable, why);
    report.add(kLandlockScope, MechanismState::unavailable, why);
    return;
  }

  std::string detail = "ABI " + std::to_string(kernel_abi) +
                       (kernel_abi > abi ? " (using ABI " + std::to_string(abi) + " rules)" : "") +
                       "; read-only rules: " + std::to_string(counts[0]) +
                       ", read-write: " + std::to_string(counts[1]) +
                       ", devices: " + std::to_string(counts[2]) + " (" + std::to_string(absent) +
                       " allowlisted paths absent); no execute anywhere";
  if (abi < 3) detail += "; truncate not restricted (ABI < 3)";
  if (abi < 5) detail += "; device ioctls not restricted (ABI < 5)";
  if (!skipped.empty()) detail += "; skipped: " + join(skipped, ", ");
  report.add(kLandlockFs, MechanismState::applied, detail);

  if (abi >= 4) {
    report.add(kLandlockNet, MechanismState::applied, "TCP bind and connect denied");
  } else {
    report.add(kLandlockNet, MechanismState::unavailable,
               "Landlock ABI " + std::to_string(abi) +
                   " < 4 cannot restrict TCP (seccomp and the network namespace still apply)");
  }
  if (abi >= 6) {
    report.add(kLandlockScope, MechanismState::applied,
               "abstract UNIX sockets and signals limited to the worker");
  } else {
    report.add(kLandlockScope, MechanismState::unavailable,
               "Landlock ABI " + std::to_string(abi) +
                   " < 6 cannot scope signals and abstract UNIX sockets (seccomp limits kill)");
  }
}

}  // namespace pf::sandbox
