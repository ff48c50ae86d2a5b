// Static integrity flags: timer reads, device allocation, mutable globals.
#include "sandbox/nvrtc/source_flags.h"

#include <gtest/gtest.h>

namespace pf::nvrtc {
namespace {

std::vector<std::string> flags_of(const std::string& src) {
  auto tokens = scan_source("kernels/a.cu", src);
  EXPECT_TRUE(tokens.ok());
  std::vector<std::string> out;
  if (!tokens.ok()) return out;
  for (const auto& f : detect_source_flags("kernels/a.cu", *tokens)) {
    out.push_back(std::string(source_flag_name(f.kind)) + ":" + std::to_string(f.line));
  }
  return out;
}

TEST(SourceFlags, CleanKernelHasNone) {
  EXPECT_TRUE(flags_of(R"(__device__ __forceinline__ float sq(float v) { return v * v; }
__constant__ float kScale[4];
__device__ const float kOne = 1.f;
extern "C" __global__ void k(const float* x, float* y, int n) {
  int clockwise = n;  // not a call
  for (int i = 0; i < n; ++i) y[i] = sq(x[i]) * kScale[0] * kOne + clockwise;
}
)")
                  .empty());
}

TEST(SourceFlags, TimersAllocationAndGlobals) {
  auto flags = flags_of(R"(__device__ float cache[1024];
__device__ int counter = 0;
extern "C" __global__ void k(unsigned long long* o) {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  o[0] = t + clock64();
  float* p = (float*)malloc(16);
  free(p);
}
)");
  EXPECT_EQ(flags, (std::vector<std::string>{"mutable_global:1", "mutable_global:2", "inline_asm:5",
                                             "timer_read:5", "timer_read:6", "device_malloc:7",
                                             "device_malloc:8"}));
}

}  // namespace
}  // namespace pf::nvrtc
