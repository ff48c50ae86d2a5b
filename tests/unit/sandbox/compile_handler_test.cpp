// The worker's `compile` request, in process and through a real pool of
// sandboxed passforge-worker processes (NVRTC runs under the isolation).
#include "worker/compile_handler.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "sandbox/nvrtc/nvrtc_library.h"
#include "sandbox/pool/worker_pool.h"
#include "tests/support/paths.h"

namespace pf::worker {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

const char* kScale = R"(extern "C" __global__ void scale(const float* x, float* y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}
)";

class CompileHandlerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto lib = nvrtc::NvrtcLibrary::load();
    if (!lib.ok()) GTEST_SKIP() << lib.error().message;
    dir_ = fs::temp_directory_path() /
           ("pf_compile_handler_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  fs::path dir_;
};

TEST_F(CompileHandlerTest, InProcessReportsKernelsAndCache) {
  CompileServiceOptions opt;
  opt.cache_dir = dir_ / "cache";
  CompileService service(opt);
  json body = {{"files", {{"kernels/scale.cu", kScale}}}, {"arch", "sm_80"}, {"lineinfo", false}};
  auto first = service.handle(body);
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_EQ((*first)["status"], "ok") << first->dump(2);
  EXPECT_EQ((*first)["arch"], "sm_80");
  EXPECT_EQ((*first)["param_source"], "cubin");
  ASSERT_EQ((*first)["kernels"].size(), 1u);
  const auto& k = (*first)["kernels"][0];
  EXPECT_EQ(k["name"], "scale");
  EXPECT_EQ(k["file"], "kernels/scale.cu");
  ASSERT_EQ(k["params"].size(), 4u);
  EXPECT_EQ(k["params"][2]["kind"], "floating");
  EXPECT_EQ(k["params"][2]["name"], "a");
  EXPECT_EQ(k["params"][3]["offset"], 20);
  EXPECT_EQ((*first)["cache"]["misses"], 1);
  auto second = service.handle(body);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ((*second)["cache"]["hits"], 1);
  EXPECT_EQ((*second)["cache"]["totals"]["hits"], 1);

  auto described = service.describe();
  EXPECT_EQ(described["nvrtc"]["available"], true);
  EXPECT_EQ(described["cache"]["entries"], 1);
}

TEST_F(CompileHandlerTest, MalformedRequestsAreErrors) {
  CompileService service({});
  EXPECT_FALSE(service.handle(json::array()).ok());
  EXPECT_FALSE(service.handle(json{{"files", "x"}}).ok());
  EXPECT_FALSE(service.handle(json{{"files", {{"kernels/a.cu", 3}}}}).ok());
  EXPECT_FALSE(service.handle(json{{"files", {{"kernels/a.cu", kScale}}}, {"arch", 90}}).ok());
  auto bad_arch = service.handle(json{{"files", {{"kernels/a.cu", kScale}}}, {"arch", "sm_1"}});
  ASSERT_FALSE(bad_arch.ok());
  EXPECT_NE(bad_arch.error().message.find("sm_1"), std::string::npos);
}

TEST(CompileHandlerNoNvrtc, MissingNvrtcIsAnErrorReplyNotACrash) {
  ::setenv("PASSFORGE_NVRTC", "/nonexistent/libnvrtc.so.13", 1);
  CompileService service({});
  auto preload = service.preload();
  auto reply = service.handle(json{{"files", {{"kernels/scale.cu", kScale}}}});
  auto described = service.describe();
  ::unsetenv("PASSFORGE_NVRTC");
  ASSERT_FALSE(preload.ok());
  ASSERT_FALSE(reply.ok());
  EXPECT_EQ(reply.error().code, ErrorCode::unsupported);
  EXPECT_NE(reply.error().message.find("/nonexistent/libnvrtc.so.13"), std::string::npos)
      << reply.error().message;
  EXPECT_EQ(described["nvrtc"]["available"], false);
}

TEST_F(CompileHandlerTest, ThroughTheSandboxedWorkerPool) {
  sandbox::WorkerPoolOptions opt;
  opt.worker_path = pf::test::worker_path();
  opt.cpu_workers = 1;
  opt.cache_dir = dir_ / "cache";
  auto pool = sandbox::WorkerPool::start(opt);
  ASSERT_TRUE(pool.ok()) << pool.error().message;
  json body = {{"files", {{"kernels/scale.cu", kScale}}}, {"arch", nullptr}};
  auto r = (*pool)->call("compile", body, 60s);
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.body["status"], "ok") << r.body.dump(2);
  EXPECT_EQ(r.body["arch"], "sm_90");  // compile-only worker: the default
  EXPECT_EQ(r.body["cache"]["misses"], 1);
  auto again = (*pool)->call("compile", body, 60s);
  ASSERT_TRUE(again.ok()) << again.describe();
  EXPECT_EQ(again.body["cache"]["hits"], 1) << again.body.dump(2);

  auto rejected = (*pool)->call(
      "compile", json{{"files", {{"kernels/x.cu", "#include \"/etc/passwd\"\n"}}}}, 60s);
  ASSERT_TRUE(rejected.ok()) << rejected.describe();
  EXPECT_EQ(rejected.body["status"], "rejected");
  EXPECT_NE(rejected.body["message"].get<std::string>().find("kernels/x.cu:1"), std::string::npos);

  auto broken = (*pool)->call(
      "compile",
      json{{"files", {{"kernels/x.cu", "extern \"C\" __global__ void k() { oops; }\n"}}}}, 60s);
  ASSERT_TRUE(broken.ok()) << broken.describe();
  EXPECT_EQ(broken.body["status"], "compile_error");
  EXPECT_NE(broken.body["message"].get<std::string>().find(
                "kernels/x.cu(1): error: identifier \"oops\" is undefined"),
            std::string::npos)
      << broken.body.dump(2);
}

}  // namespace
}  // namespace pf::worker
