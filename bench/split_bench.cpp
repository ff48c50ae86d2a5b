// Full evaluations per GPU-second on the quickstart mix (issue 18), with the
// CPU/GPU split off and on in one process: the quickstart configuration, the
// GPUs passforge plans for, warm caches (a warm-up evaluation per task and
// mode first), and many requests in flight through the EvaluationService a
// run uses. Every measured request is a new candidate like an agent's: its
// kernel files differ by a comment, so NVRTC compiles each one (the eager
// baseline's kernels and everything else stay cached); --broken-share makes
// that share of them fail to compile, as agents' candidates often do.
//
// Per mode it counts the full evaluations finished within a window of
// --seconds (then lets the requests in flight finish, unmeasured), the GPU
// workers' busy time over the same window and the GPU phases' mean ms per
// evaluation (synthesis, checked runs, determinism, timing: the variants'
// phases_ms summed per evaluation). All of that per timing profile (--timing:
// fixed trial count against the adaptive one), each followed by an AS
// reproducibility check: every task's reference pass evaluated --repeat times
// in a row (fresh input seeds unless --seed), spread = (max - min) / median
// of AS. JSON on stdout, one summary line per mode and per task on stderr. Run from the repository
// root (tasks/ and examples/passes/ are read from there); the binary sits at the build root so that
// `tests/gpu/run_device.sh --pack` carries it with passforge-worker.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>
#include <vector>

#include "common/log.h"
#include "config/config_loader.h"
#include "evaluator/passes/workspace.h"
#include "evaluator/protocol/evaluation_plan.h"
#include "evaluator/protocol/evaluation_service.h"
#include "evaluator/tasks/task.h"

namespace {

using namespace pf;
using nlohmann::json;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

// The timing protocol of one measurement: "NAME:WARMUP:TRIALS:PRECISION[:CLOCK]"
// ([evaluator] warmup, trials, timing_precision, timing_clock; without CLOCK
// the configuration's).
struct Profile {
  std::string name;
  int warmup = 0;
  int trials = 0;
  double precision = 0;
  std::optional<TimingClock> clock;
  std::optional<int> baseline_min_trials;
  std::optional<bool> baseline_pool;
};

std::optional<Profile> parse_profile(const std::string& spec) {
  Profile p;
  char name[64] = {};
  char clock[32] = {};
  int baseline_min = 0;
  int pool = 0;
  const int fields = std::sscanf(spec.c_str(), "%63[^:]:%d:%d:%lf:%31[^:]:%d:%d", name, &p.warmup,
                                 &p.trials, &p.precision, clock, &baseline_min, &pool);
  if (fields < 4 || p.warmup < 0 || p.trials < 1 || p.precision < 0 || p.precision > 1) {
    return std::nullopt;
  }
  if (fields == 7) {
    if (pool != 0 && pool != 1) return std::nullopt;
    p.baseline_pool = pool == 1;
  }
  if (fields >= 6) {
    if (baseline_min < 1) return std::nullopt;
    p.baseline_min_trials = baseline_min;
  }
  if (fields >= 5) {
    const std::string c = clock;
    if (c != "device" && c != "end_to_end") return std::nullopt;
    p.clock = c == "device" ? TimingClock::device : TimingClock::end_to_end;
  }
  p.name = name;
  return p;
}

struct Options {
  std::string config = "configs/quickstart.toml";
  std::vector<std::string> tasks = {"neg-cat-mul-add-6a5c9e", "add-softmax-dropout-a73f2b",
                                    "linear-mul-truediv-erf-add-mul-2eaa9f"};
  double seconds = 30;
  int in_flight = 8;
  double broken_share = 0;
  std::string cache;  // empty: $TMPDIR/pf_split_bench_cache
  std::vector<std::string> modes = {"off", "on"};
  std::vector<std::string> timing = {"e2e:4:100:0.01:end_to_end", "e2e2pct:4:100:0.02:end_to_end",
                                     "device:4:100:0.01:device"};
  int repeat = 5;
  //! Fixes every request's input seed (a worker may then reuse its input
  //! draws); absent: a fresh seed per evaluation, as runs do.
  std::optional<int64_t> seed;
};

struct Candidate {
  Task task;
  std::map<std::string, std::string> files;
};

int fail(const std::string& what) {
  std::fprintf(stderr, "pf_split_bench: %s\n", what.c_str());
  return 2;
}

double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// The candidate's kernel files made new (request `n` of mode `mode`), and
// broken when `broken`.
std::map<std::string, std::string> fresh_files(const Candidate& c, const std::string& mode,
                                               uint64_t n, bool broken) {
  auto files = c.files;
  for (auto& [name, source] : files) {
    if (name.size() < 3 || name.compare(name.size() - 3, 3, ".cu") != 0) continue;
    source += "\n// pf_split_bench " + mode + " request " + std::to_string(n) + "\n";
    if (broken) source += "this is not CUDA;\n";
  }
  return files;
}

double busy_sum(const sandbox::PoolLoad& l) {
  double s = 0;
  for (const auto& slot : l.slots) s += slot.busy_s;
  return s;
}

uint64_t requests_sum(const sandbox::PoolLoad& l) {
  uint64_t s = 0;
  for (const auto& slot : l.slots) s += slot.requests;
  return s;
}

// Sums of the GPU phases over the evaluations that reached a GPU: the
// evaluation's and the variants' phases_ms and host_traffic per evaluation,
// and timed trials per timed variant.
class PhaseTotals {
 public:
  void add(const json& result) {
    std::lock_guard lock(mu_);
    ++evaluations_;
    // The evaluation's own phases (compile and match again on the GPU
    // worker, loading kernels, the harness), apart from the variants'.
    const json own = result.value("phases_ms", json::object());
    for (const auto& [phase, ms] : own.items()) {
      if (ms.is_number()) ms_["evaluation." + phase] += ms.get<double>();
    }
    for (const json& v : result.value("variants", json::array())) {
      // items() refers to its json: a temporary would die before the loop.
      const json phases = v.value("phases_ms", json::object());
      for (const auto& [phase, ms] : phases.items()) {
        if (ms.is_number()) ms_[phase] += ms.get<double>();
      }
      const json traffic = v.value("host_traffic", json::object());
      for (const auto& [kind, bytes] : traffic.items()) {
        if (bytes.is_number()) bytes_[kind] += bytes.get<double>();
      }
      const json& t = v.value("timing", json());
      if (t.is_object()) {
        ++timed_;
        trials_ += t.value("trials", 0);
        eager_trials_ += t.value("eager_trials", 0);
        eager_prior_ += t.value("eager_prior_trials", 0);
        eager_dropped_ += t.value("eager_prior_dropped", false) ? 1 : 0;
        const json& ratio = t.value("eager_prior_ratio", json());
        if (ratio.is_number()) prior_ratios_.push_back(ratio.get<double>());
        pool_emptied_ += t.value("eager_pool_emptied", false) ? 1 : 0;
        stopped_early_ += t.value("stopped_early", false) ? 1 : 0;
      }
    }
  }
  json to_json() const {
    std::lock_guard lock(mu_);
    const double n = std::max<double>(1, static_cast<double>(evaluations_));
    json per_eval = json::object();
    for (const auto& [phase, ms] : ms_) per_eval[phase] = ms / n;
    json traffic = json::object();
    for (const auto& [kind, bytes] : bytes_) traffic[kind] = bytes / n;
    return {{"gpu_evaluations", evaluations_},
            {"phase_ms_per_evaluation", per_eval},
            {"host_traffic_bytes_per_evaluation", traffic},
            {"timed_variants", timed_},
            {"trials_per_timed_variant",
             timed_ > 0 ? json(static_cast<double>(trials_) / static_cast<double>(timed_))
                        : json(nullptr)},
            {"eager_trials_per_timed_variant",
             timed_ > 0 ? json(static_cast<double>(eager_trials_) / static_cast<double>(timed_))
                        : json(nullptr)},
            {"eager_prior_trials_per_timed_variant",
             timed_ > 0 ? json(static_cast<double>(eager_prior_) / static_cast<double>(timed_))
                        : json(nullptr)},
            {"eager_prior_dropped", eager_dropped_},
            {"eager_prior_ratio", ratio_summary()},
            {"eager_pool_emptied", pool_emptied_},
            {"stopped_early_share",
             timed_ > 0 ? json(static_cast<double>(stopped_early_) / static_cast<double>(timed_))
                        : json(nullptr)}};
  }

 private:
  mutable std::mutex mu_;
  uint64_t evaluations_ = 0, timed_ = 0, trials_ = 0, eager_trials_ = 0, stopped_early_ = 0;
  uint64_t eager_prior_ = 0, eager_dropped_ = 0, pool_emptied_ = 0;
  // The pooled variants' fresh eager medians over their priors': centred on 1
  // when the GPU is steady between evaluations (the pool's drift guard).
  std::vector<double> prior_ratios_;

  json ratio_summary() const {
    if (prior_ratios_.empty()) return nullptr;
    std::vector<double> r = prior_ratios_;
    std::sort(r.begin(), r.end());
    double log_sum = 0;
    for (double x : r) log_sum += std::log(x);
    auto at = [&r](double q) { return r[static_cast<size_t>(q * static_cast<double>(r.size() - 1))]; };
    return {{"n", r.size()},
            {"geomean", std::exp(log_sum / static_cast<double>(r.size()))},
            {"p10", at(0.1)},
            {"median", at(0.5)},
            {"p90", at(0.9)}};
  }
  std::map<std::string, double> ms_;
  std::map<std::string, double> bytes_;  // the variants' host_traffic
};

void apply_profile(Config& config, const Profile& p) {
  config.evaluator.warmup = p.warmup;
  config.evaluator.trials = p.trials;
  config.evaluator.timing_precision = p.precision;
  if (p.clock) config.evaluator.timing_clock = *p.clock;
  if (p.baseline_min_trials) config.evaluator.baseline_min_trials = *p.baseline_min_trials;
  if (p.baseline_pool) config.evaluator.baseline_pool = *p.baseline_pool;
}

Result<json> run_mode(const Options& o, Config config, const protocol::EvaluationPlan& plan,
                      const std::vector<Candidate>& mix, const std::string& mode) {
  config.evaluator.cpu_precompile = mode == "on";
  protocol::ServiceOptions so = protocol::service_options(config, plan);
  if (o.seed) so.options["seed"] = *o.seed;
  PF_ASSIGN(auto service, protocol::EvaluationService::start(std::move(so)));
  // Warm-up: each task once with its own files (fills the NVRTC and baseline
  // kernel caches and each worker's runtime).
  const auto warm0 = Clock::now();
  for (const auto& c : mix) {
    PF_ASSIGN(auto e, service->evaluate(c.task, c.files, protocol::EvalMode::full));
    if (e.mode != protocol::EvalMode::full) {
      return make_error(ErrorCode::unsupported, "the workers fell back to compile-only");
    }
  }
  const double warm_s = seconds_between(warm0, Clock::now());

  std::atomic<uint64_t> next{0}, done_in_window{0}, done{0}, correct{0}, failed{0}, unavailable{0},
      gpu_evaluations{0};
  std::mutex mu;
  std::vector<double> latencies;
  PhaseTotals phases;
  const auto start = Clock::now();
  const auto deadline =
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.seconds));
  const sandbox::PoolLoad load0 = service->load();
  sandbox::PoolLoad load1;
  std::thread window_end([&] {
    std::this_thread::sleep_until(deadline);
    load1 = service->load();
  });
  std::vector<std::thread> threads;
  for (int t = 0; t < std::max(1, o.in_flight); ++t) {
    threads.emplace_back([&] {
      while (Clock::now() < deadline) {
        const uint64_t n = next++;
        const Candidate& c = mix[n % mix.size()];
        const bool broken = o.broken_share > 0 && static_cast<double>((n * 7919) % 1000) <
                                                      o.broken_share * 1000.0;  // spread evenly
        const auto t0 = Clock::now();
        auto e =
            service->evaluate(c.task, fresh_files(c, mode, n, broken), protocol::EvalMode::full);
        const auto t1 = Clock::now();
        if (!e.ok()) {
          ++unavailable;
          continue;
        }
        ++done;
        if (t1 < deadline) ++done_in_window;
        if (e->gpu) ++gpu_evaluations;
        if (e->gpu && t1 < deadline) phases.add(e->result);
        const json& r = e->result;
        if (r.value("failure_class", json()).is_string()) {
          ++failed;
        } else if (r.value("correct_rate", 0.0) >= 1.0) {
          ++correct;
        }
        std::lock_guard lock(mu);
        latencies.push_back(seconds_between(t0, t1));
      }
    });
  }
  for (auto& th : threads) th.join();
  window_end.join();
  const double window = seconds_between(start, deadline);
  // The GPU side's own interval between the two samples (the second one
  // lands a little after the deadline).
  const double sampled = std::max(1e-9, load1.wall_s - load0.wall_s);
  const size_t gpus = std::max<size_t>(1, load1.slots.size());
  const double busy = busy_sum(load1) - busy_sum(load0);
  const uint64_t gpu_requests = requests_sum(load1) - requests_sum(load0);
  json per_gpu = json::array();
  for (size_t i = 0; i < load1.slots.size(); ++i) {
    const double b = load1.slots[i].busy_s - (i < load0.slots.size() ? load0.slots[i].busy_s : 0);
    per_gpu.push_back({{"device", load1.slots[i].device}, {"busy_share", b / sampled}});
  }
  std::sort(latencies.begin(), latencies.end());
  const double evals_per_s = static_cast<double>(done_in_window) / window;
  const auto stats = service->stats();
  json out = {{"cpu_precompile", mode == "on"},
              {"warmup_s", warm_s},
              {"window_s", window},
              {"evaluations_in_window", done_in_window.load()},
              {"evaluations", done.load()},
              {"unavailable", unavailable.load()},
              {"compile_failures", failed.load()},
              {"all_variants_correct", correct.load()},
              {"reached_a_gpu", gpu_evaluations.load()},
              {"kept_off_gpu", stats.kept_off_gpu},
              {"evals_per_s", evals_per_s},
              {"evals_per_gpu_s", evals_per_s / static_cast<double>(gpus)},
              {"gpu_busy_share", busy / sampled / static_cast<double>(gpus)},
              {"gpu_requests_in_window", gpu_requests},
              {"gpu_s_per_request",
               gpu_requests > 0 ? json(busy / static_cast<double>(gpu_requests)) : json(nullptr)},
              {"per_gpu", per_gpu},
              {"gpu_phases", phases.to_json()},
              {"latency_median_s",
               latencies.empty() ? json(nullptr) : json(latencies[latencies.size() / 2])},
              {"service", stats.to_json()}};
  std::fprintf(stderr,
               "pf_split_bench: cpu_precompile %-3s: %.2f full evaluations/s per GPU (%llu in "
               "%.0f s on %zu GPU), GPU busy %.0f%%, %.0f ms GPU per request, %llu kept off the "
               "GPU\n",
               mode.c_str(), evals_per_s / static_cast<double>(gpus),
               static_cast<unsigned long long>(done_in_window.load()), window, gpus,
               100 * busy / sampled / static_cast<double>(gpus),
               gpu_requests > 0 ? 1000 * busy / static_cast<double>(gpu_requests) : 0.0,
               static_cast<unsigned long long>(stats.kept_off_gpu));
  return out;
}

// The same reference pass evaluated o.repeat times per task, one at a time:
// the spread of AS over the repeats.
Result<json> reproducibility(const Options& o, const Config& config,
                             const protocol::EvaluationPlan& plan,
                             const std::vector<Candidate>& mix, const std::string& profile) {
  protocol::ServiceOptions so = protocol::service_options(config, plan);
  if (o.seed) so.options["seed"] = *o.seed;
  PF_ASSIGN(auto service, protocol::EvaluationService::start(std::move(so)));
  json tasks = json::object();
  double worst = 0;
  for (const auto& c : mix) {
    auto warm = service->evaluate(c.task, c.files, protocol::EvalMode::full);
    if (!warm.ok()) return warm.error();
    std::vector<double> as;
    for (int i = 0; i < o.repeat; ++i) {
      PF_ASSIGN(auto e, service->evaluate(c.task, c.files, protocol::EvalMode::full));
      const json& a = e.result.value("as", json());
      if (e.mode != protocol::EvalMode::full || !a.is_number()) {
        return make_error(ErrorCode::internal, c.task.id + ": no full AS in " + e.result.dump());
      }
      as.push_back(a.get<double>());
    }
    std::vector<double> sorted = as;
    std::sort(sorted.begin(), sorted.end());
    const double median = sorted[sorted.size() / 2];
    const double spread = median > 0 ? (sorted.back() - sorted.front()) / median : 0;
    worst = std::max(worst, spread);
    tasks[c.task.id] = {{"as", as}, {"median", median}, {"spread", spread}};
    std::fprintf(stderr,
                 "pf_split_bench: %-8s AS reproducibility %s: median %.4f, spread %.2f%% over "
                 "%d evaluations\n",
                 profile.c_str(), c.task.id.c_str(), median, 100 * spread, o.repeat);
  }
  return json{{"repeat", o.repeat}, {"tasks", tasks}, {"worst_spread", worst}};
}

int run(const Options& o) {
  std::vector<Profile> profiles_asked;
  for (const auto& spec : o.timing) {
    std::optional<Profile> profile = parse_profile(spec);
    if (!profile) {
      return fail("--timing " + spec +
                  ": expected "
                  "NAME:WARMUP:TRIALS:PRECISION[:device|end_to_end[:BASELINE_MIN_TRIALS[:POOL]]]");
    }
    profiles_asked.push_back(*profile);
  }
  // Logs to stderr, so that stdout is only the JSON.
  if (auto st = setup_logging({"warn", ""}); !st.ok()) return fail(st.error().message);
  ConfigInputs inputs;
  inputs.file = o.config;
  auto loaded = load_config(inputs);
  if (!loaded.ok()) return fail(loaded.error().message);
  Config config = loaded->config;
  config.run.concurrency = std::max(config.run.concurrency, o.in_flight);
  const fs::path cache =
      o.cache.empty() ? fs::temp_directory_path() / "pf_split_bench_cache" : fs::path(o.cache);
  config.evaluator.nvrtc_cache_dir = cache.string();
  auto plan = protocol::plan_evaluation(config.evaluator);
  if (!plan.ok()) return fail(plan.error().message);
  if (plan->mode != protocol::EvalMode::full) return fail("needs a GPU: " + plan->reason);

  std::vector<Candidate> mix;
  for (const auto& id : o.tasks) {
    auto task = load_task_file(fs::path("tasks") / (id + ".json"));
    if (!task.ok()) return fail(task.error().message);
    auto ws = passes::PassWorkspace::load(fs::path("examples/passes") / id);
    if (!ws.ok()) return fail(ws.error().message);
    mix.push_back({std::move(*task), ws->files()});
  }
  json profiles = json::array();
  for (const auto& asked : profiles_asked) {
    const Profile* profile = &asked;
    Config c = config;
    apply_profile(c, *profile);
    json modes = json::array();
    for (const auto& mode : o.modes) {
      std::fprintf(stderr,
                   "pf_split_bench: timing %s (warmup %d, trials %d, precision %g, %s clock)\n",
                   profile->name.c_str(), profile->warmup, profile->trials, profile->precision,
                   to_string(c.evaluator.timing_clock));
      auto m = run_mode(o, c, *plan, mix, mode);
      if (!m.ok()) return fail("cpu_precompile " + mode + ": " + m.error().message);
      modes.push_back(std::move(*m));
    }
    json entry = {{"name", profile->name},
                  {"warmup", profile->warmup},
                  {"trials", profile->trials},
                  {"timing_precision", profile->precision},
                  {"timing_clock", to_string(c.evaluator.timing_clock)},
                  {"modes", modes}};
    if (o.repeat > 0) {
      auto r = reproducibility(o, c, *plan, mix, profile->name);
      if (!r.ok()) return fail("reproducibility: " + r.error().message);
      entry["reproducibility"] = std::move(*r);
    }
    profiles.push_back(std::move(entry));
  }
  json out = {{"gpu", plan->gpu_name},
              {"gpus", plan->devices.size()},
              {"tasks", o.tasks},
              {"in_flight", o.in_flight},
              {"broken_share", o.broken_share},
              {"seed", o.seed ? json(*o.seed) : json(nullptr)},
              {"protocol",
               {{"min_trials", config.evaluator.min_trials},
                {"baseline_min_trials", config.evaluator.baseline_min_trials},
                {"baseline_pool", config.evaluator.baseline_pool},
                {"timing_confidence", config.evaluator.timing_confidence},
                {"l2_flush", config.evaluator.l2_flush},
                {"graph_replay", config.evaluator.graph_replay}}},
              {"profiles", profiles}};
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // JSON and CLI11 report misuse by exceptions: a message and exit code 2,
  // never an abort.
  try {
    Options o;
    CLI::App app{
        "Full evaluations per GPU-second on the quickstart mix, CPU/GPU split off and on (JSON on "
        "stdout; run from the repository root)"};
    app.add_option("--config", o.config, "configuration file");
    app.add_option("--tasks", o.tasks, "task ids (tasks/<id>.json, examples/passes/<id>)");
    app.add_option("--seconds", o.seconds, "measured window per mode");
    app.add_option("--in-flight", o.in_flight, "evaluation requests in flight");
    app.add_option("--broken-share", o.broken_share, "share of candidates that fail to compile")
        ->check(CLI::Range(0.0, 1.0));
    app.add_option("--cache", o.cache, "NVRTC cache directory (kept between runs: warm)");
    app.add_option("--seed", o.seed,
                   "one input seed for every request (default: fresh per request)");
    app.add_option("--modes", o.modes, "cpu_precompile settings to measure, in order")
        ->check(CLI::IsMember({"off", "on"}));
    app.add_option("--timing", o.timing,
                   "timing profiles "
                   "NAME:WARMUP:TRIALS:PRECISION[:device|end_to_end[:BASELINE_MIN_TRIALS[:POOL]]], "
                   "each "
                   "measured in every mode");
    app.add_option("--repeat", o.repeat,
                   "evaluations of each task's reference pass per profile for the AS spread (0: "
                   "none)")
        ->check(CLI::NonNegativeNumber);
    CLI11_PARSE(app, argc, argv);
    return run(o);
  } catch (const std::exception& e) {
    return fail(e.what());
  }
}
