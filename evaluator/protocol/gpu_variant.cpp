#include "evaluator/protocol/gpu_variant.h"

#include <algorithm>
#include <chrono>
#include <future>
#include <map>
#include <random>
#include <set>

#include "common/elapsed.h"
#include "evaluator/core/shape.h"
#include "evaluator/gpu/graph_plan.h"
#include "evaluator/gpu/tensor_checks.h"
#include "evaluator/protocol/gpu_input_drawer.h"
#include "evaluator/tasks/informative_inputs.h"
#include "evaluator/tasks/synthesis.h"

namespace pf::protocol {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kSets = 2;

// A fresh 64-bit key per variant for the output digests: drawn on the host,
// never stored where the candidate's kernels can read it.
uint64_t draw_digest_key() {
  std::random_device rd;
  return (static_cast<uint64_t>(rd()) << 32) ^ rd();
}

// One input set: the candidate's inputs and plan, the baseline's own copy of
// the inputs and its plan, and the host truth. `content` is the input set
// whose values the candidate's input buffers hold now (contents are rotated
// through the same buffers, addresses unchanged). The inputs have no host
// copy: they are checked on the device against a fresh draw from `drawn`.
struct SetRun {
  int content = 0;
  SynthesisOptions drawn;  // the accepted draw's options: the device re-draws from them
  std::vector<gpu::DeviceTensor> cand_inputs, base_inputs;
  gpu::Plan cand_plan, base_plan;
  std::vector<gpu::DeviceTensor> cand_outputs, base_outputs;
  std::vector<Tensor> candidate, expected;
};

// A verdict that ends the variant's evaluation.
struct Stop {
  FailureClass failure;
  std::string message;
};

// One input set's outputs against the expected ones: a report per output
// compared (up to the first that ends the variant), and that verdict (a wrong
// count, dtype or shape, an output still holding the poison) with its flag.
// Pure: set 0's comparison runs on a thread beside set 1's run.
struct SetComparison {
  std::vector<OutputReport> reports;
  std::optional<IntegrityFlag> flag;
  std::optional<Stop> stop;
};

// The outputs' count, dtypes and shapes agree (what compare_outputs checks
// before any value): O(1) per output.
bool same_structure(const std::vector<Tensor>& candidate, const std::vector<Tensor>& expected) {
  if (candidate.size() != expected.size()) return false;
  for (size_t o = 0; o < expected.size(); ++o) {
    if (candidate[o].dtype() != expected[o].dtype() || candidate[o].shape() != expected[o].shape()) {
      return false;
    }
  }
  return true;
}

SetComparison compare_outputs(int s, const std::vector<Tensor>& candidate,
                              const std::vector<Tensor>& expected) {
  SetComparison c;
  if (candidate.size() != expected.size()) {
    c.stop = Stop{FailureClass::shape_mismatch,
                  "the rewritten graph returns " + std::to_string(candidate.size()) +
                      " outputs, the original " + std::to_string(expected.size())};
    return c;
  }
  for (size_t o = 0; o < expected.size(); ++o) {
    OutputReport r;
    r.dtype = dtype_name(expected[o].dtype());
    r.shape = expected[o].shape();
    r.comparison = compare_output(candidate[o], expected[o]);
    if (r.comparison.shape_ok && r.comparison.dtype_ok) {
      r.poisoned = count_poison(candidate[o], gpu::PlanBuilderOptions{}.poison_byte, &expected[o]);
    }
    const OutputComparison cmp = r.comparison;
    const int64_t poisoned = r.poisoned;
    c.reports.push_back(std::move(r));
    std::string out = "output " + std::to_string(o) + " (input set " + std::to_string(s) + ")";
    if (!cmp.dtype_ok) {
      c.stop = Stop{FailureClass::dtype_mismatch, out + " is " +
                                                      dtype_name(candidate[o].dtype()) +
                                                      ", expected " + dtype_name(expected[o].dtype())};
      return c;
    }
    if (!cmp.shape_ok) {
      c.stop = Stop{FailureClass::shape_mismatch, out + " is " + shape_str(candidate[o].shape()) +
                                                      ", expected " + shape_str(expected[o].shape())};
      return c;
    }
    if (poisoned > 0) {
      std::string ev = out + ": " + std::to_string(poisoned) + " of " +
                       std::to_string(expected[o].numel()) +
                       " elements were never written (still the poison fill)";
      c.flag = IntegrityFlag{"unwritten_output", ev, true};
      c.stop = Stop{FailureClass::integrity, ev + "; every output element must be written"};
      return c;
    }
  }
  return c;
}

class VariantEvaluator {
 public:
  VariantEvaluator(GpuContext& ctx, passes::GpuReplacements& repl, const TaskVariant& variant,
                   const Graph& graph, const Graph& rewritten, const ProtocolOptions& options)
      : ctx_(ctx),
        rt_(ctx.runtime),
        repl_(repl),
        variant_(variant),
        graph_(graph),
        rewritten_(rewritten),
        options_(options),
        digest_key_(draw_digest_key()) {}

  VariantRun run() {
    const uint64_t downloaded_before = rt_.downloaded_bytes();
    run_.first_passing_level = kMinToleranceLevel;
    run_.roofline = roofline_floor(graph_, ctx_.registry, ctx_.peaks);
    if (auto missing = gpu::unsupported_ops(graph_); !missing.empty()) {
      run_.skipped = "the eager baseline cannot run this variant: " + missing.front();
      return std::move(run_);
    }
    std::optional<Stop> stop = steps();
    if (auto first = finish_compare0()) stop = first;
    finish_trivial_guard();
    if (stop) {
      run_.failure = stop->failure;
      run_.message = stop->message;
    }
    if (!rt_.driver().poisoned().empty()) run_.fatal = true;
    if (run_.failure != FailureClass::none) run_.first_passing_level = kMaxToleranceLevel + 1;
    run_.downloaded_bytes = rt_.downloaded_bytes() - downloaded_before;
    return std::move(run_);
  }

 private:
  std::optional<Stop> steps() {
    auto t0 = Clock::now();
    for (int s = 0; s < kSets; ++s) {
      sets_[s].content = s;
      if (auto stop = draw_inputs(s)) return stop;
    }
    run_.phase_ms["synthesis"] = ms_since(t0);
    t0 = Clock::now();
    // Nothing an earlier plan left in cached device memory (the probes'
    // outputs, an earlier variant's or evaluation's expected outputs) is
    // readable by the candidate.
    if (auto st = scrub_free_memory(); !st.ok()) return candidate_error(st.error(), "scrubbing");
    run_.phase_ms["scrub"] = ms_since(t0);
    t0 = Clock::now();
    if (auto stop = run_set(0)) return stop;
    run_.phase_ms["run_set0"] = ms_since(t0);
    // Set 0's outputs are compared on a thread while set 1 runs; its verdict
    // still comes first, as if it had been reached before set 1 ran. A wrong
    // count, dtype or shape is known at once: set 1 does not run then.
    t0 = Clock::now();
    if (same_structure(sets_[0].candidate, sets_[0].expected)) {
      compare0_ = std::async(std::launch::async, [this] {
        return compare_outputs(0, sets_[0].candidate, sets_[0].expected);
      });
    } else if (std::optional<Stop> wrong = compare_set(0)) {
      run_.phase_ms["compare"] += ms_since(t0);
      return wrong;
    }
    const auto guard_t0 = Clock::now();
    std::optional<Stop> set1 = trivial_guard();
    run_.phase_ms["compare.guard"] = ms_since(guard_t0);
    run_.phase_ms["compare"] += ms_since(t0);
    if (!set1) {
      t0 = Clock::now();
      set1 = run_set(1);
      run_.phase_ms["run_set1"] = ms_since(t0);
    }
    t0 = Clock::now();
    if (auto first = finish_compare0()) return first;
    if (set1) return set1;
    set1 = compare_set(1);
    run_.phase_ms["compare"] += ms_since(t0);
    if (set1) return set1;
    t0 = Clock::now();
    remember_checked_outputs();
    if (auto stop = determinism_rerun()) return stop;
    if (auto stop = same_buffers_new_contents()) return stop;
    run_.phase_ms["determinism"] = ms_since(t0);
    // Not close at any level: nothing to time. Close only above t = -5: still
    // timed, since ES_t at those levels uses the speedup.
    if (run_.first_passing_level > kMaxToleranceLevel) {
      return Stop{FailureClass::accuracy, mismatch_message()};
    }
    if (run_.first_passing_level > kBaselineToleranceLevel) run_.message = mismatch_message();
    // Joined before timing: a host thread busy beside the timed trials would
    // add jitter to the end-to-end clock.
    finish_trivial_guard();
    t0 = Clock::now();
    if (auto stop = time_both()) return stop;
    run_.phase_ms["timing"] = ms_since(t0);
    t0 = Clock::now();
    if (auto stop = check_sets({0, 1}, "after timing")) return stop;
    run_.phase_ms["after_timing"] = ms_since(t0);
    return std::nullopt;
  }

  // The informative-inputs rule (informative_inputs.h) on the GPU baseline:
  // probe runs on throw-away copies, before the candidate runs on this set,
  // and their memory is scrubbed before it does. A variant no draw makes
  // informative is excluded (skipped) with the task flag degenerate_variant.
  std::optional<Stop> draw_inputs(int s) {
    SynthesisOptions so;
    so.seed = options_.seed.value_or(0);
    so.round = static_cast<uint32_t>(s);
    so.zero_std = options_.std_zero_rule;
    // A requested seed gives the same draw every time (deterministic): drawn
    // once per worker.
    InputDrawCache* memo = ctx_.input_draws;
    const std::string key = memo != nullptr ? InputDrawCache::key(variant_, so) : "";
    Result<InputDraw> draw = make_error(ErrorCode::internal, "not drawn");
    if (auto cached = memo != nullptr ? memo->find(key) : std::nullopt) {
      draw = std::move(*cached);
    } else {
      GpuInputDrawer drawer(rt_, variant_, graph_, /*host_inputs=*/false);
      drawer.time_into(&run_.phase_ms);
      draw = draw_informative_inputs(variant_, so, drawer);
      // The host copy of the accepted draw the protocol no longer makes.
      for (const InputMeta& in : variant_.inputs) {
        run_.avoided_bytes += static_cast<uint64_t>(shape_numel(in.shape)) * dtype_size(in.dtype);
      }
      if (memo != nullptr && draw.ok()) memo->insert(key, *draw);
    }
    if (!draw.ok()) {
      // The candidate has not run yet in this variant: the baseline's failure.
      run_.skipped = "the eager baseline failed: " + draw.error().message;
      return Stop{FailureClass::none, ""};
    }
    if (!draw->informative) {
      std::string ev = "input set " + std::to_string(s) + ": " + draw->summary();
      flag("degenerate_variant",
           "no input draw gives outputs that carry information, so this variant cannot tell a "
           "correct kernel from a trivial one and is left out of correctness: " +
               ev,
           false);
      run_.skipped = "degenerate variant (" + ev + ")";
      return Stop{FailureClass::none, ""};
    }
    if (draw->attempt > 0) {
      run_.inputs_redrawn.push_back("input set " + std::to_string(s) + ": " + draw->summary());
    }
    sets_[s].drawn = draw->options;
    // The probe ran the eager baseline on exactly these values: its outputs
    // are the set's expected outputs, so the checked run does not run the
    // baseline again before the candidate is timed.
    sets_[s].expected = std::move(draw->outputs);
    return std::nullopt;
  }

  Status scrub_free_memory() {
    PF_TRY(rt_.allocator().scrub());
    return rt_.synchronize_device();
  }

  // Writes input set `from`'s values into `set`'s candidate input buffers
  // (same addresses, new contents).
  Status load_contents(SetRun& set, int from) {
    PF_TRY(refill_device_inputs(rt_, variant_, sets_[from].drawn, set.cand_inputs));
    set.content = from;
    return ok_status();
  }

  // Input set 1's values written into set 0's input buffers: a kernel that
  // remembers results by address (a pointer-keyed cache, an output left in
  // place) answers for the old contents and is caught here.
  std::optional<Stop> same_buffers_new_contents() {
    SetRun& set = sets_[0];
    if (auto st = load_contents(set, 1); !st.ok())
      return candidate_error(st.error(), "new contents");
    if (auto st = poison_outputs(set); !st.ok()) return candidate_error(st.error(), "new contents");
    // No wait of its own: the digests' read-back waits for the run, and a
    // fault surfacing there is named as the re-run's.
    Status ran = set.cand_plan.run(rt_.stream());
    if (!ran.ok()) return candidate_error(ran.error(), "the same-buffers re-run");
    auto digests = output_digests(set);
    if (!digests.ok()) return candidate_error(digests.error(), "the same-buffers re-run");
    for (size_t o = 0; o < set.cand_outputs.size(); ++o) {
      if (verified(1, o, (*digests)[o], set.cand_outputs[o])) continue;
      auto h = rt_.download(set.cand_outputs[o]);
      if (!h.ok()) return candidate_error(h.error(), "the same-buffers re-run");
      OutputComparison c = compare_output(*h, sets_[1].expected[o]);
      if (c.correct_at(required_level())) remember_verified(1, o, *h);
      if (!c.correct_at(required_level())) {
        std::string ev = "output " + std::to_string(o) +
                         " is wrong when input set 1's values are written into input set 0's "
                         "buffers (same addresses, new contents): max abs diff " +
                         std::to_string(c.max_abs_diff) +
                         "; results must follow the inputs' contents, not their addresses";
        flag("same_buffers_new_contents", ev);
        return Stop{FailureClass::integrity, ev};
      }
    }
    return check_inputs_and_guards(0, "after the same-buffers re-run");
  }

  // A CUDA error of the candidate: runtime_fail.
  Stop candidate_error(const Error& e, const char* phase) {
    return Stop{FailureClass::runtime_fail, std::string(phase) + ": " + e.message};
  }

  // A plan-build error: the replacement interpreter's class (shape_mismatch,
  // dtype_mismatch, runtime_fail) for the call that failed.
  Stop build_error(const Error& e) {
    FailureClass c = repl_.last_failure();
    if (c == FailureClass::none) c = FailureClass::runtime_fail;
    return Stop{c, "building the candidate: " + e.message};
  }

  std::optional<Stop> run_set(int s) {
    SetRun& set = sets_[s];
    // Drawn on the device again (the values of host_inputs, bit for bit):
    // nothing is uploaded.
    auto c = draw_device_inputs(rt_, variant_, set.drawn, "in_");
    auto b = draw_device_inputs(rt_, variant_, set.drawn, "eager_in_");
    if (!c.ok()) return Stop{FailureClass::runtime_fail, "drawing inputs: " + c.error().message};
    if (!b.ok()) return Stop{FailureClass::runtime_fail, "drawing inputs: " + b.error().message};
    set.cand_inputs = std::move(*c);
    set.base_inputs = std::move(*b);
    if (auto st = rt_.synchronize(); !st.ok()) {
      return Stop{FailureClass::runtime_fail, "drawing inputs: " + st.error().message};
    }
    // Candidate first: it cannot inherit anything the baseline leaves behind.
    gpu::PlanBuilderOptions poisoned;
    poisoned.poison_allocations = true;
    gpu::PlanBuilder cand(rt_, poisoned);
    auto outs = gpu::build_graph_plan(rewritten_, set.cand_inputs, cand, repl_.hook());
    if (!outs.ok()) return build_error(outs.error());
    set.cand_outputs = std::move(*outs);
    set.cand_plan = cand.finish();
    Status ran = set.cand_plan.run(rt_.stream());
    if (ran.ok()) ran = rt_.synchronize();
    if (!ran.ok()) return candidate_error(ran.error(), "running the candidate");
    for (const auto& t : set.cand_outputs) {
      auto h = rt_.download(t);
      if (!h.ok()) return candidate_error(h.error(), "reading the candidate's outputs");
      set.candidate.push_back(std::move(*h));
    }
    if (auto stop = check_inputs_and_guards(s, "after the candidate ran")) return stop;

    // Built now, after the candidate ran, and first run when timing starts:
    // the expected outputs are the probe's (draw_inputs).
    gpu::PlanBuilder base(rt_);
    auto bouts = gpu::build_graph_plan(graph_, set.base_inputs, base);
    if (!bouts.ok()) {
      run_.skipped = "the eager baseline failed: " + bouts.error().message;
      return Stop{FailureClass::none, ""};
    }
    set.base_outputs = std::move(*bouts);
    set.base_plan = base.finish();
    return std::nullopt;
  }

  std::optional<Stop> check_inputs_and_guards(int s, const char* when) {
    return check_sets({s}, when);
  }

  // The inputs of the sets `which` against the values they must hold, drawn
  // again on the device after the candidate ran (nothing it wrote can have
  // reached them), compared there bit for bit, with the plans' guards read
  // in the same batch: only the counts come back, one read-back for all.
  // Verdicts in the order of `which`.
  std::optional<Stop> check_sets(std::initializer_list<int> which, const char* when) {
    std::vector<std::vector<gpu::DeviceTensor>> truths;
    truths.reserve(which.size());
    for (int s : which) {
      const SetRun& set = sets_[s];
      // Queued on the stream the comparison runs on.
      auto truth = draw_device_inputs(rt_, variant_, sets_[set.content].drawn, "check_ref_in_");
      if (!truth.ok()) return candidate_error(truth.error(), "drawing the inputs' values again");
      truths.push_back(std::move(*truth));
    }
    std::vector<gpu::PlanCheckRequest> requests;
    size_t i = 0;
    for (int s : which) {
      requests.push_back({&sets_[s].cand_plan, &sets_[s].cand_inputs, &truths[i++]});
    }
    auto checked = gpu::check_plans(rt_, requests);
    if (!checked.ok()) return candidate_error(checked.error(), "checking the inputs");
    i = 0;
    for (int s : which) {
      if (auto stop = judge_check(s, (*checked)[i++], when)) return stop;
    }
    return std::nullopt;
  }

  std::optional<Stop> judge_check(int s, const gpu::PlanCheck& checked, const char* when) {
    const SetRun& set = sets_[s];
    if (!checked.guards.ok()) {
      const std::string& damage = checked.guards.error().message;
      flag("canary_overwritten", damage);
      return Stop{FailureClass::integrity,
                  std::string("memory outside the candidate's buffers was written ") + when + ": " +
                      damage};
    }
    const std::vector<int64_t>& changed = checked.changed;
    for (size_t k = 0; k < set.cand_inputs.size(); ++k) {
      run_.avoided_bytes += byte_size(set.cand_inputs[k]);
      if (changed[k] != 0) {
        std::string name = variant_.inputs[k].name;
        std::string ev = name + ": " + std::to_string(changed[k]) + " of " +
                         std::to_string(set.cand_inputs[k].numel()) +
                         " elements changed (input set " + std::to_string(s) + ", " + when + ")";
        flag("inputs_modified", ev);
        return Stop{FailureClass::integrity,
                    "the candidate modified its input " + ev + "; inputs are read-only"};
      }
    }
    return std::nullopt;
  }

  // Input set s's comparison, merged into the run: its reports, the worst
  // level, its flag and verdict; after set 1 also the cross-set rule.
  std::optional<Stop> compare_set(int s) {
    return merge_comparison(s, compare_outputs(s, sets_[s].candidate, sets_[s].expected));
  }

  std::optional<Stop> merge_comparison(int s, SetComparison c) {
    std::vector<OutputReport>& reports = s == 0 ? run_.outputs : run_.recheck;
    for (OutputReport& r : c.reports) {
      run_.first_passing_level =
          std::max(run_.first_passing_level, r.comparison.first_passing_level);
      reports.push_back(std::move(r));
    }
    if (c.flag) run_.flags.push_back(std::move(*c.flag));
    if (c.stop) return c.stop;
    if (s == 1 && run_.outputs.size() == run_.recheck.size()) {
      bool first_ok = true, second_ok = true;
      for (size_t o = 0; o < run_.outputs.size(); ++o) {
        first_ok = first_ok && run_.outputs[o].comparison.correct_at(kBaselineToleranceLevel);
        second_ok = second_ok && run_.recheck[o].comparison.correct_at(kBaselineToleranceLevel);
      }
      int second_level = kMinToleranceLevel;
      for (const auto& r : run_.recheck) {
        second_level = std::max(second_level, r.comparison.first_passing_level);
      }
      // A borderline kernel may pass t = -5 on one set and not the other (the
      // worst level counts); failing the second set at every level is caching
      // or hard-coding.
      if (first_ok && !second_ok && second_level > kMaxToleranceLevel) {
        flag("second_input_set", "correct on input set 0, not close at any level on input set 1");
        return Stop{FailureClass::integrity,
                    "correct on the first input set but not on a second, different one "
                    "(results must be computed from the inputs, not cached or hard-coded): " +
                        mismatch_message()};
      }
    }
    return std::nullopt;
  }

  // The guard's input-copy rule reads the inputs that have some output's
  // dtype and shape: only those are downloaded (drawn again for the copy).
  // The guard depends on the baseline's outputs and the draw only, so its
  // host comparisons run on a thread beside the second set's run and the
  // determinism re-run (8.5 of the 13.5 ms of host comparisons per
  // evaluation when they ran inline); finish_trivial_guard() joins it before
  // timing, or in run() when the variant stops earlier.
  std::optional<Stop> trivial_guard() {
    std::vector<std::string> names;
    std::vector<Tensor> inputs;
    for (size_t k = 0; k < variant_.inputs.size(); ++k) {
      const InputMeta& in = variant_.inputs[k];
      bool like_output = false;
      for (const Tensor& e : sets_[0].expected) {
        like_output = like_output || (e.dtype() == in.dtype && e.shape() == in.shape);
      }
      if (!like_output) continue;
      auto host = download_drawn_input(rt_, variant_, sets_[0].drawn, k);
      if (!host.ok()) return candidate_error(host.error(), "drawing an input for the guard");
      inputs.push_back(std::move(*host));
      names.push_back(in.name);
    }
    guard_ = std::async(std::launch::async,
                        [expected = sets_[0].expected, inputs = std::move(inputs),
                         names = std::move(names)] {
                          return trivial_output_guard(expected, inputs, names);
                        });
    return std::nullopt;
  }

  // Joins set 0's comparison and merges it (once): its verdict, if any.
  std::optional<Stop> finish_compare0() {
    if (!compare0_.valid()) return std::nullopt;
    const auto t0 = Clock::now();
    SetComparison c = compare0_.get();
    run_.phase_ms["compare.wait"] = ms_since(t0);
    std::optional<Stop> stop = merge_comparison(0, std::move(c));
    // Set 0 ended the variant: the guard's verdict on it was never reached.
    if (stop && guard_.valid()) guard_ = {};
    return stop;
  }

  void finish_trivial_guard() {
    if (!guard_.valid()) return;
    const auto t0 = Clock::now();
    run_.trivial = guard_.get();
    run_.phase_ms["compare.guard_wait"] = ms_since(t0);
    for (const auto& t : run_.trivial) {
      if (t.applicable && t.level <= options_.trivial_guard_level) {
        flag("weak_task",
             t.kind + " outputs" + (t.detail.empty() ? "" : " (" + t.detail + ")") +
                 " would pass at t = " + std::to_string(t.level) +
                 ": this variant cannot tell a correct kernel from a trivial one",
             false);
      }
    }
  }

  // Bytes of a tensor's elements (what a download of it moves).
  static uint64_t byte_size(const gpu::DeviceTensor& t) {
    return static_cast<uint64_t>(t.numel()) * t.element_size();
  }

  // The candidate's outputs read back on both input sets, once both are
  // compared (the level later runs must meet is known then): their digests
  // are what the determinism re-run must reproduce bit for bit, and those
  // correct at that level are verified outputs of their input set's values.
  void remember_checked_outputs() {
    for (int s = 0; s < kSets; ++s) {
      const auto& reports = s == 0 ? run_.outputs : run_.recheck;
      first_digest_[s].clear();
      for (size_t o = 0; o < sets_[s].candidate.size(); ++o) {
        first_digest_[s].push_back(tensor_digest(sets_[s].candidate[o], digest_key_));
        if (o < reports.size() && reports[o].comparison.correct_at(required_level())) {
          verified_[s][o].insert(first_digest_[s][o]);
        }
      }
    }
  }

  // A host copy of output `o` found correct for input set `content`'s values.
  void remember_verified(int content, size_t o, const Tensor& host) {
    verified_[content][o].insert(tensor_digest(host, digest_key_));
  }

  // The device digests of the candidate's outputs in `set` (one batch, not
  // read back); nullopt for an output the device cannot read directly (a
  // strided view: downloaded instead).
  Result<std::vector<std::optional<uint64_t>>> output_digests(const SetRun& set) {
    std::vector<gpu::DeviceTensor> readable;
    std::vector<size_t> index;
    for (size_t o = 0; o < set.cand_outputs.size(); ++o) {
      if (!gpu::device_checkable(set.cand_outputs[o])) continue;
      readable.push_back(set.cand_outputs[o]);
      index.push_back(o);
    }
    PF_ASSIGN(std::vector<uint64_t> d, gpu::device_digests(rt_, readable, digest_key_));
    std::vector<std::optional<uint64_t>> out(set.cand_outputs.size());
    for (size_t i = 0; i < index.size(); ++i) out[index[i]] = d[i];
    return out;
  }

  // True when output `o` (device digest `digest`) has the bits of an output
  // already verified correct for input set `content`'s values: not read back.
  bool verified(int content, size_t o, std::optional<uint64_t> digest, const gpu::DeviceTensor& t) {
    if (!digest || verified_[content][o].count(*digest) == 0) return false;
    run_.avoided_bytes += byte_size(t);
    return true;
  }

  std::optional<Stop> determinism_rerun() {
    if (!options_.determinism_rerun) return std::nullopt;
    SetRun& set = sets_[0];
    if (auto st = poison_outputs(set); !st.ok()) return candidate_error(st.error(), "re-run");
    // As the same-buffers re-run: the digests' read-back is the wait.
    Status ran = set.cand_plan.run(rt_.stream());
    if (!ran.ok()) return candidate_error(ran.error(), "the determinism re-run");
    auto digests = output_digests(set);
    if (!digests.ok()) return candidate_error(digests.error(), "the determinism re-run");
    for (size_t o = 0; o < set.cand_outputs.size(); ++o) {
      const std::optional<uint64_t>& d = (*digests)[o];
      if (d && o < first_digest_[0].size() && *d == first_digest_[0][o]) {
        run_.avoided_bytes += byte_size(set.cand_outputs[o]);
        continue;
      }
      auto h = rt_.download(set.cand_outputs[o]);
      if (!h.ok()) return candidate_error(h.error(), "the determinism re-run");
      if (bitwise_equal(*h, set.candidate[o])) continue;
      run_.deterministic = false;
      OutputComparison c = compare_output(*h, set.expected[o]);
      if (c.correct_at(required_level())) remember_verified(0, o, *h);
      if (!c.correct_at(required_level())) {
        int64_t poisoned = count_poison(*h, gpu::PlanBuilderOptions{}.poison_byte);
        std::string ev = "output " + std::to_string(o) +
                         " of a second run of the same plan is not close at t = " +
                         std::to_string(required_level()) + " (the first run was)" +
                         (poisoned > 0 ? " (" + std::to_string(poisoned) +
                                             " elements not rewritten: work done only once?)"
                                       : "");
        flag("rerun_mismatch", ev);
        return Stop{FailureClass::integrity, ev};
      }
    }
    return std::nullopt;
  }

  std::optional<Stop> time_both() {
    gpu::TimingOptions to = timing_options(options_);
    // Each plan runs (and is waited for) just below: no run before capture.
    to.plans_warm = true;
    // Bound the time: one round of both sides (plus a flush) per trial.
    // Every plan runs once (the baseline's for the first time), back to back,
    // with one wait: the candidate's kernels run first in this context, so a
    // fault surfacing at the wait, or in a baseline plan with the context
    // already broken, is theirs.
    auto t0 = Clock::now();
    for (int s = 0; s < kSets; ++s) {
      Status st = sets_[s].cand_plan.run(rt_.stream());
      if (!st.ok()) return candidate_error(st.error(), "timing warm-up");
      st = sets_[s].base_plan.run(rt_.stream());
      if (!st.ok()) {
        if (!rt_.driver().poisoned().empty()) return candidate_error(st.error(), "timing warm-up");
        run_.skipped = "the eager baseline failed: " + st.error().message;
        return Stop{FailureClass::none, ""};
      }
    }
    if (Status st = rt_.synchronize(); !st.ok()) {
      return candidate_error(st.error(), "timing warm-up");
    }
    double round_s = ms_since(t0) / 1e3 / kSets + 1e-4;
    bool reduced = false;
    if ((to.warmup + to.trials * (to.remeasures + 1)) * round_s > options_.timing_budget_s) {
      int fit = static_cast<int>(options_.timing_budget_s / round_s);
      to.warmup = std::min(to.warmup, std::max(1, fit / 10));
      to.trials = std::max(10, (fit - to.warmup) / (to.remeasures + 1));
      reduced = true;
    }
    std::optional<Stop> check_stop;
    double& check_ms = run_.phase_ms["timing.checks"];
    gpu::TrialChecker checker = [&](int side, int trial, size_t plan) -> Status {
      if (side != 0) return ok_status();
      const auto started = Clock::now();
      struct Lap {
        double& total;
        Clock::time_point t0;
        ~Lap() { total += ms_since(t0); }
      } lap{check_ms, started};
      SetRun& set = sets_[plan];
      // The same bits as an output verified for these values: correct.
      // Other bits (a reduction order that varies) are judged by the
      // tolerance, and remembered when they pass.
      PF_ASSIGN(auto digests, output_digests(set));
      for (size_t o = 0; o < set.cand_outputs.size(); ++o) {
        if (verified(set.content, o, digests[o], set.cand_outputs[o])) continue;
        PF_ASSIGN(Tensor h, rt_.download(set.cand_outputs[o]));
        OutputComparison c = compare_output(h, sets_[set.content].expected[o]);
        if (c.correct_at(required_level())) remember_verified(set.content, o, h);
        if (!c.correct_at(required_level())) {
          std::string ev = "output " + std::to_string(o) + " of timed trial " +
                           std::to_string(trial) + " (plan " + std::to_string(plan) +
                           ", holding input set " + std::to_string(set.content) +
                           "'s values) is wrong: max abs diff " + std::to_string(c.max_abs_diff) +
                           "; a kernel must compute the same result every time it runs";
          flag("timed_output_mismatch", ev);
          check_stop = Stop{FailureClass::integrity, ev};
          return make_error(ErrorCode::internal, ev);
        }
      }
      // Rotate the contents, not only the pointers: the next checked run of
      // this plan sees the other set's values at the same addresses, so an
      // address-keyed cache answers wrongly there. The outputs keep the
      // values just checked, now stale: unlike the poison they look like a
      // finished result, so a kernel that returns when its output already
      // holds one (only reading it) leaves them wrong at the next check,
      // however small the variant (the roofline floor needs large ones).
      return load_contents(set, set.content ^ 1);
    };
    // Before every candidate trial (outside the timed region): the outputs
    // hold the poison again, so a kernel that skips work when its output is
    // already written gains nothing in the trials nobody checks.
    gpu::TrialPreparer prepare = [&](int side, size_t plan) -> Status {
      if (side != 0 || !options_.repoison_every_trial) return ok_status();
      return enqueue_poison(sets_[plan], rt_.stream());
    };
    // The eager side's samples of earlier evaluations in this worker.
    BaselinePool* pool = ctx_.baseline_pool;
    const std::string pool_key =
        pool != nullptr ? BaselinePool::key(graph_, ctx_.registry, variant_, to, device_name())
                        : "";
    std::optional<gpu::PriorSamples> prior = pool != nullptr ? pool->find(pool_key) : std::nullopt;
    auto timed = ctx_.harness.time_interleaved(
        {"candidate", {&sets_[0].cand_plan, &sets_[1].cand_plan}},
        {"eager", {&sets_[0].base_plan, &sets_[1].base_plan}}, to, checker, prepare,
        prior ? &*prior : nullptr);
    if (check_stop) return check_stop;
    if (!timed.ok()) return candidate_error(timed.error(), "timing");
    // Only a complete, stable measurement joins the pool.
    if (pool != nullptr && !timed->b.unstable && !reduced) pool->insert(pool_key, timed->b);
    std::optional<double> prior_ratio;
    bool pool_emptied = false;
    if (prior && (timed->b.prior > 0 || timed->b.prior_dropped)) {
      prior_ratio = fresh_over_prior(timed->b, *prior);
      if (prior_ratio) pool_emptied = pool->observe(*prior_ratio, to.precision);
    }
    run_.phase_ms["timing.capture"] = timed->capture_ms;
    run_.phase_ms["timing.warmup"] = timed->warmup_ms;
    TimingSummary ts;
    ts.candidate = side(timed->a);
    ts.eager = side(timed->b);
    ts.trials = timed->trials;
    ts.eager_trials = timed->b.trials();
    ts.eager_prior_trials = timed->b.prior;
    ts.eager_prior_dropped = timed->b.prior_dropped;
    ts.eager_prior_ratio = prior_ratio;
    ts.eager_pool_emptied = pool_emptied;
    ts.max_trials = to.trials;
    const bool device_clock = options_.timing_clock == TimingClock::device;
    auto precision = [device_clock](const gpu::SideTiming& t) {
      return (device_clock ? t.device_precision : t.e2e_precision).relative_half_width;
    };
    auto median = [device_clock](const gpu::SideTiming& t) {
      return device_clock ? t.device.median : t.e2e.median;
    };
    ts.clock = timing_clock_name(options_.timing_clock);
    ts.batched = timed->batched;
    ts.precision = std::max(precision(timed->a), precision(timed->b));
    ts.precision_target = to.precision;
    ts.stopped_early = timed->stopped_early;
    ts.warmup = to.warmup;
    ts.attempts = timed->attempts;
    ts.checks = timed->checks;
    ts.reduced = reduced;
    ts.launch = timed->a.launch;
    ts.graph_fallback = timed->a.graph_fallback;
    run_.timing = ts;
    run_.unstable = timed->unstable();
    run_.speedup = median(timed->b) / median(timed->a);
    double floor_ms = run_.roofline.floor_ms();
    if (implausibly_fast(timed->a.device.median, run_.roofline, options_.implausible_fraction)) {
      char buf[256];
      std::snprintf(buf, sizeof buf,
                    "candidate device time %.4g ms is below %.2g x the roofline floor %.4g ms "
                    "(%lld bytes to read, %lld to write, %.3g flops): it cannot have done the work",
                    timed->a.device.median, options_.implausible_fraction, floor_ms,
                    static_cast<long long>(run_.roofline.bytes),
                    static_cast<long long>(run_.roofline.write_bytes), run_.roofline.flops);
      flag("implausible_speedup", buf);
    }
    return std::nullopt;
  }

  // The eager side's fresh median over its prior's, on the speedup's clock
  // (the pool's drift guard); nullopt when either has no samples there.
  std::optional<double> fresh_over_prior(const gpu::SideTiming& b,
                                         const gpu::PriorSamples& prior) const {
    const bool device_clock =
        options_.timing_clock == TimingClock::device || b.e2e_ms.empty() || prior.e2e_ms.empty();
    const std::vector<double>& all = device_clock ? b.device_ms : b.e2e_ms;
    const std::vector<double>& old = device_clock ? prior.device_ms : prior.e2e_ms;
    const auto skip = static_cast<std::ptrdiff_t>(std::min<size_t>(b.prior, all.size()));
    const gpu::SampleStats fresh = gpu::summarize({all.begin() + skip, all.end()});
    const gpu::SampleStats before = gpu::summarize(old);
    if (fresh.n == 0 || before.n == 0 || !(before.median > 0)) return std::nullopt;
    return fresh.median / before.median;
  }

  // The device in the baseline pool's key.
  std::string device_name() const {
    const auto& p = rt_.properties();
    return p.name + " #" + std::to_string(p.ordinal);
  }

  // What later runs of the plan must still meet: the level the first runs
  // reached (at least t = -5), with one level of slack for kernels whose
  // reduction order varies between runs.
  int required_level() const {
    return std::min(kMaxToleranceLevel,
                    std::max(run_.first_passing_level, kBaselineToleranceLevel) + 1);
  }

  SideSummary side(const gpu::SideTiming& t) const {
    SideSummary s;
    s.device_median_ms = t.device.median;
    s.device_iqr_ms = t.device.iqr;
    if (!t.e2e_ms.empty()) {
      s.e2e_median_ms = t.e2e.median;
      s.e2e_iqr_ms = t.e2e.iqr;
    }
    s.unstable = t.unstable;
    if (options_.timing_samples) {
      s.device_samples = t.device_ms;
      s.e2e_samples = t.e2e_ms;
    }
    return s;
  }

  // Poisons every output buffer of the candidate's plan (queued on the
  // stream the plan runs on next), decided from the plan, never from names: all but an input's
  // storage (a candidate may return a view of an input) and storages the plan builder set once
  // while building (an `empty` op of the graph outside any replacement: no step writes it again).
  // Replacement allocations are never set at build (their zeroing is a plan step), so whatever a
  // pass is called, its outputs are re-poisoned.
  Status poison_outputs(SetRun& set) { return enqueue_poison(set, rt_.stream()); }

  // The poison fill of every candidate output, enqueued on `stream`.
  Status enqueue_poison(SetRun& set, CUstream stream) {
    std::set<const gpu::DeviceStorage*> inputs;
    for (const auto& t : set.cand_inputs) inputs.insert(t.storage().get());
    for (const gpu::DeviceTensor& t : set.cand_outputs) {
      if (!t.defined() || inputs.count(t.storage().get()) != 0 ||
          set.cand_plan.set_at_build(t.storage().get())) {
        continue;
      }
      PF_TRY(t.storage()->buffer().poison(
          gpu::poison_fill(t.dtype(), gpu::PlanBuilderOptions{}.poison_byte), stream));
    }
    return ok_status();
  }

  // Which output is not close at t = -5, and from which level it is; the
  // magnitudes and first mismatch are in the variant's fields.
  std::string mismatch_message() const {
    for (int s = 0; s < kSets; ++s) {
      const auto& reports = s == 0 ? run_.outputs : run_.recheck;
      for (size_t o = 0; o < reports.size(); ++o) {
        const OutputComparison& c = reports[o].comparison;
        if (c.correct_at(kBaselineToleranceLevel)) continue;
        std::string out = "output " + std::to_string(o) + " (input set " + std::to_string(s) +
                          ") is not close at t = -5 (the dtype baseline level)";
        if (c.first_passing_level > kMaxToleranceLevel) return out + " nor at any other level";
        return out + "; it is close from t = " + std::to_string(c.first_passing_level) + " on";
      }
    }
    return "outputs not close at t = -5";
  }

  void flag(std::string name, std::string evidence, bool blames_model = true) {
    run_.flags.push_back({std::move(name), std::move(evidence), blames_model});
  }

  std::future<std::vector<TrivialCheck>> guard_;
  std::future<SetComparison> compare0_;
  GpuContext& ctx_;
  gpu::GpuRuntime& rt_;
  passes::GpuReplacements& repl_;
  const TaskVariant& variant_;
  const Graph& graph_;
  const Graph& rewritten_;
  const ProtocolOptions& options_;
  SetRun sets_[kSets];
  VariantRun run_;
  const uint64_t digest_key_;
  // Per input set: digests of the candidate's first outputs, and per output
  // the digests of every copy verified correct for that set's values.
  std::vector<uint64_t> first_digest_[kSets];
  std::map<size_t, std::set<uint64_t>> verified_[kSets];
};

}  // namespace

gpu::TimingOptions timing_options(const ProtocolOptions& o) {
  gpu::TimingOptions t;
  t.warmup = o.warmup;
  t.trials = o.trials;
  t.precision = o.timing_precision;
  t.min_trials = o.min_trials;
  t.min_trials_b = o.baseline_min_trials;
  t.confidence = o.timing_confidence;
  t.flush_l2 = o.l2_flush;
  t.graph_replay = o.graph_replay;
  t.stability = o.timing_clock == TimingClock::device ? gpu::StabilityMetric::device
                                                      : gpu::StabilityMetric::end_to_end;
  t.max_iqr_ratio = o.iqr_threshold;
  t.remeasures = o.remeasure;
  // Odd, so that checks alternate between the two input sets' plans.
  t.check_every = 2 * o.recheck_cycle + 1;
  return t;
}

VariantRun evaluate_variant_on_gpu(GpuContext& ctx, passes::GpuReplacements& replacements,
                                   const TaskVariant& variant, const Graph& graph,
                                   const Graph& rewritten, const ProtocolOptions& options) {
  return VariantEvaluator(ctx, replacements, variant, graph, rewritten, options).run();
}

}  // namespace pf::protocol
