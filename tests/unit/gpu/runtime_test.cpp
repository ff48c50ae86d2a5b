// The GPU runtime on a device: caching allocator reuse and guards, kernel
// library memoisation, plans (re-runnable, views free), the graph plan's
// input checks and hook, and the timing harness (interleaving, input-set
// rotation, re-checks of timed outputs). Skips without a GPU.
#include <gtest/gtest.h>

#include <iostream>

#include "evaluator/dialect/graph_builder.h"
#include "evaluator/gpu/elementwise.h"
#include "evaluator/gpu/fatbin.h"
#include "evaluator/gpu/graph_plan.h"
#include "evaluator/gpu/kernels/pf_abi.cuh"
#include "evaluator/gpu/prebuilt_kernels.h"
#include "evaluator/gpu/timing.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/type_inference.h"
#include "tests/support/gpu.h"
#include "tests/unit/gpu/gpu_test_util.h"

namespace pf::gpu::test {
namespace {

TEST(GpuRuntime, AllocatorReusesBlocksAndTrims) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  CachingAllocator alloc(rt->driver_ptr());
  CUdeviceptr first = 0;
  {
    auto a = alloc.allocate(1000, "a");
    ASSERT_TRUE(a.ok()) << a.error().message;
    first = (*a)->data();
    EXPECT_EQ((*a)->size(), 1000u);
  }
  AllocatorStats s1 = alloc.stats();
  EXPECT_EQ(s1.device_allocs, 1u);
  EXPECT_EQ(s1.bytes_in_use, 0u);
  EXPECT_EQ(s1.bytes_cached, 1024u);
  auto b = alloc.allocate(900, "b");  // same 1024-byte class
  ASSERT_TRUE(b.ok());
  EXPECT_EQ((*b)->data(), first);
  EXPECT_EQ(alloc.stats().cache_hits, 1u);
  auto guards = (*b)->buffer().check_guards();
  ASSERT_TRUE(guards.ok());
  EXPECT_TRUE(guards->empty());
  b = make_error(ErrorCode::internal, "released");
  alloc.trim();
  EXPECT_EQ(alloc.stats().bytes_cached, 0u);
  EXPECT_EQ(alloc.stats().device_frees, 1u);
}

// An owner whose kernel wrote past its block returns it damaged; whoever
// gets the block next must not be blamed for that (on the H200 every later
// evaluation in the worker was flagged canary_overwritten, naming the old
// owner's buffer).
TEST(GpuRuntime, ReusedBlockComesBackWithIntactGuardsAndItsNewName) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  CachingAllocator alloc(rt->driver_ptr());
  {
    auto a = alloc.allocate(1024, "overrunner");
    ASSERT_TRUE(a.ok()) << a.error().message;
    const cuda::DeviceBuffer& buf = (*a)->buffer();
    const auto& d = rt->driver();
    ASSERT_EQ(d.api().cuMemsetD8(buf.data() + buf.size(), 0x00, 64), CUDA_SUCCESS);
    auto damaged = buf.check_guards();
    ASSERT_TRUE(damaged.ok());
    ASSERT_EQ(damaged->size(), 1u);
  }
  auto b = alloc.allocate(1000, "honest");
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_EQ(alloc.stats().cache_hits, 1u);
  EXPECT_EQ((*b)->buffer().name(), "honest");
  auto guards = (*b)->buffer().check_guards();
  ASSERT_TRUE(guards.ok());
  EXPECT_TRUE(guards->empty()) << (guards->empty() ? "" : (*guards)[0].describe());
}

// scrub() must leave every free block zero, yet write only the blocks freed
// since the last scrub (the whole cache every variant cost 38 ms per
// evaluation on the H200). A block written, released and scrubbed comes back
// zero; scrubbing again writes nothing; a block written again after being
// handed out is dirty again.
TEST(GpuRuntime, ScrubZeroesOnlyBlocksFreedSinceTheLastScrub) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  CachingAllocator alloc(rt->driver_ptr());
  const auto& d = rt->driver();
  auto read_back = [&](const DeviceStorage& s) {
    std::vector<uint8_t> host(s.size());
    EXPECT_EQ(d.api().cuCtxSynchronize(), CUDA_SUCCESS);
    EXPECT_EQ(d.api().cuMemcpyDtoH(host.data(), s.data(), host.size()), CUDA_SUCCESS);
    return host;
  };
  auto write_and_release = [&](const std::string& name) {
    auto a = alloc.allocate(4096, name);
    ASSERT_TRUE(a.ok()) << a.error().message;
    ASSERT_EQ(d.api().cuMemsetD8((*a)->data(), 0x5A, 4096), CUDA_SUCCESS);
  };
  write_and_release("secret");
  ASSERT_TRUE(alloc.scrub().ok());
  EXPECT_EQ(alloc.stats().bytes_scrubbed, 4096u);
  ASSERT_TRUE(alloc.scrub().ok());
  EXPECT_EQ(alloc.stats().bytes_scrubbed, 4096u) << "a clean block was written again";
  {
    auto b = alloc.allocate(4096, "next");
    ASSERT_TRUE(b.ok());
    for (uint8_t v : read_back(**b)) ASSERT_EQ(v, 0);
  }
  // Handed out and returned unwritten: still counted dirty (its owner could
  // have written it), zero afterwards.
  ASSERT_TRUE(alloc.scrub().ok());
  EXPECT_EQ(alloc.stats().bytes_scrubbed, 8192u);
  write_and_release("secret again");
  ASSERT_TRUE(alloc.scrub().ok());
  auto c = alloc.allocate(4096, "last");
  ASSERT_TRUE(c.ok());
  for (uint8_t v : read_back(**c)) ASSERT_EQ(v, 0);
  EXPECT_EQ(alloc.stats().bytes_scrubbed, 12288u);
}

TEST(GpuRuntime, KernelLibraryMemoisesModules) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  auto k1 = rt->kernels().get("ew_arith.cu", DType::float32, "pf_add_vec");
  ASSERT_TRUE(k1.ok()) << k1.error().message;
  auto before = rt->kernels().stats();
  auto k2 = rt->kernels().get("ew_arith.cu", DType::float32, "pf_add_vec");
  ASSERT_TRUE(k2.ok());
  EXPECT_EQ(*k1, *k2);
  auto after = rt->kernels().stats();
  EXPECT_EQ(before.programs_prebuilt + before.programs_compiled + before.programs_cached,
            after.programs_prebuilt + after.programs_compiled + after.programs_cached);
  EXPECT_EQ((*k1)->param_bytes, sizeof(PfElementwiseParams));
  auto missing = rt->kernels().get("ew_arith.cu", DType::float32, "pf_nope");
  EXPECT_FALSE(missing.ok());
}

// Cold start: on an architecture the build prebuilt, a program is a driver
// load (no NVRTC) and its kernels have the layouts the NVRTC path reads from
// the cubin.
TEST(GpuRuntime, KernelLibraryLoadsPrebuiltProgramsWithoutNvrtc) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  auto nvrtc = nvrtc::NvrtcLibrary::load({});
  ASSERT_TRUE(nvrtc.ok()) << nvrtc.error().message;
  const std::string arch = rt->properties().arch();
  KernelLibrary prebuilt(rt->driver_ptr(), *nvrtc, nullptr, arch);
  KernelLibrary compiled(rt->driver_ptr(), *nvrtc, nullptr, arch, {.use_prebuilt = false});
  for (const char* name : {"pf_add_vec", "pf_add_strided"}) {
    auto a = prebuilt.get("ew_arith.cu", DType::float16, name);
    auto b = compiled.get("ew_arith.cu", DType::float16, name);
    ASSERT_TRUE(a.ok()) << a.error().message;
    ASSERT_TRUE(b.ok()) << b.error().message;
    EXPECT_EQ((*a)->param_bytes, (*b)->param_bytes) << name;
    EXPECT_EQ((*a)->param_bytes, sizeof(PfElementwiseParams)) << name;
  }
  EXPECT_FALSE(prebuilt.get("ew_arith.cu", DType::float16, "pf_nope").ok());
  EXPECT_EQ(compiled.stats().programs_prebuilt, 0u);
  EXPECT_EQ(compiled.stats().programs_compiled, 1u);
  const PrebuiltProgram* p = find_prebuilt_program("kernels/ew_arith.float16.cu");
  auto entries = p != nullptr ? read_fatbin_entries(p->fatbin)
                              : Result<std::vector<FatbinEntry>>(std::vector<FatbinEntry>{});
  ASSERT_TRUE(entries.ok());
  if (!fatbin_serves(*entries, parse_sm_arch(arch))) {
    GTEST_SKIP() << "this build prebuilt no code for " << arch
                 << " (PF_GPU_KERNEL_ARCHS=" << prebuilt_kernel_archs() << ")";
  }
  EXPECT_EQ(prebuilt.stats().programs_prebuilt, 1u);
  EXPECT_EQ(prebuilt.stats().programs_compiled + prebuilt.stats().programs_cached, 0u);
  std::cout << "prebuilt load " << prebuilt.stats().prebuilt_load_ms << " ms, NVRTC "
            << compiled.stats().compile_ms << " ms\n";
}

TEST(GpuRuntime, PlansRerunAndViewsAddNoSteps) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  Graph g = typed_graph(
      "def f(x):\n    y = x.transpose(0, 1)\n    z = y.unsqueeze(0)\n    return (z * 2,)\n",
      {{DType::float32, {3, 4}}});
  std::mt19937_64 rng(1);
  HostInput x = random_input(DType::float32, {3, 4}, Layout::contiguous, -1, 1, rng);
  auto dx = upload_input(*rt, x);
  ASSERT_TRUE(dx.ok());
  PlanBuilder b(*rt);
  auto outs = build_graph_plan(g, {*dx}, b);
  ASSERT_TRUE(outs.ok()) << outs.error().message;
  Plan plan = b.finish();
  EXPECT_EQ(plan.size(), 1u) << plan.describe();
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(plan.run(rt->stream()).ok());
  auto host = rt->download((*outs)[0]);
  ASSERT_TRUE(host.ok());
  EXPECT_EQ(host->shape(), (Shape{1, 4, 3}));
  EXPECT_DOUBLE_EQ(host->get(1), 2 * x.view.get(4));  // [0, 0, 1] = 2 * x[1, 0]
  EXPECT_TRUE(plan.check_guards().ok());
}

TEST(GpuRuntime, GraphPlanChecksInputsAndHonoursTheHook) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  Graph g = typed_graph("def f(x):\n    return (torch.relu(x) + 1,)\n", {{DType::float32, {8}}});
  auto wrong = rt->upload(Tensor::zeros(DType::float16, {8}), "wrong");
  ASSERT_TRUE(wrong.ok());
  PlanBuilder b(*rt);
  auto bad = build_graph_plan(g, {*wrong}, b);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("float32[8]"), std::string::npos) << bad.error().message;

  auto x = rt->upload(Tensor::from_doubles(DType::float32, {8}, {-1, 2, -3, 4, -5, 6, -7, 8}), "x");
  ASSERT_TRUE(x.ok());
  int hooked = 0;
  NodeHook hook = [&](const Graph& graph, int index,
                      const std::vector<std::vector<DeviceTensor>>& env,
                      PlanBuilder& plan) -> Result<std::optional<std::vector<DeviceTensor>>> {
    const Node& n = graph.nodes[index];
    if (n.op != "relu") return std::optional<std::vector<DeviceTensor>>{};
    ++hooked;  // replace relu by neg, as a candidate's replacement would
    EwLaunch l{"ew_arith.cu",
               "neg",
               DType::float32,
               DType::float32,
               {EwOperand::of(env[n.args[0].value][0])},
               0,
               {},
               {},
               {8}};
    PF_ASSIGN(DeviceTensor y, launch_elementwise(plan, l));
    return std::optional<std::vector<DeviceTensor>>{std::vector<DeviceTensor>{y}};
  };
  PlanBuilder b2(*rt);
  auto outs = build_graph_plan(g, {*x}, b2, hook);
  ASSERT_TRUE(outs.ok()) << outs.error().message;
  EXPECT_EQ(hooked, 1);
  Plan plan = b2.finish();
  ASSERT_TRUE(plan.run(rt->stream()).ok());
  auto host = rt->download((*outs)[0]);
  ASSERT_TRUE(host.ok());
  EXPECT_DOUBLE_EQ(host->get(0), 2.0);   // -(-1) + 1
  EXPECT_DOUBLE_EQ(host->get(1), -1.0);  // -(2) + 1
}

TEST(TimingHarness, InterleavesRotatesAndRechecks) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  Graph g =
      typed_graph("def f(x):\n    return (torch.exp(x) * 2,)\n", {{DType::float32, {1 << 20}}});
  std::mt19937_64 rng(3);
  std::vector<Plan> plans;
  std::vector<DeviceTensor> outs;
  for (int set = 0; set < 2; ++set) {
    HostInput x = random_input(DType::float32, {1 << 20}, Layout::contiguous, -1, 1, rng);
    auto dx = upload_input(*rt, x);
    ASSERT_TRUE(dx.ok());
    PlanBuilder b(*rt);
    auto o = build_graph_plan(g, {*dx}, b);
    ASSERT_TRUE(o.ok()) << o.error().message;
    outs.push_back((*o)[0]);
    plans.push_back(b.finish());
  }
  auto harness = TimingHarness::create(*rt);
  ASSERT_TRUE(harness.ok()) << harness.error().message;
  TimingOptions opt;
  opt.warmup = 3;
  opt.trials = 20;
  opt.check_every = 5;
  std::vector<std::pair<int, size_t>> checks;
  auto checker = [&](int side, int, size_t plan_index) -> Status {
    checks.emplace_back(side, plan_index);
    PF_ASSIGN(Tensor t, rt->download(outs[plan_index]));
    if (!(t.get(0) > 0)) return make_error(ErrorCode::internal, "output not written");
    return ok_status();
  };
  auto r = (*harness)->time_interleaved(Runnable{"a", {&plans[0], &plans[1]}},
                                        Runnable{"b", {&plans[1], &plans[0]}}, opt, checker);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->a.device_ms.size(), 20u);
  EXPECT_EQ(r->b.e2e_ms.size(), 20u);
  EXPECT_GT(r->a.device.median, 0.0);
  EXPECT_GE(r->a.e2e.median, r->a.device.median * 0.5);
  EXPECT_EQ(r->a.launch, "graph");  // replayed graphs wrote the outputs the checker read
  EXPECT_EQ(r->b.launch, "graph");
  EXPECT_TRUE(r->a.graph_fallback.empty()) << r->a.graph_fallback;
  // After trials 4, 9, 14, 19 on both sides, in every attempt (a re-measure
  // of an unstable side checks again).
  EXPECT_EQ(r->checks, 8 * r->attempts);
  ASSERT_EQ(checks.size(), static_cast<size_t>(r->checks));
  EXPECT_EQ(checks[0], (std::pair<int, size_t>{0, 0}));  // trial 4 ran plan 4 % 2 = 0
  EXPECT_EQ(checks[2], (std::pair<int, size_t>{0, 1}));  // trial 9 ran plan 1
  std::printf("timing: a %.4f ms (iqr %.4f), b %.4f ms; e2e a %.4f ms\n", r->a.device.median,
              r->a.device.iqr, r->b.device.median, r->a.e2e.median);

  // The preparer runs before every trial of each side (warm-up included),
  // with the plan about to run, and its error stops the measurement.
  std::vector<std::pair<int, size_t>> prepared;
  auto prepare = [&](int side, size_t plan_index) -> Status {
    prepared.emplace_back(side, plan_index);
    return ok_status();
  };
  auto p =
      (*harness)->time_interleaved(Runnable{"a", {&plans[0], &plans[1]}},
                                   Runnable{"b", {&plans[1], &plans[0]}}, opt, nullptr, prepare);
  ASSERT_TRUE(p.ok()) << p.error().message;
  ASSERT_EQ(prepared.size(), static_cast<size_t>(2 * (3 + 20 * p->attempts)));
  EXPECT_EQ(prepared[0], (std::pair<int, size_t>{0, 0}));
  EXPECT_EQ(prepared[3], (std::pair<int, size_t>{1, 1}));  // warm-up 1 of b: plan 1
  auto refused = (*harness)->time_interleaved(
      Runnable{"a", {&plans[0]}}, Runnable{"b", {&plans[1]}}, opt, nullptr,
      [](int, size_t) -> Status { return make_error(ErrorCode::internal, "cannot poison"); });
  ASSERT_FALSE(refused.ok());

  auto failing = (*harness)->time_interleaved(
      Runnable{"a", {&plans[0]}}, Runnable{"b", {&plans[1]}}, opt,
      [](int, int, size_t) -> Status { return make_error(ErrorCode::internal, "mismatch"); });
  ASSERT_FALSE(failing.ok());
  EXPECT_NE(failing.error().message.find("timed trial"), std::string::npos);
  auto empty = (*harness)->time_interleaved(Runnable{"a", {}}, Runnable{"b", {&plans[1]}}, opt);
  EXPECT_FALSE(empty.ok());

  // A step that synchronises cannot be captured: both sides fall back to
  // stream launches (one comparison never mixes the two) and say why.
  PlanBuilder sync_builder(*rt);
  const cuda::CudaDriver* driver = &rt->driver();
  sync_builder.add_library_call("synchronising step", [driver](CUstream s) {
    return driver->check(driver->api().cuStreamSynchronize(s), "cuStreamSynchronize");
  });
  Plan syncing = sync_builder.finish();
  auto mixed = (*harness)->time_interleaved(Runnable{"a", {&plans[0]}},
                                            Runnable{"syncing", {&syncing}}, opt);
  ASSERT_TRUE(mixed.ok()) << mixed.error().message;
  EXPECT_EQ(mixed->a.launch, "stream");
  EXPECT_EQ(mixed->b.launch, "stream");
  EXPECT_NE(mixed->a.graph_fallback.find("capturing 'syncing'"), std::string::npos)
      << mixed->a.graph_fallback;
  std::printf("fallback: %s\n", mixed->a.graph_fallback.c_str());
  // Asked for stream launches, none are captured.
  opt.graph_replay = false;
  auto streamed = (*harness)->time_single(Runnable{"a", {&plans[0]}}, opt);
  ASSERT_TRUE(streamed.ok()) << streamed.error().message;
  EXPECT_EQ(streamed->launch, "stream");
  EXPECT_TRUE(streamed->graph_fallback.empty());
}

}  // namespace
}  // namespace pf::gpu::test
