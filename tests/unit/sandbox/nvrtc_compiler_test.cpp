// NVRTC compilation without a GPU: architectures, clean error logs, kernel
// parameter layouts read from the cubin, the content-addressed cache, and the
// extern "C" / unique-name rules. Skips with the reason where NVRTC is absent.
#include "sandbox/nvrtc/nvrtc_compiler.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <thread>

#include "sandbox/nvrtc/bundled_headers.h"
#include "sandbox/nvrtc/cubin_reader.h"

namespace pf::nvrtc {
namespace {

namespace fs = std::filesystem;

constexpr const char* kAxpy = R"(#include <cuda_fp16.h>
extern "C" __global__ void axpy(const float* __restrict__ x, float* y, float alpha, int n,
                                double beta, unsigned char flag, long long count, __half h) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = alpha * x[i] + y[i] + beta + flag + count + __half2float(h);
}
extern "C" __global__ void __launch_bounds__(256) tile(float* out) {
  __shared__ float buf[256];
  buf[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = buf[255 - threadIdx.x];
}
)";

class NvrtcTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto lib = NvrtcLibrary::load();
    if (!lib.ok()) GTEST_SKIP() << lib.error().message;
    lib_ = *lib;
    dir_ = fs::temp_directory_path() /
           ("pf_nvrtc_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  NvrtcCompiler compiler(bool cached) {
    return NvrtcCompiler(lib_, cached ? std::make_shared<CompileCache>(dir_) : nullptr);
  }
  std::shared_ptr<const NvrtcLibrary> lib_;
  fs::path dir_;
};

TEST_F(NvrtcTest, CompilesForSm90AndSm80WithParameterLayouts) {
  for (const char* arch : {"sm_90", "sm_80"}) {
    CompileOptions opt;
    opt.arch = arch;
    auto out = compiler(false).compile({{"kernels/axpy.cu", kAxpy}}, opt);
    ASSERT_TRUE(out.ok()) << out.error().message;
    ASSERT_TRUE(out->ok()) << out->message;
    ASSERT_EQ(out->files.size(), 1u);
    EXPECT_FALSE(out->files[0].cubin.empty());
    EXPECT_EQ(out->kernel_names(), (std::vector<std::string>{"axpy", "tile"}));
    const CompiledFile* file = nullptr;
    const auto* axpy = out->find_kernel("axpy", &file);
    ASSERT_NE(axpy, nullptr);
    EXPECT_EQ(file->file, "kernels/axpy.cu");
    EXPECT_EQ(axpy->file, "kernels/axpy.cu");
    // Offsets follow the C ABI: pointers 8-aligned, char 1, __half 2.
    std::vector<std::pair<size_t, size_t>> layout;
    for (const auto& p : axpy->params) layout.emplace_back(p.offset, p.size);
    EXPECT_EQ(layout, (std::vector<std::pair<size_t, size_t>>{
                          {0, 8}, {8, 8}, {16, 4}, {20, 4}, {24, 8}, {32, 1}, {40, 8}, {48, 2}}));
    using cuda::ParamKind;
    std::vector<ParamKind> kinds;
    for (const auto& p : axpy->params) kinds.push_back(p.kind);
    EXPECT_EQ(kinds,
              (std::vector<ParamKind>{ParamKind::pointer, ParamKind::pointer, ParamKind::floating,
                                      ParamKind::integer, ParamKind::floating, ParamKind::integer,
                                      ParamKind::integer, ParamKind::other}));
    EXPECT_EQ(axpy->params[0].name, "x");
    EXPECT_EQ(axpy->params[3].name, "n");
    EXPECT_TRUE(axpy->params[5].is_unsigned);
    EXPECT_FALSE(axpy->params[3].is_unsigned);
    const auto* tile = out->find_kernel("tile");
    ASSERT_NE(tile, nullptr);
    // The .nv.shared section; sm_90 cubins place 1 KiB of system-reserved
    // shared memory in front of the kernel's own 1 KiB.
    EXPECT_EQ(tile->static_smem_bytes, std::string(arch) == "sm_90" ? 2048 : 1024);
    EXPECT_GT(tile->registers, 0);
    ASSERT_EQ(tile->params.size(), 1u);
    EXPECT_EQ(tile->params[0].name, "out");
  }
}

TEST_F(NvrtcTest, RejectsUnknownArchitectures) {
  CompileOptions opt;
  opt.arch = "sm_10";
  auto out = compiler(false).compile({{"kernels/a.cu", kAxpy}}, opt);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error().message.find("cannot compile for sm_10"), std::string::npos)
      << out.error().message;
  opt.arch = "compute_90";
  EXPECT_FALSE(compiler(false).compile({{"kernels/a.cu", kAxpy}}, opt).ok());
}

TEST_F(NvrtcTest, CompileErrorsComeBackCleaned) {
  const char* bad =
      "extern \"C\" __global__ void k(float* y) {\n  int q;\n  y[0] = undefined_name;\n}\n";
  auto out = compiler(false).compile({{"kernels/bad.cu", bad}}, {});
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->status, CompileStatus::compile_error);
  EXPECT_NE(
      out->message.find("kernels/bad.cu(3): error: identifier \"undefined_name\" is undefined"),
      std::string::npos)
      << out->message;
  EXPECT_EQ(out->message.find("detected in the compilation"), std::string::npos);
  ASSERT_EQ(out->files.size(), 1u);
  EXPECT_FALSE(out->files[0].compiled);
  EXPECT_EQ(out->files[0].log.total_errors, 1u);
  EXPECT_EQ(out->files[0].log.total_warnings, 1u);  // q is unused
  EXPECT_EQ(out->files[0].log.warnings[0].line, 2);
}

TEST_F(NvrtcTest, PolicyRejectsBeforeCompiling) {
  auto out = compiler(true).compile({{"kernels/a.cu", "#include \"/etc/passwd\"\n"}}, {});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->status, CompileStatus::rejected);
  EXPECT_NE(out->message.find("kernels/a.cu:1: #include \"/etc/passwd\" is not allowed"),
            std::string::npos);
  EXPECT_TRUE(out->files.empty());
  EXPECT_EQ(out->cache_misses, 0u);
}

TEST_F(NvrtcTest, MangledAndDuplicateKernelsAreErrors) {
  const char* mangled = "__global__ void scale(float* x, int n) { x[0] = n; }\n";
  auto out = compiler(false).compile({{"kernels/m.cu", mangled}}, {});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->status, CompileStatus::compile_error);
  EXPECT_NE(out->message.find("kernel 'scale(float*, int)' has the C++-mangled name _Z5scalePfi"),
            std::string::npos)
      << out->message;
  EXPECT_NE(out->message.find("extern \"C\""), std::string::npos);

  const char* k = "extern \"C\" __global__ void k(float* x) { x[0] = 1; }\n";
  out = compiler(false).compile({{"kernels/a.cu", k}, {"kernels/b.cu", k}}, {});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->status, CompileStatus::compile_error);
  EXPECT_NE(out->message.find("kernel 'k' is defined in both kernels/a.cu and kernels/b.cu"),
            std::string::npos);
}

TEST_F(NvrtcTest, CacheHitsOnSecondCompileAndMissesWhenOptionsChange) {
  auto c = compiler(true);
  auto first = c.compile({{"kernels/axpy.cu", kAxpy}}, {});
  ASSERT_TRUE(first.ok() && first->ok());
  EXPECT_EQ(first->cache_misses, 1u);
  EXPECT_FALSE(first->files[0].cache_hit);

  auto second = c.compile({{"kernels/axpy.cu", kAxpy}}, {});
  ASSERT_TRUE(second.ok() && second->ok());
  EXPECT_EQ(second->cache_hits, 1u);
  EXPECT_TRUE(second->files[0].cache_hit);
  EXPECT_EQ(second->files[0].cubin, first->files[0].cubin);
  ASSERT_NE(second->find_kernel("axpy"), nullptr);
  EXPECT_EQ(second->find_kernel("axpy")->params, first->find_kernel("axpy")->params);

  CompileOptions lineinfo;
  lineinfo.lineinfo = true;
  auto third = c.compile({{"kernels/axpy.cu", kAxpy}}, lineinfo);
  ASSERT_TRUE(third.ok() && third->ok());
  EXPECT_EQ(third->cache_misses, 1u);
  CompileOptions sm80;
  sm80.arch = "sm_80";
  auto fourth = c.compile({{"kernels/axpy.cu", kAxpy}}, sm80);
  ASSERT_TRUE(fourth.ok() && fourth->ok());
  EXPECT_EQ(fourth->cache_misses, 1u);
  auto edited = c.compile({{"kernels/axpy.cu", std::string(kAxpy) + "\n"}}, {});
  ASSERT_TRUE(edited.ok() && edited->ok());
  EXPECT_EQ(edited->cache_misses, 1u);

  auto stats = c.cache()->stats();
  EXPECT_EQ(stats.hits, 1u);
  EXPECT_EQ(stats.misses, 4u);
  EXPECT_EQ(stats.stores, 4u);
  EXPECT_EQ(c.cache()->usage().entries, 4u);

  // A fresh cache object on the same directory (another process, a later run) hits too.
  NvrtcCompiler again(lib_, std::make_shared<CompileCache>(dir_));
  auto later = again.compile({{"kernels/axpy.cu", kAxpy}}, {});
  ASSERT_TRUE(later.ok() && later->ok());
  EXPECT_EQ(later->cache_hits, 1u);
}

// Issue 17: failed compiles were cached for ever (an NVRTC failure fixed
// later still answered from the cache). Now they are recompiled.
TEST_F(NvrtcTest, FailedCompilesAreNotCachedAndDamagedEntriesRecompiled) {
  auto c = compiler(true);
  const char* bad = "extern \"C\" __global__ void k(float* y) { y[0] = nope; }\n";
  auto a = c.compile({{"kernels/bad.cu", bad}}, {});
  ASSERT_TRUE(a.ok());
  auto b = c.compile({{"kernels/bad.cu", bad}}, {});
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->cache_hits, 0u);
  EXPECT_EQ(b->cache_misses, 1u);
  EXPECT_EQ(b->status, CompileStatus::compile_error);
  EXPECT_EQ(b->message, a->message);
  EXPECT_EQ(c.cache()->usage().entries, 0u);

  auto good = c.compile({{"kernels/axpy.cu", kAxpy}}, {});
  ASSERT_TRUE(good.ok() && good->ok());
  // Corrupt every entry's cubin bytes.
  for (auto& e : fs::recursive_directory_iterator(dir_)) {
    if (e.path().extension() == ".entry") {
      fs::resize_file(e.path(), fs::file_size(e.path()) - 1);
    }
  }
  auto again = c.compile({{"kernels/axpy.cu", kAxpy}}, {});
  ASSERT_TRUE(again.ok() && again->ok());
  EXPECT_EQ(again->cache_misses, 1u);
  EXPECT_EQ(again->files[0].cubin, good->files[0].cubin);
  EXPECT_GE(c.cache()->stats().corrupt, 1u);
}

// An entry moved under another key (a worker writing where it should not,
// or a copied cache) is a miss: entries are checked against their key.
TEST_F(NvrtcTest, AnEntryUnderAnotherKeyIsAMiss) {
  auto c = compiler(true);
  auto axpy = c.compile({{"kernels/axpy.cu", kAxpy}}, {});
  ASSERT_TRUE(axpy.ok() && axpy->ok());
  fs::path entry;
  for (auto& e : fs::recursive_directory_iterator(dir_)) {
    if (e.path().extension() == ".entry") entry = e.path();
  }
  ASSERT_FALSE(entry.empty());
  const std::string other = "kernels/other.cu";
  const std::string source = std::string(kAxpy) + "// another source\n";
  const std::string key =
      CompileCache::key(other, source, NvrtcCompiler::nvrtc_flags({}), kDefaultArch,
                        lib_->version(), bundled_headers_sha256());
  const fs::path forged = entry.parent_path().parent_path() / key.substr(0, 2) / (key + ".entry");
  fs::create_directories(forged.parent_path());
  fs::copy_file(entry, forged);
  auto looked = c.cache()->lookup(key);
  EXPECT_FALSE(looked.has_value()) << "an entry of another key was accepted";
  EXPECT_GE(c.cache()->stats().corrupt, 1u);
}

// Issue 17: the cache had no size bound. Past it, the least recently used
// entries go (a hit refreshes an entry).
TEST_F(NvrtcTest, TheCacheIsBoundedAndEvictsLeastRecentlyUsed) {
  auto cache = std::make_shared<CompileCache>(dir_);
  NvrtcCompiler c(lib_, cache);
  std::vector<std::string> sources;
  for (int i = 0; i < 3; ++i) {
    sources.push_back(std::string(kAxpy) + "// variant " + std::to_string(i) + "\n");
    auto r = c.compile({{"kernels/axpy.cu", sources.back()}}, {});
    ASSERT_TRUE(r.ok() && r->ok());
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // distinct modification times
  }
  const uint64_t three = cache->usage().bytes;
  ASSERT_EQ(cache->usage().entries, 3u);
  // Use the oldest: it becomes the most recent.
  auto hit = c.compile({{"kernels/axpy.cu", sources[0]}}, {});
  ASSERT_TRUE(hit.ok() && hit->cache_hits == 1u);
  EXPECT_EQ(cache->evict_to(three * 2 / 3 + 1), 1u);
  EXPECT_EQ(cache->usage().entries, 2u);
  auto first = c.compile({{"kernels/axpy.cu", sources[0]}}, {});
  EXPECT_EQ(first->cache_hits, 1u) << "the entry used last must stay";
  auto second = c.compile({{"kernels/axpy.cu", sources[1]}}, {});
  EXPECT_EQ(second->cache_misses, 1u) << "the least recently used entry must go";

  // With a bound, stores evict by themselves.
  auto bounded = std::make_shared<CompileCache>(dir_, three / 2);
  NvrtcCompiler b(lib_, bounded);
  auto fresh = b.compile({{"kernels/axpy.cu", std::string(kAxpy) + "// fresh\n"}}, {});
  ASSERT_TRUE(fresh.ok() && fresh->ok());
  EXPECT_LE(bounded->usage().bytes, three / 2);
  EXPECT_GE(bounded->stats().evicted, 1u);
}

// Issue 17: a 266-byte kernel with an initialised 128 MiB __device__ array
// wrote a 134 MB cubin into the cache. The cubin cap refuses such a cubin
// before it is cached or loaded (2 MiB against a 1 MiB cap keeps this fast).
TEST_F(NvrtcTest, ACubinOverTheCapIsAResourceLimitAndIsNotCached) {
  const std::string big =
      "__device__ char big[2 << 20] = {1};\n"
      "extern \"C\" __global__ void k(char* o) { o[threadIdx.x] = big[threadIdx.x]; }\n";
  auto c = compiler(true);
  CompileOptions capped;
  capped.max_cubin_bytes = 1 << 20;
  auto out = c.compile({{"kernels/big.cu", big}}, capped);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->status, CompileStatus::resource_limit) << out->message;
  EXPECT_NE(out->message.find("over the limit of 1 MiB (evaluator.max_cubin_mb)"),
            std::string::npos)
      << out->message;
  EXPECT_EQ(c.cache()->usage().entries, 0u) << "an over-limit cubin reached the cache";
  CompileOptions roomy;
  roomy.max_cubin_bytes = 8 << 20;
  auto under = c.compile({{"kernels/big.cu", big}}, roomy);
  ASSERT_TRUE(under.ok()) << under.error().message;
  EXPECT_TRUE(under->ok()) << under->message;
}

TEST_F(NvrtcTest, PastDeadlineIsATimeout) {
  if (lib_->api().nvrtcSetFlowCallback == nullptr)
    GTEST_SKIP() << "NVRTC lacks nvrtcSetFlowCallback";
  CompileOptions opt;
  opt.deadline = std::chrono::steady_clock::now();
  auto out = compiler(true).compile({{"kernels/axpy.cu", kAxpy}}, opt);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->status, CompileStatus::timeout);
  EXPECT_NE(out->message.find("did not finish before the deadline"), std::string::npos);
}

TEST(CubinReader, RejectsDamagedImages) {
  EXPECT_FALSE(read_cubin_kernels("").ok());
  EXPECT_FALSE(read_cubin_kernels("\x7f"
                                  "ELF garbage")
                   .ok());
  std::string header(64, '\0');
  header[0] = 0x7f, header[1] = 'E', header[2] = 'L', header[3] = 'F', header[4] = 2, header[5] = 1;
  header[58] = 64;  // e_shentsize
  header[60] = 10;  // e_shnum, with the table out of range
  auto r = read_cubin_kernels(header);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("malformed cubin"), std::string::npos);
}

}  // namespace
}  // namespace pf::nvrtc
