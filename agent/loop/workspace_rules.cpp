#include "agent/loop/workspace_rules.h"

#include <cctype>

#include "common/sha256.h"

namespace pf::agent {
namespace {

bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

bool is_file_name(std::string_view s) {
  if (s.empty() || s[0] == '.') return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '-') {
      return false;
    }
  }
  return true;
}

Error bad(std::string reason) {
  return make_error(ErrorCode::invalid_argument, std::move(reason));
}

}  // namespace

Status check_workspace_path(std::string_view path) {
  if (path.empty()) return bad("the path is empty");
  if (path.front() == '/') return bad("absolute paths are not allowed");
  if (path.find("..") != std::string_view::npos) return bad("`..` is not allowed");
  auto slash = path.find('/');
  if (slash == std::string_view::npos) {
    return bad("files live in passes/ or kernels/, not at the top level");
  }
  std::string_view dir = path.substr(0, slash), file = path.substr(slash + 1);
  if (file.find('/') != std::string_view::npos) return bad("subdirectories are not allowed");
  if (dir == "passes") {
    if (file == "order.json") return ok_status();
    if (!file.ends_with(".py")) return bad("passes/ holds <Name>.py files and order.json");
    if (!is_identifier(file.substr(0, file.size() - 3))) {
      return bad("a pass name must be a Python identifier (letters, digits, _)");
    }
    return ok_status();
  }
  if (dir == "kernels") {
    if (!file.ends_with(".cu") || file.size() <= 3) return bad("kernels/ holds <file>.cu files");
    if (!is_file_name(file)) return bad("kernel file names use letters, digits, _, . and -");
    return ok_status();
  }
  return bad("only passes/ and kernels/ exist");
}

WriteCheck check_workspace_write(const traj::Workspace& workspace, const std::string& path,
                                 size_t bytes, const WorkspaceLimits& limits) {
  if (bytes > limits.max_file_bytes) return WriteCheck::file_too_large;
  if (!workspace.count(path) && workspace.size() >= limits.max_files) {
    return WriteCheck::too_many_files;
  }
  return WriteCheck::ok;
}

bool has_pass(const traj::Workspace& workspace) {
  for (const auto& [path, content] : workspace) {
    if (path.starts_with("passes/") && path.ends_with(".py")) return true;
  }
  return false;
}

std::string workspace_hash(const traj::Workspace& workspace) {
  Sha256 h;
  for (const auto& [path, content] : workspace) {
    h.update(path).update(std::string_view("\0", 1));
    h.update(std::to_string(content.size())).update(std::string_view("\0", 1));
    h.update(content);
  }
  return h.hex_digest();
}

}  // namespace pf::agent
