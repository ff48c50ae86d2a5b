// `passforge serve` as a user runs it: refuses unsafe or empty set-ups with
// exit code 2, prints its URL first, serves until SIGINT.
#include <gtest/gtest.h>
#include <httplib.h>

#include "tests/integration/cli/run_process.h"
#include "tests/integration/serve/replay_run.h"

namespace pf::serve {
namespace {

TEST(ServeCli, RefusesANonLoopbackAddressWithoutTokenAndMissingStores) {
  auto dir = serve_test::replay_run_dir().string();
  auto open = testing_util::run_passforge({"serve", dir, "--host", "0.0.0.0", "--port", "0"});
  EXPECT_EQ(open.exit_code, 2) << open.err;
  EXPECT_NE(open.err.find("--token"), std::string::npos) << open.err;
  auto missing = testing_util::run_passforge({"serve", "/nonexistent/run", "--port", "0"});
  EXPECT_EQ(missing.exit_code, 2) << missing.err;
  EXPECT_NE(missing.err.find("no run store"), std::string::npos) << missing.err;
}

TEST(ServeCli, PrintsTheUrlAndServesTheRunsOfADirectory) {
  auto runs_root = serve_test::replay_run_dir().parent_path();
  // As the issue says it: `passforge serve runs/`.
  testing_util::BackgroundPassforge serve({"serve", runs_root.string(), "--port", "0"});
  std::string line = serve.read_line();
  ASSERT_EQ(line.rfind("passforge serve: http://127.0.0.1:", 0), 0u) << line;
  int port = std::stoi(line.substr(line.rfind(':') + 1));
  httplib::Client c("127.0.0.1", port);
  auto res = c.Get("/api/runs");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_NE(res->body.find("\"name\":\"replay\""), std::string::npos) << res->body;
}

}  // namespace
}  // namespace pf::serve
