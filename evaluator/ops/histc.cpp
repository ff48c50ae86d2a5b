// torch.histc(input, bins=100, min=0, max=0) as PyTorch 1.13's CPU
// histogram_histc_cpu_out: equal min and max take the data's minimum and
// maximum (then widened by 1 each way when those are equal too); the bin
// edges are torch.linspace(min, max, bins + 1) in the input's dtype; a value
// falls in the last edge at or below it (the last bin includes max); values
// outside [min, max] are not counted, NaN is counted in the first bin (what
// PyTorch's CPU loop does: its range test skips only values that compare
// outside; PyTorch's CUDA kernel drops NaN). PyTorch estimates the bin
// linearly and searches one edge either side; the reference searches every
// edge (the same bin unless the estimate is off by two). The counts are of
// the input's dtype (float32/float64 only, as PyTorch's CPU).
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "evaluator/ops/linspace_values.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"

namespace pf {
namespace {

constexpr size_t kBins = 1, kMin = 2, kMax = 3;

std::string range_str(double lo, double hi) {
  std::ostringstream s;
  s << "[" << lo << ", " << hi << "]";
  return s.str();
}

// The outer edges, or the message PyTorch gives for them.
Result<std::pair<double, double>> outer_edges(const ArgReader& a, double lo, double hi) {
  if (lo == hi) {
    lo -= 1;
    hi += 1;
  }
  if (!std::isfinite(lo) || !std::isfinite(hi)) {
    return a.error(kMin, "torch.histc: range of " + range_str(lo, hi) + " is not finite");
  }
  if (!(lo < hi)) return a.error(kMax, "torch.histc: max must be larger than min");
  return std::make_pair(lo, hi);
}

OpInfo histc_op() {
  OpInfo op;
  op.name = "histc";
  op.aliases = {"torch.histc", "Tensor.histc"};
  op.params = {tensor_param("input"), param("bins", ParamKind::integer, Arg::make_int(100)),
               param("min", ParamKind::real, Arg::make_int(0)),
               param("max", ParamKind::real, Arg::make_int(0))};
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& x = a.tensor(0);
    if (x.dtype != DType::float32 && x.dtype != DType::float64) {
      return a.error(0, std::string("\"histogram_cpu\" is not implemented for ") +
                            dtype_name(x.dtype) + " tensors (as in PyTorch)");
    }
    PF_ASSIGN(int64_t bins, a.integer(kBins));
    if (bins <= 0) return a.error(kBins, "torch.histc: bins must be > 0");
    PF_ASSIGN(double lo, a.real(kMin));
    PF_ASSIGN(double hi, a.real(kMax));
    if (lo != hi) PF_TRY(outer_edges(a, lo, hi));
    return std::vector<TensorType>{{x.dtype, {bins}}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    const int64_t bins = out[0].shape[0];
    const int64_t n = x.numel();
    PF_ASSIGN(double lo, a.real(kMin));
    PF_ASSIGN(double hi, a.real(kMax));
    if (lo == hi && n > 0) {
      // aminmax: NaN when any value is NaN (the range check reports it).
      lo = std::numeric_limits<double>::infinity();
      hi = -lo;
      bool nan = false;
      for (int64_t i = 0; i < n; ++i) {
        const double v = x.get(i);
        nan = nan || std::isnan(v);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
      if (nan) lo = hi = std::numeric_limits<double>::quiet_NaN();
    }
    PF_ASSIGN(auto range, outer_edges(a, lo, hi));
    const std::vector<double> edges =
        linspace_values(range.first, range.second, bins + 1, x.dtype());
    std::vector<double> counts(static_cast<size_t>(bins), 0.0);
    for (int64_t i = 0; i < n; ++i) {
      const double v = x.get(i);
      if (std::isnan(v)) {
        counts[0] += 1;
        continue;
      }
      if (!(v >= edges.front() && v <= edges.back())) continue;
      auto at = std::upper_bound(edges.begin(), edges.end(), v) - edges.begin() - 1;
      at = std::min<int64_t>(at, bins - 1);
      counts[static_cast<size_t>(at)] += 1;
    }
    Tensor y = Tensor::zeros(out[0].dtype, out[0].shape);
    for (int64_t k = 0; k < bins; ++k) y.set(k, counts[static_cast<size_t>(k)]);
    return std::vector<Tensor>{y};
  };
  op.doc = "histogram of bins equal-width bins over [min, max] (the data's range when equal)";
  return op;
}

}  // namespace

void register_histc_ops(OpRegistry& r) {
  r.add(histc_op());
}

}  // namespace pf
