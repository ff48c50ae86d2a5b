// Differential check of the source policy against NVRTC itself: generated
// sources try to #include a secret file through splices, digraphs, comments,
// CR/LF variants, literals and BOMs. Every source the policy accepts is
// compiled (raw NVRTC, no sandbox); none may read the secret. The generator
// must also produce real attacks (sources NVRTC would read the secret with),
// or the check would prove nothing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "sandbox/nvrtc/nvrtc_library.h"
#include "sandbox/nvrtc/source_policy.h"

namespace pf::nvrtc {
namespace {

TEST(SourcePolicyFuzz, NothingAcceptedReadsAFile) {
  auto lib = NvrtcLibrary::load();
  if (!lib.ok()) GTEST_SKIP() << lib.error().message;
  const auto& fn = (*lib)->api();
  const auto secret =
      std::filesystem::temp_directory_path() / ("pf_secret_" + std::to_string(::getpid()) + ".h");
  std::ofstream(secret) << "#error SECRET_WAS_READ\n";
  const std::string q = "\"" + secret.string() + "\"", a = "<" + secret.string() + ">";

  const std::vector<std::string> noise = {
      "",       " ",     "\t",   "\\\n",         "\\\r\n",     "\\ \n",     "/**/",
      "/*\n*/", "\r",    "\r\n", "\n",           "//",         "// x \\\n", "\"",
      "'",      "R\"x(", ")x\"", "R\"(",         ")\"",        "1'0",       "'a'",
      "\"s\"",  "u8",    "L",    "\xEF\xBB\xBF", "#define A ", "#if 0\n",   "#endif\n",
      "/*",     "*/",    "x",    "%:",           "#",          "\v",        "\f"};
  const std::vector<std::string> intro = {"#", "%:", "# ", "%: ", "#\\\n", "%\\\n:"};
  const std::vector<std::string> word = {"include", "inc\\\nlude", "include_next", "import",
                                         "in\\\r\nclude"};
  const std::vector<std::string> path = {q, a, " " + q, "\\\n" + q, "/*\n*/" + q};
  std::mt19937 rng(20260101);
  auto pick = [&](const std::vector<std::string>& v) -> const std::string& {
    return v[rng() % v.size()];
  };

  int accepted = 0, real_attacks = 0;
  for (int it = 0; it < 400; ++it) {
    std::string src;
    for (int i = 0, n = static_cast<int>(rng() % 4); i < n; ++i) src += pick(noise);
    if (rng() % 2) src += "\n";
    src += pick(intro);
    if (rng() % 3 == 0) src += pick(noise);
    src += pick(word);
    src += rng() % 2 ? std::string(" ") : pick(noise);
    src += pick(path);
    for (int i = 0, n = static_cast<int>(rng() % 3); i < n; ++i) src += pick(noise);
    src += "\nextern \"C\" __global__ void k(float* o) { o[0] = 1; }\n";

    nvrtcProgram p = nullptr;
    ASSERT_EQ(fn.nvrtcCreateProgram(&p, src.c_str(), "f.cu", 0, nullptr, nullptr), NVRTC_SUCCESS);
    const char* opts[] = {"--gpu-architecture=sm_90", "-default-device", "--std=c++17",
                          "--no-source-include", "-fdevice-syntax-only"};
    fn.nvrtcCompileProgram(p, 5, opts);
    size_t size = 0;
    fn.nvrtcGetProgramLogSize(p, &size);
    std::string log(size, '\0');
    fn.nvrtcGetProgramLog(p, log.data());
    fn.nvrtcDestroyProgram(&p);
    const bool read_secret = log.find("SECRET_WAS_READ") != std::string::npos;
    if (check_source("kernels/f.cu", src, {}).ok()) {
      ++accepted;
      EXPECT_FALSE(read_secret) << "the policy accepted a source that reads a file:\n" << src;
    } else if (read_secret) {
      ++real_attacks;
    }
  }
  std::filesystem::remove(secret);
  EXPECT_GT(accepted, 20);
  EXPECT_GT(real_attacks, 20) << "the generator no longer produces working attacks";
}

}  // namespace
}  // namespace pf::nvrtc
