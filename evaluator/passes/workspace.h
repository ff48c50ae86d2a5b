// A pass workspace (docs/design.md "The pass"): the files an LLM writes, held in
// memory (the agent keeps workspaces in memory; `load` reads one from disk).
//
//   passes/<Name>.py     def pattern(...) and def replacement(...)
//   passes/order.json    optional: ["NameA", "NameB"] (every pass, once); else name order
//   kernels/<file>.cu    CUDA C++ for NVRTC
//
// Anything else (another directory, extension or nesting, `..`, absolute
// paths, symbolic links) is refused with a message naming the file, so a
// workspace that loads is exactly what the harness will compile and apply.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "common/result.h"

namespace pf::passes {

struct WorkspaceLimits {
  size_t max_files = 40;
  size_t max_passes = 16;
  size_t max_file_bytes = 256 * 1024;
  size_t max_total_bytes = 1024 * 1024;
};

class PassWorkspace {
 public:
  //! `files`: workspace-relative path -> content.
  static Result<PassWorkspace> from_files(std::map<std::string, std::string> files,
                                          const WorkspaceLimits& limits = {});
  //! Reads every regular file below `dir` (symbolic links and special files are refused).
  static Result<PassWorkspace> load(const std::filesystem::path& dir,
                                    const WorkspaceLimits& limits = {});

  const std::map<std::string, std::string>& files() const { return files_; }
  //! Pass names in application order (order.json, else sorted by name).
  const std::vector<std::string>& pass_names() const { return order_; }
  //! "passes/<name>.py"
  static std::string pass_path(const std::string& name);
  const std::string& pass_source(const std::string& name) const;
  //! The kernels/*.cu files (path -> source): what NVRTC compiles.
  std::map<std::string, std::string> kernel_files() const;

 private:
  std::map<std::string, std::string> files_;
  std::vector<std::string> order_;
};

}  // namespace pf::passes
