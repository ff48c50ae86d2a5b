// The prebuilt kernel library (prebuilt_kernels.h) without a GPU: every
// program the kernel library can request is embedded as a fat binary with
// SASS for every configured architecture and PTX for the highest, so a device
// of those architectures never waits for NVRTC; and the fat binary reader
// (fatbin.h) refuses damaged images instead of reading out of bounds.
#include "evaluator/gpu/prebuilt_kernels.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "evaluator/gpu/fatbin.h"
#include "evaluator/gpu/kernel_program.h"

namespace pf::gpu {
namespace {

std::vector<int> configured_archs() {
  std::vector<int> out;
  std::istringstream in{std::string(prebuilt_kernel_archs())};
  for (std::string w; std::getline(in, w, ';');) out.push_back(std::stoi(w));
  return out;
}

TEST(PrebuiltKernels, EveryProgramHasSassForEveryConfiguredArch) {
  const std::vector<int> archs = configured_archs();
  if (archs.empty()) GTEST_SKIP() << "built with PF_GPU_KERNEL_ARCHS=\"\" (NVRTC only)";
  int highest = 0;
  for (int a : archs) highest = std::max(highest, a);
  size_t programs = 0;
  for (const auto& file : kernel_program_files()) {
    auto info = kernel_program_info(file);
    ASSERT_TRUE(info.ok()) << info.error().message;
    for (DType dtype : info->dtypes) {
      const std::string name = kernel_program_name(file, dtype);
      ++programs;
      const PrebuiltProgram* p = find_prebuilt_program(name);
      ASSERT_NE(p, nullptr) << name << " is not prebuilt";
      auto entries = read_fatbin_entries(p->fatbin);
      ASSERT_TRUE(entries.ok()) << name << ": " << entries.error().message;
      for (int a : archs) {
        bool sass = false;
        for (const auto& e : *entries) sass |= e.kind == FatbinEntry::Kind::sass && e.arch == a;
        EXPECT_TRUE(sass) << name << " lacks SASS for sm_" << a;
        EXPECT_TRUE(fatbin_serves(*entries, a)) << name << " on sm_" << a;
      }
      bool ptx = false;
      for (const auto& e : *entries) ptx |= e.kind == FatbinEntry::Kind::ptx && e.arch == highest;
      EXPECT_TRUE(ptx) << name << " lacks PTX for compute_" << highest;
    }
  }
  EXPECT_EQ(prebuilt_programs().size(), programs) << "prebuilt programs nobody can request";
  EXPECT_EQ(find_prebuilt_program("kernels/ew_arith.float128.cu"), nullptr);
}

// A fat binary image built by hand: entries of (kind, arch, payload bytes).
struct FakeEntry {
  uint16_t kind;
  uint32_t arch;
  uint64_t payload;
};

std::string fake_fatbin(const std::vector<FakeEntry>& entries) {
  std::string body;
  for (const auto& e : entries) {
    std::string h(64, '\0');
    const uint32_t header = 64;
    std::memcpy(h.data(), &e.kind, 2);
    std::memcpy(h.data() + 4, &header, 4);
    std::memcpy(h.data() + 8, &e.payload, 8);
    std::memcpy(h.data() + 28, &e.arch, 4);
    body += h + std::string(e.payload, 'x');
  }
  std::string out(16, '\0');
  const uint32_t magic = 0xBA55ED50u;
  const uint16_t version = 1, header = 16;
  const uint64_t size = body.size();
  std::memcpy(out.data(), &magic, 4);
  std::memcpy(out.data() + 4, &version, 2);
  std::memcpy(out.data() + 6, &header, 2);
  std::memcpy(out.data() + 8, &size, 8);
  return out + body;
}

TEST(Fatbin, ReadsEntriesAndDecidesWhatServesADevice) {
  auto entries = read_fatbin_entries(fake_fatbin({{2, 80, 10}, {2, 90, 3}, {1, 100, 7}}));
  ASSERT_TRUE(entries.ok()) << entries.error().message;
  ASSERT_EQ(entries->size(), 3u);
  EXPECT_EQ((*entries)[1].kind, FatbinEntry::Kind::sass);
  EXPECT_EQ((*entries)[1].arch, 90);
  EXPECT_EQ((*entries)[2].kind, FatbinEntry::Kind::ptx);
  EXPECT_TRUE(fatbin_serves(*entries, 86));   // sm_80 SASS runs on 8.x, x >= 0
  EXPECT_TRUE(fatbin_serves(*entries, 120));  // compute_100 PTX JITs forward
  auto sass_only = read_fatbin_entries(fake_fatbin({{2, 86, 1}, {2, 90, 1}}));
  ASSERT_TRUE(sass_only.ok());
  EXPECT_FALSE(fatbin_serves(*sass_only, 80));   // SASS does not run backwards
  EXPECT_FALSE(fatbin_serves(*sass_only, 100));  // nor across majors
  EXPECT_TRUE(fatbin_serves(*sass_only, 89));
  EXPECT_EQ(parse_sm_arch("sm_90"), 90);
  EXPECT_EQ(parse_sm_arch("sm_100"), 100);
  EXPECT_EQ(parse_sm_arch("compute_90"), 0);
  EXPECT_EQ(parse_sm_arch("sm_9x"), 0);
}

TEST(Fatbin, DamagedImagesAreErrorsNotOutOfBoundsReads) {
  const std::string good = fake_fatbin({{2, 90, 40}});
  EXPECT_FALSE(read_fatbin_entries("").ok());
  EXPECT_FALSE(read_fatbin_entries(good.substr(0, 10)).ok());
  std::string bad_magic = good;
  bad_magic[0] ^= 1;
  EXPECT_FALSE(read_fatbin_entries(bad_magic).ok());
  // Truncated: the header promises more entries than the image holds.
  EXPECT_FALSE(read_fatbin_entries(good.substr(0, good.size() - 1)).ok());
  // An entry whose payload size wraps the offset arithmetic.
  std::string wrap = good;
  const uint64_t huge = ~uint64_t{0} - 8;
  std::memcpy(wrap.data() + 16 + 8, &huge, 8);
  EXPECT_FALSE(read_fatbin_entries(wrap).ok());
  // An entry header smaller than its own fields.
  std::string tiny = good;
  const uint32_t four = 4;
  std::memcpy(tiny.data() + 16 + 4, &four, 4);
  EXPECT_FALSE(read_fatbin_entries(tiny).ok());
  // A header size past the end of the image.
  std::string far = good;
  const uint16_t big = 0xFFFF;
  std::memcpy(far.data() + 6, &big, 2);
  EXPECT_FALSE(read_fatbin_entries(far).ok());
}

}  // namespace
}  // namespace pf::gpu
