// plan_evaluation, which `passforge run`, `passforge eval` and the
// experiments all plan through: the mode and why, and a GPU index this
// machine does not have refused before any worker starts. Registered as a
// GPU suite: the cases that need a device skip here and run in
// tests/gpu/run_device.sh.
#include "evaluator/protocol/evaluation_plan.h"

#include <gtest/gtest.h>

#include "config/config.h"
#include "tests/support/gpu.h"

namespace pf::protocol {
namespace {

TEST(EvaluationPlan, CompileOnlyWhenConfiguredSo) {
  EvaluatorConfig ev;
  ev.compile_only = CompileOnly::yes;
  auto plan = plan_evaluation(ev);
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  EXPECT_EQ(plan->mode, EvalMode::compile_only);
  EXPECT_TRUE(plan->devices.empty());
  EXPECT_EQ(plan->reason, "evaluator.compile_only = true");
}

TEST(EvaluationPlan, WithoutAGpuAutoIsCompileOnlyAndNoIsAnError) {
  if (pf::test::gpu_unavailable_reason().empty()) GTEST_SKIP() << "a GPU is present";
  EvaluatorConfig ev;
  ev.compile_only = CompileOnly::auto_detect;
  auto plan = plan_evaluation(ev);
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  EXPECT_EQ(plan->mode, EvalMode::compile_only);
  EXPECT_EQ(plan->reason.rfind("no GPU here (", 0), 0u) << plan->reason;
  ev.compile_only = CompileOnly::no;
  auto refused = plan_evaluation(ev);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::unsupported);
}

TEST(EvaluationPlan, EveryListedGpuMustExist) {
  if (std::string why = pf::test::gpu_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  EvaluatorConfig ev;
  auto all = plan_evaluation(ev);
  ASSERT_TRUE(all.ok()) << all.error().message;
  EXPECT_EQ(all->mode, EvalMode::full);
  ASSERT_FALSE(all->devices.empty());
  EXPECT_EQ(first_gpu_only(*all).devices, std::vector<std::string>{"0"});
  ev.gpus.all = false;
  ev.gpus.indices = {0, 4096};
  auto missing = plan_evaluation(ev);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::invalid_argument);
  EXPECT_NE(missing.error().message.find("evaluator.gpus lists GPU 4096, but this machine has"),
            std::string::npos)
      << missing.error().message;
}

}  // namespace
}  // namespace pf::protocol
