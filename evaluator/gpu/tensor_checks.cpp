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

// `slots` zeroed 64-bit device counters; `add(builder, k, address)` queues
// the kernel that adds into counter k (or nothing: it stays 0). The counters
// are read back in one copy and zeroed again. Zeroing is queued on the
// runtime's stream, ahead of the kernels and of anything that runs after
// (the candidate's plans run there too), so the only wait is the read-back.
template <typename Add>
Result<std::vector<uint64_t>> run_counters(GpuRuntime& rt, size_t slots, const char* name,
                                           Add&& add) {
  std::vector<uint64_t> values(slots, 0);
  if (slots == 0) return values;
  PF_ASSIGN(auto storage, rt.allocator().allocate(slots * sizeof(uint64_t), name));
  const cuda::PoisonFill zero{cuda::PoisonKind::byte, 0};
  PF_TRY(storage->buffer().poison(zero, rt.stream()));
  const DeviceTensor counters =
      DeviceTensor::contiguous(std::move(storage), DType::int64, {static_cast<int64_t>(slots)});
  PlanBuilder b(rt);
  for (size_t k = 0; k < slots; ++k) {
    PF_TRY(add(b, k, counters.data_ptr() + k * sizeof(uint64_t)));
  }
  PF_TRY(b.finish().run(rt.stream()));
  PF_ASSIGN(Tensor host, rt.download(counters));
  PF_TRY(counters.storage()->buffer().poison(zero, rt.stream()));
  std::memcpy(values.data(), host.data(), slots * sizeof(uint64_t));
  return values;
}

}  // namespace

bool device_checkable(const DeviceTensor& t) {
  return t.defined() && t.is_contiguous() && t.check_in_bounds().ok();
}

Result<std::vector<uint64_t>> device_digests(GpuRuntime& rt, const std::vector<DeviceTensor>& ts,
                                             uint64_t key) {
  for (const DeviceTensor& t : ts) {
    if (!device_checkable(t)) {
      return make_error(ErrorCode::internal, "device digest of a non-contiguous tensor");
    }
  }
  auto add = [&](PlanBuilder& b, size_t k, CUdeviceptr sum) -> Status {
    const DeviceTensor& t = ts[k];
    if (t.numel() == 0) return ok_status();
    PfDigestParams p{};
    p.data = t.data_ptr();
    p.sum = sum;
    p.key = key;
    p.n = t.numel();
    p.dtype = static_cast<int>(t.dtype());
    return b.add_kernel("check.cu", DType::float32, "pf_digest_sum", strided_launch(p.n), p);
  };
  PF_ASSIGN(std::vector<uint64_t> sums, run_counters(rt, ts.size(), "check_digest", add));
  for (size_t k = 0; k < ts.size(); ++k) {
    sums[k] = pf_digest_finish(key, sums[k], ts[k].numel(), static_cast<int>(ts[k].dtype()));
  }
  return sums;
}

namespace {

Status check_comparable(const std::vector<DeviceTensor>& a, const std::vector<DeviceTensor>& b) {
  if (a.size() != b.size()) {
    return make_error(ErrorCode::internal, "device comparison of batches of different sizes");
  }
  for (size_t k = 0; k < a.size(); ++k) {
    if (!device_checkable(a[k]) || !device_checkable(b[k]) || a[k].dtype() != b[k].dtype() ||
        a[k].numel() != b[k].numel()) {
      return make_error(ErrorCode::internal, "device comparison of unlike or strided tensors");
    }
  }
  return ok_status();
}

// The kernel that counts into `count` the elements of a and b that differ.
Status add_count_changed(PlanBuilder& builder, const DeviceTensor& a, const DeviceTensor& b,
                         CUdeviceptr count) {
  if (a.numel() == 0) return ok_status();
  PfCountChangedParams p{};
  p.a = a.data_ptr();
  p.b = b.data_ptr();
  p.count = count;
  p.n = a.numel();
  p.dtype = static_cast<int>(a.dtype());
  return builder.add_kernel("check.cu", DType::float32, "pf_count_changed", strided_launch(p.n), p);
}

// Where a plan's canaries are: both guards of every guarded storage, and
// whether they all have one size the device kernel reads (in 4-byte words).
struct GuardRanges {
  std::vector<CUdeviceptr> ranges;
  size_t bytes = 0;
  bool uniform = true;
};

GuardRanges guard_ranges(const Plan& plan) {
  GuardRanges g;
  for (const auto& s : plan.storages()) {
    const cuda::DeviceBuffer& buf = s->buffer();
    if (buf.guard_bytes() == 0) continue;
    g.uniform = g.uniform && (g.bytes == 0 || g.bytes == buf.guard_bytes()) &&
                buf.guard_bytes() % 4 == 0 && buf.size() % 4 == 0;
    g.bytes = buf.guard_bytes();
    g.ranges.push_back(buf.data() - buf.guard_bytes());
    g.ranges.push_back(buf.data() + buf.size());
  }
  return g;
}

// The kernels that add into `damaged` the guard words that differ from the
// fill: one launch per PF_GUARD_BATCH guards.
Status add_guard_damage(PlanBuilder& b, const GuardRanges& g, CUdeviceptr damaged) {
  for (size_t first = 0; first < g.ranges.size(); first += PF_GUARD_BATCH) {
    PfGuardParams p{};
    p.damaged = damaged;
    p.bytes = static_cast<unsigned>(g.bytes);
    p.word = 0x01010101u * cuda::DeviceBuffer::kGuardByte;
    for (size_t k = first; k < g.ranges.size() && k < first + PF_GUARD_BATCH; ++k) {
      p.base[p.count++] = g.ranges[k];
    }
    cuda::LaunchConfig lc;
    const int64_t words = static_cast<int64_t>(g.bytes / 4);
    lc.grid = {static_cast<unsigned>((words + PF_EW_THREADS - 1) / PF_EW_THREADS),
               static_cast<unsigned>(p.count), 1};
    lc.block = {PF_EW_THREADS, 1, 1};
    PF_TRY(b.add_kernel("check.cu", DType::float32, "pf_guard_damage", lc, p));
  }
  return ok_status();
}

// The verdict once the device counted `damaged` words: damage is named by
// the host, which reads every guard for the buffers and offsets.
Status guard_verdict(GpuRuntime& rt, const Plan& plan, uint64_t damaged) {
  if (damaged == 0) return ok_status();
  PF_TRY(rt.synchronize_device());
  return plan.check_guards();
}

}  // namespace

Result<std::vector<int64_t>> count_changed_on_device(GpuRuntime& rt,
                                                     const std::vector<DeviceTensor>& a,
                                                     const std::vector<DeviceTensor>& b) {
  PF_TRY(check_comparable(a, b));
  auto add = [&](PlanBuilder& builder, size_t k, CUdeviceptr count) {
    return add_count_changed(builder, a[k], b[k], count);
  };
  PF_ASSIGN(std::vector<uint64_t> counts, run_counters(rt, a.size(), "check_changed", add));
  return std::vector<int64_t>(counts.begin(), counts.end());
}

Status check_plan_guards(GpuRuntime& rt, const Plan& plan) {
  PF_ASSIGN(PlanCheck checked, check_plan(rt, plan, {}, {}));
  return checked.guards;
}

Result<PlanCheck> check_plan(GpuRuntime& rt, const Plan& plan, const std::vector<DeviceTensor>& a,
                             const std::vector<DeviceTensor>& b) {
  PF_ASSIGN(std::vector<PlanCheck> checked, check_plans(rt, {{&plan, &a, &b}}));
  return std::move(checked.front());
}

Result<std::vector<PlanCheck>> check_plans(GpuRuntime& rt,
                                           const std::vector<PlanCheckRequest>& requests) {
  const std::vector<DeviceTensor> none;
  auto inputs = [&none](const std::vector<DeviceTensor>* v) -> const std::vector<DeviceTensor>& {
    return v != nullptr ? *v : none;
  };
  std::vector<PlanCheck> out(requests.size());
  std::vector<GuardRanges> guards;
  // Counter layout: per request, its guard counter (when its guards are
  // read on the device), then one per input pair.
  struct Counter {
    size_t request;
    int input;  // -1: the guards
  };
  std::vector<Counter> counters;
  for (size_t r = 0; r < requests.size(); ++r) {
    const PlanCheckRequest& q = requests[r];
    PF_TRY(check_comparable(inputs(q.a), inputs(q.b)));
    guards.push_back(guard_ranges(*q.plan));
    const GuardRanges& g = guards.back();
    // Guards of unusual sizes: the host reads them, the counts still batch.
    if (!g.ranges.empty() && !g.uniform) out[r].guards = q.plan->check_guards();
    if (!g.ranges.empty() && g.uniform) counters.push_back({r, -1});
    for (size_t k = 0; k < inputs(q.a).size(); ++k) counters.push_back({r, static_cast<int>(k)});
  }
  if (counters.empty()) return out;  // nothing for the device to count
  auto add = [&](PlanBuilder& builder, size_t i, CUdeviceptr counter) {
    const Counter& c = counters[i];
    const PlanCheckRequest& q = requests[c.request];
    if (c.input < 0) return add_guard_damage(builder, guards[c.request], counter);
    const auto k = static_cast<size_t>(c.input);
    return add_count_changed(builder, inputs(q.a)[k], inputs(q.b)[k], counter);
  };
  PF_ASSIGN(std::vector<uint64_t> counts, run_counters(rt, counters.size(), "check_plan", add));
  for (size_t i = 0; i < counters.size(); ++i) {
    const Counter& c = counters[i];
    if (c.input < 0) {
      out[c.request].guards = guard_verdict(rt, *requests[c.request].plan, counts[i]);
    } else {
      out[c.request].changed.push_back(static_cast<int64_t>(counts[i]));
    }
  }
  return out;
}

}  // namespace pf::gpu
