#include "evaluator/tasks/synthesis.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/sha256.h"

namespace pf {
namespace {

// synth_stream.h stores by dtype tag; the tags are pf::DType's values.
static_assert(static_cast<int>(DType::boolean) == 0 && static_cast<int>(DType::uint8) == 1 &&
              static_cast<int>(DType::int8) == 2 && static_cast<int>(DType::int16) == 3 &&
              static_cast<int>(DType::int32) == 4 && static_cast<int>(DType::int64) == 5 &&
              static_cast<int>(DType::float16) == 6 && static_cast<int>(DType::bfloat16) == 7 &&
              static_cast<int>(DType::float32) == 8 && static_cast<int>(DType::float64) == 9);

uint64_t stream_key(uint64_t seed, uint32_t round, const std::string& variant, size_t index) {
  std::string key = std::to_string(seed) + "/" + std::to_string(round) + "/" + variant + "/" +
                    std::to_string(index);
  std::string hex = sha256_hex(key).substr(0, 16);
  return std::stoull(hex, nullptr, 16);
}

constexpr double kClampLimit = 100.0;

// The integers `dtype` holds, so a range wider than the dtype never wraps.
std::pair<double, double> int_range(DType dtype) {
  switch (dtype) {
    case DType::uint8:
      return {0, 255};
    case DType::int8:
      return {-128, 127};
    case DType::int16:
      return {-32768, 32767};
    case DType::int32:
      return {-2147483648.0, 2147483647.0};
    default:
      return {-0x1.0p63, 0x1.0p63};
  }
}

int64_t to_int64(double v) {
  if (!(v > -0x1.0p63)) return std::numeric_limits<int64_t>::min();
  if (v >= 0x1.0p63) return std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(v);
}

}  // namespace

PfSynthStream synthesis_stream(const InputMeta& meta, const std::string& variant_name,
                               size_t input_index, const SynthesisOptions& options) {
  PfSynthStream s{};
  s.key = stream_key(options.seed, options.round, variant_name, input_index);
  if (meta.dtype == DType::boolean) {
    s.kind = PF_SYNTH_BOOL;
    return s;
  }
  if (!is_floating(meta.dtype)) {
    // Integers: uniform in [min_val, max_val] (GraphNet's randint rule); without
    // bounds, GraphNet's defaults [0, 2]; bounded by what the dtype holds.
    auto [dlo, dhi] = int_range(meta.dtype);
    int64_t lo = to_int64(std::clamp(meta.min_val.value_or(0), dlo, dhi));
    int64_t hi = to_int64(std::clamp(meta.max_val.value_or(2), dlo, dhi));
    if (hi < lo) std::swap(lo, hi);
    s.kind = PF_SYNTH_INT;
    s.int_lo = lo;
    s.int_span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;  // 0: all 2^64
    return s;
  }
  double mean = meta.mean.value_or(0.0);
  double std = meta.std.value_or(0.1);
  s.mean = mean;
  if (std == 0) {
    if (options.zero_std == ZeroStdRule::graphnet) {
      s.kind = PF_SYNTH_CONSTANT;
      return s;
    }
    // GraphNet rounds statistics to three decimals, so 0.000 usually means
    // "small", and constant inputs make every correctness check meaningless.
    std = mean != 0 ? 0.1 * std::fabs(mean) : 1.0;
  }
  // Widening (the informative-inputs rule) starts from at least a tenth of
  // |mean|: a std of 1e-9 around -0.0078 stays degenerate at any multiple.
  if (options.spread != 1.0) std = std::max(std, 0.1 * std::fabs(mean)) * options.spread;
  s.kind = PF_SYNTH_NORMAL;
  s.scale = 0.2 * std;
  s.lo = std::max(meta.min_val.value_or(-kClampLimit), -kClampLimit);
  s.hi = std::min(meta.max_val.value_or(kClampLimit), kClampLimit);
  return s;
}

void fill_synthesized(const PfSynthStream& stream, DType dtype, std::byte* out, int64_t n) {
  char* bytes = reinterpret_cast<char*>(out);
  const int tag = static_cast<int>(dtype);
  for (int64_t p = 0; 2 * p < n; ++p) pf_synth_fill_pair(stream, tag, bytes, n, p);
}

Tensor synthesize_input(const InputMeta& meta, const std::string& variant_name, size_t input_index,
                        const SynthesisOptions& options) {
  if (meta.data) return Tensor::from_doubles(meta.dtype, meta.shape, *meta.data);
  Tensor t = Tensor::zeros(meta.dtype, meta.shape);
  fill_synthesized(synthesis_stream(meta, variant_name, input_index, options), meta.dtype,
                   t.mutable_data(), t.numel());
  return t;
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
