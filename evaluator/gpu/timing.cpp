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
  cuda::L2Flusher* flusher;  // the runtime's

  // Captures every plan of `r`. Each plan runs once first, unless it ran
  // before (`warm`), so libraries' lazy first-call work (module loading,
  // handles) happens outside capture.
  Result<std::vector<cuda::CudaGraph>> capture(const Runnable& r, bool warm) {
    std::vector<cuda::CudaGraph> graphs;
    CUstream s = rt.stream();
    for (const Plan* plan : r.plans) {
      if (!warm) {
        PF_TRY(plan->run(s));
        PF_TRY(rt.synchronize());
      }
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
      auto graphs = capture(*l.runnable, options.plans_warm);
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
  // The flush is enqueued only now, after the previous trial was seen to
  // end: enqueued behind that trial's end event instead, so that it ran
  // while the host woke up, it made the end-to-end samples noisier on the
  // H200 (the candidate needed 49-56 trials per variant for 2 % instead of
  // 29-41) and evaluations slower (bench/results/device-20261202f.md).
  Status trial(const Launchable& l, int t, bool flush, double& device_ms, double& e2e_ms) {
    CUstream s = rt.stream();
    if (flush) PF_TRY(flusher->flush(s));
    PF_TRY(rt.synchronize());
    auto t0 = std::chrono::steady_clock::now();
    PF_TRY(start.record(s));
    PF_TRY(launch(l, t));
    PF_TRY(end.record(s));
    PF_TRY(end.synchronize());
    auto t1 = std::chrono::steady_clock::now();
    PF_ASSIGN(float ms, end.elapsed_ms_since(start));
    device_ms = ms;
    e2e_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    return ok_status();
  }

  Status launch(const Launchable& l, int t) {
    const size_t index = static_cast<size_t>(t) % l.runnable->plans.size();
    if (l.graphs.empty()) return l.runnable->plans[index]->run(rt.stream());
    return l.graphs[index].launch(rt.stream());
  }

  // Trials [first, last) of every side still measuring (not `done`),
  // interleaved, as one batch: the host waits once, at the end. Device
  // times go to out[k].
  Status batch(std::span<const Launchable> sides, const std::vector<bool>& done, int first,
               int last, const TimingOptions& o, const PrepareFn& prepare,
               std::span<SideTiming> out) {
    PF_TRY(reserve_events(static_cast<size_t>(last - first) * sides.size()));
    CUstream s = rt.stream();
    size_t e = 0;
    for (int t = first; t < last; ++t) {
      for (size_t k = 0; k < sides.size(); ++k) {
        if (done[k]) continue;
        PF_TRY(prepare(static_cast<int>(k), t));
        if (o.flush_l2) PF_TRY(flusher->flush(s));
        PF_TRY(starts[e].record(s));
        PF_TRY(launch(sides[k], t));
        PF_TRY(ends[e++].record(s));
      }
    }
    PF_TRY(rt.synchronize());
    e = 0;
    for (int t = first; t < last; ++t) {
      for (size_t k = 0; k < sides.size(); ++k) {
        if (done[k]) continue;
        PF_ASSIGN(float ms, ends[e].elapsed_ms_since(starts[e]));
        ++e;
        out[k].device_ms.push_back(ms);
      }
    }
    return ok_status();
  }

  // The warm-up: `warmup` trials of every side enqueued back to back,
  // prepared but not flushed (nothing is measured), and one wait at the end.
  Status warm_up(std::span<const Launchable> sides, const TimingOptions& o,
                 const PrepareFn& prepare) {
    for (int t = 0; t < o.warmup; ++t) {
      for (size_t k = 0; k < sides.size(); ++k) {
        PF_TRY(prepare(static_cast<int>(k), t));
        PF_TRY(launch(sides[k], t));
      }
    }
    return rt.synchronize();
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

  // Trials [first, last) of every side still measuring, interleaved A B A B:
  // batched when the options and the launches allow it, else each
  // synchronised alone.
  Status run(std::span<const Launchable> sides, const std::vector<bool>& done, int first,
             int last, const TimingOptions& o, const PrepareFn& prepare,
             std::span<SideTiming> out) {
    if (batched(sides, o)) return batch(sides, done, first, last, o, prepare, out);
    for (int t = first; t < last; ++t) {
      for (size_t k = 0; k < sides.size(); ++k) {
        if (done[k]) continue;
        PF_TRY(prepare(static_cast<int>(k), t));
        double d = 0, e = 0;
        PF_TRY(trial(sides[k], t, o.flush_l2, d, e));
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

  Result<bool> measure(std::span<const Launchable> sides, const TimingOptions& o,
                       std::span<const int> minimum, const PrepareFn& prepare,
                       const TrialChecker& checker, int* checks, std::span<SideTiming> st);

  std::vector<cuda::CudaEvent> starts;
  std::vector<cuda::CudaEvent> ends;
};

TimingHarness::TimingHarness(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
TimingHarness::~TimingHarness() = default;

Result<std::unique_ptr<TimingHarness>> TimingHarness::create(GpuRuntime& runtime) {
  PF_ASSIGN(cuda::CudaEvent start, cuda::CudaEvent::create(runtime.driver_ptr()));
  PF_ASSIGN(cuda::CudaEvent end, cuda::CudaEvent::create(runtime.driver_ptr()));
  PF_ASSIGN(cuda::L2Flusher * flusher, runtime.l2_flusher());
  auto impl =
      std::unique_ptr<Impl>(new Impl{runtime, std::move(start), std::move(end), flusher});
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

namespace {

// At least `n` trials, in whole rounds, at most options.trials.
int in_whole_rounds(const TimingOptions& options, int n) {
  const int round = round_trials(options);
  return std::min((n + round - 1) / round * round, options.trials);
}

}  // namespace

int minimum_trials(const TimingOptions& options, size_t max_plans) {
  // Every plan checked twice before any early stop (checks end the rounds
  // and, with an odd round, alternate between the plans): a check rotates
  // its plan's input contents, and only the plan's next check sees whether
  // its outputs followed them (a kernel that returns early on an output it
  // finds written is caught there).
  const int checks = 2 * static_cast<int>(max_plans) * round_trials(options);
  return in_whole_rounds(options, std::max(options.min_trials, checks));
}

int minimum_trials_b(const TimingOptions& options, int minimum_a) {
  if (options.min_trials_b <= 0) return minimum_a;
  return in_whole_rounds(options, options.min_trials_b);
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

// Whether a side's fresh samples still agree with its prior, on the
// stability metric's clock.
bool prior_agrees(const SideTiming& side, const TimingOptions& o) {
  const auto n = static_cast<std::ptrdiff_t>(side.prior);
  auto agrees = [&](const std::vector<double>& v) {
    return agrees_with_prior({v.begin(), v.begin() + n}, {v.begin() + n, v.end()}, o.confidence,
                             o.precision);
  };
  const bool e2e = !side.e2e_ms.empty() && agrees(side.e2e_ms);
  const bool device = agrees(side.device_ms);
  return metric_verdict(o.stability, e2e, device, e2e && device);
}

void drop_prior(SideTiming& side) {
  const auto n = static_cast<std::ptrdiff_t>(side.prior);
  side.device_ms.erase(side.device_ms.begin(), side.device_ms.begin() + n);
  if (!side.e2e_ms.empty()) side.e2e_ms.erase(side.e2e_ms.begin(), side.e2e_ms.begin() + n);
  side.prior = 0;
  side.prior_dropped = true;
}

// The side's own samples before trial 0: a prior that matches how it is
// launched and clocked (e2e samples exactly when trials are not batched).
void seed_with_prior(SideTiming& side, const PriorSamples* prior, const Launchable& l,
                     bool batched) {
  if (prior == nullptr || prior->device_ms.empty()) return;
  if (prior->launch != (l.graphs.empty() ? "stream" : "graph")) return;
  const bool clocked_alike = batched ? prior->e2e_ms.empty()
                                     : prior->e2e_ms.size() == prior->device_ms.size();
  if (!clocked_alike) return;
  side.device_ms = prior->device_ms;
  side.e2e_ms = prior->e2e_ms;
  side.prior = static_cast<int>(prior->device_ms.size());
}

// After trial t of a side with `minimum` trials to run: may it stop here,
// before o.trials?
bool stop_early(const TimingOptions& o, int t, int minimum, SideTiming& side) {
  if (!adaptive(o) || t + 1 < minimum || t + 1 >= o.trials || !round_ends(o, t)) return false;
  measure_precision(side, o);
  return side_precise(side, o);
}

}  // namespace

// One attempt: rounds of trials up to o.trials, the checks at round ends,
// the precision rule for each side after each round (a side that meets it
// stops; the others run on). Returns whether every side stopped early.
Result<bool> TimingHarness::Impl::measure(std::span<const Launchable> sides, const TimingOptions& o,
                                          std::span<const int> minimum, const PrepareFn& prepare,
                                          const TrialChecker& checker, int* checks,
                                          std::span<SideTiming> st) {
  const int round = round_trials(o);
  std::vector<bool> done(sides.size(), false);
  for (int first = 0; first < o.trials; first += round) {
    const int last = std::min(first + round, o.trials);
    PF_TRY(run(sides, done, first, last, o, prepare, st));
    const int t = last - 1;
    if (checker && check_now(o, t)) {
      for (size_t k = 0; k < sides.size(); ++k) {
        if (done[k]) continue;
        ++*checks;
        const size_t plan = static_cast<size_t>(t) % sides[k].runnable->plans.size();
        auto checked = checker(static_cast<int>(k), t, plan);
        if (!checked.ok()) {
          return checked.error().with_context("re-check of " + sides[k].runnable->name +
                                              " after timed trial " + std::to_string(t));
        }
      }
    }
    for (size_t k = 0; k < sides.size(); ++k) {
      if (done[k]) continue;
      // A prior asks one round of fresh trials, for as long as they agree.
      if (st[k].prior > 0 && round_ends(o, t) && !prior_agrees(st[k], o)) drop_prior(st[k]);
      done[k] = stop_early(o, t, st[k].prior > 0 ? round : minimum[k], st[k]);
    }
    if (std::all_of(done.begin(), done.end(), [](bool d) { return d; })) return true;
  }
  return false;
}

Result<TimingResult> TimingHarness::time_interleaved(const Runnable& a, const Runnable& b,
                                                     const TimingOptions& options,
                                                     const TrialChecker& checker,
                                                     const TrialPreparer& prepare,
                                                     const PriorSamples* b_prior) {
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
  PF_TRY(impl_->warm_up(sides, options, prepare_trial));
  result.warmup_ms = lap();
  result.batched = Impl::batched(sides, options);
  const int minimum_a = minimum_trials(options, std::max(a.plans.size(), b.plans.size()));
  const int minimum[2] = {minimum_a, minimum_trials_b(options, minimum_a)};
  for (int attempt = 0; attempt <= options.remeasures; ++attempt) {
    result.attempts = attempt + 1;
    SideTiming st[2];
    st[0].name = a.name;
    st[1].name = b.name;
    if (adaptive(options)) seed_with_prior(st[1], b_prior, sides[1], result.batched);
    PF_ASSIGN(result.stopped_early,
              impl_->measure(sides, options, minimum, prepare_trial, checker, &result.checks, st));
    result.trials = st[0].trials();
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
  PF_TRY(impl_->warm_up(sides, options, none));
  SideTiming side;
  const int minimum[1] = {minimum_trials(options, a.plans.size())};
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
                        {"trials", s.trials()},
                        {"prior", s.prior},
                        {"prior_dropped", s.prior_dropped},
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
