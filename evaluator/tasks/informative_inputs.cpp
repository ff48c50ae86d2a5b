#include "evaluator/tasks/informative_inputs.h"

#include <algorithm>
#include <cmath>

#include "common/strings.h"

namespace pf {
namespace {

constexpr double kSpreads[kInputDrawAttempts] = {1, 1, 4, 16, 64};

// Each floating element moved by +-kThresholdProbe of its magnitude (signs
// alternate, so no output can follow the shift monotonically everywhere),
// and by at least kThresholdProbe of the tensor's largest magnitude: a
// threshold inside the graph (sigmoid(x) < 0.5) sits where x is near 0,
// where a move relative to |x| alone would move nothing.
std::vector<Tensor> perturbed(const std::vector<Tensor>& inputs) {
  std::vector<Tensor> out;
  for (const Tensor& t : inputs) {
    Tensor c = t.contiguous_copy();
    if (is_floating(c.dtype())) {
      double largest = 0;
      for (int64_t i = 0; i < c.numel(); ++i) {
        const double v = std::fabs(c.get(i));
        if (std::isfinite(v)) largest = std::max(largest, v);
      }
      for (int64_t i = 0; i < c.numel(); ++i) {
        const double v = c.get(i);
        const double step = std::max(std::fabs(v), largest) * kThresholdProbe;
        c.set(i, v + step * ((i & 1) != 0 ? 1 : -1));
      }
    }
    out.push_back(std::move(c));
  }
  return out;
}

bool any_floating(const std::vector<Tensor>& ts) {
  for (const auto& t : ts) {
    if (is_floating(t.dtype())) return true;
  }
  return false;
}

// Why the outputs of `inputs` carry no information ("" when they do).
Result<std::string> uninformative(const std::vector<Tensor>& inputs,
                                  const std::vector<Tensor>& outputs, const OutputRunner& run) {
  std::vector<std::string> why;
  bool discrete = false;
  for (size_t o = 0; o < outputs.size(); ++o) {
    std::string r = degenerate_reason(outputs[o]);
    if (!r.empty()) why.push_back("output " + std::to_string(o) + ": " + r);
    discrete = discrete || !is_floating(outputs[o].dtype());
  }
  if (why.empty() && discrete && any_floating(inputs)) {
    PF_ASSIGN(std::vector<Tensor> moved, run(perturbed(inputs)));
    for (size_t o = 0; o < outputs.size() && o < moved.size(); ++o) {
      if (is_floating(outputs[o].dtype())) continue;
      std::vector<double> a = outputs[o].to_doubles(), b = moved[o].to_doubles();
      int64_t flips = 0;
      for (size_t i = 0; i < a.size() && i < b.size(); ++i) flips += a[i] != b[i];
      if (flips > 0) {
        why.push_back("output " + std::to_string(o) + ": " + std::to_string(flips) +
                      " elements flip when the inputs move by " + format_double(kThresholdProbe) +
                      " of their magnitude (they sit at a threshold)");
      }
    }
  }
  return join(why, "; ");
}

}  // namespace

std::string degenerate_reason(const Tensor& output) {
  std::vector<double> v = output.to_doubles();
  if (v.empty()) return "";
  bool all_finite = true, constant = true;
  for (double x : v) {
    if (!std::isfinite(x)) all_finite = false;
    if (x != v[0]) constant = false;
  }
  if (!all_finite && is_floating(output.dtype())) return "non-finite values";
  if (constant && v.size() > 1) return v[0] == 0 ? "all zeros" : "constant " + format_double(v[0]);
  return "";
}

SynthesisOptions draw_options(const SynthesisOptions& base, int attempt) {
  SynthesisOptions o = base;
  if (attempt > 0) o.round = base.round + 2;
  o.spread = base.spread * kSpreads[attempt];
  return o;
}

std::string InputDraw::summary() const {
  return join(rejected, "; ");
}

Result<InputDraw> draw_informative_inputs(const TaskVariant& variant, const SynthesisOptions& base,
                                          const OutputRunner& run) {
  InputDraw first;
  std::vector<std::string> rejected;
  for (int a = 0; a < kInputDrawAttempts; ++a) {
    InputDraw d;
    d.attempt = a;
    d.options = draw_options(base, a);
    d.inputs = synthesize_inputs(variant, d.options);
    PF_ASSIGN(d.outputs, run(d.inputs));
    PF_ASSIGN(std::string why, uninformative(d.inputs, d.outputs, run));
    if (why.empty()) {
      d.rejected = std::move(rejected);
      return d;
    }
    rejected.push_back("attempt " + std::to_string(a) + " (input stream " +
                       std::to_string(d.options.round) + ", spread " +
                       format_double(d.options.spread) + "): " + why);
    if (a == 0) first = std::move(d);
  }
  first.rejected = std::move(rejected);
  first.informative = false;
  return first;
}

}  // namespace pf
