#include "sandbox/cuda/shared_library.h"

#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace pf::cuda {
namespace fs = std::filesystem;

Result<SharedLibrary> SharedLibrary::open_first(const std::string& what,
                                                const std::vector<std::string>& candidates) {
  std::string attempts;
  for (const auto& candidate : candidates) {
    void* handle = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (handle != nullptr) {
      std::string path = candidate;
      link_map* map = nullptr;
      if (::dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr &&
          map->l_name != nullptr && map->l_name[0] != '\0') {
        path = map->l_name;
      }
      return SharedLibrary(handle, std::move(path));
    }
    const char* why = ::dlerror();
    attempts += "\n  " + candidate + ": " + (why != nullptr ? why : "cannot be loaded");
  }
  if (candidates.size() == 1) {
    return make_error(ErrorCode::not_found,
                      what + " not found:" + attempts.substr(attempts.find(": ") + 1));
  }
  if (candidates.empty()) attempts = " (no candidates)";
  return make_error(ErrorCode::not_found, what + " not found; tried:" + attempts);
}

void* SharedLibrary::symbol(const char* name) const {
  return ::dlsym(handle_, name);
}

std::string env_or_empty(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::string(value) : std::string();
}

namespace {

// lib/python3.*/{site,dist}-packages under `prefix`.
void add_site_packages(const fs::path& prefix, std::vector<fs::path>& out) {
  std::error_code ec;
  fs::path lib = prefix / "lib";
  if (!fs::is_directory(lib, ec)) return;
  std::vector<fs::path> pythons;
  for (fs::directory_iterator it(lib, ec), end; !ec && it != end; it.increment(ec)) {
    auto name = it->path().filename().string();
    if (name.rfind("python3", 0) == 0) pythons.push_back(it->path());
  }
  std::sort(pythons.rbegin(), pythons.rend());  // newest Python first
  for (const auto& python : pythons) {
    for (const char* sub : {"site-packages", "dist-packages"}) {
      if (fs::is_directory(python / sub, ec)) out.push_back(python / sub);
    }
  }
}

}  // namespace

std::vector<std::string> toolkit_library_candidates(const std::string& soname,
                                                    const std::string& override_value,
                                                    const std::vector<std::string>& wheel_subdirs) {
  if (!override_value.empty()) return {override_value};
  std::vector<std::string> out{soname};
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
    auto root = env_or_empty(var);
    if (!root.empty()) out.push_back((fs::path(root) / "lib64" / soname).string());
  }
  out.push_back("/usr/local/cuda/lib64/" + soname);
  std::vector<fs::path> site_dirs;
  for (const char* var : {"VIRTUAL_ENV", "CONDA_PREFIX"}) {
    auto prefix = env_or_empty(var);
    if (!prefix.empty()) add_site_packages(prefix, site_dirs);
  }
  auto home = env_or_empty("HOME");
  if (!home.empty()) add_site_packages(fs::path(home) / ".local", site_dirs);
  add_site_packages("/usr/local", site_dirs);
  add_site_packages("/usr", site_dirs);
  for (const auto& site : site_dirs) {
    for (const auto& sub : wheel_subdirs) out.push_back((site / sub / soname).string());
  }
  // Without duplicates, keeping the first occurrence (the search order).
  std::vector<std::string> unique;
  for (auto& c : out) {
    if (std::find(unique.begin(), unique.end(), c) == unique.end()) unique.push_back(std::move(c));
  }
  return unique;
}

}  // namespace pf::cuda
