#include "evaluator/gpu/timing.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <span>

#include "sandbox/cuda/cuda_graph.h"
#include "sandbox/cuda/stream.h"

namespace pf::gpu {

namespace {

// A runnable ready to time: its plans, and their captured graphs when the
// trials replay graphs (empty: stream launches).
struct Launchable {
  const Runnable* runnable = nullptr;
  std::vector<cuda::CudaGraph> graphs;
};

// Before trial `trial` of side `side` (TrialPreparer, by trial number).
using PrepareFn = std::function<Status(int side, int trial)>;

}  // namespace

struct TimingHarness::Impl {
  GpuRuntime& rt;
  cuda::CudaEvent start;
  cuda::CudaEvent end;
  std::unique_ptr<cuda::L2Flusher> flusher;

  // Captures every plan of `r`. Each plan runs once first, so libraries'
  // lazy first-call work (module loading, handles) happens outside capture.
  Result<std::vector<cuda::CudaGraph>> capture(const Runnable& r) {
    std::vector<cuda::CudaGraph> graphs;
    CUstream s = rt.stream();
    for (const Plan* plan : r.plans) {
      PF_TRY(plan->run(s));
      PF_TRY(rt.synchronize());
      auto graph = cuda::CudaGraph::capture(rt.driver_ptr(), s,
                                            [plan](CUstream cs) { return plan->run(cs); });
      if (!graph.ok()) return graph.error().with_context("capturing '" + r.name + "'");
      graphs.push_back(std::move(*graph));
    }
    return graphs;
  }

  // Graphs for every side, or none (stream launches) with the reason in
  // `fallback` when graph replay was asked for and a capture failed.
  Result<std::vector<Launchable>> prepare(std::initializer_list<const Runnable*> runnables,
                                          const TimingOptions& options, std::string* fallback) {
    std::vector<Launchable> out;
    for (const Runnable* r : runnables) out.push_back(Launchable{r, {}});
    if (!options.graph_replay) return out;
    for (Launchable& l : out) {
      auto graphs = capture(*l.runnable);
      if (!graphs.ok()) {
        // A failed capture leaves no sticky state, but a crash inside the
        // plan's first run does: that is the plan's error, not a fallback.
        if (!rt.driver().poisoned().empty()) return graphs.error();
        *fallback = graphs.error().message;
        for (Launchable& m : out) m.graphs.clear();
        return out;
      }
      l.graphs = std::move(*graphs);
    }
    return out;
  }

  // One trial of `l`: flush, sync, events and host clock around the plan.
  Status trial(const Launchable& l, int t, bool flush, double* device_ms, double* e2e_ms) {
    CUstream s = rt.stream();
    if (flush) PF_TRY(flusher->flush(s));
    PF_TRY(rt.synchronize());
    auto t0 = std::chrono::steady_clock::now();
    PF_TRY(start.record(s));
    PF_TRY(launch(l, t));
    PF_TRY(end.record(s));
    PF_TRY(end.synchronize());
    auto t1 = std::chrono::steady_clock::now();
    if (device_ms != nullptr) {
      PF_ASSIGN(float ms, end.elapsed_ms_since(start));
      *device_ms = ms;
    }
    if (e2e_ms != nullptr) *e2e_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    return ok_status();
  }

  Status launch(const Launchable& l, int t) {
    const size_t index = static_cast<size_t>(t) % l.runnable->plans.size();
    if (l.graphs.empty()) return l.runnable->plans[index]->run(rt.stream());
    return l.graphs[index].launch(rt.stream());
  }

  // Trials [first, last) of every side, interleaved, as one batch: the host
  // waits once, at the end. Device times go to out[k] (none when out is
  // empty: the warm-up).
  Status batch(std::span<const Launchable> sides, int first, int last, const TimingOptions& o,
               const PrepareFn& prepare, std::span<SideTiming> out) {
    const size_t pairs = static_cast<size_t>(last - first) * sides.size();
    if (!out.empty()) PF_TRY(reserve_events(pairs));
    CUstream s = rt.stream();
    size_t e = 0;
    for (int t = first; t < last; ++t) {
      for (size_t k = 0; k < sides.size(); ++k) {
        PF_TRY(prepare(static_cast<int>(k), t));
        if (o.flush_l2) PF_TRY(flusher->flush(s));
        if (!out.empty()) PF_TRY(starts[e].record(s));
        PF_TRY(launch(sides[k], t));
        if (!out.empty()) PF_TRY(ends[e++].record(s));
      }
    }
    PF_TRY(rt.synchronize());
    e = 0;
    for (int t = first; t < last && !out.empty(); ++t) {
      for (size_t k = 0; k < sides.size(); ++k, ++e) {
        PF_ASSIGN(float ms, ends[e].elapsed_ms_since(starts[e]));
        out[k].device_ms.push_back(ms);
      }
    }
    return ok_status();
  }

  Status reserve_events(size_t n) {
    while (starts.size() < n) {
      PF_ASSIGN(cuda::CudaEvent a, cuda::CudaEvent::create(rt.driver_ptr()));
      PF_ASSIGN(cuda::CudaEvent b, cuda::CudaEvent::create(rt.driver_ptr()));
      starts.push_back(std::move(a));
      ends.push_back(std::move(b));
    }
    return ok_status();
  }

  // Trials [first, last) of every side, interleaved A B A B: batched when
  // the options and the launches allow it, else each synchronised alone.
  Status run(std::span<const Launchable> sides, int first, int last, const TimingOptions& o,
             const PrepareFn& prepare, std::span<SideTiming> out) {
    if (batched(sides, o)) return batch(sides, first, last, o, prepare, out);
    for (int t = first; t < last; ++t) {
      for (size_t k = 0; k < sides.size(); ++k) {
        PF_TRY(prepare(static_cast<int>(k), t));
        if (out.empty()) {
          PF_TRY(trial(sides[k], t, o.flush_l2, nullptr, nullptr));
          continue;
        }
        double d = 0, e = 0;
        PF_TRY(trial(sides[k], t, o.flush_l2, &d, &e));
        out[k].device_ms.push_back(d);
        out[k].e2e_ms.push_back(e);
      }
    }
    return ok_status();
  }

  static bool batched(std::span<const Launchable> sides, const TimingOptions& o) {
    if (!o.batch_rounds || o.stability != StabilityMetric::device) return false;
    return std::all_of(sides.begin(), sides.end(),
                       [](const Launchable& l) { return !l.graphs.empty(); });
  }

  Result<bool> measure(std::span<const Launchable> sides, const TimingOptions& o, int minimum,
                       const PrepareFn& prepare, const TrialChecker& checker, int* checks,
                       std::span<SideTiming> st);

  std::vector<cuda::CudaEvent> starts;
  std::vector<cuda::CudaEvent> ends;
};

TimingHarness::TimingHarness(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
TimingHarness::~TimingHarness() = default;

Result<std::unique_ptr<TimingHarness>> TimingHarness::create(GpuRuntime& runtime) {
  PF_ASSIGN(cuda::CudaEvent start, cuda::CudaEvent::create(runtime.driver_ptr()));
  PF_ASSIGN(cuda::CudaEvent end, cuda::CudaEvent::create(runtime.driver_ptr()));
  PF_ASSIGN(cuda::L2Flusher flusher,
            cuda::L2Flusher::create(runtime.driver_ptr(), runtime.properties()));
  auto impl =
      std::unique_ptr<Impl>(new Impl{runtime, std::move(start), std::move(end),
                                     std::make_unique<cuda::L2Flusher>(std::move(flusher))});
  return std::unique_ptr<TimingHarness>(new TimingHarness(std::move(impl)));
}

namespace {

// The configured metric's verdict from each clock's: `both` is what the
// caller makes of the two (either unstable, both precise).
bool metric_verdict(StabilityMetric metric, bool e2e, bool device, bool both) {
  switch (metric) {
    case StabilityMetric::end_to_end:
      return e2e;
    case StabilityMetric::device:
      return device;
    case StabilityMetric::both:
      return both;
  }
  return e2e;
}

}  // namespace

bool side_unstable(const SideTiming& side, const TimingOptions& options) {
  const bool e2e = is_unstable(side.e2e, options.max_iqr_ratio);
  const bool device = is_unstable(side.device, options.max_iqr_ratio);
  return metric_verdict(options.stability, e2e, device, e2e || device);
}

bool side_precise(const SideTiming& side, const TimingOptions& options) {
  const bool e2e = side.e2e_precision.within(options.precision);
  const bool device = side.device_precision.within(options.precision);
  return metric_verdict(options.stability, e2e, device, e2e && device);
}

int round_trials(const TimingOptions& options) {
  constexpr int kRoundWithoutChecks = 10;
  return options.check_every > 0 ? options.check_every : kRoundWithoutChecks;
}

int minimum_trials(const TimingOptions& options, size_t max_plans) {
  const int round = round_trials(options);
  // Every plan checked twice before any early stop (checks end the rounds
  // and, with an odd round, alternate between the plans): a check rotates
  // its plan's input contents, and only the plan's next check sees whether
  // its outputs followed them (a kernel that returns early on an output it
  // finds written is caught there).
  int minimum = std::max(options.min_trials, 2 * static_cast<int>(max_plans) * round);
  minimum = (minimum + round - 1) / round * round;
  return std::min(minimum, options.trials);
}

namespace {

Status check_runnable(const Runnable& r) {
  if (r.plans.empty()) {
    return make_error(ErrorCode::invalid_argument,
                      "runnable '" + r.name + "' has no plans to time");
  }
  return ok_status();
}

void measure_precision(SideTiming& side, const TimingOptions& options) {
  side.e2e_precision = median_precision(side.e2e_ms, options.confidence);
  side.device_precision = median_precision(side.device_ms, options.confidence);
}

void finish_side(SideTiming& side, const Launchable& l, const std::string& fallback,
                 const TimingOptions& options) {
  side.launch = l.graphs.empty() ? "stream" : "graph";
  side.graph_fallback = fallback;
  side.device = summarize(side.device_ms);
  side.e2e = summarize(side.e2e_ms);
  measure_precision(side, options);
  side.unstable = side_unstable(side, options);
}

bool adaptive(const TimingOptions& o) {
  return o.precision > 0;
}

bool round_ends(const TimingOptions& o, int t) {
  return (t + 1) % round_trials(o) == 0;
}

// Trial t (0-based) is checked when it is the last possible one or ends a
// round the rule may stop after (or a check_every period).
bool check_now(const TimingOptions& o, int t) {
  if (t == o.trials - 1) return true;
  if (o.check_every > 0 || adaptive(o)) return round_ends(o, t);
  return false;
}

// After trial t of every side: may the attempt stop here, before o.trials?
bool stop_early(const TimingOptions& o, int t, int minimum, std::span<SideTiming> sides) {
  if (!adaptive(o) || t + 1 < minimum || t + 1 >= o.trials || !round_ends(o, t)) return false;
  for (SideTiming& side : sides) {
    measure_precision(side, o);
    if (!side_precise(side, o)) return false;
  }
  return true;
}

}  // namespace

// One attempt: rounds of trials up to o.trials, the checks at round ends,
// the precision rule after each round. Returns whether it stopped early.
Result<bool> TimingHarness::Impl::measure(std::span<const Launchable> sides, const TimingOptions& o,
                                          int minimum, const PrepareFn& prepare,
                                          const TrialChecker& checker, int* checks,
                                          std::span<SideTiming> st) {
  const int round = round_trials(o);
  for (int first = 0; first < o.trials; first += round) {
    const int last = std::min(first + round, o.trials);
    PF_TRY(run(sides, first, last, o, prepare, st));
    const int t = last - 1;
    if (checker && check_now(o, t)) {
      for (size_t k = 0; k < sides.size(); ++k) {
        ++*checks;
        const size_t plan = static_cast<size_t>(t) % sides[k].runnable->plans.size();
        auto checked = checker(static_cast<int>(k), t, plan);
        if (!checked.ok()) {
          return checked.error().with_context("re-check of " + sides[k].runnable->name +
                                              " after timed trial " + std::to_string(t));
        }
      }
    }
    if (stop_early(o, t, minimum, st)) return true;
  }
  return false;
}

Result<TimingResult> TimingHarness::time_interleaved(const Runnable& a, const Runnable& b,
                                                     const TimingOptions& options,
                                                     const TrialChecker& checker,
                                                     const TrialPreparer& prepare) {
  PF_TRY(check_runnable(a));
  PF_TRY(check_runnable(b));
  std::string fallback;
  TimingResult result;
  auto t0 = std::chrono::steady_clock::now();
  auto lap = [&t0] {
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - t0).count();
    t0 = now;
    return ms;
  };
  PF_ASSIGN(std::vector<Launchable> sides, impl_->prepare({&a, &b}, options, &fallback));
  result.capture_ms = lap();
  PrepareFn prepare_trial = [&](int k, int t) -> Status {
    if (!prepare) return ok_status();
    return prepare(k, static_cast<size_t>(t) % sides[k].runnable->plans.size());
  };
  PF_TRY(impl_->run(sides, 0, options.warmup, options, prepare_trial, {}));
  result.warmup_ms = lap();
  result.batched = Impl::batched(sides, options);
  const int minimum = minimum_trials(options, std::max(a.plans.size(), b.plans.size()));
  for (int attempt = 0; attempt <= options.remeasures; ++attempt) {
    result.attempts = attempt + 1;
    SideTiming st[2];
    st[0].name = a.name;
    st[1].name = b.name;
    PF_ASSIGN(result.stopped_early,
              impl_->measure(sides, options, minimum, prepare_trial, checker, &result.checks, st));
    result.trials = static_cast<int>(st[0].device_ms.size());
    finish_side(st[0], sides[0], fallback, options);
    finish_side(st[1], sides[1], fallback, options);
    result.a = std::move(st[0]);
    result.b = std::move(st[1]);
    if (!result.unstable()) break;
  }
  return result;
}

Result<SideTiming> TimingHarness::time_single(const Runnable& a, const TimingOptions& options) {
  PF_TRY(check_runnable(a));
  std::string fallback;
  PF_ASSIGN(std::vector<Launchable> sides, impl_->prepare({&a}, options, &fallback));
  PrepareFn none = [](int, int) { return ok_status(); };
  PF_TRY(impl_->run(sides, 0, options.warmup, options, none, {}));
  SideTiming side;
  const int minimum = minimum_trials(options, a.plans.size());
  for (int attempt = 0; attempt <= options.remeasures; ++attempt) {
    side = SideTiming{};
    side.name = a.name;
    int checks = 0;
    PF_TRY(impl_->measure(sides, options, minimum, none, nullptr, &checks,
                          std::span<SideTiming>(&side, 1)));
    finish_side(side, sides[0], fallback, options);
    if (!side.unstable) break;
  }
  return side;
}

namespace {

// Undefined (too few samples, a zero median) is null, not a number.
nlohmann::json precision_json(const MedianPrecision& p) {
  if (!std::isfinite(p.relative_half_width)) return nullptr;
  return p.relative_half_width;
}

}  // namespace

nlohmann::json TimingResult::to_json(bool with_samples) const {
  auto side_json = [with_samples](const SideTiming& s) {
    nlohmann::json j = {{"name", s.name},
                        {"device_ms", pf::gpu::to_json(s.device)},
                        {"e2e_ms", s.e2e_ms.empty() ? nlohmann::json() : pf::gpu::to_json(s.e2e)},
                        {"unstable", s.unstable},
                        {"launch", s.launch},
                        {"e2e_precision", precision_json(s.e2e_precision)},
                        {"device_precision", precision_json(s.device_precision)}};
    if (!s.graph_fallback.empty()) j["graph_fallback"] = s.graph_fallback;
    if (with_samples) {
      j["device_samples_ms"] = s.device_ms;
      j["e2e_samples_ms"] = s.e2e_ms;
    }
    return j;
  };
  return {{"a", side_json(a)},  {"b", side_json(b)},     {"attempts", attempts},
          {"checks", checks},   {"trials", trials},      {"stopped_early", stopped_early},
          {"batched", batched}, {"unstable", unstable()}};
}

}  // namespace pf::gpu
