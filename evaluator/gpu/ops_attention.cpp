// scaled_dot_product_attention as one fused kernel (kernels/attention.cu),
// mirroring PyTorch's choice on an H100/H200 for fp16/bf16/fp32: a fused
// SDPA kernel (flash attention, or memory-efficient attention when there is
// a mask or fp32 inputs), i.e. no score matrix in memory and one launch.
// PyTorch's kernels use tensor cores for fp16/bf16 (ours do not) and fp64
// takes PyTorch's math path (matmul + softmax + matmul); both are fidelity
// deviations docs/gpu-executor.md lists. Head dims up to PF_ATTN_MAX_HEAD.
//
// Batch dims broadcast through the offset calculator; GQA (enable_gqa)
// splits the query head dim into [key heads, repeat] with stride 0 on the
// repeat for key and value, so no head is copied.
#include <cmath>

#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/kernels/pf_abi.cuh"
#include "evaluator/gpu/kernels/pf_ops_abi.cuh"
#include "evaluator/gpu/offset_calc.h"
#include "evaluator/gpu/op_support.h"

namespace pf::gpu {
namespace {

enum Param : size_t { kQuery, kKey, kValue, kMask, kDropout, kCausal, kScale, kGqa };

constexpr int kAttentionThreads = 128;  // PF_ATTN_WARPS warps
constexpr int kRowsPerBlock = 4;
constexpr int64_t kSmemBudget = 48 * 1024;

// t with a unit stride on its last dim (the kernel reads rows as vectors).
Result<DeviceTensor> rows_contiguous(PlanBuilder& b, const DeviceTensor& t) {
  if (t.shape().back() <= 1 || t.strides().back() == 1) return t;
  return contiguous(b, t);
}

// An operand's batch strides (elements) over the broadcast batch shape, with
// the head dim split into [heads / repeat, repeat] when repeat > 1 (query:
// both real strides; key/value: the head stride, then 0).
Strides batch_strides(const DeviceTensor& t, const Shape& batch, int64_t repeat, bool is_query) {
  const size_t nb = static_cast<size_t>(t.dim()) - 2;
  Shape shape(t.shape().begin(), t.shape().begin() + static_cast<std::ptrdiff_t>(nb));
  Strides st(t.strides().begin(), t.strides().begin() + static_cast<std::ptrdiff_t>(nb));
  if (repeat > 1) {
    const int64_t h = shape.back(), hs = st.back();
    shape.back() = is_query ? h / repeat : h;
    st.back() = is_query ? hs * repeat : hs;
    shape.push_back(repeat);
    st.push_back(is_query ? hs : 0);
  }
  return broadcast_strides(shape, st, batch);
}

Result<std::vector<DeviceTensor>> run_attention(const GpuArgs& a,
                                                const std::vector<TensorType>& out,
                                                PlanBuilder& b) {
  PF_ASSIGN(DeviceTensor q, rows_contiguous(b, a.tensor(kQuery)));
  PF_ASSIGN(DeviceTensor k, rows_contiguous(b, a.tensor(kKey)));
  PF_ASSIGN(DeviceTensor v, rows_contiguous(b, a.tensor(kValue)));
  const int64_t L = q.shape()[q.dim() - 2], E = q.shape().back();
  const int64_t S = k.shape()[k.dim() - 2], Ev = v.shape().back();
  if (E > PF_ATTN_MAX_HEAD || Ev > PF_ATTN_MAX_HEAD) {
    return make_error(ErrorCode::unsupported, "scaled_dot_product_attention with head dims above " +
                                                  std::to_string(PF_ATTN_MAX_HEAD) +
                                                  " has no GPU baseline");
  }
  PF_ASSIGN(bool causal, a.boolean(kCausal));
  PF_ASSIGN(bool gqa, a.boolean(kGqa));
  double scale = 1.0 / std::sqrt(static_cast<double>(E));
  if (!a.is_none(kScale)) {
    PF_ASSIGN(scale, a.real(kScale));
  }
  // GQA repeat: query heads / key heads when they differ.
  int64_t repeat = 1;
  if (gqa && q.dim() >= 3 && k.dim() >= 3 && k.shape()[k.dim() - 3] != q.shape()[q.dim() - 3]) {
    repeat = q.shape()[q.dim() - 3] / k.shape()[k.dim() - 3];
  }
  PF_ASSIGN(DeviceTensor y, b.allocate(out[0]));
  // The kernel's batch: the output's batch dims, the head dim split for GQA.
  Shape batch(out[0].shape.begin(), out[0].shape.end() - 2);
  if (repeat > 1) {
    batch.back() /= repeat;
    batch.push_back(repeat);
  }
  PfAttentionParams p{};
  Layout layout{batch,
                {batch_strides(q, batch, repeat, true), batch_strides(k, batch, repeat, false),
                 batch_strides(v, batch, repeat, false), Strides(batch.size(), 0)}};
  std::vector<size_t> sizes = {q.element_size(), k.element_size(), v.element_size(), 1};
  if (a.is_tensor(kMask)) {
    const DeviceTensor& m = a.tensor(kMask);
    Shape scores(out[0].shape.begin(), out[0].shape.end() - 2);
    scores.insert(scores.end(), {L, S});
    Strides ms = broadcast_strides(m.shape(), m.strides(), scores);
    p.mask_row = ms[ms.size() - 2];
    p.mask_col = ms.back();
    // The mask's head dim splits as the query's (both index query heads).
    layout.strides[3] =
        batch_strides(DeviceTensor::view_of(m, scores, ms, m.offset()), batch, repeat, true);
    sizes[3] = m.element_size();
    p.mask = m.data_ptr();
    p.mask_kind = m.dtype() == DType::boolean ? PF_ATTN_MASK_BOOL : PF_ATTN_MASK_ADD;
    p.mask_dtype = static_cast<int>(m.dtype());
    b.use(m);
  }
  b.use(q);
  b.use(k);
  b.use(v);
  b.use(y);
  const int64_t problems = shape_numel(batch);
  if (y.numel() == 0) return std::vector<DeviceTensor>{y};
  if (problems >= (int64_t{1} << 31) || L >= (int64_t{1} << 31) || S >= (int64_t{1} << 31)) {
    return make_error(ErrorCode::unsupported, "attention problems of 2^31 or more rows");
  }
  PF_ASSIGN(p.oc, make_offset_calc(layout, sizes));
  p.q = q.data_ptr();
  p.k = k.data_ptr();
  p.v = v.data_ptr();
  p.out = y.data_ptr();
  p.batch = problems;
  p.l = static_cast<int>(L);
  p.s = static_cast<int>(S);
  p.e = static_cast<int>(E);
  p.ev = static_cast<int>(Ev);
  p.q_row = q.strides()[q.dim() - 2];
  p.k_row = k.strides()[k.dim() - 2];
  p.v_row = v.strides()[v.dim() - 2];
  p.causal = causal ? 1 : 0;
  p.scale = scale;
  const int64_t row_bytes = std::max<int64_t>(E + Ev, 1) * static_cast<int64_t>(q.element_size());
  p.key_tile = static_cast<int>(std::clamp<int64_t>(kSmemBudget / row_bytes, 1, 64));
  const int64_t row_tiles = (L + kRowsPerBlock - 1) / kRowsPerBlock;
  cuda::LaunchConfig lc;
  lc.grid = {problems * row_tiles, 1, 1};
  lc.block = {kAttentionThreads, 1, 1};
  lc.dynamic_smem_bytes = static_cast<int64_t>(p.key_tile) * row_bytes;
  PF_TRY(b.add_kernel("attention.cu", q.dtype(), "pf_attention", lc, p));
  return std::vector<DeviceTensor>{y};
}

}  // namespace

void register_gpu_attention_ops(GpuOpRegistry& r) {
  std::set<DType> dtypes = float_dtypes();
  dtypes.insert(DType::boolean);  // masks
  r.add(GpuOpInfo{"scaled_dot_product_attention", run_attention, dtypes});
}

}  // namespace pf::gpu
