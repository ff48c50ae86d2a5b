#include "agent/loop/workspace_rules.h"

#include <gtest/gtest.h>

namespace pf::agent {
namespace {

TEST(WorkspaceRules, AcceptsOnlyTheWorkspaceLayout) {
  for (const char* ok : {"passes/FuseAddRelu.py", "passes/_p2.py", "passes/order.json",
                         "kernels/add_relu.cu", "kernels/a-b.c.cu"}) {
    EXPECT_TRUE(check_workspace_path(ok).ok()) << ok;
  }
  for (const char* bad : {"", "/etc/passwd", "passes/../x.py", "x.py", "src/a.py", "passes/a/b.py",
                          "passes/2fast.py", "passes/a-b.py", "passes/a.txt", "kernels/.cu",
                          "kernels/a.cuh", "kernels/a b.cu", "kernels/.hidden.cu"}) {
    auto st = check_workspace_path(bad);
    EXPECT_FALSE(st.ok()) << bad;
    if (!st.ok()) {
      EXPECT_FALSE(st.error().message.empty());
    }
  }
}

TEST(WorkspaceRules, LimitsFileSizeAndCount) {
  WorkspaceLimits limits;
  limits.max_files = 2;
  limits.max_file_bytes = 10;
  traj::Workspace ws = {{"passes/A.py", "x"}, {"kernels/a.cu", "y"}};
  EXPECT_EQ(check_workspace_write(ws, "passes/A.py", 10, limits), WriteCheck::ok);
  EXPECT_EQ(check_workspace_write(ws, "passes/A.py", 11, limits), WriteCheck::file_too_large);
  EXPECT_EQ(check_workspace_write(ws, "passes/B.py", 1, limits), WriteCheck::too_many_files);
}

TEST(WorkspaceRules, HashIdentifiesContentAndPaths) {
  traj::Workspace a = {{"passes/A.py", "x"}};
  traj::Workspace b = {{"passes/B.py", "x"}};
  traj::Workspace c = {{"passes/A.py", "x "}};
  EXPECT_EQ(workspace_hash(a), workspace_hash(traj::Workspace{{"passes/A.py", "x"}}));
  EXPECT_NE(workspace_hash(a), workspace_hash(b));
  EXPECT_NE(workspace_hash(a), workspace_hash(c));
  EXPECT_TRUE(has_pass(a));
  EXPECT_FALSE(has_pass({{"kernels/a.cu", ""}}));
}

}  // namespace
}  // namespace pf::agent
