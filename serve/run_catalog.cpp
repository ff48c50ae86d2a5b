#include "serve/run_catalog.h"

#include <algorithm>
#include <set>

#include "trajectories/trajectory_store.h"

namespace pf::serve {
namespace {

namespace fs = std::filesystem;

bool has_store(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(traj::store_path(dir), ec);
}

std::string url_name(const fs::path& dir) {
  fs::path p = dir.filename().empty() ? dir.parent_path() : dir;
  if (p.extension() == ".db") p = p.parent_path().filename().empty() ? p.stem() : p.parent_path();
  std::string name = p.filename().string();
  for (char& c : name) {
    bool safe = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
    if (!safe) c = '_';
  }
  if (name.empty() || name == "." || name == "..") name = "run";
  return name;
}

}  // namespace

Result<RunCatalog> RunCatalog::create(CatalogOptions options) {
  std::vector<fs::path> stores;
  for (const auto& dir : options.run_dirs) {
    std::error_code ec;
    if (has_store(dir)) {
      stores.push_back(dir);
    } else if (fs::is_directory(dir, ec)) {
      options.runs_roots.push_back(dir);
    } else {
      return make_error(ErrorCode::not_found, dir.string() + " holds no run store (" +
                                                  traj::store_path(dir).string() + " is missing)");
    }
  }
  options.run_dirs = std::move(stores);
  for (const auto& root : options.runs_roots) {
    std::error_code ec;
    if (!fs::is_directory(root, ec)) {
      return make_error(ErrorCode::not_found, root.string() + " is not a directory of runs");
    }
  }
  return RunCatalog(std::move(options));
}

std::vector<RunEntry> RunCatalog::list() const {
  std::vector<fs::path> dirs = options_.run_dirs;
  for (const auto& root : options_.runs_roots) {
    if (has_store(root)) dirs.push_back(root);
    std::vector<fs::path> found;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(root, ec)) {
      if (e.is_directory(ec) && has_store(e.path())) found.push_back(e.path());
    }
    // Run ids start with their start time: the newest first.
    std::sort(found.begin(), found.end(), [](const fs::path& a, const fs::path& b) {
      return a.filename().string() > b.filename().string();
    });
    dirs.insert(dirs.end(), found.begin(), found.end());
  }
  std::vector<RunEntry> out;
  std::set<std::string> names;
  std::set<fs::path> seen;
  for (const auto& dir : dirs) {
    std::error_code ec;
    fs::path canonical = fs::weakly_canonical(dir, ec);
    if (!seen.insert(ec ? dir : canonical).second) continue;
    std::string base = url_name(dir), name = base;
    for (int i = 2; !names.insert(name).second; ++i) name = base + "-" + std::to_string(i);
    out.push_back({name, dir});
  }
  return out;
}

std::optional<RunEntry> RunCatalog::find(const std::string& name) const {
  for (auto& e : list()) {
    if (e.name == name) return e;
  }
  return std::nullopt;
}

}  // namespace pf::serve
