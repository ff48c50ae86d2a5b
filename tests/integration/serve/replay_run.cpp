#include "tests/integration/serve/replay_run.h"

#include <gtest/gtest.h>

#include <fstream>
#include <utility>

#include "common/fs.h"
#include "common/sha256.h"
#include "tests/integration/cli/run_process.h"
#include "tests/support/temp_dir.h"

namespace pf::serve_test {

namespace fs = std::filesystem;

namespace {

// A directory removed when the test process exits (static destruction): each
// test process makes its own runs, and /tmp should not collect them.
struct RemovedAtExit {
  fs::path path;
  explicit RemovedAtExit(fs::path p) : path(std::move(p)) {}
  RemovedAtExit(const RemovedAtExit&) = delete;
  RemovedAtExit& operator=(const RemovedAtExit&) = delete;
  ~RemovedAtExit() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

}  // namespace

fs::path replay_run_dir() {
  static const fs::path dir = [] {
    static const RemovedAtExit temp(test::fresh_temp_dir("pf_serve_test"));
    const fs::path& root = temp.path;
    auto r = testing_util::run_passforge({"run", "--config", "configs/quickstart.toml", "--set",
                                          "run.output_dir=" + (root / "runs").string(), "--set",
                                          "run.run_id=replay"});
    if (r.exit_code != 0) {
      ADD_FAILURE() << "passforge run (quickstart) exited " << r.exit_code << "\n"
                    << r.out << r.err;
      return fs::path();
    }
    return root / "runs" / "replay";
  }();
  return dir;
}

fs::path ab_run_dir() {
  static const fs::path dir = [] {
    static const RemovedAtExit temp(test::fresh_temp_dir("pf_serve_ab"));
    const fs::path& root = temp.path;
    fs::path spec = root / "ab.toml";
    std::ofstream(spec) << "base_config = \"" << fs::absolute("configs/quickstart.toml").string()
                        << "\"\nid = \"ab\"\nsamples_per_task = 1\n[set]\n\"run.output_dir\" = \""
                        << (root / "runs").string() << "\"\n[[arms]]\nname = \"default\"\n"
                        << "set = { \"prompts.variant\" = \"default\" }\n[[arms]]\n"
                        << "name = \"concise\"\nset = { \"prompts.variant\" = \"concise\" }\n";
    auto r = testing_util::run_passforge({"ab", "--config", spec.string()});
    if (r.exit_code != 0) {
      ADD_FAILURE() << "passforge ab exited " << r.exit_code << "\n" << r.out << r.err;
      return fs::path();
    }
    return root / "runs" / "ab";
  }();
  return dir;
}

std::string file_digest(const fs::path& path) {
  auto bytes = read_file(path);
  return bytes.ok() ? sha256_hex(*bytes) : std::string();
}

}  // namespace pf::serve_test
