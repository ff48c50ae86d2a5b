// The parameters of F.lp_pool1d/2d and F.local_response_norm as the CPU
// reference and the GPU composition both read them: the literal arguments of
// the avg_pool / pad / reshape calls PyTorch's Python composition makes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"
#include "evaluator/core/ir.h"
#include "evaluator/core/shape.h"
#include "evaluator/ops/bound_args.h"

namespace pf {

inline Arg ints_arg(const std::vector<int64_t>& values) {
  std::vector<Arg> items;
  items.reserve(values.size());
  for (int64_t v : values) items.push_back(Arg::make_int(v));
  return Arg::make_list(std::move(items));
}

// Parameters (input, norm_type, kernel_size, stride, ceil_mode).
struct LpPoolParams {
  double norm_type = 2;
  Arg kernel, stride;  // as given: avg_pool reads them (None stride: the kernel)
  bool ceil_mode = false;
  int64_t window = 1;  // kernel elements: the avg_pool divisor PyTorch multiplies back
  std::string avg_pool;
};

inline Result<LpPoolParams> read_lp_pool(const ArgReader& a, int nd) {
  LpPoolParams p;
  PF_ASSIGN(p.norm_type, a.real(1));
  if (p.norm_type == 0) return a.error(1, "norm_type must not be 0 (the root would be 1/0)");
  PF_ASSIGN(std::vector<int64_t> k, a.ints(2));
  if (k.size() == 1) k.assign(static_cast<size_t>(nd), k[0]);
  if (k.size() != static_cast<size_t>(nd))
    return a.error(2, "expected " + std::to_string(nd) + " kernel sizes");
  for (int64_t v : k) p.window *= v;
  p.kernel = ints_arg(k);
  p.stride = a.arg(3);
  PF_ASSIGN(p.ceil_mode, a.boolean(4));
  p.avg_pool = "avg_pool" + std::to_string(nd) + "d";
  return p;
}

// Parameters (input, size, alpha, beta, k). The squares are viewed as
// [N, 1, C, rest...] (one pooling dim per spatial dim, at most two), padded
// along C by size / 2 before and (size - 1) / 2 after, averaged over `size`
// channels with stride 1, and viewed back as the input.
struct LrnParams {
  int64_t size = 1;
  double alpha = 1e-4, beta = 0.75, k = 1;
  Arg pooled_view, pad, window, input_shape;
  std::string avg_pool;
};

inline Result<LrnParams> read_lrn(const ArgReader& a, const Shape& in) {
  LrnParams p;
  PF_ASSIGN(p.size, a.integer(1));
  PF_ASSIGN(p.alpha, a.real(2));
  PF_ASSIGN(p.beta, a.real(3));
  PF_ASSIGN(p.k, a.real(4));
  if (in.size() < 3)
    return a.error(0, "Expected 3D or higher dimensionality input (got " +
                          std::to_string(in.size()) + " dimensions)");
  if (shape_numel(in) == 0) return a.error(0, "an empty input is not supported");
  if (p.size < 1) return a.error(1, "size must be positive");
  const int64_t before = p.size / 2, after = (p.size - 1) / 2;
  std::vector<int64_t> view = {in[0], 1, in[1]};
  if (in.size() == 3) {
    view.push_back(in[2]);
    p.pad = ints_arg({0, 0, before, after});
    p.window = ints_arg({p.size, 1});
    p.avg_pool = "avg_pool2d";
  } else {
    int64_t rest = 1;
    for (size_t d = 3; d < in.size(); ++d) rest *= in[d];
    view.push_back(in[2]);
    view.push_back(rest);
    p.pad = ints_arg({0, 0, 0, 0, before, after});
    p.window = ints_arg({p.size, 1, 1});
    p.avg_pool = "avg_pool3d";
  }
  p.pooled_view = ints_arg(view);
  p.input_shape = ints_arg(in);
  return p;
}

}  // namespace pf
