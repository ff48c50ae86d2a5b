// Integrity flags from the PTX that NVRTC produced (ptx_flags.h): each
// attack is written in the disguises that slip past a token scan (macros,
// function-scope statics, `(clock64)()`, asm strings split or pasted by the
// preprocessor) and compiled with the real NVRTC (no GPU needed; skips with
// the reason where NVRTC is absent). Honest kernels, read-only tables
// included, must come out clean.
#include "sandbox/nvrtc/ptx_flags.h"

#include <gtest/gtest.h>

#include "sandbox/nvrtc/nvrtc_compiler.h"

namespace pf::nvrtc {
namespace {

class PtxFlags : public ::testing::Test {
 protected:
  void SetUp() override {
    auto lib = NvrtcLibrary::load();
    if (!lib.ok()) GTEST_SKIP() << lib.error().message;
    lib_ = *lib;
  }

  // "flag: detail" of the PTX-origin flags of `source` compiled for sm_90.
  std::vector<std::string> ptx_flags_of(const std::string& source) {
    NvrtcCompiler compiler(lib_, nullptr);
    auto out = compiler.compile({{"kernels/k.cu", source}}, CompileOptions{});
    EXPECT_TRUE(out.ok()) << out.error().message;
    if (!out.ok()) return {};
    EXPECT_TRUE(out->ok()) << out->message;
    std::vector<std::string> flags;
    for (const auto& f : out->flags()) {
      if (f.origin == "ptx")
        flags.push_back(std::string(source_flag_name(f.kind)) + ": " + f.detail);
    }
    return flags;
  }

  std::shared_ptr<const NvrtcLibrary> lib_;
};

constexpr const char* kHead =
    "extern \"C\" __global__ void k(const float* __restrict__ x, float* __restrict__ out, "
    "long long n) {\n"
    "  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
    "  if (i >= n) return;\n";

TEST_F(PtxFlags, HonestKernelsAndReadOnlyTablesAreClean) {
  std::string src = std::string("__device__ const float kTable[4] = {1.f, 2.f, 3.f, 4.f};\n") +
                    "__device__ float kScale[2] = {0.5f, 2.f};  // never written\n" +
                    "__constant__ float kBias[4];\n" + kHead +
                    "  float acc = x[i] * kTable[i & 3] * kScale[i & 1] + kBias[0];\n"
                    "  atomicAdd(out, acc);  // an atomic on an argument buffer is not state\n"
                    "  out[i] = acc;\n}\n";
  EXPECT_EQ(ptx_flags_of(src), std::vector<std::string>{});
}

TEST_F(PtxFlags, GlobalsDeclaredThroughAMacroAreState) {
  std::string src =
      std::string("#define G __device__\nG const float* key_x;\nG float stash[1024];\n") + kHead +
      "  if (key_x == x) { out[i] = stash[i & 1023]; return; }\n"
      "  out[i] = x[i] * 2.f;\n  stash[i & 1023] = out[i];\n"
      "  if (i == 0) key_x = x;\n}\n";
  EXPECT_EQ(ptx_flags_of(src),
            (std::vector<std::string>{
                "mutable_global: PTX: .global variable 'key_x' is written: st.global.u64",
                "mutable_global: PTX: .global variable 'stash' is written: st.global.f32"}));
}

TEST_F(PtxFlags, FunctionScopeStaticsAndAtomicsOnGlobalsAreState) {
  std::string src = std::string(
                        "__device__ __forceinline__ unsigned* launches() {\n"
                        "  static unsigned count;\n  return &count;\n}\n") +
                    kHead +
                    "  if (*launches() > 2) return;\n  out[i] = x[i];\n"
                    "  if (i == 0) atomicAdd(launches(), 1u);\n}\n";
  auto flags = ptx_flags_of(src);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_NE(flags[0].find("mutable_global: PTX: .global variable '_ZZ8launchesvE5count' (a "
                          "function-scope static) is written: atomic atom.global.add"),
            std::string::npos)
      << flags[0];
}

TEST_F(PtxFlags, PointerTablesWrittenThroughComputedAddressesAreState) {
  std::string src = std::string("typedef unsigned long long u64;\n__device__ u64 seen[8];\n") +
                    kHead +
                    "  for (int k = 0; k < 8; ++k) if (seen[k] == (u64)x) return;\n"
                    "  out[i] = x[i];\n  if (i == n - 1) {\n"
                    "    for (int k = 0; k < 8; ++k)\n"
                    "      if (atomicCAS(&seen[k], 0ull, (u64)x) == 0ull) break;\n  }\n}\n";
  auto flags = ptx_flags_of(src);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].rfind("mutable_global: PTX: .global variable 'seen' is written: atomic "
                           "atom.global.cas",
                           0),
            0u)
      << flags[0];
}

TEST_F(PtxFlags, TimerReadsInEveryDisguise) {
  EXPECT_EQ(ptx_flags_of(std::string(kHead) + "  if (((clock64)() & 1023) == 7) return;\n" +
                         "  out[i] = x[i];\n}\n"),
            std::vector<std::string>{"timer_read: PTX: reads the special register %clock64"});
  EXPECT_EQ(ptx_flags_of(std::string(kHead) +
                         "  unsigned long long t;\n"
                         "  asm volatile(\"mov.u64 %0, %%global\" \"timer;\" : \"=l\"(t));\n"
                         "  if (t & 1024) return;\n  out[i] = x[i];\n}\n"),
            std::vector<std::string>{"timer_read: PTX: reads the special register %globaltimer"});
  EXPECT_EQ(ptx_flags_of(std::string("#define REG(r) \"%%\" #r\n") + kHead +
                         "  unsigned c;\n  asm volatile(\"mov.u32 %0, \" REG(clock) \";\" : "
                         "\"=r\"(c));\n  if ((c & 255) == 3) return;\n  out[i] = x[i];\n}\n"),
            std::vector<std::string>{"timer_read: PTX: reads the special register %clock"});
}

TEST_F(PtxFlags, DeviceAllocation) {
  auto flags = ptx_flags_of(std::string(kHead) +
                            "  float* p = (float*)malloc(16);\n  if (p) { p[0] = x[i]; out[i] = "
                            "p[0]; free(p); }\n}\n");
  EXPECT_EQ(flags,
            (std::vector<std::string>{"device_malloc: PTX: calls the device allocator free",
                                      "device_malloc: PTX: calls the device allocator malloc"}));
}

// Hand-written PTX for what the compiler rarely emits: an address that
// escapes through memory or a call, labels and predicates, comments that
// name registers.
TEST(PtxFlagsText, EscapesLabelsPredicatesAndComments) {
  const char* ptx = R"(
.global .align 4 .u32 flag;
.global .align 8 .u64 slot;
.global .align 4 .b8 table[8] = {0, 0, 128, 63, 0, 0, 0, 64};
.visible .entry k(.param .u64 p)
{
	.reg .b64 %rd<8>;
	// mov.u64 %rd9, %globaltimer;   a comment is not code
	mov.u64 	%rd1, flag;
	add.s64 	%rd2, %rd1, 0;
$L__BB0_1:
	@%p1 st.global.u64 	[slot], %rd2;
	mov.u64 	%rd3, table;
	ld.global.nc.f32 	%f1, [%rd3+4];
	ret;
}
)";
  std::vector<std::string> got;
  for (const auto& f : detect_ptx_flags("k.cu", ptx)) got.push_back(f.detail);
  EXPECT_EQ(got, (std::vector<std::string>{
                     "PTX: .global variable 'flag' is written: address stored to memory",
                     "PTX: .global variable 'slot' is written: st.global.u64"}));
}

}  // namespace
}  // namespace pf::nvrtc
