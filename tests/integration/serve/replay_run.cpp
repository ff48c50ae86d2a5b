#include "tests/integration/serve/replay_run.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "common/fs.h"
#include "common/sha256.h"
#include "tests/integration/cli/run_process.h"

namespace pf::serve_test {

namespace fs = std::filesystem;

fs::path replay_run_dir() {
  static const fs::path dir = [] {
    fs::path root = fs::temp_directory_path() / ("pf_serve_test_" + std::to_string(::getpid()));
    fs::create_directories(root);
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
    fs::path root = fs::temp_directory_path() / ("pf_serve_ab_" + std::to_string(::getpid()));
    fs::create_directories(root);
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
