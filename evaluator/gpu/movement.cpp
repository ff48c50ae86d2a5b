#include "evaluator/gpu/movement.h"

#include "evaluator/core/tensor.h"
#include "evaluator/gpu/kernels/pf_abi.cuh"
#include "evaluator/gpu/kernels/pf_ops_abi.cuh"
#include "evaluator/gpu/offset_calc.h"

namespace pf::gpu {

namespace {
constexpr const char* kLayout = "layout.cu";
constexpr int64_t kIntLimit = int64_t{1} << 31;
}  // namespace

DType movement_dtype(DType t) {
  switch (dtype_size(t)) {
    case 1:
      return DType::uint8;
    case 2:
      return DType::int16;
    case 4:
      return DType::int32;
    default:
      return DType::int64;
  }
}

namespace {

// The remap's parameters, innermost dim first (p.n == 0: nothing to move).
Result<PfRemapParams> remap_params(const DeviceTensor& in, const DeviceTensor& out,
                                   const std::vector<RemapDim>& dims, uint64_t fill) {
  const int64_t rank = out.dim();
  if (in.dim() != rank || static_cast<int64_t>(dims.size()) != rank || !out.is_contiguous() ||
      in.dtype() != out.dtype()) {
    return make_error(ErrorCode::internal, "malformed remap of " + tensor_type_str(in.type()));
  }
  if (rank > PF_MAX_DIMS) {
    return make_error(ErrorCode::unsupported, "the baseline's remap kernel takes at most " +
                                                  std::to_string(PF_MAX_DIMS) + " dims");
  }
  PfRemapParams p{};
  const int64_t n = out.numel();
  if (n == 0) return p;
  if (n >= kIntLimit) {
    return make_error(ErrorCode::unsupported,
                      "layout copies of 2^31 or more elements are not supported");
  }
  p.out = out.data_ptr();
  p.in = in.numel() > 0 ? in.data_ptr() : out.data_ptr();
  p.fill = fill;
  p.n = n;
  p.dims = static_cast<int>(rank);
  for (int64_t d = 0; d < rank; ++d) {
    const size_t src = static_cast<size_t>(rank - 1 - d);  // innermost first
    if (in.shape()[src] >= kIntLimit || out.shape()[src] >= kIntLimit) {
      return make_error(ErrorCode::unsupported, "a dim of 2^31 or more is not supported");
    }
    p.out_sizes[d] = make_divider(static_cast<uint32_t>(out.shape()[src]));
    p.in_sizes[d] = static_cast<int>(in.shape()[src]);
    p.modes[d] = dims[src].mode;
    p.shift[d] = static_cast<int>(dims[src].shift);
    p.in_strides[d] = in.strides()[src];
  }
  return p;
}

Status launch_remap(PlanBuilder& b, const PfRemapParams& p, DType dtype, bool wide) {
  return b.add_kernel(kLayout, movement_dtype(dtype), wide ? "pf_remap_vec" : "pf_remap",
                      linear_launch(p.n, PF_EW_THREADS * PF_EW_STRIDED_WORK, PF_EW_THREADS), p);
}

}  // namespace

Status add_remap(PlanBuilder& b, const DeviceTensor& in, const DeviceTensor& out,
                 const std::vector<RemapDim>& dims, uint64_t fill) {
  PF_ASSIGN(PfRemapParams p, remap_params(in, out, dims, fill));
  b.use(in);
  b.use(out);
  if (p.n == 0) return ok_status();
  const bool wide = widen_remap_to_16_bytes(p, out.element_size());
  return launch_remap(b, p, out.dtype(), wide);
}

Result<bool> add_wide_copy(PlanBuilder& b, const DeviceTensor& in, const DeviceTensor& out) {
  PF_ASSIGN(PfRemapParams p,
            remap_params(in, out, std::vector<RemapDim>(static_cast<size_t>(out.dim())), 0));
  if (p.n == 0 || !widen_remap_to_16_bytes(p, out.element_size())) return false;
  b.use(in);
  b.use(out);
  PF_TRY(launch_remap(b, p, out.dtype(), true));
  return true;
}

bool widen_remap_to_16_bytes(PfRemapParams& p, size_t element_size) {
  constexpr int64_t kUnit = 16;
  const auto es = static_cast<int64_t>(element_size);
  if (p.dims < 1 || es <= 0 || es >= kUnit || kUnit % es != 0) return false;
  const int64_t per_unit = kUnit / es;
  const int64_t inner = p.out_sizes[0].divisor;
  if (p.modes[0] != PF_REMAP_IDENTITY || p.in_strides[0] != 1 || inner % per_unit != 0 ||
      p.in % kUnit != 0 || p.out % kUnit != 0) {
    return false;
  }
  for (int d = 1; d < p.dims; ++d) {
    if (p.in_strides[d] % per_unit != 0) return false;
  }
  const int64_t units = inner / per_unit;
  p.out_sizes[0] = make_divider(static_cast<uint32_t>(units));
  p.in_sizes[0] = static_cast<int>(units);
  for (int d = 1; d < p.dims; ++d) p.in_strides[d] /= per_unit;
  p.n /= per_unit;
  // The constant fill's element pattern repeated over 8 bytes (the kernel
  // stores it twice per unit).
  uint64_t bits = es == 8 ? p.fill : p.fill & ((uint64_t{1} << (8 * es)) - 1);
  for (int64_t w = es; w < 8; w *= 2) bits |= bits << (8 * w);
  p.fill = bits;
  return true;
}

namespace {

// One index, constant along out's last dim, which is contiguous in src; rows
// of a multiple of 16 bytes, and every row start 16-byte aligned.
bool row_gather(const DeviceTensor& src, const Strides& src_strides,
                const std::vector<GatherIndex>& indices, const DeviceTensor& out) {
  const size_t rank = out.shape().size();
  if (indices.size() != 1 || rank < 2 || src_strides.back() != 1 ||
      indices[0].strides.size() != rank || indices[0].strides.back() != 0) {
    return false;
  }
  const int64_t es = static_cast<int64_t>(out.element_size());
  auto aligned = [&](int64_t elements) { return (elements * es) % 16 == 0; };
  if (!aligned(out.shape().back()) || !aligned(indices[0].src_stride) || src.data_ptr() % 16 != 0 ||
      out.data_ptr() % 16 != 0) {
    return false;
  }
  for (size_t d = 0; d + 1 < rank; ++d) {
    if (!aligned(src_strides[d])) return false;
  }
  return true;
}

}  // namespace

Status add_index_gather(PlanBuilder& b, const DeviceTensor& src, const Strides& src_strides,
                        const std::vector<GatherIndex>& indices, bool wrap,
                        const DeviceTensor& out) {
  if (indices.empty() || indices.size() > PF_INDEX_MAX) {
    return make_error(ErrorCode::unsupported, "indexing with " + std::to_string(indices.size()) +
                                                  " index tensors; the baseline handles 1 to " +
                                                  std::to_string(PF_INDEX_MAX));
  }
  if (!out.is_contiguous() || src.dtype() != out.dtype() ||
      src_strides.size() != out.shape().size()) {
    return make_error(ErrorCode::internal, "malformed gather into " + tensor_type_str(out.type()));
  }
  b.use(src);
  b.use(out);
  const int64_t n = out.numel();
  if (n == 0) return ok_status();
  PfIndexParams p{};
  p.out = out.data_ptr();
  p.src = src.data_ptr();
  p.n = n;
  p.count = static_cast<int>(indices.size());
  p.wrap = wrap ? 1 : 0;
  Layout layout{out.shape(), {src_strides}};
  std::vector<size_t> sizes = {src.element_size()};
  for (size_t k = 0; k < indices.size(); ++k) {
    const GatherIndex& g = indices[k];
    const DeviceTensor& idx = *g.index;
    if (!is_integral(idx.dtype()) || idx.dtype() == DType::boolean) {
      return make_error(ErrorCode::unsupported, std::string("index tensors of dtype ") +
                                                    dtype_name(idx.dtype()) + " are not supported");
    }
    b.use(idx);
    p.index[k] = idx.data_ptr();
    p.index_dtype[k] = static_cast<int>(idx.dtype());
    p.sizes[k] = g.size;
    p.strides[k] = g.src_stride;
    layout.strides.push_back(g.strides);
    sizes.push_back(idx.element_size());
  }
  for (size_t k = indices.size(); k < PF_INDEX_MAX; ++k) {
    layout.strides.push_back(Strides(out.shape().size(), 0));
    sizes.push_back(1);
  }
  if (row_gather(src, src_strides, indices, out)) {
    // Whole rows: the offset calculator walks out's rows, 16 bytes a thread.
    Layout rows{Shape(out.shape().begin(), out.shape().end() - 1), {}};
    for (const Strides& s : layout.strides) rows.strides.emplace_back(s.begin(), s.end() - 1);
    PF_ASSIGN(p.oc, make_offset_calc(rows, sizes));
    const int64_t row_bytes = out.shape().back() * static_cast<int64_t>(out.element_size());
    p.row_chunks = make_divider(static_cast<uint32_t>(row_bytes / 16));
    p.n = n * static_cast<int64_t>(out.element_size()) / 16;
    return b.add_kernel(kLayout, movement_dtype(out.dtype()), "pf_index_rows",
                        linear_launch(p.n, PF_EW_THREADS, PF_EW_THREADS), p);
  }
  PF_ASSIGN(p.oc, make_offset_calc(layout, sizes));
  return b.add_kernel(kLayout, movement_dtype(out.dtype()), "pf_index",
                      linear_launch(n, PF_EW_THREADS * PF_EW_STRIDED_WORK, PF_EW_THREADS), p);
}

}  // namespace pf::gpu
