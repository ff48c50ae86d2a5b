#include "evaluator/passes/workspace.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <set>

#include "common/fs.h"
#include "common/strings.h"

namespace pf::passes {
namespace {

namespace fs = std::filesystem;

constexpr const char* kLayout =
    "a workspace holds passes/<Name>.py, an optional passes/order.json and kernels/<file>.cu";

Error bad(const std::string& path, const std::string& why) {
  return make_error(ErrorCode::invalid_argument, path + ": " + why);
}

bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

bool is_kernel_file_name(std::string_view s) {
  if (!ends_with(s, ".cu") || s.size() <= 3 || s[0] == '.') return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  });
}

Status check_path(const std::string& path) {
  if (path.empty()) return bad("\"\"", "empty file name; " + std::string(kLayout));
  if (path[0] == '/') return bad(path, "absolute paths are not allowed; " + std::string(kLayout));
  if (path.find('\\') != std::string::npos || path.find('\0') != std::string::npos) {
    return bad(path, "use '/' separators and plain names; " + std::string(kLayout));
  }
  std::vector<std::string> parts = split(path, '/');
  for (const auto& p : parts) {
    if (p == ".." || p == "." || p.empty()) {
      return bad(path,
                 "'.', '..' and empty path components are not allowed; " + std::string(kLayout));
    }
  }
  if (parts[0] != "passes" && parts[0] != "kernels") {
    return bad(path, "files may only live in passes/ and kernels/; " + std::string(kLayout));
  }
  if (parts.size() != 2) {
    return bad(path, "no subdirectories: files go directly into " + parts[0] + "/");
  }
  const std::string& name = parts[1];
  if (parts[0] == "passes") {
    if (name == "order.json") return ok_status();
    if (!ends_with(name, ".py")) {
      return bad(path, "passes/ holds <Name>.py files and order.json only");
    }
    if (!is_identifier(name.substr(0, name.size() - 3))) {
      return bad(path, "a pass name must be a Python identifier (letters, digits, '_')");
    }
    return ok_status();
  }
  if (!is_kernel_file_name(name)) {
    return bad(path, "kernels/ holds <name>.cu files only (letters, digits, '_', '-', '.')");
  }
  return ok_status();
}

int line_of_offset(const std::string& text, size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + offset, '\n'));
}

Result<std::vector<std::string>> parse_order(const std::string& text,
                                             const std::vector<std::string>& names) {
  const std::string path = "passes/order.json";
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    int line = line_of_offset(text, e.byte > 0 ? e.byte - 1 : 0);
    return bad(path + ":" + std::to_string(line),
               "not valid JSON; write a list of pass names such as [\"FuseA\", \"FuseB\"]");
  }
  if (!j.is_array()) {
    return bad(path + ":1", "must be a JSON list of pass names such as [\"FuseA\", \"FuseB\"]");
  }
  std::vector<std::string> order;
  std::set<std::string> seen;
  for (size_t k = 0; k < j.size(); ++k) {
    // Report the line of the k-th item: find it by its text, in order.
    const std::string where =
        path + ":" +
        std::to_string(line_of_offset(
            text, j[k].is_string() ? text.find('"' + j[k].get<std::string>() + '"') : 0));
    if (!j[k].is_string()) return bad(where, "item " + std::to_string(k) + " is not a string");
    std::string name = j[k].get<std::string>();
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      return bad(where, "unknown pass '" + name + "' (passes: " + join(names, ", ") + ")");
    }
    if (!seen.insert(name).second) return bad(where, "pass '" + name + "' is listed twice");
    order.push_back(name);
  }
  for (const auto& n : names) {
    if (seen.count(n) == 0) {
      return bad(path, "pass '" + n + "' is not listed; list every pass of passes/ once");
    }
  }
  return order;
}

}  // namespace

Result<PassWorkspace> PassWorkspace::from_files(std::map<std::string, std::string> files,
                                                const WorkspaceLimits& limits) {
  if (files.size() > limits.max_files) {
    return make_error(ErrorCode::invalid_argument,
                      "the workspace has " + std::to_string(files.size()) + " files; at most " +
                          std::to_string(limits.max_files) + " are allowed");
  }
  size_t total = 0;
  std::vector<std::string> names;
  for (const auto& [path, content] : files) {
    PF_TRY(check_path(path));
    if (content.size() > limits.max_file_bytes) {
      return bad(path, "is " + std::to_string(content.size()) + " bytes; the limit is " +
                           std::to_string(limits.max_file_bytes));
    }
    total += content.size();
    if (starts_with(path, "passes/") && ends_with(path, ".py")) {
      names.push_back(path.substr(7, path.size() - 10));
    }
  }
  if (total > limits.max_total_bytes) {
    return make_error(ErrorCode::invalid_argument, "the workspace holds " + std::to_string(total) +
                                                       " bytes; the limit is " +
                                                       std::to_string(limits.max_total_bytes));
  }
  if (names.empty()) {
    return make_error(ErrorCode::invalid_argument,
                      "the workspace has no passes: write passes/<Name>.py with "
                      "def pattern(...) and def replacement(...)");
  }
  if (names.size() > limits.max_passes) {
    return make_error(ErrorCode::invalid_argument,
                      "the workspace has " + std::to_string(names.size()) + " passes; at most " +
                          std::to_string(limits.max_passes) + " are allowed");
  }
  PassWorkspace ws;
  ws.order_ = names;  // std::map iteration: sorted by name
  if (auto it = files.find("passes/order.json"); it != files.end()) {
    PF_ASSIGN(ws.order_, parse_order(it->second, names));
  }
  ws.files_ = std::move(files);
  return ws;
}

Result<PassWorkspace> PassWorkspace::load(const fs::path& dir, const WorkspaceLimits& limits) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return make_error(ErrorCode::not_found, dir.string() + ": not a directory");
  }
  std::map<std::string, std::string> files;
  fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec), end;
  if (ec) return make_error(ErrorCode::io_error, dir.string() + ": " + ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) return make_error(ErrorCode::io_error, dir.string() + ": " + ec.message());
    const fs::path& p = it->path();
    // lexically: fs::relative would resolve a symbolic link to its target.
    std::string rel = p.lexically_relative(dir).generic_string();
    auto status = it->symlink_status(ec);
    if (fs::is_symlink(status)) return bad(rel, "symbolic links are not allowed in a workspace");
    if (fs::is_directory(status)) {
      if (rel != "passes" && rel != "kernels") {
        return bad(rel + "/",
                   "files may only live in passes/ and kernels/; " + std::string(kLayout));
      }
      continue;
    }
    if (!fs::is_regular_file(status)) return bad(rel, "not a regular file");
    PF_TRY(check_path(rel));
    if (fs::file_size(p, ec) > limits.max_file_bytes) {
      return bad(rel, "is larger than " + std::to_string(limits.max_file_bytes) + " bytes");
    }
    if (files.size() >= limits.max_files) {
      return make_error(
          ErrorCode::invalid_argument,
          dir.string() + ": more than " + std::to_string(limits.max_files) + " files");
    }
    PF_ASSIGN(files[rel], read_file(p));
  }
  auto ws = from_files(std::move(files), limits);
  if (!ws.ok()) return ws.error().with_context(dir.string());
  return ws;
}

std::string PassWorkspace::pass_path(const std::string& name) {
  return "passes/" + name + ".py";
}

const std::string& PassWorkspace::pass_source(const std::string& name) const {
  return files_.at(pass_path(name));
}

std::map<std::string, std::string> PassWorkspace::kernel_files() const {
  std::map<std::string, std::string> out;
  for (const auto& [path, content] : files_) {
    if (starts_with(path, "kernels/")) out.emplace(path, content);
  }
  return out;
}

}  // namespace pf::passes
