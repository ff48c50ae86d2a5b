// The protocol's device checks (evaluator/gpu/tensor_checks.h, kernel
// kernels/check.cu): the device digest equals the host's
// (protocol::tensor_digest) for every dtype, odd sizes and a tensor larger
// than the kernel's grid (threads stride), in both builds of the kernel (the
// prebuilt fat binary and NVRTC's); the device count of changed elements is
// exactly protocol::count_changed_elements, NaN payloads included; batches
// keep every tensor's result apart. Skips
// without a GPU.
#include <gtest/gtest.h>

#include <cstring>

#include "evaluator/core/tensor_digest.h"
#include "evaluator/gpu/kernel_library.h"
#include "evaluator/gpu/kernels/pf_abi.cuh"
#include "evaluator/gpu/plan_builder.h"
#include "evaluator/gpu/tensor_checks.h"
#include "evaluator/protocol/integrity_checks.h"
#include "evaluator/tasks/synthesis.h"
#include "tests/support/gpu.h"
#include "tests/unit/gpu/gpu_test_util.h"

namespace pf::gpu::test {
namespace {

constexpr uint64_t kKey = 0x9e3779b97f4a7c15ULL;

// Synthesised values of `dtype` (every bit pattern class the draws make).
Tensor values(DType dtype, int64_t n, uint64_t seed) {
  InputMeta m;
  m.name = "x";
  m.dtype = dtype;
  m.shape = {n};
  m.mean = 0.5;
  m.std = 3.0;
  m.min_val = -1000.0;
  m.max_val = 1000.0;
  SynthesisOptions o;
  o.seed = seed;
  return synthesize_input(m, "checks", 0, o);
}

DeviceTensor upload(GpuRuntime& rt, const Tensor& t) {
  auto d = rt.upload(t, "check_test");
  EXPECT_TRUE(d.ok()) << d.error().message;
  return d.ok() ? *d : DeviceTensor();
}

// One tensor's device digest.
uint64_t digest_of(GpuRuntime& rt, const DeviceTensor& t) {
  auto got = device_digests(rt, {t}, kKey);
  EXPECT_TRUE(got.ok()) << got.error().message;
  return got.ok() && got->size() == 1 ? got->front() : 0;
}

// Every dtype in one batch (each its own counter), per size.
TEST(DeviceChecks, DigestEqualsTheHostsForEveryDtypeAndOddSizes) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  for (int64_t n : {int64_t{1}, int64_t{31}, int64_t{32}, int64_t{33}, int64_t{1000},
                    int64_t{4096} * PF_EW_THREADS + 7}) {
    std::vector<Tensor> host;
    std::vector<DeviceTensor> dev;
    for (int d = 0; d < kNumDTypes; ++d) {
      host.push_back(values(static_cast<DType>(d), n, 7 + static_cast<uint64_t>(n)));
      dev.push_back(upload(*rt, host.back()));
      ASSERT_TRUE(dev.back().defined());
    }
    auto got = device_digests(*rt, dev, kKey);
    ASSERT_TRUE(got.ok()) << got.error().message;
    ASSERT_EQ(got->size(), host.size());
    for (size_t d = 0; d < host.size(); ++d) {
      EXPECT_EQ((*got)[d], protocol::tensor_digest(host[d], kKey))
          << dtype_name(host[d].dtype()) << " n=" << n;
    }
  }
}

TEST(DeviceChecks, DigestSeesOneFlippedBitAndNanPayloads) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  Tensor host = values(DType::float32, 1001, 3);
  uint32_t nan_a = 0x7fc00000, nan_b = 0x7fc00001;
  constexpr std::ptrdiff_t kElement500 = 2000;  // byte offset of float element 500
  std::memcpy(host.mutable_data() + kElement500, &nan_a, 4);
  const uint64_t before = protocol::tensor_digest(host, kKey);
  Tensor payload = host.contiguous_copy();
  std::memcpy(payload.mutable_data() + kElement500, &nan_b, 4);
  Tensor flipped = host.contiguous_copy();
  flipped.mutable_data()[4 * 1000 + 3] ^= std::byte{0x01};
  auto got =
      device_digests(*rt, {upload(*rt, host), upload(*rt, payload), upload(*rt, flipped)}, kKey);
  ASSERT_TRUE(got.ok()) << got.error().message;
  ASSERT_EQ(got->size(), 3u);
  EXPECT_EQ((*got)[0], before);
  EXPECT_EQ((*got)[1], protocol::tensor_digest(payload, kKey));
  EXPECT_EQ((*got)[2], protocol::tensor_digest(flipped, kKey));
  EXPECT_NE((*got)[1], before);
  EXPECT_NE((*got)[2], before);
}

TEST(DeviceChecks, EmptyAndStridedTensors) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  auto storage = rt->allocator().allocate(64, "empty");
  ASSERT_TRUE(storage.ok());
  DeviceTensor empty = DeviceTensor::contiguous(*storage, DType::float16, {0, 3});
  Tensor six = values(DType::float32, 6, 1);
  DeviceTensor base = upload(*rt, six);
  // An empty tensor launches nothing; its neighbour in the batch is unaffected.
  auto got = device_digests(*rt, {empty, base}, kKey);
  ASSERT_TRUE(got.ok()) << got.error().message;
  ASSERT_EQ(got->size(), 2u);
  EXPECT_EQ((*got)[0], protocol::tensor_digest(Tensor::zeros(DType::float16, {0, 3}), kKey));
  EXPECT_EQ((*got)[1], protocol::tensor_digest(six, kKey));
  // A transposed view is not read directly: the protocol downloads it.
  DeviceTensor transposed = DeviceTensor::view_of(base, {3, 2}, {1, 3}, 0);
  EXPECT_FALSE(device_checkable(transposed));
  EXPECT_FALSE(device_digests(*rt, {transposed}, kKey).ok());
  // A contiguous view at an offset is read where it starts.
  DeviceTensor tail = DeviceTensor::view_of(base, {2, 2}, {2, 1}, 2);
  EXPECT_TRUE(device_checkable(tail));
  EXPECT_EQ(digest_of(*rt, tail),
            protocol::tensor_digest(Tensor::view_of(six, {2, 2}, {2, 1}, 2), kKey));
}

TEST(DeviceChecks, CountsExactlyTheChangedElements) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  std::vector<DeviceTensor> changed_dev, truth_dev;
  std::vector<int64_t> expected_counts;
  for (DType dt : {DType::boolean, DType::int8, DType::int16, DType::bfloat16, DType::float16,
                   DType::float32, DType::int64, DType::float64}) {
    const int64_t n = 100003;
    Tensor truth = values(dt, n, 11);
    Tensor changed = truth.contiguous_copy();
    const size_t es = dtype_size(dt);
    // 37 elements changed in one bit each (first, last, spread between),
    // one of them twice (still one element).
    int64_t expected = 0;
    for (int64_t i = 0; i < n; i += n / 36) {
      changed.mutable_data()[static_cast<size_t>(i) * es] ^= std::byte{0x10};
      ++expected;
    }
    changed.mutable_data()[static_cast<size_t>(n - 1) * es + es - 1] ^= std::byte{0x40};
    ++expected;
    changed.mutable_data()[es - 1] ^= std::byte{0x02};  // element 0 again
    ASSERT_EQ(protocol::count_changed_elements(changed, truth), expected) << dtype_name(dt);
    // Each pair twice in the batch: changed, then unchanged.
    changed_dev.push_back(upload(*rt, changed));
    truth_dev.push_back(upload(*rt, truth));
    expected_counts.push_back(expected);
    changed_dev.push_back(upload(*rt, truth));
    const DeviceTensor same = truth_dev.back();
    truth_dev.push_back(same);
    expected_counts.push_back(0);
  }
  auto counts = count_changed_on_device(*rt, changed_dev, truth_dev);
  ASSERT_TRUE(counts.ok()) << counts.error().message;
  EXPECT_EQ(*counts, expected_counts);
  // A NaN whose payload changed is a changed element, as on the host.
  Tensor a = values(DType::float32, 5, 2), b = a.contiguous_copy();
  uint32_t nan_a = 0x7fc00000, nan_b = 0x7fc00002;
  std::memcpy(a.mutable_data() + 8, &nan_a, 4);
  std::memcpy(b.mutable_data() + 8, &nan_b, 4);
  auto got = count_changed_on_device(*rt, {upload(*rt, a)}, {upload(*rt, b)});
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ(*got, std::vector<int64_t>{1});
  EXPECT_EQ(protocol::count_changed_elements(a, b), 1);
}

// The NVRTC build of check.cu computes the same digest as the prebuilt one
// the runtime loads, and as the host.
TEST(DeviceChecks, NvrtcBuildOfTheKernelAgrees) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  auto nvrtc = nvrtc::NvrtcLibrary::load({});
  ASSERT_TRUE(nvrtc.ok()) << nvrtc.error().message;
  KernelLibrary compiled(rt->driver_ptr(), *nvrtc, nullptr, rt->properties().arch(),
                         {.use_prebuilt = false});
  auto kernel = compiled.get("check.cu", DType::float32, "pf_digest_sum");
  ASSERT_TRUE(kernel.ok()) << kernel.error().message;
  ASSERT_EQ((*kernel)->param_bytes, sizeof(PfDigestParams));
  for (DType dt : {DType::float64, DType::bfloat16, DType::uint8}) {
    Tensor host = values(dt, 77777, 5);
    DeviceTensor dev = upload(*rt, host);
    DeviceTensor sum = upload(*rt, Tensor::zeros(DType::int64, {1}));
    PfDigestParams p{};
    p.data = dev.data_ptr();
    p.sum = sum.data_ptr();
    p.key = kKey;
    p.n = dev.numel();
    p.dtype = static_cast<int>(dt);
    void* params[1] = {&p};
    const auto blocks = static_cast<unsigned>((p.n + PF_EW_THREADS - 1) / PF_EW_THREADS);
    const auto& api = rt->driver().api();
    ASSERT_EQ(api.cuLaunchKernel((*kernel)->function.handle(), blocks, 1, 1, PF_EW_THREADS, 1, 1, 0,
                                 rt->stream(), params, nullptr),
              CUDA_SUCCESS);
    auto raw = rt->download(sum);
    ASSERT_TRUE(raw.ok()) << raw.error().message;
    uint64_t s = 0;
    std::memcpy(&s, raw->data(), 8);
    const uint64_t nvrtc_digest = pf_digest_finish(kKey, s, p.n, p.dtype);
    EXPECT_EQ(nvrtc_digest, protocol::tensor_digest(host, kKey)) << dtype_name(dt);
    EXPECT_EQ(digest_of(*rt, dev), nvrtc_digest) << dtype_name(dt);
  }
}

// The device guard check must see what the host check sees: nothing on an
// intact plan, and on a damaged guard the host's own report naming the
// buffer (before and after the payload, in the second launch of a plan with
// more guards than one launch takes).
TEST(DeviceChecks, PlanGuardsCheckedOnTheDeviceReportLikeTheHost) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  PlanBuilder b(*rt);
  std::vector<DeviceTensor> ts;
  for (int k = 0; k < PF_GUARD_BATCH; ++k) {  // 2 guards each: two launches
    auto t = b.allocate(TensorType{DType::float32, {33 + k}}, "guarded_" + std::to_string(k));
    ASSERT_TRUE(t.ok()) << t.error().message;
    ts.push_back(*t);
  }
  Plan plan = b.finish();
  ASSERT_TRUE(rt->synchronize_device().ok());
  EXPECT_TRUE(check_plan_guards(*rt, plan).ok());
  const auto& d = rt->driver();
  const cuda::DeviceBuffer& last = ts.back().storage()->buffer();
  ASSERT_EQ(d.api().cuMemsetD8(last.data() + last.size() + 100, 0x00, 1), CUDA_SUCCESS);
  Status after = check_plan_guards(*rt, plan);
  ASSERT_FALSE(after.ok());
  EXPECT_NE(after.error().message.find("guarded_" + std::to_string(PF_GUARD_BATCH - 1)),
            std::string::npos)
      << after.error().message;
  EXPECT_EQ(after.error().message, plan.check_guards().error().message);
  const cuda::DeviceBuffer& first = ts.front().storage()->buffer();
  ASSERT_EQ(d.api().cuMemsetD8(first.data() - 1, 0x11, 1), CUDA_SUCCESS);
  Status before = check_plan_guards(*rt, plan);
  ASSERT_FALSE(before.ok());
  EXPECT_NE(before.error().message.find("guarded_0"), std::string::npos) << before.error().message;
}

// The protocol's batch: a plan's guards and its inputs' changes read back
// together, each verdict as the separate checks give it.
TEST(DeviceChecks, PlanCheckBatchesGuardsAndInputCounts) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  PlanBuilder b(*rt);
  auto t = b.allocate(TensorType{DType::float32, {1000}}, "guarded_out");
  ASSERT_TRUE(t.ok()) << t.error().message;
  Plan plan = b.finish();
  Tensor truth = values(DType::float32, 4097, 3);
  Tensor changed = truth.contiguous_copy();
  constexpr size_t kFloatBytes = sizeof(float);
  changed.mutable_data()[kFloatBytes * 17] ^= std::byte{0x01};
  changed.mutable_data()[kFloatBytes * 4096 + 3] ^= std::byte{0x80};
  const std::vector<DeviceTensor> inputs = {upload(*rt, changed), upload(*rt, truth)};
  const std::vector<DeviceTensor> expected = {upload(*rt, truth), upload(*rt, truth)};
  ASSERT_TRUE(rt->synchronize_device().ok());
  auto intact = check_plan(*rt, plan, inputs, expected);
  ASSERT_TRUE(intact.ok()) << intact.error().message;
  EXPECT_TRUE(intact->guards.ok());
  EXPECT_EQ(intact->changed, (std::vector<int64_t>{2, 0}));
  const cuda::DeviceBuffer& buf = t->storage()->buffer();
  ASSERT_EQ(rt->driver().api().cuMemsetD8(buf.data() + buf.size() + 7, 0x00, 1), CUDA_SUCCESS);
  auto damaged = check_plan(*rt, plan, inputs, expected);
  ASSERT_TRUE(damaged.ok()) << damaged.error().message;
  ASSERT_FALSE(damaged->guards.ok());
  EXPECT_EQ(damaged->guards.error().message, plan.check_guards().error().message);
  EXPECT_EQ(damaged->changed, (std::vector<int64_t>{2, 0}));
  // Unlike tensors are an error of the check, not a verdict.
  EXPECT_FALSE(check_plan(*rt, plan, inputs, {expected[0]}).ok());
}

TEST(DeviceChecks, PlanChecksOfSeveralPlansShareOneBatchAndKeepTheirOrder) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  PlanBuilder b0(*rt);
  auto t0 = b0.allocate(TensorType{DType::float32, {1000}}, "set0_out");
  ASSERT_TRUE(t0.ok()) << t0.error().message;
  Plan plan0 = b0.finish();
  PlanBuilder b1(*rt);
  auto t1 = b1.allocate(TensorType{DType::float32, {300}}, "set1_out");
  ASSERT_TRUE(t1.ok()) << t1.error().message;
  Plan plan1 = b1.finish();
  Tensor truth = values(DType::float32, 513, 5);
  Tensor changed = truth.contiguous_copy();
  changed.mutable_data()[sizeof(float) * 100] ^= std::byte{0x04};
  const std::vector<DeviceTensor> intact = {upload(*rt, truth)};
  const std::vector<DeviceTensor> modified = {upload(*rt, changed), upload(*rt, truth)};
  const std::vector<DeviceTensor> expected1 = {upload(*rt, truth)};
  const std::vector<DeviceTensor> expected2 = {upload(*rt, truth), upload(*rt, truth)};
  ASSERT_TRUE(rt->synchronize_device().ok());
  // Set 0's plan is damaged and its input intact; set 1's plan intact and one
  // of its inputs changed: each verdict stays with its own plan.
  const cuda::DeviceBuffer& buf = t0->storage()->buffer();
  ASSERT_EQ(rt->driver().api().cuMemsetD8(buf.data() - 3, 0x00, 1), CUDA_SUCCESS);
  auto both = check_plans(*rt, {{&plan0, &intact, &expected1}, {&plan1, &modified, &expected2}});
  ASSERT_TRUE(both.ok()) << both.error().message;
  ASSERT_EQ(both->size(), 2u);
  ASSERT_FALSE((*both)[0].guards.ok());
  EXPECT_EQ((*both)[0].guards.error().message, plan0.check_guards().error().message);
  EXPECT_EQ((*both)[0].changed, (std::vector<int64_t>{0}));
  EXPECT_TRUE((*both)[1].guards.ok());
  EXPECT_EQ((*both)[1].changed, (std::vector<int64_t>{1, 0}));
  // The same as each plan checked alone.
  auto alone1 = check_plan(*rt, plan1, modified, expected2);
  ASSERT_TRUE(alone1.ok()) << alone1.error().message;
  EXPECT_EQ(alone1->changed, (*both)[1].changed);
  // A request without inputs checks its guards only.
  auto guards_only = check_plans(*rt, {{&plan1, nullptr, nullptr}});
  ASSERT_TRUE(guards_only.ok()) << guards_only.error().message;
  EXPECT_TRUE((*guards_only)[0].guards.ok());
  EXPECT_TRUE((*guards_only)[0].changed.empty());
}

}  // namespace
}  // namespace pf::gpu::test
