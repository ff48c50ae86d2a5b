// The full-mode `evaluate` request's validation (in process), the
// EvaluationService through real sandboxed workers (compile-only here; `full`
// falls back where there is no GPU), and `passforge eval` as a subprocess on
// the reference passes (--compile-only, --json, table).
#include <gtest/gtest.h>

#include <filesystem>

#include "evaluator/passes/workspace.h"
#include "evaluator/protocol/evaluation_service.h"
#include "evaluator/tasks/task.h"
#include "sandbox/pool/worker_pool.h"
#include "tests/integration/cli/run_process.h"
#include "tests/support/gpu.h"
#include "tests/support/paths.h"
#include "tests/unit/passes/pass_test_util.h"
#include "worker/pass_handler.h"

namespace pf::protocol {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const char* kRope = "neg-cat-mul-add-6a5c9e";

// An `evaluate` body of this protocol version with `fields`.
json versioned(json fields) {
  fields[field::kProtocolVersion] = kEvalProtocolVersion;
  return fields;
}

TEST(EvaluateRequest, RefusesAnotherProtocolVersion) {
  worker::CompileService service({});
  json body = versioned({{"task", passes::test::relu_task_json()},
                         {"files", json::object()},
                         {"mode", "compile_only"}});
  body.erase(field::kProtocolVersion);
  auto unversioned = worker::handle_evaluate(body, service);
  ASSERT_FALSE(unversioned.ok());
  EXPECT_NE(unversioned.error().message.find("no \"protocol_version\""), std::string::npos)
      << unversioned.error().message;
  body[field::kProtocolVersion] = kEvalProtocolVersion + 1;
  auto newer = worker::handle_evaluate(body, service);
  ASSERT_FALSE(newer.ok());
  EXPECT_NE(newer.error().message.find("different builds"), std::string::npos)
      << newer.error().message;
}

TEST(FullRequest, ValidatesVariantsAndOptions) {
  worker::CompileService service({});
  json task = passes::test::relu_task_json();
  auto unknown = worker::handle_evaluate(
      versioned({{"task", task}, {"files", json::object()}, {"mode", "full"}, {"variants", {"w"}}}),
      service);
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().message, "evaluate: the task has no variant 'w'");
  auto none = worker::handle_evaluate(versioned({{"task", task},
                                                 {"files", json::object()},
                                                 {"mode", "full"},
                                                 {"variants", json::array()}}),
                                      service);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().message, "evaluate: \"variants\" names no variant");
  auto bad = worker::handle_evaluate(versioned({{"task", task},
                                                {"files", json::object()},
                                                {"mode", "full"},
                                                {"options", {{"trials", 0}}}}),
                                     service);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "evaluate: options.trials must be an integer in [1, 1000000]");
}

TEST(FullRequest, NeedsAGpu) {
  if (pf::test::gpu_unavailable_reason().empty()) GTEST_SKIP() << "a GPU is present";
  worker::CompileService service({});
  auto full = worker::handle_evaluate(
      versioned(
          {{"task", passes::test::relu_task_json()}, {"files", json::object()}, {"mode", "full"}}),
      service);
  ASSERT_FALSE(full.ok());
  EXPECT_EQ(full.error().code, ErrorCode::unsupported);
  // The reason (no driver here) is part of the message; it varies by machine.
  EXPECT_EQ(full.error().message.rfind(
                "evaluate: mode \"full\" needs a GPU and this worker has none (", 0),
            0u)
      << full.error().message;
  EXPECT_NE(full.error().message.find("); use \"compile_only\""), std::string::npos);
}

TEST(EvaluationService, CompileOnlyThroughSandboxedWorkers) {
  auto task = passes::test::corpus_task(kRope, false);
  ASSERT_TRUE(task.ok()) << task.error().message;
  auto ws = passes::PassWorkspace::load(pf::test::source_dir() / "examples" / "passes" / kRope);
  ASSERT_TRUE(ws.ok()) << ws.error().message;
  ServiceOptions so;
  so.plan.mode = EvalMode::full;  // what the run asks; CPU workers make it fall back
  so.pool.worker_path = pf::test::worker_path();
  so.pool.cpu_workers = 1;
  so.timeout = std::chrono::seconds(120);
  auto service = EvaluationService::start(std::move(so));
  ASSERT_TRUE(service.ok()) << service.error().message;
  auto r = (*service)->evaluate(*task, ws->files(), EvalMode::compile_only);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->requests, 1);
  EXPECT_EQ(r->mode, EvalMode::compile_only);
  EXPECT_EQ(r->result["mode"], "compile_only");
  EXPECT_TRUE(r->result["ok"].get<bool>()) << r->result["message"];
  EXPECT_EQ(r->result["variants"].size(), task->variants.size());

  if (!pf::test::gpu_unavailable_reason().empty()) {
    // No GPU in the worker: `full` is refused as unsupported and the service
    // falls back to compile-only for the rest of its life.
    auto full = (*service)->evaluate(*task, ws->files(), EvalMode::full);
    ASSERT_TRUE(full.ok()) << full.error().message;
    EXPECT_EQ(full->mode, EvalMode::compile_only);
    EXPECT_TRUE((*service)->fell_back());
    EXPECT_EQ((*service)->mode(), EvalMode::compile_only);
  }
}

TEST(EvalCli, CompileOnlyTableAndJson) {
  std::string pass = (pf::test::source_dir() / "examples" / "passes" / kRope).string();
  auto table =
      testing_util::run_passforge({"eval", "--task", kRope, "--pass", pass, "--compile-only"});
  EXPECT_EQ(table.exit_code, 0) << table.err << table.out;
  EXPECT_NE(table.err.find("COMPILE-ONLY evaluation (--compile-only)"), std::string::npos)
      << table.err;
  EXPECT_NE(table.out.find("variant"), std::string::npos);
  EXPECT_NE(table.out.find(" ok "), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("COMPILE-ONLY: nothing ran on a GPU"), std::string::npos);

  auto js = testing_util::run_passforge(
      {"eval", "--task", kRope, "--pass", pass, "--compile-only", "--json"});
  ASSERT_EQ(js.exit_code, 0) << js.err;
  json r = json::parse(js.out);
  EXPECT_EQ(r["mode"], "compile_only");
  EXPECT_TRUE(r["ok"].get<bool>());
  EXPECT_TRUE(r["as"].is_null());

  // A pass for another task matches nothing here: pass_miss, exit code 1.
  std::string other =
      (pf::test::source_dir() / "examples" / "passes" / "pow-mean-add-rsqrt-mul-ae9e8f").string();
  auto miss =
      testing_util::run_passforge({"eval", "--task", kRope, "--pass", other, "--compile-only"});
  EXPECT_EQ(miss.exit_code, 1) << miss.err;
  EXPECT_NE(miss.out.find("pass_miss"), std::string::npos) << miss.out;

  auto svg = testing_util::run_passforge(
      {"eval", "--task", kRope, "--pass", pass, "--compile-only", "--svg", "/tmp/pf_no.svg"});
  EXPECT_EQ(svg.exit_code, 1);
  EXPECT_NE(svg.err.find("no ES_t curve"), std::string::npos) << svg.err;

  auto bad = testing_util::run_passforge({"eval", "--task", "no-such-task", "--pass", pass});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
}

}  // namespace
}  // namespace pf::protocol
