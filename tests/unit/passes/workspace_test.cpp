// PassWorkspace: layout rules, limits and order.json, from memory and from disk.
#include "evaluator/passes/workspace.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace pf::passes {
namespace {

namespace fs = std::filesystem;

const char* kPass = "def pattern(x):\n    return x.relu()\n\ndef replacement(x):\n    return x\n";

std::string error_of(std::map<std::string, std::string> files, WorkspaceLimits limits = {}) {
  auto ws = PassWorkspace::from_files(std::move(files), limits);
  return ws.ok() ? "" : ws.error().message;
}

TEST(Workspace, NameOrderAndKernels) {
  auto ws = PassWorkspace::from_files(
      {{"passes/B.py", kPass}, {"passes/A.py", kPass}, {"kernels/k.cu", "// k"}});
  ASSERT_TRUE(ws.ok()) << ws.error().message;
  EXPECT_EQ(ws->pass_names(), (std::vector<std::string>{"A", "B"}));
  EXPECT_EQ(ws->kernel_files().size(), 1u);
  EXPECT_EQ(ws->kernel_files().begin()->first, "kernels/k.cu");
  EXPECT_EQ(ws->pass_source("B"), kPass);
  EXPECT_EQ(PassWorkspace::pass_path("A"), "passes/A.py");
}

TEST(Workspace, OrderJsonDecidesTheOrder) {
  auto ws = PassWorkspace::from_files(
      {{"passes/A.py", kPass}, {"passes/B.py", kPass}, {"passes/order.json", "[\"B\", \"A\"]"}});
  ASSERT_TRUE(ws.ok()) << ws.error().message;
  EXPECT_EQ(ws->pass_names(), (std::vector<std::string>{"B", "A"}));
}

TEST(Workspace, OrderJsonErrorsNameFileAndLine) {
  std::map<std::string, std::string> two = {{"passes/A.py", kPass}, {"passes/B.py", kPass}};
  auto with = [&](const std::string& order) {
    auto files = two;
    files["passes/order.json"] = order;
    return error_of(files);
  };
  EXPECT_EQ(with("[\"A\",\n \"C\"]"), "passes/order.json:2: unknown pass 'C' (passes: A, B)");
  EXPECT_EQ(with("[\"A\", \"A\", \"B\"]"), "passes/order.json:1: pass 'A' is listed twice");
  EXPECT_EQ(with("[\"A\"]"),
            "passes/order.json: pass 'B' is not listed; list every pass of passes/ once");
  EXPECT_EQ(
      with("{\"A\": 1}"),
      "passes/order.json:1: must be a JSON list of pass names such as [\"FuseA\", \"FuseB\"]");
  EXPECT_EQ(with("[\"A\",\n \"B\",\n"),
            "passes/order.json:3: not valid JSON; write a list of pass names such as "
            "[\"FuseA\", \"FuseB\"]");
  EXPECT_EQ(with("[\"A\", 3]"), "passes/order.json:1: item 1 is not a string");
}

TEST(Workspace, PathRules) {
  const std::string layout =
      "a workspace holds passes/<Name>.py, an optional passes/order.json and kernels/<file>.cu";
  auto one = [&](const std::string& path) {
    return error_of({{"passes/A.py", kPass}, {path, "x"}});
  };
  EXPECT_EQ(one("/etc/passwd"), "/etc/passwd: absolute paths are not allowed; " + layout);
  EXPECT_EQ(one("kernels/../x.cu"),
            "kernels/../x.cu: '.', '..' and empty path components are not allowed; " + layout);
  EXPECT_EQ(one("src/a.cu"), "src/a.cu: files may only live in passes/ and kernels/; " + layout);
  EXPECT_EQ(one("kernels/sub/a.cu"),
            "kernels/sub/a.cu: no subdirectories: files go directly into kernels/");
  EXPECT_EQ(one("kernels/a.cuh"),
            "kernels/a.cuh: kernels/ holds <name>.cu files only (letters, digits, '_', '-', '.')");
  EXPECT_EQ(one("passes/notes.txt"),
            "passes/notes.txt: passes/ holds <Name>.py files and order.json only");
  EXPECT_EQ(one("passes/my-pass.py"),
            "passes/my-pass.py: a pass name must be a Python identifier (letters, digits, '_')");
  EXPECT_EQ(one("kernels\\a.cu"), "kernels\\a.cu: use '/' separators and plain names; " + layout);
  EXPECT_EQ(one(""), "\"\": empty file name; " + layout);
}

TEST(Workspace, Limits) {
  WorkspaceLimits small;
  small.max_files = 2;
  small.max_file_bytes = 100;
  small.max_total_bytes = 150;
  small.max_passes = 1;
  EXPECT_EQ(error_of({{"passes/A.py", "a"}, {"kernels/a.cu", "b"}, {"kernels/b.cu", "c"}}, small),
            "the workspace has 3 files; at most 2 are allowed");
  EXPECT_EQ(error_of({{"passes/A.py", std::string(101, 'x')}}, small),
            "passes/A.py: is 101 bytes; the limit is 100");
  EXPECT_EQ(
      error_of({{"passes/A.py", std::string(80, 'x')}, {"kernels/a.cu", std::string(80, 'x')}},
               small),
      "the workspace holds 160 bytes; the limit is 150");
  EXPECT_EQ(error_of({{"passes/A.py", "a"}, {"passes/B.py", "b"}}, small),
            "the workspace has 2 passes; at most 1 are allowed");
  EXPECT_EQ(error_of({{"kernels/a.cu", "x"}}),
            "the workspace has no passes: write passes/<Name>.py with def pattern(...) and "
            "def replacement(...)");
}

class WorkspaceDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("pf_ws_test_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "passes");
    fs::create_directories(dir_ / "kernels");
    write("passes/A.py", kPass);
    write("kernels/k.cu", "// kernel");
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& rel, const std::string& text) { std::ofstream(dir_ / rel) << text; }
  fs::path dir_;
};

TEST_F(WorkspaceDir, LoadsFromDisk) {
  auto ws = PassWorkspace::load(dir_);
  ASSERT_TRUE(ws.ok()) << ws.error().message;
  EXPECT_EQ(ws->files().size(), 2u);
  EXPECT_EQ(ws->pass_source("A"), kPass);
}

TEST_F(WorkspaceDir, RefusesSymlinksAndStrayFiles) {
  fs::create_symlink("/etc/hostname", dir_ / "kernels" / "evil.cu");
  auto ws = PassWorkspace::load(dir_);
  ASSERT_FALSE(ws.ok());
  EXPECT_NE(ws.error().message.find("kernels/evil.cu: symbolic links are not allowed"),
            std::string::npos)
      << ws.error().message;
  fs::remove(dir_ / "kernels" / "evil.cu");
  write("README.md", "notes");
  ws = PassWorkspace::load(dir_);
  ASSERT_FALSE(ws.ok());
  EXPECT_NE(ws.error().message.find("README.md: files may only live in passes/ and kernels/"),
            std::string::npos)
      << ws.error().message;
}

TEST_F(WorkspaceDir, MissingDirectory) {
  auto ws = PassWorkspace::load(dir_ / "nope");
  ASSERT_FALSE(ws.ok());
  EXPECT_EQ(ws.error().code, ErrorCode::not_found);
}

}  // namespace
}  // namespace pf::passes
