#include "sandbox/isolation/isolation.h"

#include <gtest/gtest.h>
#include <sys/prctl.h>

#include "sandbox/worker/handler_table.h"
#include "sandbox/worker/worker_config.h"

namespace pf::sandbox {
namespace {

TEST(IsolationReport, JsonRoundTripAndGaps) {
  IsolationReport report;
  report.add(kSeccomp, MechanismState::applied, "deny list");
  report.add(kLandlockFs, MechanismState::unavailable, "kernel without Landlock");
  report.add(kRlimits, MechanismState::disabled, "disabled by option");
  auto back = IsolationReport::from_json(report.to_json());
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_EQ(back->mechanisms.size(), 3u);
  EXPECT_TRUE(back->applied(kSeccomp));
  EXPECT_FALSE(back->applied(kLandlockFs));
  EXPECT_EQ(back->find(kLandlockFs)->detail, "kernel without Landlock");
  EXPECT_FALSE(back->complete());
  auto gaps = back->gaps();
  ASSERT_EQ(gaps.size(), 2u);
  EXPECT_EQ(gaps[0], "landlock_fs: unavailable: kernel without Landlock");
  EXPECT_EQ(gaps[1], "rlimits: disabled: disabled by option");
}

TEST(IsolationReport, RejectsMalformedJson) {
  EXPECT_FALSE(IsolationReport::from_json(nlohmann::json::object()).ok());
  EXPECT_FALSE(IsolationReport::from_json(
                   nlohmann::json::parse(R"([{"name":"x","state":"maybe","detail":""}])"))
                   .ok());
  EXPECT_FALSE(IsolationReport::from_json(nlohmann::json::parse(R"([{"name":"x"}])")).ok());
}

TEST(Isolation, ProbeReportsEveryMechanismWithoutApplyingAny) {
  IsolationOptions options;
  auto report = probe_isolation(options);
  for (const char* name : {kNoNewPrivs, kUserNamespace, kNetworkNamespace, kLandlockFs,
                           kLandlockNet, kLandlockScope, kSeccomp, kRlimits}) {
    const auto* m = report.find(name);
    ASSERT_NE(m, nullptr) << name;
    EXPECT_NE(m->state, MechanismState::applied) << name << " must not be applied by a probe";
    EXPECT_NE(m->state, MechanismState::disabled) << name;
    EXPECT_FALSE(m->detail.empty()) << name;
  }
  // The test process itself is untouched.
  EXPECT_EQ(::prctl(PR_GET_SECCOMP, 0, 0, 0, 0), 0);
  EXPECT_EQ(::prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0), 0);
}

TEST(Isolation, DisabledMechanismsAreReportedAsDisabled) {
  IsolationOptions options;
  options.seccomp = false;
  options.landlock = false;
  auto report = probe_isolation(options);
  EXPECT_EQ(report.find(kSeccomp)->state, MechanismState::disabled);
  EXPECT_EQ(report.find(kLandlockNet)->state, MechanismState::disabled);
  options.enabled = false;
  auto none = apply_isolation(options);  // applies nothing when disabled
  ASSERT_EQ(none.mechanisms.size(), 8u);
  for (const auto& m : none.mechanisms) EXPECT_EQ(m.state, MechanismState::disabled) << m.name;
  EXPECT_EQ(::prctl(PR_GET_SECCOMP, 0, 0, 0, 0), 0);
}

TEST(WorkerConfig, ParsesFlags) {
  const char* argv[] = {"w",
                        "--ipc-fd",
                        "5",
                        "--scratch",
                        "/tmp/s",
                        "--cache",
                        "/tmp/c",
                        "--allow-read",
                        "/opt/a",
                        "--allow-read",
                        "/opt/b",
                        "--no-seccomp",
                        "--no-user-namespace",
                        "--allow-new-privs"};
  auto config = parse_worker_args(static_cast<int>(std::size(argv)), argv);
  ASSERT_TRUE(config.ok()) << config.error().message;
  EXPECT_EQ(config->ipc_fd, 5);
  EXPECT_EQ(config->isolation.scratch_dir, "/tmp/s");
  EXPECT_EQ(config->isolation.cache_dir, "/tmp/c");
  ASSERT_EQ(config->isolation.extra_read_paths.size(), 2u);
  EXPECT_FALSE(config->isolation.seccomp);
  EXPECT_FALSE(config->isolation.user_namespace);
  EXPECT_FALSE(config->isolation.no_new_privs);
  EXPECT_TRUE(config->isolation.landlock);
  EXPECT_TRUE(config->isolation.enabled);
}

TEST(WorkerConfig, RejectsBadArguments) {
  const char* unknown[] = {"w", "--frobnicate"};
  auto a = parse_worker_args(2, unknown);
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.error().message.find("--frobnicate"), std::string::npos);
  const char* bad_fd[] = {"w", "--ipc-fd", "three"};
  EXPECT_FALSE(parse_worker_args(3, bad_fd).ok());
  const char* missing[] = {"w", "--scratch"};
  auto c = parse_worker_args(2, missing);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("needs a value"), std::string::npos);
}

TEST(HandlerTable, FindsRegisteredTypesSorted) {
  HandlerTable table;
  table.add("run",
            [](const nlohmann::json&) -> Result<nlohmann::json> { return nlohmann::json(); });
  table.add("compile", [](const nlohmann::json& b) -> Result<nlohmann::json> { return b; });
  EXPECT_EQ(table.types(), (std::vector<std::string>{"compile", "run"}));
  ASSERT_NE(table.find("compile"), nullptr);
  EXPECT_EQ(table.find("nope"), nullptr);
  auto echoed = (*table.find("compile"))(nlohmann::json{{"k", 1}});
  ASSERT_TRUE(echoed.ok());
  EXPECT_EQ((*echoed)["k"], 1);
}

}  // namespace
}  // namespace pf::sandbox
