// The hostile kernel corpus: every tests/hostile/kernels/*.cu names an attack,
// the defence and the expected classification in its header. Compile-side
// cases run everywhere (CI included) through a pool of sandboxed
// passforge-worker processes; run-side cases need a GPU and run through a
// pool of pf_kernel_test_worker processes (skipped with the reason without
// one). After every case a normal kernel must still compile (and run, on a
// GPU) on the same pool: the pool recovered.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "common/strings.h"
#include "sandbox/pool/worker_pool.h"
#include "tests/support/gpu.h"
#include "tests/support/paths.h"

namespace pf::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using sandbox::ReplyStatus;
using namespace std::chrono_literals;

fs::path case_dir() {
  return source_dir() / "tests/hostile/kernels";
}

struct HostileCase {
  std::string id;
  std::map<std::string, std::string> header;  // "what", "expect", ...
  std::string source;                         // as compiled (repeat_body applied)

  std::string get(const std::string& key, const std::string& fallback = "") const {
    auto it = header.find(key);
    return it == header.end() ? fallback : it->second;
  }
};

// Test names and failure output show the case id, not its bytes.
void PrintTo(const HostileCase& c, std::ostream* os) {
  *os << c.id;
}

HostileCase load_case(const fs::path& path) {
  HostileCase c;
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  auto lines = split(text, '\n');
  if (!lines.empty() && lines.back().empty()) lines.pop_back();  // the final newline
  std::string header_text, body;
  bool in_header = true;
  for (const auto& line : lines) {
    if (in_header && starts_with(line, "// ") && line.find(": ") != std::string::npos) {
      auto colon = line.find(": ");
      c.header[line.substr(3, colon - 3)] = line.substr(colon + 2);
      header_text += line + "\n";
      continue;
    }
    in_header = false;
    body += line + "\n";
  }
  c.id = c.get("hostile", path.stem().string());
  // The header stays in the compiled source, so diagnostics keep the file's line numbers.
  c.source = header_text;
  for (int i = 0, n = std::stoi(c.get("repeat_body", "1")); i < n; ++i) c.source += body;
  return c;
}

std::vector<HostileCase> load_cases() {
  std::vector<HostileCase> cases;
  std::error_code ec;
  for (fs::directory_iterator it(case_dir(), ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == ".cu") cases.push_back(load_case(it->path()));
  }
  std::sort(cases.begin(), cases.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return cases;
}

const char* kControl =
    R"(extern "C" __global__ void control(const float* x, float* y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + 1.f;
}
)";

// What actually happened, in the corpus's vocabulary.
struct Observed {
  std::string cls;
  std::string message;
  json flags = json::array();
};

Observed classify_compile(const sandbox::WorkerReply& r) {
  if (r.status == ReplyStatus::timeout) return {"compile_timeout", r.describe()};
  if (!r.ok()) return {"worker_" + std::string(sandbox::reply_status_name(r.status)), r.describe()};
  std::string status = r.body.value("status", "");
  Observed o{status == "timeout" ? "compile_timeout" : status, r.body.value("message", "")};
  o.flags = r.body.value("flags", json::array());
  return o;
}

Observed classify_run(const sandbox::WorkerReply& r) {
  if (r.status == ReplyStatus::timeout) return {"timeout", r.describe()};
  if (r.status == ReplyStatus::ok) {
    const auto& guards = r.body["guards"];
    if (!guards.empty()) return {"integrity", guards.dump()};
    return {"ok", ""};
  }
  if (r.status == ReplyStatus::error) {
    const std::string& m = r.error.message;
    if (!r.poisoned.empty()) return {"runtime_fail", m + " [poisoned: " + r.poisoned + "]"};
    if (starts_with(m, "rejected") || starts_with(m, "compile_error") ||
        starts_with(m, "timeout")) {
      return {"compile_" + m.substr(0, m.find(':')), m};
    }
    if (m.find("launch of '") != std::string::npos) return {"launch_rejected", m};
    return {"launch_error", m};
  }
  return {"runtime_fail", r.describe()};  // crashed: the process died under the fault
}

bool expected(const HostileCase& c, const std::string& cls) {
  for (const auto& alt : split(c.get("expect"), '|')) {
    if (trim(alt) == cls) return true;
  }
  return false;
}

json run_body(const HostileCase& c, const std::string& file) {
  json body = {{"files", {{file, c.source}}}, {"kernel", c.get("kernel", "k")}};
  for (const auto& part : split(c.get("launch"), ' ')) {
    auto eq = part.find('=');
    if (eq == std::string::npos) continue;
    std::string key = part.substr(0, eq), value = part.substr(eq + 1);
    if (key == "smem") {
      body["smem"] = std::stoll(value);
    } else {
      json d = json::array();
      for (const auto& v : split(value, ',')) d.push_back(std::stoll(v));
      body[key] = d;
    }
  }
  json buffers = json::object();
  for (const auto& b : split(c.get("buffers"), ',')) {
    auto eq = b.find('=');
    if (eq != std::string::npos)
      buffers[std::string(trim(b.substr(0, eq)))] = std::stoll(b.substr(eq + 1));
  }
  body["buffers"] = buffers;
  json args = json::array();
  for (const auto& a : split(c.get("args"), ',')) args.push_back(std::string(trim(a)));
  body["args"] = args;
  return body;
}

class HostileKernels : public ::testing::TestWithParam<HostileCase> {
 protected:
  static void SetUpTestSuite() {
    cache_dir_ = fs::temp_directory_path() / ("pf_hostile_kernels_" + std::to_string(::getpid()));
    sandbox::WorkerPoolOptions opt;
    opt.worker_path = binary_dir() / "passforge-worker";
    opt.cpu_workers = 1;
    opt.cache_dir = cache_dir_;
    auto pool = sandbox::WorkerPool::start(opt);
    if (pool.ok()) {
      compile_pool_ = std::move(*pool);
    } else {
      pool_error_ = pool.error().message;
    }
  }
  static void TearDownTestSuite() {
    compile_pool_.reset();
    run_pool_.reset();
    std::error_code ec;
    fs::remove_all(cache_dir_, ec);
  }
  static sandbox::WorkerPool* run_pool() {
    if (!run_pool_ && run_pool_error_.empty()) {
      sandbox::WorkerPoolOptions opt;
      opt.worker_path = binary_dir() / "tests/hostile/kernels/pf_kernel_test_worker";
      opt.gpu_devices = {"0"};
      opt.cache_dir = cache_dir_;
      auto pool = sandbox::WorkerPool::start(opt);
      if (pool.ok()) {
        run_pool_ = std::move(*pool);
      } else {
        run_pool_error_ = pool.error().message;
      }
    }
    return run_pool_.get();
  }

  static inline std::unique_ptr<sandbox::WorkerPool> compile_pool_;
  static inline std::unique_ptr<sandbox::WorkerPool> run_pool_;
  static inline std::string pool_error_, run_pool_error_;
  static inline fs::path cache_dir_;
};

TEST_P(HostileKernels, IsContainedAndClassified) {
  const HostileCase& c = GetParam();
  ASSERT_TRUE(compile_pool_) << "worker pool: " << pool_error_;
  for (const char* key : {"what", "how", "defence", "side", "expect"}) {
    ASSERT_FALSE(c.get(key).empty()) << c.id << ": header line '// " << key << ": ...' missing";
  }
  const std::string file = "kernels/" + c.id + ".cu";
  const auto deadline = std::chrono::milliseconds(std::stoll(c.get("deadline_ms", "60000")));
  Observed seen;
  if (c.get("side") == "compile") {
    if (c.get("requires") == "landlock" &&
        !compile_pool_->isolation_report().applied(sandbox::kLandlockFs)) {
      GTEST_SKIP() << c.id << " relies on Landlock, which this machine's workers could not apply";
    }
    auto reply = compile_pool_->call("compile", json{{"files", {{file, c.source}}}}, deadline);
    seen = classify_compile(reply);
    for (const auto& flag : split(c.get("flags"), ' ')) {
      if (flag.empty()) continue;
      bool found = false;
      for (const auto& f : seen.flags) found = found || f.value("flag", "") == flag;
      EXPECT_TRUE(found) << c.id << ": expected flag " << flag << ", got " << seen.flags.dump();
    }
  } else {
    ASSERT_EQ(c.get("side"), "run") << c.id;
    PF_REQUIRE_GPU();
    auto* pool = run_pool();
    ASSERT_NE(pool, nullptr) << "GPU worker pool: " << run_pool_error_;
    seen = classify_run(pool->call("run_kernel", run_body(c, file), deadline));
  }
  std::printf("[hostile] %-22s expect %-24s got %-16s %s\n", c.id.c_str(), c.get("expect").c_str(),
              seen.cls.c_str(), seen.message.substr(0, 300).c_str());
  EXPECT_TRUE(expected(c, seen.cls))
      << c.id << ": expected " << c.get("expect") << ", got " << seen.cls << "\n"
      << seen.message;
  if (!c.get("message").empty()) {
    EXPECT_NE(seen.message.find(c.get("message")), std::string::npos)
        << c.id << ": the message should contain \"" << c.get("message") << "\"; it is:\n"
        << seen.message;
  }

  // Recovery: a normal kernel compiles (and on a GPU, runs) on the same pool.
  auto control =
      compile_pool_->call("compile", json{{"files", {{"kernels/control.cu", kControl}}}}, 60s);
  ASSERT_TRUE(control.ok()) << "after " << c.id << ": " << control.describe();
  EXPECT_EQ(control.body.value("status", ""), "ok") << control.body.dump();
  if (c.get("side") == "run") {
    json body = {{"files", {{"kernels/control.cu", kControl}}},
                 {"kernel", "control"},
                 {"grid", {1, 1, 1}},
                 {"block", {64, 1, 1}},
                 {"buffers", {{"x", 256}, {"y", 256}}},
                 {"args", {"buf:x", "buf:y", "float:2", "int:64"}},
                 {"read", "y"}};
    auto run = run_pool()->call("run_kernel", body, 60s);
    ASSERT_TRUE(run.ok()) << "after " << c.id << ": " << run.describe();
    ASSERT_EQ(run.body["read"].size(), 64u);
    for (const auto& v : run.body["read"]) EXPECT_EQ(static_cast<float>(v), 1.f);  // 2 * 0 + 1
    EXPECT_TRUE(run.body["guards"].empty());
  }
}

std::string case_name(const ::testing::TestParamInfo<HostileCase>& info) {
  return info.param.id;
}

INSTANTIATE_TEST_SUITE_P(Corpus, HostileKernels, ::testing::ValuesIn(load_cases()), case_name);

TEST(HostileKernelCorpus, CoversTheIssueList) {
  std::set<std::string> ids;
  for (const auto& c : load_cases()) ids.insert(c.id);
  for (const char* id :
       {"infinite_loop", "illegal_address", "trap", "misaligned", "smem_request", "printf_flood",
        "huge_device_array", "template_recursion", "inline_explosion", "giant_unroll",
        "include_etc_passwd", "globaltimer", "long_source", "mangled_kernel"}) {
    EXPECT_TRUE(ids.count(id)) << "missing hostile case " << id;
  }
}

}  // namespace
}  // namespace pf::test
