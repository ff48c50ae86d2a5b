#include "evaluator/protocol/integrity_checks.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "evaluator/core/tensor_digest.h"
#include "evaluator/scoring/output_compare.h"

namespace pf::protocol {
namespace {

constexpr int kNever = kMaxToleranceLevel + 1;

Tensor contiguous(const Tensor& t) {
  return t.is_contiguous() ? t : t.contiguous_copy();
}

int worst_level(const std::vector<Tensor>& candidate, const std::vector<Tensor>& expected) {
  int level = kMinToleranceLevel;
  for (size_t i = 0; i < expected.size(); ++i) {
    level = std::max(level, compare_output(candidate[i], expected[i]).first_passing_level);
  }
  return level;
}

Tensor constant_like(const Tensor& t) {
  std::vector<double> values = t.to_doubles();
  double sum = 0;
  int64_t finite = 0;
  for (double v : values) {
    if (std::isfinite(v)) {
      sum += v;
      ++finite;
    }
  }
  double mean = finite > 0 ? sum / static_cast<double>(finite) : 0.0;
  return Tensor::from_doubles(t.dtype(), t.shape(), std::vector<double>(values.size(), mean));
}

// The bytes of element `i` of a contiguous tensor.
const std::byte* element(const Tensor& t, int64_t i) {
  return t.data() + static_cast<size_t>(i) * dtype_size(t.dtype());
}

}  // namespace

std::vector<TrivialCheck> trivial_output_guard(const std::vector<Tensor>& expected,
                                               const std::vector<Tensor>& inputs,
                                               const std::vector<std::string>& input_names) {
  std::vector<TrivialCheck> out;
  std::vector<Tensor> zeros, constants;
  for (const Tensor& e : expected) {
    zeros.push_back(Tensor::zeros(e.dtype(), e.shape()));
    constants.push_back(constant_like(e));
  }
  out.push_back({"zeros", true, worst_level(zeros, expected), ""});
  out.push_back({"constant", true, worst_level(constants, expected), "each output's mean"});

  TrivialCheck copy{"input_copy", true, kMinToleranceLevel, ""};
  std::vector<std::string> chosen;
  for (size_t o = 0; o < expected.size() && copy.applicable; ++o) {
    int best = kNever + 1;
    std::string best_name;
    for (size_t k = 0; k < inputs.size(); ++k) {
      if (inputs[k].dtype() != expected[o].dtype() || inputs[k].shape() != expected[o].shape()) {
        continue;
      }
      int level = compare_output(inputs[k], expected[o]).first_passing_level;
      if (level < best) {
        best = level;
        best_name = k < input_names.size() ? input_names[k] : "input " + std::to_string(k);
      }
    }
    if (best_name.empty()) {
      copy.applicable = false;
      break;
    }
    copy.level = std::max(copy.level, best);
    chosen.push_back("output " + std::to_string(o) + " = " + best_name);
  }
  if (!copy.applicable) {
    copy.level = kNever;
    copy.detail = "no input has the type of every output";
  } else {
    for (const auto& c : chosen) copy.detail += (copy.detail.empty() ? "" : ", ") + c;
  }
  out.push_back(copy);
  return out;
}

std::optional<std::string> trivial_kind_of(const std::vector<Tensor>& candidate,
                                           const std::vector<Tensor>& inputs) {
  int64_t total = 0;
  for (const Tensor& c : candidate) total += c.numel();
  if (candidate.empty() || total == 0) return std::nullopt;

  bool zeros = true, constant = true;
  for (const Tensor& c : candidate) {
    std::vector<double> v = c.to_doubles();
    for (double x : v) {
      if (x != 0) zeros = false;
      if (std::isnan(x) || x != v.front()) constant = false;
    }
  }
  if (zeros) return "zeros";
  if (constant) return "constant";
  bool copies = true;
  for (const Tensor& c : candidate) {
    bool found = false;
    for (const Tensor& in : inputs) found = found || bitwise_equal(c, in);
    copies = copies && found;
  }
  if (copies) return "input_copy";
  return std::nullopt;
}

namespace {

// Elements of `c` (contiguous) whose bits are `poison` (as a W-byte word),
// skipping those where `nan_at` (when given) holds a NaN.
template <typename W>
int64_t count_words(const Tensor& c, W poison, const std::vector<double>* nan_at) {
  const std::byte* p = c.data();
  const auto n = static_cast<size_t>(c.numel());
  int64_t count = 0;
  for (size_t i = 0; i < n; ++i) {
    W bits;
    std::memcpy(&bits, p + i * sizeof(W), sizeof(W));
    count += bits == poison && (nan_at == nullptr || !std::isnan((*nan_at)[i]));
  }
  return count;
}

// The poison fill of a W-byte integer element: the byte repeated.
template <typename W>
W repeated(uint8_t byte) {
  W w = 0;
  for (size_t b = 0; b < sizeof(W); ++b) w = static_cast<W>((w << 8) | byte);
  return w;
}

}  // namespace

int64_t count_poison(const Tensor& t, uint8_t poison_byte, const Tensor* expected) {
  Tensor c = contiguous(t);
  std::vector<double> expected_values;
  const std::vector<double>* nan_at = nullptr;
  if (expected != nullptr && expected->shape() == t.shape() && is_floating(expected->dtype())) {
    expected_values = expected->to_doubles();
    nan_at = &expected_values;
  }
  switch (c.dtype()) {
    case DType::float16:
      return count_words<uint16_t>(c, 0x7E00, nan_at);
    case DType::bfloat16:
      return count_words<uint16_t>(c, 0x7FC0, nan_at);
    case DType::float32:
      return count_words<uint32_t>(c, 0x7FC00000u, nan_at);
    case DType::float64:
      return count_words<uint64_t>(c, ~uint64_t{0}, nan_at);
    default:
      break;
  }
  switch (dtype_size(c.dtype())) {
    case 1:
      return count_words<uint8_t>(c, poison_byte, nan_at);
    case 2:
      return count_words<uint16_t>(c, repeated<uint16_t>(poison_byte), nan_at);
    case 4:
      return count_words<uint32_t>(c, repeated<uint32_t>(poison_byte), nan_at);
    default:
      return count_words<uint64_t>(c, repeated<uint64_t>(poison_byte), nan_at);
  }
}

int64_t count_changed_elements(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) return -1;
  // The usual answer (nothing changed) from one memcmp of the whole buffer:
  // the protocol asks after every candidate run, for inputs of up to tens of MB.
  if (bitwise_equal(a, b)) return 0;
  Tensor ca = contiguous(a), cb = contiguous(b);
  const size_t es = dtype_size(a.dtype());
  int64_t changed = 0;
  for (int64_t i = 0; i < ca.numel(); ++i) {
    changed += std::memcmp(element(ca, i), element(cb, i), es) != 0;
  }
  return changed;
}

bool bitwise_equal(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) return false;
  if (a.numel() == 0) return true;
  Tensor ca = contiguous(a), cb = contiguous(b);
  return std::memcmp(ca.data(), cb.data(), ca.nbytes()) == 0;
}

namespace {

// The digest's sum over the elements of `c` as W-byte words (one size per
// loop, so the element load is not a variable-length copy).
template <typename W>
uint64_t digest_sum(const Tensor& c, uint64_t key) {
  const std::byte* p = c.data();
  uint64_t sum = 0;
  for (int64_t i = 0; i < c.numel(); ++i) {
    W bits;
    std::memcpy(&bits, p + static_cast<size_t>(i) * sizeof(W), sizeof(W));
    sum += pf_digest_term(key, i, bits);
  }
  return sum;
}

}  // namespace

uint64_t tensor_digest(const Tensor& t, uint64_t key) {
  Tensor c = contiguous(t);
  const int tag = static_cast<int>(c.dtype());
  uint64_t sum = 0;
  switch (pf_digest_element_size(tag)) {
    case 1:
      sum = digest_sum<uint8_t>(c, key);
      break;
    case 2:
      sum = digest_sum<uint16_t>(c, key);
      break;
    case 4:
      sum = digest_sum<uint32_t>(c, key);
      break;
    default:
      sum = digest_sum<uint64_t>(c, key);
      break;
  }
  return pf_digest_finish(key, sum, c.numel(), tag);
}

}  // namespace pf::protocol
