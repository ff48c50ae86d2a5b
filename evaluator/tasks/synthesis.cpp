#include "evaluator/tasks/synthesis.h"

#include <algorithm>
#include <cmath>

#include "common/sha256.h"

namespace pf {
namespace {

// SplitMix64: tiny, well distributed, and defined here so results do not
// depend on a standard library's engine or distribution implementation.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  //! Uniform in (0, 1).
  double uniform() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53; }
  //! Standard normal (Box-Muller; one value per call keeps the stream simple).
  double normal() {
    double u1 = uniform(), u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
  }

 private:
  uint64_t state_;
};

uint64_t stream_seed(uint64_t seed, uint32_t round, const std::string& variant, size_t index) {
  std::string key = std::to_string(seed) + "/" + std::to_string(round) + "/" + variant + "/" +
                    std::to_string(index);
  std::string hex = sha256_hex(key).substr(0, 16);
  return std::stoull(hex, nullptr, 16);
}

constexpr double kClampLimit = 100.0;

}  // namespace

Tensor synthesize_input(const InputMeta& meta, const std::string& variant_name, size_t input_index,
                        const SynthesisOptions& options) {
  if (meta.data) return Tensor::from_doubles(meta.dtype, meta.shape, *meta.data);
  const int64_t n = shape_numel(meta.shape);
  std::vector<double> values(static_cast<size_t>(n));
  SplitMix64 rng(stream_seed(options.seed, options.round, variant_name, input_index));
  if (meta.dtype == DType::boolean) {
    // GraphNet: randn > 0.5.
    for (double& v : values) v = rng.normal() > 0.5 ? 1.0 : 0.0;
    return Tensor::from_doubles(meta.dtype, meta.shape, values);
  }
  if (!is_floating(meta.dtype)) {
    // Integers: uniform in [min_val, max_val] (GraphNet's randint rule); without
    // bounds, GraphNet's defaults [0, 2].
    int64_t lo = static_cast<int64_t>(meta.min_val.value_or(0));
    int64_t hi = static_cast<int64_t>(meta.max_val.value_or(2));
    if (hi < lo) std::swap(lo, hi);
    uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
    Tensor t = Tensor::zeros(meta.dtype, meta.shape);
    for (int64_t i = 0; i < n; ++i) t.set_int(i, lo + static_cast<int64_t>(rng.next() % span));
    return t;
  }
  double mean = meta.mean.value_or(0.0);
  double std = meta.std.value_or(0.1);
  if (std == 0) {
    if (options.zero_std == ZeroStdRule::graphnet) {
      std::fill(values.begin(), values.end(), mean);
      return Tensor::from_doubles(meta.dtype, meta.shape, values);
    }
    // GraphNet rounds statistics to three decimals, so 0.000 usually means
    // "small", and constant inputs make every correctness check meaningless.
    std = mean != 0 ? 0.1 * std::fabs(mean) : 1.0;
  }
  double lo = std::max(meta.min_val.value_or(-kClampLimit), -kClampLimit);
  double hi = std::min(meta.max_val.value_or(kClampLimit), kClampLimit);
  // Widening (the informative-inputs rule) starts from at least a tenth of
  // |mean|: a std of 1e-9 around -0.0078 stays degenerate at any multiple.
  if (options.spread != 1.0) std = std::max(std, 0.1 * std::fabs(mean)) * options.spread;
  for (double& v : values) v = std::clamp(rng.normal() * std * 0.2 + mean, lo, hi);
  return Tensor::from_doubles(meta.dtype, meta.shape, values);
}

std::vector<Tensor> synthesize_inputs(const TaskVariant& variant, const SynthesisOptions& options) {
  std::vector<Tensor> out;
  out.reserve(variant.inputs.size());
  for (size_t i = 0; i < variant.inputs.size(); ++i) {
    out.push_back(synthesize_input(variant.inputs[i], variant.name, i, options));
  }
  return out;
}

}  // namespace pf
