#include "evaluator/gpu/offset_calc.h"

#include "common/check.h"

namespace pf::gpu {

PfDivider make_divider(uint32_t divisor) {
  PF_CHECK(divisor >= 1);
  PfDivider d{divisor, 0, 0};
  uint32_t shift = 0;
  while (shift < 32 && (uint64_t{1} << shift) < divisor) ++shift;
  uint64_t one = 1;
  uint64_t magic = ((one << 32) * ((one << shift) - divisor)) / divisor + 1;
  PF_CHECK(magic <= 0xFFFFFFFFull);
  d.magic = static_cast<uint32_t>(magic);
  d.shift = shift;
  return d;
}

uint32_t divide(const PfDivider& d, uint32_t n) {
  uint32_t t = static_cast<uint32_t>((static_cast<uint64_t>(n) * d.magic) >> 32);
  return static_cast<uint32_t>((static_cast<uint64_t>(t) + n) >> d.shift);
}

Layout coalesce(const Layout& in) {
  const size_t nops = in.strides.size();
  Layout out;
  out.strides.assign(nops, {});
  for (size_t d = 0; d < in.shape.size(); ++d) {
    if (in.shape[d] == 1) continue;
    bool merge = !out.shape.empty();
    for (size_t k = 0; merge && k < nops; ++k) {
      merge = out.strides[k].back() == in.strides[k][d] * in.shape[d];
    }
    if (merge) {
      out.shape.back() *= in.shape[d];
      for (size_t k = 0; k < nops; ++k) out.strides[k].back() = in.strides[k][d];
    } else {
      out.shape.push_back(in.shape[d]);
      for (size_t k = 0; k < nops; ++k) out.strides[k].push_back(in.strides[k][d]);
    }
  }
  return out;
}

Strides broadcast_strides(const Shape& shape, const Strides& strides, const Shape& out_shape) {
  PF_CHECK(shape.size() <= out_shape.size() && shape.size() == strides.size());
  Strides out(out_shape.size(), 0);
  size_t lead = out_shape.size() - shape.size();
  for (size_t i = 0; i < shape.size(); ++i) out[lead + i] = shape[i] == 1 ? 0 : strides[i];
  return out;
}

Result<PfOffsetCalc> make_offset_calc(const Layout& layout,
                                      const std::vector<size_t>& element_sizes) {
  PF_CHECK(layout.strides.size() == element_sizes.size() &&
           element_sizes.size() <= PF_MAX_OPERANDS);
  PfOffsetCalc oc{};
  // A zero-size layout has no element to index: the caller launches nothing,
  // so a calc without dims stands for it (make_divider needs sizes >= 1).
  for (int64_t extent : layout.shape) {
    if (extent == 0) return oc;
  }
  Layout c = coalesce(layout);
  if (c.shape.size() > PF_MAX_DIMS) {
    return make_error(ErrorCode::unsupported,
                      "the baseline's strided kernels take at most " + std::to_string(PF_MAX_DIMS) +
                          " non-mergeable dims, got " + std::to_string(c.shape.size()) +
                          " (shape " + shape_str(layout.shape) + ")");
  }
  constexpr int64_t kLimit = int64_t{1} << 31;
  if (shape_numel(c.shape) >= kLimit) {
    return make_error(ErrorCode::unsupported,
                      "tensors of 2^31 or more elements are not supported "
                      "by the baseline's strided kernels");
  }
  oc.dims = static_cast<int>(c.shape.size());
  for (size_t k = 0; k < element_sizes.size(); ++k) {
    int64_t span = 0;
    for (size_t d = 0; d < c.shape.size(); ++d) {
      int64_t stride = c.strides[k][d];
      if (stride < 0) {
        return make_error(ErrorCode::unsupported, "negative strides are not supported");
      }
      span += (c.shape[d] - 1) * stride * static_cast<int64_t>(element_sizes[k]);
    }
    if (span >= kLimit) {
      return make_error(ErrorCode::unsupported,
                        "an operand spans 2^31 bytes or more; the baseline's strided kernels use "
                        "32-bit offsets");
    }
  }
  // Innermost first.
  for (int d = 0; d < oc.dims; ++d) {
    size_t src = c.shape.size() - 1 - static_cast<size_t>(d);
    oc.sizes[d] = make_divider(static_cast<uint32_t>(c.shape[src]));
    for (size_t k = 0; k < element_sizes.size(); ++k) {
      oc.strides[d][k] =
          static_cast<uint32_t>(c.strides[k][src] * static_cast<int64_t>(element_sizes[k]));
    }
  }
  return oc;
}

}  // namespace pf::gpu
