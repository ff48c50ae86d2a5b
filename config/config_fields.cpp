#include "config/config_fields.h"

#include <algorithm>
#include <cmath>

#include "common/strings.h"

namespace pf {

std::vector<Field> describe_fields(Config& c) {
  FieldListBuilder f;
  constexpr Range kUnbounded{};
  constexpr Range kNonNegative{0, INFINITY};

  f.section("endpoint");
  auto& e = c.endpoint;
  f.add("base_url", e.base_url,
        "OpenAI-compatible API base, e.g. http://localhost:8000/v1; empty: the built-in replay "
        "endpoint");
  f.add("base_urls", e.base_urls,
        "several servers of the same model (replicas); when set, requests go to the least busy "
        "and fail over to another when one is down (base_url is then unused)");
  f.add("model", e.model, "model name sent with every request; required when base_url is set");
  f.add("api_key_env", e.api_key_env,
        "environment variable holding the API key, read at call time, never stored");
  f.add("request_timeout_s", e.request_timeout_s, "timeout of one whole request", {1, 86400});
  f.add("connect_timeout_s", e.connect_timeout_s, "timeout for opening a connection", {0.1, 600});
  f.add("stream", e.stream, "stream responses (server-sent events)");
  f.add("stream_idle_timeout_s", e.stream_idle_timeout_s,
        "with stream: give up when no data arrives for this long", {1, 86400});
  f.add("max_attempts", e.max_attempts,
        "attempts per request incl. the first (retries on 429, 5xx, timeouts, lost connections)",
        {1, 100});
  f.add("backoff_initial_s", e.backoff_initial_s,
        "first retry delay; doubles per attempt, with jitter; Retry-After wins", {0.01, 3600});
  f.add("backoff_max_s", e.backoff_max_s, "longest retry delay", {0.01, 86400});
  f.add("max_retry_time_s", e.max_retry_time_s,
        "no retry starts later than this after the call began", {0, 86400 * 7});
  f.add("max_concurrent", e.max_concurrent, "requests in flight to this endpoint at once",
        {1, 4096});
  f.add("requests_per_minute", e.requests_per_minute, "request rate limit; 0: unlimited", {0, 1e6});
  f.add("tokens_per_minute", e.tokens_per_minute, "token rate limit; 0: unlimited", kNonNegative);
  f.add("headers", e.headers,
        "extra HTTP headers for every request; a value \"env:NAME\" is read from that "
        "environment variable (the config is stored with every run: no secrets here)");
  f.add("extra", e.extra,
        "free-form table merged into every request body, e.g. chat_template_kwargs = "
        "{ enable_thinking = true }");

  f.section("endpoint.sampling");
  auto& s = c.endpoint.sampling;
  f.add("temperature", s.temperature, "sampling temperature; unset: the endpoint's default",
        {0, 2});
  f.add("top_p", s.top_p, "nucleus sampling mass; unset: the endpoint's default", {0, 1});
  f.add("max_tokens", s.max_tokens, "completion tokens per call; unset: the endpoint's limit",
        {1, 1e8});
  f.add("seed", s.seed, "sampling seed sent to the endpoint; unset: none sent", kUnbounded);
  f.add("stop", s.stop, "stop sequences");

  f.section("agent");
  auto& a = c.agent;
  f.add_choice("mode", a.mode,
               "tools: function calling with file/compile/evaluate/submit tools; chat: the whole "
               "pass as fenced code blocks in every answer");
  f.add("max_steps", a.max_steps, "LLM turns per episode (PassNet used 50)", {1, 10000});
  f.add("max_total_tokens", a.max_total_tokens,
        "prompt + completion tokens per episode; 0: unlimited", kNonNegative);
  f.add("max_wall_s", a.max_wall_s, "wall-clock seconds per episode; 0: unlimited", kNonNegative);
  f.add_choice("context_policy", a.context_policy,
               "keep_all; drop_reasoning (earlier reasoning_content); last_n_reports (older "
               "evaluation reports shortened)");
  f.add("context_last_n", a.context_last_n, "with last_n_reports: reports kept in full", {1, 1000});
  f.add("max_context_tokens", a.max_context_tokens,
        "estimated prompt tokens per request; above it older reports are shortened, then "
        "reasoning is dropped (chat mode: unchanged files too); 0: unlimited",
        kNonNegative);
  f.add("parallel_tool_calls", a.parallel_tool_calls,
        "tools mode: execute every tool call of an answer, in order, as one step (sent as "
        "parallel_tool_calls); false: only the first");

  f.section("evaluator");
  auto& v = c.evaluator;
  f.add("warmup", v.warmup,
        "untimed runs of each side before timing (4: every plan's captured graph replayed twice; "
        "the plans already ran in the checked runs)",
        {0, 100000});
  f.add("trials", v.trials,
        "most timed runs of candidate and baseline each, interleaved (the count when "
        "timing_precision is 0)",
        {1, 1000000});
  f.add("timing_precision", v.timing_precision,
        "stop timing once both sides' median times are known to this relative half-width of "
        "their distribution-free confidence interval; 0: always run `trials`",
        {0, 1});
  f.add("min_trials", v.min_trials,
        "timed runs of the candidate before timing_precision may stop (raised to two re-checks "
        "of each input set's plan)",
        {1, 1000000});
  f.add("baseline_min_trials", v.baseline_min_trials,
        "timed runs of the baseline before timing_precision may stop it (no check reads the "
        "baseline, so it needs only its own precision; the candidate runs on alone)",
        {1, 1000000});
  f.add("baseline_pool", v.baseline_pool,
        "use the baseline's timing samples from earlier evaluations of the same variant in this "
        "worker as a prior: one round of fresh baseline trials that must agree with it");
  f.add("timing_confidence", v.timing_confidence,
        "confidence of the median's interval that timing_precision bounds", {0.5, 0.999});
  f.add("l2_flush", v.l2_flush, "flush the L2 cache before every timed run");
  f.add("graph_replay", v.graph_replay,
        "time each side as a captured CUDA graph (no host launch gaps, as PyTorch eager kernels "
        "are measured); false: stream launches");
  f.add_choice("timing_clock", v.timing_clock,
               "the clock speedups come from: end_to_end (a synchronised host clock around every "
               "trial) or device (CUDA events; with graph_replay a round's trials run back to "
               "back and the host waits once per round)");
  f.add("iqr_threshold", v.iqr_threshold,
        "IQR/median above this re-measures, then marks the variant unstable", {0, 100});
  f.add("remeasure", v.remeasure, "re-measurements before a variant is unstable", {0, 100});
  f.add("b", v.b, "score of a failed variant (PassNet's b)", {0, 1});
  f.add("p", v.p, "slowdown penalty: a speedup s < 1 counts as s^(p+1)", {0, 100});
  f.add_choice("scoring_mode", v.scoring_mode,
               "strict: no failure forgiven (training data); passnet: PassNet's scorer (accuracy "
               "forgiven at t >= 1, shape/dtype mismatches at t >= 3, crashes never); graphnet: "
               "GraphNet's scorer (accuracy at t >= 1, other failures at t >= 3) and its "
               "aggregate score");
  f.add("tolerance_min", v.tolerance_min, "lowest tolerance level t reported", {-10, 4});
  f.add("tolerance_max", v.tolerance_max, "highest tolerance level t reported", {-10, 4});
  f.add_choice("hidden_variants", v.hidden_variants,
               "task: as the task files mark them; share: hide hidden_share of each task's "
               "variants; off: none hidden");
  f.add("hidden_share", v.hidden_share,
        "with hidden_variants = share: share of variants hidden (one always stays visible)",
        {0, 0.9});
  f.add("gpus", v.gpus, "GPUs for the worker pool: \"all\" or device indices like [0, 1]");
  f.add_choice("compile_only", v.compile_only,
               "auto: full evaluation when a GPU works, else compile-only; true/false force it");
  f.add("gpu_arch", v.gpu_arch, "NVRTC target when no GPU decides it (compile-only)");
  f.add("cpu_precompile", v.cpu_precompile,
        "full mode: compile, match and dry-run each candidate on CPU workers first, so the GPU "
        "workers only load cached kernels and time (failures never reach a GPU)");
  f.add("worker_timeout_s", v.worker_timeout_s,
        "deadline of one evaluation request; the worker is killed and restarted after it",
        {1, 86400});
  f.add("compile_timeout_s", v.compile_timeout_s,
        "deadline of one NVRTC compilation; past it the worker is ended (resource_limit)",
        {1, 3600});
  f.add("compile_memory_mb", v.compile_memory_mb,
        "growth of a worker's anonymous memory during one NVRTC compilation (honest kernels: "
        "tens of MiB); past it the worker is ended (resource_limit); 0 = unlimited",
        {0, 1 << 20});
  f.add("worker_memory_mb", v.worker_memory_mb,
        "anonymous memory of one worker (RLIMIT_DATA on compile-only workers, watched by the "
        "pool on all); past it: resource_limit; 0 = unlimited",
        {0, 1 << 20});
  f.add("max_cubin_mb", v.max_cubin_mb,
        "largest cubin a kernel file may compile into (resource_limit); 0 = unlimited",
        {0, 1 << 16});
  f.add_choice("std_zero_rule", v.std_zero_rule,
               "inputs with std 0: passforge gives them spread (docs/tasks.md), graphnet keeps "
               "them constant");
  f.add("nvrtc_cache_dir", v.nvrtc_cache_dir,
        "compiled-kernel cache; empty: $XDG_CACHE_HOME/passforge/nvrtc, else "
        "~/.cache/passforge/nvrtc, else no cache");
  f.add("nvrtc_cache_max_mb", v.nvrtc_cache_max_mb,
        "size bound of the compiled-kernel cache; least recently used entries go first; 0 = "
        "unbounded",
        {0, 1 << 24});
  f.add("feedback_max_chars", v.feedback_max_chars, "length bound of a feedback report",
        {200, 1000000});

  f.section("run");
  auto& r = c.run;
  f.add("tasks", r.tasks, "task ids, globs or directories of task files");
  f.add("samples_per_task", r.samples_per_task, "episodes per task", {1, 100000});
  f.add("concurrency", r.concurrency, "episodes in flight at once", {1, 4096});
  f.add("output_dir", r.output_dir, "runs are written to <output_dir>/<run_id>/");
  f.add("seed", r.seed, "base of every episode's seed", {0, 9e18});
  f.add("run_id", r.run_id, "run directory name; empty: generated from the start time");

  f.section("prompts");
  auto& p = c.prompts;
  f.add("variant", p.variant, "prompt variant: a directory under prompts.dir");
  f.add("dir", p.dir, "where prompt variants live");
  return f.take();
}

std::vector<std::string> config_sections() {
  Config c;
  std::vector<std::string> out;
  for (const auto& f : describe_fields(c)) {
    if (std::find(out.begin(), out.end(), f.section) == out.end()) out.push_back(f.section);
  }
  return out;
}

namespace {

std::string allowed(const Field& f) {
  if (f.type == FieldType::choice) return join(f.choices, ", ");
  if (f.type != FieldType::integer && f.type != FieldType::number) return "";
  auto bound = [&](double b) {
    return f.type == FieldType::integer ? std::to_string(static_cast<int64_t>(b))
                                        : format_double(b);
  };
  bool has_min = std::isfinite(f.range.min), has_max = std::isfinite(f.range.max);
  if (has_min && has_max) return bound(f.range.min) + " .. " + bound(f.range.max);
  if (has_min) return ">= " + bound(f.range.min);
  if (has_max) return "<= " + bound(f.range.max);
  return "";
}

}  // namespace

std::string config_reference_markdown() {
  Config defaults;
  std::string out =
      "# Configuration keys\n\n"
      "Generated from config/config_fields.cpp by `passforge doctor --config-keys`; do not edit.\n"
      "Precedence: defaults < config file < environment (OPENAI_BASE_URL, OPENAI_MODEL) < "
      "`--set section.key=value`.\n";
  std::string section;
  for (const auto& f : describe_fields(defaults)) {
    if (f.section != section) {
      section = f.section;
      out += "\n## [" + section +
             "]\n\n| key | type | default | allowed | meaning |\n|---|---|---|---|---|\n";
    }
    nlohmann::json value = f.get();
    std::string def = value.is_null() ? "unset" : "`" + toml_literal(value) + "`";
    std::string doc = f.doc;
    for (size_t pos = 0; (pos = doc.find('|', pos)) != std::string::npos; pos += 2)
      doc.replace(pos, 1, "\\|");
    out.append("| `").append(f.name).append("` | ").append(field_type_name(f.type));
    out.append(" | ").append(def).append(" | ").append(allowed(f)).append(" | ").append(doc);
    out += " |\n";
  }
  return out;
}

}  // namespace pf
