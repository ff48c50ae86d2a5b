// The worker's `evaluate` request: request validation in process, and a
// reference pass evaluated compile-only through a real WorkerPool of
// sandboxed passforge-worker processes.
#include <gtest/gtest.h>

#include <filesystem>

#include "evaluator/passes/workspace.h"
#include "evaluator/protocol/eval_messages.h"
#include "evaluator/tasks/task.h"
#include "sandbox/pool/worker_pool.h"
#include "tests/support/paths.h"
#include "tests/support/temp_dir.h"
#include "tests/unit/passes/pass_test_util.h"
#include "worker/pass_handler.h"

namespace pf::worker {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;
namespace fs = std::filesystem;

constexpr const char* kRope = "neg-cat-mul-add-6a5c9e";

// An `evaluate` body of this protocol version with `fields`.
json versioned(json fields) {
  fields[protocol::field::kProtocolVersion] = protocol::kEvalProtocolVersion;
  return fields;
}

struct Fixture {
  json task;
  json files = json::object();
};

Result<Fixture> rope_fixture() {
  PF_ASSIGN(Task task, passes::test::corpus_task(kRope, false));
  PF_ASSIGN(auto ws,
            passes::PassWorkspace::load(pf::test::source_dir() / "examples" / "passes" / kRope));
  Fixture f;
  f.task = task_to_json(task);
  for (const auto& [path, text] : ws.files()) f.files[path] = text;
  return f;
}

TEST(EvaluateRequest, MalformedRequestsAreErrors) {
  CompileService service({});
  EXPECT_FALSE(handle_evaluate(json::array(), service).ok());
  EXPECT_FALSE(handle_evaluate(versioned({{"files", json::object()}}), service).ok());
  json empty = {{"format", "passforge-task/1"}, {"id", "t"}, {"variants", json::array()}};
  auto no_variants =
      handle_evaluate(versioned({{"task", empty}, {"files", json::object()}}), service);
  ASSERT_FALSE(no_variants.ok());
  EXPECT_EQ(no_variants.error().message,
            "evaluate: evaluate request: variants: expected a non-empty list");
  json task = passes::test::relu_task_json();
  auto no_files = handle_evaluate(versioned({{"task", task}}), service);
  ASSERT_FALSE(no_files.ok());
  auto fast = handle_evaluate(
      versioned({{"task", task}, {"files", json::object()}, {"mode", "fast"}}), service);
  ASSERT_FALSE(fast.ok());
  EXPECT_EQ(fast.error().message,
            "evaluate: \"mode\" must be \"compile_only\" or \"full\", not 'fast'");
  auto bad_option = handle_evaluate(
      versioned(
          {{"task", task}, {"files", json::object()}, {"options", {{"max_match_steps", -1}}}}),
      service);
  ASSERT_FALSE(bad_option.ok());
  EXPECT_EQ(bad_option.error().message,
            "evaluate: options.max_match_steps must be a positive integer");
}

TEST(EvaluateRequest, AWorkspaceWithBadFilesIsACompileFailure) {
  CompileService service({});
  json task = passes::test::relu_task_json();
  auto r = handle_evaluate(versioned({{"task", task}, {"files", {{"../x.py", "x"}}}}), service);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ((*r)["mode"], "compile_only");
  EXPECT_EQ((*r)["failure_class"], "compile_fail");
  EXPECT_EQ((*r)["message"],
            "../x.py: '.', '..' and empty path components are not allowed; a workspace holds "
            "passes/<Name>.py, an optional passes/order.json and kernels/<file>.cu");
}

TEST(EvaluateThroughWorkers, ReferencePassCompileOnly) {
  auto fixture = rope_fixture();
  ASSERT_TRUE(fixture.ok()) << fixture.error().message;
  fs::path dir = pf::test::fresh_temp_dir("pf_eval_worker");
  sandbox::WorkerPoolOptions opt;
  opt.worker_path = pf::test::worker_path();
  opt.cpu_workers = 1;
  opt.cache_dir = dir / "cache";
  auto pool = sandbox::WorkerPool::start(opt);
  ASSERT_TRUE(pool.ok()) << pool.error().message;
  json body =
      versioned({{"task", fixture->task}, {"files", fixture->files}, {"mode", "compile_only"}});
  auto reply = (*pool)->call("evaluate", body, 120s);
  ASSERT_TRUE(reply.ok()) << reply.describe();
  const json& r = reply.body;
  if (r["compile"].is_object() && r["compile"]["status"] != "ok" &&
      r["message"].get<std::string>().find("NVRTC") != std::string::npos) {
    GTEST_SKIP() << "NVRTC unavailable in the worker: " << r["message"];
  }
  EXPECT_EQ(r["mode"], "compile_only");
  EXPECT_TRUE(r["failure_class"].is_null()) << r["message"];
  EXPECT_EQ(r["ok"], true) << r.dump(2);
  EXPECT_EQ(r["variants"].size(), fixture->task["variants"].size());
  for (const auto& v : r["variants"]) {
    EXPECT_TRUE(v["failure_class"].is_null()) << v["name"] << ": " << v["message"];
    EXPECT_EQ(v["match_count"], 1) << v["name"];
  }
  // A broken kernel: compile_fail with NVRTC's message, through the same worker.
  json broken = body;
  broken["files"]["kernels/rope.cu"] = "extern \"C\" __global__ void rope_f32() { oops; }\n";
  auto failed = (*pool)->call("evaluate", broken, 120s);
  ASSERT_TRUE(failed.ok()) << failed.describe();
  EXPECT_EQ(failed.body["failure_class"], "compile_fail");
  EXPECT_NE(failed.body["message"].get<std::string>().find("kernels/rope.cu(1): error"),
            std::string::npos)
      << failed.body["message"];
  pool->reset();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace pf::worker
