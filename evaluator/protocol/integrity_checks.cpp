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

int64_t count_poison(const Tensor& t, uint8_t poison_byte, const Tensor* expected) {
  Tensor c = contiguous(t);
  const int64_t n = c.numel();
  const bool skip_nan =
      expected != nullptr && expected->shape() == t.shape() && is_floating(expected->dtype());
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (skip_nan && std::isnan(expected->get(i))) continue;
    const std::byte* p = element(c, i);
    switch (c.dtype()) {
      case DType::float16:
      case DType::bfloat16: {
        uint16_t bits;
        std::memcpy(&bits, p, 2);
        count += bits == (c.dtype() == DType::float16 ? 0x7E00 : 0x7FC0);
        break;
      }
      case DType::float32: {
        uint32_t bits;
        std::memcpy(&bits, p, 4);
        count += bits == 0x7FC00000u;
        break;
      }
      case DType::float64: {
        uint64_t bits;
        std::memcpy(&bits, p, 8);
        count += bits == ~uint64_t{0};
        break;
      }
      default: {
        bool all = true;
        for (size_t b = 0; b < dtype_size(c.dtype()); ++b) {
          all = all && static_cast<uint8_t>(p[b]) == poison_byte;
        }
        count += all;
        break;
      }
    }
  }
  return count;
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

uint64_t tensor_digest(const Tensor& t, uint64_t key) {
  Tensor c = contiguous(t);
  const int tag = static_cast<int>(c.dtype());
  const int size = pf_digest_element_size(tag);
  uint64_t sum = 0;
  for (int64_t i = 0; i < c.numel(); ++i)
    sum += pf_digest_term(key, i, pf_digest_bits(c.data(), i, size));
  return pf_digest_finish(key, sum, c.numel(), tag);
}

}  // namespace pf::protocol
