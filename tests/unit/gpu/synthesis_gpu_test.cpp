// Input synthesis on the GPU (evaluator/gpu/synthesis_fill.h,
// evaluator/protocol/gpu_input_drawer.h) draws exactly the CPU twin's bits:
// every dtype and value rule (normal with and without clamping, the zero-std
// rules, the widened spread, integer ranges, bool), odd sizes, a tensor of
// 2^24 + 3 elements, a real esm2 variant, and the informative-inputs rule
// choosing the same attempt with the same inputs; both builds of the kernel
// (the prebuilt fat binary the runtime loads, and NVRTC's). Skips without a GPU.
#include <gtest/gtest.h>

#include <cstring>

#include "evaluator/gpu/kernel_library.h"
#include "evaluator/gpu/kernels/pf_abi.cuh"
#include "evaluator/gpu/synthesis_fill.h"
#include "evaluator/ops/cpu_executor.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/protocol/gpu_input_drawer.h"
#include "evaluator/tasks/importer.h"
#include "evaluator/tasks/synthesis.h"
#include "tests/support/gpu.h"
#include "tests/support/paths.h"
#include "tests/unit/gpu/gpu_test_util.h"

namespace pf::gpu::test {
namespace {

struct RuleCase {
  const char* name;
  InputMeta meta;
  SynthesisOptions options;
};

InputMeta meta_of(DType dt, Shape shape, std::optional<double> mean, std::optional<double> std,
                  std::optional<double> lo = std::nullopt,
                  std::optional<double> hi = std::nullopt) {
  InputMeta m;
  m.name = "x";
  m.dtype = dt;
  m.shape = std::move(shape);
  m.mean = mean;
  m.std = std;
  m.min_val = lo;
  m.max_val = hi;
  return m;
}

std::vector<RuleCase> rule_cases(DType dt) {
  SynthesisOptions plain, graphnet, wide;
  plain.seed = 11;
  graphnet.seed = 11;
  graphnet.zero_std = ZeroStdRule::graphnet;
  wide.seed = 11;
  wide.round = 3;
  wide.spread = 64;
  return {
      {"normal", meta_of(dt, {1001}, 0.25, 2.0), plain},
      {"clamped", meta_of(dt, {999}, 0.0, 40.0, -1.5, 2.25), plain},
      {"clamped_to_100", meta_of(dt, {7}, 1000.0, 1.0), plain},
      {"std_zero_passforge", meta_of(dt, {513}, -3.0, 0.0), plain},
      {"std_zero_mean_zero", meta_of(dt, {513}, 0.0, 0.0), plain},
      {"std_zero_graphnet", meta_of(dt, {513}, -3.0, 0.0), graphnet},
      {"spread_64", meta_of(dt, {1000}, -0.0078, 1e-9), wide},
      {"defaults", meta_of(dt, {1}, std::nullopt, std::nullopt), plain},
      {"int_range", meta_of(dt, {4097}, std::nullopt, std::nullopt, -5, 300), plain},
      {"int_whole_range", meta_of(dt, {333}, std::nullopt, std::nullopt, -1e30, 1e30), plain},
      {"int_flipped", meta_of(dt, {3}, std::nullopt, std::nullopt, 9, 4), plain},
  };
}

// The CPU twin's bytes and the device's for one input.
void expect_identical(GpuRuntime& rt, const InputMeta& meta, const SynthesisOptions& o,
                      const std::string& what) {
  Tensor cpu = synthesize_input(meta, "variant", 2, o);
  auto storage = rt.allocator().allocate(cpu.nbytes(), "synth");
  ASSERT_TRUE(storage.ok()) << storage.error().message;
  DeviceTensor dev = DeviceTensor::contiguous(std::move(*storage), meta.dtype, meta.shape);
  Status st = fill_synthesized(rt, synthesis_stream(meta, "variant", 2, o), dev);
  ASSERT_TRUE(st.ok()) << st.error().message;
  auto got = rt.download(dev);
  ASSERT_TRUE(got.ok()) << got.error().message;
  ASSERT_EQ(got->nbytes(), cpu.nbytes());
  const auto* a = reinterpret_cast<const unsigned char*>(got->data());
  const auto* b = reinterpret_cast<const unsigned char*>(cpu.data());
  size_t differ = 0, first = 0;
  for (size_t i = 0; i < cpu.nbytes(); ++i) {
    if (a[i] != b[i] && differ++ == 0) first = i;
  }
  EXPECT_EQ(differ, 0u) << what << ": " << differ << " bytes differ, first at byte " << first
                        << " (element " << first / dtype_size(meta.dtype) << ")";
}

TEST(GpuSynthesis, EveryDtypeAndRuleIsBitIdenticalToTheCpu) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  for (int d = 0; d < kNumDTypes; ++d) {
    const auto dt = static_cast<DType>(d);
    for (const RuleCase& c : rule_cases(dt)) {
      expect_identical(*rt, c.meta, c.options, std::string(dtype_name(dt)) + " " + c.name);
    }
  }
}

TEST(GpuSynthesis, LargeTensorsAreBitIdentical) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  SynthesisOptions o;
  o.seed = 123456789;
  for (DType dt : {DType::float32, DType::bfloat16, DType::int64}) {
    expect_identical(*rt, meta_of(dt, {(1 << 24) + 3}, -0.5, 1.5, -2.0, 100.0), o,
                     std::string("large ") + dtype_name(dt));
  }
}

TEST(GpuSynthesis, Esm2VariantDrawsTheCpuInputs) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  auto task =
      load_task_file(pf::test::source_dir() / "tasks/linear-mul-truediv-erf-add-mul-2eaa9f.json");
  ASSERT_TRUE(task.ok()) << task.error().message;
  SynthesisOptions o;
  o.seed = 987654321;
  o.round = 1;
  for (const TaskVariant& v : task->variants) {
    if (v.name.find("esm2_t33_650M") == std::string::npos) continue;
    std::vector<Tensor> cpu = synthesize_inputs(v, o);
    auto dev = protocol::draw_device_inputs(*rt, v, o, "esm_");
    ASSERT_TRUE(dev.ok()) << dev.error().message;
    ASSERT_EQ(dev->size(), cpu.size());
    for (size_t k = 0; k < cpu.size(); ++k) {
      auto got = rt->download((*dev)[k]);
      ASSERT_TRUE(got.ok()) << got.error().message;
      ASSERT_EQ(got->nbytes(), cpu[k].nbytes());
      EXPECT_EQ(std::memcmp(got->data(), cpu[k].data(), cpu[k].nbytes()), 0)
          << v.name << " input " << k;
    }
  }
}

TEST(GpuSynthesis, InformativeRuleOnTheGpuPicksTheCpuDraw) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  // relu of inputs around -5 is all zeros until the spread is 16x
  // (tests/unit/tasks/informative_inputs_test.cpp): attempts 0-2 rejected.
  TaskVariant v;
  v.name = "relu_neg";
  v.source =
      "def forward(in_0, in_1):\n    t = torch.relu(in_0)\n    u = t * in_1\n    return (u,)\n";
  v.inputs = {meta_of(DType::float32, {96, 128}, -5.0, 1.0),
              meta_of(DType::float32, {96, 128}, 0.5, 1.0)};
  v.inputs[0].name = "in_0";
  v.inputs[1].name = "in_1";
  auto g = typed_variant_graph(v, OpRegistry::builtin());
  ASSERT_TRUE(g.ok()) << g.error().message;
  OutputRunner cpu_run = [&](const std::vector<Tensor>& inputs) {
    return run_graph_cpu(*g, inputs, OpRegistry::builtin());
  };
  SynthesisOptions o;
  o.seed = 5;
  auto cpu = draw_informative_inputs(v, o, cpu_run);
  ASSERT_TRUE(cpu.ok()) << cpu.error().message;
  protocol::GpuInputDrawer drawer(*rt, v, *g);
  auto gpu = draw_informative_inputs(v, o, drawer);
  ASSERT_TRUE(gpu.ok()) << gpu.error().message;
  EXPECT_TRUE(gpu->informative);
  EXPECT_GT(gpu->attempt, 0);
  EXPECT_EQ(gpu->attempt, cpu->attempt);
  EXPECT_EQ(gpu->rejected, cpu->rejected);
  ASSERT_EQ(gpu->inputs.size(), cpu->inputs.size());
  for (size_t k = 0; k < cpu->inputs.size(); ++k) {
    EXPECT_EQ(std::memcmp(gpu->inputs[k].data(), cpu->inputs[k].data(), cpu->inputs[k].nbytes()), 0)
        << "input " << k;
  }
}

// The runtime loads the prebuilt program where the build made one for this
// device; the NVRTC build of the same source must draw the same bits.
TEST(GpuSynthesis, NvrtcBuildOfTheKernelIsBitIdentical) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  auto nvrtc = nvrtc::NvrtcLibrary::load({});
  ASSERT_TRUE(nvrtc.ok()) << nvrtc.error().message;
  KernelLibrary compiled(rt->driver_ptr(), *nvrtc, nullptr, rt->properties().arch(),
                         {.use_prebuilt = false});
  auto kernel = compiled.get("synth.cu", DType::float32, "pf_synth_fill");
  ASSERT_TRUE(kernel.ok()) << kernel.error().message;
  ASSERT_EQ((*kernel)->param_bytes, sizeof(PfSynthParams));
  SynthesisOptions o;
  o.seed = 77;
  for (DType dt : {DType::float64, DType::float32, DType::float16, DType::bfloat16, DType::int8,
                   DType::int64, DType::boolean}) {
    InputMeta m = meta_of(dt, {100001}, 0.5, 4.0, -1.0, 2.0);
    Tensor cpu = synthesize_input(m, "variant", 0, o);
    auto storage = rt->allocator().allocate(cpu.nbytes(), "nvrtc_synth");
    ASSERT_TRUE(storage.ok()) << storage.error().message;
    DeviceTensor dev = DeviceTensor::contiguous(std::move(*storage), dt, m.shape);
    PfSynthParams p{};
    p.out = dev.data_ptr();
    p.n = dev.numel();
    p.dtype = static_cast<int>(dt);
    p.stream = synthesis_stream(m, "variant", 0, o);
    void* params[1] = {&p};
    const long long pairs = (p.n + 1) / 2;  // one thread per Box-Muller pair
    const auto blocks = static_cast<unsigned>((pairs + PF_EW_THREADS - 1) / PF_EW_THREADS);
    const auto& api = rt->driver().api();
    ASSERT_EQ(api.cuLaunchKernel((*kernel)->function.handle(), blocks, 1, 1, PF_EW_THREADS, 1, 1, 0,
                                 rt->stream(), params, nullptr),
              CUDA_SUCCESS);
    auto got = rt->download(dev);
    ASSERT_TRUE(got.ok()) << got.error().message;
    EXPECT_EQ(std::memcmp(got->data(), cpu.data(), cpu.nbytes()), 0) << dtype_name(dt);
  }
}

}  // namespace
}  // namespace pf::gpu::test
