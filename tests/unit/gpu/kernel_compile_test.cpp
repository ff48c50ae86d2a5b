// Every baseline kernel program compiles with NVRTC for sm_90, in every dtype
// its file lists, through the same sandbox compiler the worker uses; and
// every kernel takes exactly the parameter struct the host marshals
// (kernels/pf_abi.cuh), so host and device cannot drift apart. NVRTC needs
// no GPU: this runs in CI. Compiles are cached under the build directory.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "evaluator/core/synth_stream.h"
#include "evaluator/core/tensor_digest.h"
#include "evaluator/gpu/kernel_program.h"
#include "evaluator/gpu/kernels/pf_abi.cuh"
#include "evaluator/gpu/kernels/pf_grid_abi.cuh"
#include "evaluator/gpu/kernels/pf_ops_abi.cuh"
#include "sandbox/nvrtc/nvrtc_compiler.h"
#include "tests/support/paths.h"

namespace pf::gpu {
namespace {

struct ProgramCase {
  std::string file;
  DType dtype;
};

std::vector<ProgramCase> all_programs() {
  std::vector<ProgramCase> out;
  for (const auto& file : kernel_program_files()) {
    auto info = kernel_program_info(file);
    if (!info.ok()) {
      out.push_back({file, DType::float32});  // the test reports the directive error
      continue;
    }
    for (DType t : info->dtypes) out.push_back({file, t});
  }
  return out;
}

// The host-side parameter struct of each kernel family, by kernel name
// prefix (the longest matching prefix wins). A new family with its own struct
// adds a line here, so host and device stay in step for it too.
struct ParamStruct {
  const char* prefix;
  const char* name;
  size_t size;
};

const std::vector<ParamStruct>& param_structs() {
  static const std::vector<ParamStruct> structs = {
      {"pf_reduce_", "PfReduceParams", sizeof(PfReduceParams)},
      {"pf_softmax_", "PfSoftmaxParams", sizeof(PfSoftmaxParams)},
      {"pf_layer_norm", "PfNormParams", sizeof(PfNormParams)},
      {"pf_norm_", "PfNormParams", sizeof(PfNormParams)},
      {"pf_copy_", "PfCopyParams", sizeof(PfCopyParams)},
      {"pf_fill", "PfFillParams", sizeof(PfFillParams)},
      {"pf_arange", "PfFillParams", sizeof(PfFillParams)},
      {"pf_linspace", "PfFillParams", sizeof(PfFillParams)},
      {"pf_eye", "PfFillParams", sizeof(PfFillParams)},
      {"pf_triangle", "PfFillParams", sizeof(PfFillParams)},
      {"pf_cat", "PfCatParams", sizeof(PfCatParams)},
      {"pf_cat_strided", "PfCatStridedParams", sizeof(PfCatStridedParams)},
      {"pf_remap", "PfRemapParams", sizeof(PfRemapParams)},
      {"pf_index", "PfIndexParams", sizeof(PfIndexParams)},
      {"pf_scatter", "PfScatterParams", sizeof(PfScatterParams)},
      {"pf_max_pool", "PfPoolParams", sizeof(PfPoolParams)},
      {"pf_avg_pool", "PfPoolParams", sizeof(PfPoolParams)},
      {"pf_adaptive_", "PfPoolParams", sizeof(PfPoolParams)},
      {"pf_upsample_", "PfInterpParams", sizeof(PfInterpParams)},
      {"pf_upsample_aa", "PfInterpAaParams", sizeof(PfInterpAaParams)},
      {"pf_conv", "PfConvParams", sizeof(PfConvParams)},
      {"pf_im2col", "PfFoldParams", sizeof(PfFoldParams)},
      {"pf_col2im", "PfFoldParams", sizeof(PfFoldParams)},
      {"pf_attention", "PfAttentionParams", sizeof(PfAttentionParams)},
      {"pf_scan", "PfScanParams", sizeof(PfScanParams)},
      {"pf_singular_norm", "PfSingularNormParams", sizeof(PfSingularNormParams)},
      {"pf_sort_select", "PfSortParams", sizeof(PfSortParams)},
      {"pf_grid_sample_2d", "PfGridSampleParams", sizeof(PfGridSampleParams)},
      {"pf_synth_", "PfSynthParams", sizeof(PfSynthParams)},
      {"pf_digest_", "PfDigestParams", sizeof(PfDigestParams)},
      {"pf_count_changed", "PfCountChangedParams", sizeof(PfCountChangedParams)},
      {"pf_guard_damage", "PfGuardParams", sizeof(PfGuardParams)},
  };
  return structs;
}

// Elementwise kernels (ew_*.cu) are pf_<op>_vec / pf_<op>_strided.
const ParamStruct* param_struct_of(const std::string& file, const std::string& kernel) {
  static const ParamStruct elementwise{"", "PfElementwiseParams", sizeof(PfElementwiseParams)};
  const ParamStruct* best = nullptr;
  for (const auto& s : param_structs()) {
    if (kernel.rfind(s.prefix, 0) == 0 &&
        (!best || std::strlen(s.prefix) > std::strlen(best->prefix)))
      best = &s;
  }
  if (best == nullptr && file.rfind("ew_", 0) == 0) best = &elementwise;
  return best;
}

class KernelCompile : public ::testing::TestWithParam<ProgramCase> {};

TEST_P(KernelCompile, CompilesForSm90WithHostParameterLayout) {
  const ProgramCase& c = GetParam();
  ASSERT_TRUE(kernel_program_info(c.file).ok()) << kernel_program_info(c.file).error().message;
  auto lib = nvrtc::NvrtcLibrary::load();
  if (!lib.ok()) GTEST_SKIP() << "NVRTC not available: " << lib.error().message;
  auto source = kernel_program_source(c.file, c.dtype);
  ASSERT_TRUE(source.ok()) << source.error().message;
  auto cache = std::make_shared<nvrtc::CompileCache>(pf::test::binary_dir() / "nvrtc-cache");
  nvrtc::NvrtcCompiler compiler(*lib, cache);
  nvrtc::CompileOptions options;
  options.arch = "sm_90";
  const std::string name = kernel_program_name(c.file, c.dtype);
  auto out = compiler.compile({{name, *source}}, options);
  ASSERT_TRUE(out.ok()) << out.error().message;
  ASSERT_TRUE(out->ok()) << out->message;
  EXPECT_EQ(out->warnings_text(), "") << name;
  ASSERT_EQ(out->files.size(), 1u);
  ASSERT_FALSE(out->files[0].kernels.empty()) << name << " defines no kernels";
  for (const auto& k : out->files[0].kernels) {
    ASSERT_EQ(k.params.size(), 1u) << k.name << " must take one parameter struct";
    const ParamStruct* host = param_struct_of(c.file, k.name);
    EXPECT_NE(host, nullptr) << k.name << " in " << name
                             << ": unknown parameter struct; add its prefix to param_structs() in "
                             << __FILE__;
    if (host != nullptr) {
      EXPECT_EQ(k.params[0].size, host->size)
          << k.name << " in " << name << ": " << host->name << " differs between host and device";
    }
    if (k.local_bytes > 0) {
      std::printf("note: %s (%s) uses %lld bytes of local memory per thread\n", k.name.c_str(),
                  name.c_str(), k.local_bytes);
    }
  }
}

std::string case_name(const ::testing::TestParamInfo<ProgramCase>& info) {
  std::string n =
      info.param.file.substr(0, info.param.file.size() - 3) + "_" + dtype_name(info.param.dtype);
  for (char& ch : n) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return n;
}

INSTANTIATE_TEST_SUITE_P(AllPrograms, KernelCompile, ::testing::ValuesIn(all_programs()),
                         case_name);

TEST(KernelPrograms, EveryFileDeclaresItsPrograms) {
  const auto files = kernel_program_files();
  ASSERT_GE(files.size(), 8u);
  for (const auto& f : files) {
    auto info = kernel_program_info(f);
    ASSERT_TRUE(info.ok()) << info.error().message;
    EXPECT_FALSE(info->dtypes.empty()) << f;
  }
  EXPECT_FALSE(kernel_program_info("nope.cu").ok());
  EXPECT_FALSE(kernel_program_source("ew_math.cu", DType::int64).ok());
  EXPECT_EQ(kernel_program_name("ew_math.cu", DType::bfloat16), "kernels/ew_math.bfloat16.cu");
}

TEST(KernelPrograms, SourceStartsWithPreambleAndSharedHeaders) {
  auto src = kernel_program_source("ew_arith.cu", DType::float16);
  ASSERT_TRUE(src.ok()) << src.error().message;
  EXPECT_NE(src->find("#define PF_DTYPE 6"), std::string::npos);
  const size_t abi = src->find("struct PfElementwiseParams");
  const size_t common = src->find("pf_load_dyn");
  const size_t skeleton = src->find("pf_ew_vec");
  const size_t body = src->find("struct op_add");
  ASSERT_NE(body, std::string::npos);
  EXPECT_LT(abi, common);
  EXPECT_LT(common, skeleton);
  EXPECT_LT(skeleton, body);
}

}  // namespace
}  // namespace pf::gpu
