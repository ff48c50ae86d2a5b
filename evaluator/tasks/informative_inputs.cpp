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

bool any_floating(const TaskVariant& variant) {
  for (const auto& in : variant.inputs) {
    if (is_floating(in.dtype)) return true;
  }
  return false;
}

// Why the outputs of the drawer's last draw carry no information ("" when they do).
Result<std::string> uninformative(const TaskVariant& variant, const std::vector<Tensor>& outputs,
                                  InputDrawer& drawer) {
  std::vector<std::string> why;
  bool discrete = false;
  for (size_t o = 0; o < outputs.size(); ++o) {
    std::string r = degenerate_reason(outputs[o]);
    if (!r.empty()) why.push_back("output " + std::to_string(o) + ": " + r);
    discrete = discrete || !is_floating(outputs[o].dtype());
  }
  if (why.empty() && discrete && any_floating(variant)) {
    PF_ASSIGN(std::vector<Tensor> inputs, drawer.drawn_inputs());
    PF_ASSIGN(std::vector<Tensor> moved, drawer.run(perturbed(inputs)));
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

// CPU synthesis; the outputs from the caller's runner.
class HostInputDrawer final : public InputDrawer {
 public:
  HostInputDrawer(const TaskVariant& variant, const OutputRunner& run)
      : variant_(variant), run_(run) {}
  Result<std::vector<Tensor>> draw_and_run(const SynthesisOptions& options) override {
    inputs_ = synthesize_inputs(variant_, options);
    return run_(inputs_);
  }
  Result<std::vector<Tensor>> drawn_inputs() override { return inputs_; }
  Result<std::vector<Tensor>> run(const std::vector<Tensor>& inputs) override {
    return run_(inputs);
  }

 private:
  const TaskVariant& variant_;
  const OutputRunner& run_;
  std::vector<Tensor> inputs_;
};

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
                                          InputDrawer& drawer) {
  InputDraw first;
  std::vector<std::string> rejected;
  for (int a = 0; a < kInputDrawAttempts; ++a) {
    InputDraw d;
    d.attempt = a;
    d.options = draw_options(base, a);
    PF_ASSIGN(d.outputs, drawer.draw_and_run(d.options));
    PF_ASSIGN(std::string why, uninformative(variant, d.outputs, drawer));
    if ((why.empty() || a == 0) && drawer.wants_host_inputs()) {
      PF_ASSIGN(d.inputs, drawer.drawn_inputs());
    }
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

Result<InputDraw> draw_informative_inputs(const TaskVariant& variant, const SynthesisOptions& base,
                                          const OutputRunner& run) {
  HostInputDrawer drawer(variant, run);
  return draw_informative_inputs(variant, base, drawer);
}

}  // namespace pf
