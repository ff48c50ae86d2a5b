#include "evaluator/gpu/tensor_checks.h"

#include <algorithm>
#include <cstring>

#include "evaluator/core/tensor_digest.h"
#include "evaluator/gpu/kernels/pf_abi.cuh"
#include "evaluator/gpu/plan_builder.h"

namespace pf::gpu {
namespace {

// Enough blocks to fill an H200 several times over; each thread strides.
constexpr int64_t kMaxBlocks = 4096;

cuda::LaunchConfig strided_launch(int64_t n) {
  return linear_launch(std::min(n, kMaxBlocks * PF_EW_THREADS), PF_EW_THREADS, PF_EW_THREADS);
}

// A zeroed 64-bit device counter the kernels add into.
Result<DeviceTensor> zeroed_counter(GpuRuntime& rt, const char* name) {
  PF_ASSIGN(auto storage, rt.allocator().allocate(sizeof(uint64_t), name));
  PF_TRY(storage->buffer().fill_bytes(0));
  PF_TRY(rt.synchronize_device());
  return DeviceTensor::contiguous(std::move(storage), DType::int64, {1});
}

// Runs the kernel, reads the counter and zeroes it again.
template <typename P>
Result<uint64_t> run_counter(GpuRuntime& rt, const DeviceTensor& counter, const char* kernel,
                             int64_t n, const P& params) {
  PlanBuilder b(rt);
  PF_TRY(b.add_kernel("check.cu", DType::float32, kernel, strided_launch(n), params));
  PF_TRY(b.finish().run(rt.stream()));
  PF_ASSIGN(Tensor host, rt.download(counter));
  PF_TRY(counter.storage()->buffer().fill_bytes(0));
  PF_TRY(rt.synchronize_device());
  uint64_t value = 0;
  std::memcpy(&value, host.data(), sizeof value);
  return value;
}

}  // namespace

bool device_checkable(const DeviceTensor& t) {
  return t.defined() && t.is_contiguous() && t.check_in_bounds().ok();
}

Result<uint64_t> device_digest(GpuRuntime& rt, const DeviceTensor& t, uint64_t key) {
  if (!device_checkable(t)) {
    return make_error(ErrorCode::internal, "device digest of a non-contiguous tensor");
  }
  const int64_t n = t.numel();
  uint64_t sum = 0;
  if (n > 0) {
    PF_ASSIGN(DeviceTensor counter, zeroed_counter(rt, "check_digest"));
    PfDigestParams p{};
    p.data = t.data_ptr();
    p.sum = counter.data_ptr();
    p.key = key;
    p.n = n;
    p.dtype = static_cast<int>(t.dtype());
    PF_ASSIGN(sum, run_counter(rt, counter, "pf_digest_sum", n, p));
  }
  return pf_digest_finish(key, sum, n, static_cast<int>(t.dtype()));
}

Result<int64_t> count_changed_on_device(GpuRuntime& rt, const DeviceTensor& a,
                                        const DeviceTensor& b) {
  if (!device_checkable(a) || !device_checkable(b) || a.dtype() != b.dtype() ||
      a.numel() != b.numel()) {
    return make_error(ErrorCode::internal, "device comparison of unlike or strided tensors");
  }
  const int64_t n = a.numel();
  if (n == 0) return int64_t{0};
  PF_ASSIGN(DeviceTensor counter, zeroed_counter(rt, "check_changed"));
  PfCountChangedParams p{};
  p.a = a.data_ptr();
  p.b = b.data_ptr();
  p.count = counter.data_ptr();
  p.n = n;
  p.dtype = static_cast<int>(a.dtype());
  PF_ASSIGN(uint64_t changed, run_counter(rt, counter, "pf_count_changed", n, p));
  return static_cast<int64_t>(changed);
}

}  // namespace pf::gpu
