// Which files a pass workspace may hold (docs/design.md "The pass"), checked when
// the model writes them, so a bad path is answered at once with a message it
// can act on. The evaluator checks the workspace again on every evaluation.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/result.h"
#include "trajectories/records.h"

namespace pf::agent {

struct WorkspaceLimits {
  size_t max_files = 40;
  size_t max_file_bytes = size_t{256} * 1024;
};

//! passes/<Name>.py (Name a Python identifier), passes/order.json or
//! kernels/<file>.cu (file of [A-Za-z0-9_.-], no further nesting). The error
//! message is the reason alone ("only passes/ and kernels/ ...").
Status check_workspace_path(std::string_view path);

enum class WriteCheck { ok, file_too_large, too_many_files };

//! Whether writing `bytes` to `path` keeps `workspace` within `limits`.
WriteCheck check_workspace_write(const traj::Workspace& workspace, const std::string& path,
                                 size_t bytes, const WorkspaceLimits& limits);

//! Whether the workspace holds at least one passes/*.py file.
bool has_pass(const traj::Workspace& workspace);

//! SHA-256 over the workspace's paths and contents (identity of a workspace).
std::string workspace_hash(const traj::Workspace& workspace);

}  // namespace pf::agent
