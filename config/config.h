// The passforge configuration: one TOML file (configs/quickstart.toml shows every
// key). The default member initialisers below are THE defaults; the one
// description of every key (name, doc, range, choices) is describe_fields()
// in config/config_fields.cpp, which the loader, --set, validation, the JSON
// dump and the key reference all use.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/scoring_mode.h"

namespace pf {

enum class AgentMode { tools, chat };
enum class ContextPolicy { keep_all, drop_reasoning, last_n_reports };
//! Which variants are hidden: as the task file marks them, a deterministic
//! share of each task's variants (evaluator.hidden_share), or none.
enum class HiddenVariants { task, share, off };
//! auto: full evaluation when a GPU is usable, compile-only otherwise.
enum class CompileOnly { auto_detect, yes, no };
//! Inputs whose metadata says std 0 (docs/design.md "Evaluation protocol" 3).
enum class StdZeroRule { passforge, graphnet };
//! The clock speedups come from (pf::protocol::TimingClock).
enum class TimingClock { device, end_to_end };

//! Which GPUs the worker pool uses.
struct GpuSelection {
  bool all = true;
  std::vector<int> indices;  // when !all: device ordinals, unique
  bool operator==(const GpuSelection&) const = default;
};

struct SamplingConfig {
  // Unset sampling keys are not sent: the endpoint's defaults apply (some
  // APIs reject temperature or top_p for reasoning models).
  std::optional<double> temperature;
  std::optional<double> top_p;
  std::optional<int64_t> max_tokens;
  std::optional<int64_t> seed;
  std::vector<std::string> stop;
};

struct EndpointConfig {
  std::string base_url;                // empty: the built-in replay endpoint
  std::vector<std::string> base_urls;  // replicas: balanced, with failover (base_url unused)
  std::string model;
  std::string api_key_env = "OPENAI_API_KEY";
  double request_timeout_s = 600;
  double connect_timeout_s = 10;
  bool stream = false;
  double stream_idle_timeout_s = 120;
  int max_attempts = 6;
  double backoff_initial_s = 1;
  double backoff_max_s = 60;
  double max_retry_time_s = 900;  // no retry starts later than this after the call began
  int max_concurrent = 16;
  int requests_per_minute = 0;  // 0: unlimited
  int64_t tokens_per_minute = 0;
  SamplingConfig sampling;
  nlohmann::json headers = nlohmann::json::object();  // name -> value, sent with every request
  nlohmann::json extra = nlohmann::json::object();    // merged into every request body
};

struct AgentConfig {
  AgentMode mode = AgentMode::tools;
  int max_steps = 20;
  int64_t max_total_tokens = 0;  // 0: unlimited
  double max_wall_s = 0;         // 0: unlimited
  ContextPolicy context_policy = ContextPolicy::keep_all;
  int context_last_n = 2;  // reports kept in full under last_n_reports
  //! Prompt tokens one request may carry (PassNet's limit is per call); 0: unlimited.
  int64_t max_context_tokens = 0;
  //! Tools mode: execute every tool call of an answer in order (OpenAI parallel_tool_calls).
  bool parallel_tool_calls = true;
};

struct EvaluatorConfig {
  int warmup = 4;
  int trials = 100;
  double timing_precision = 0.025;
  int min_trials = 20;
  int baseline_min_trials = 10;
  bool baseline_pool = false;
  double timing_confidence = 0.95;
  bool l2_flush = true;
  bool graph_replay = true;
  TimingClock timing_clock = TimingClock::end_to_end;
  double iqr_threshold = 0.2;
  int remeasure = 1;
  double b = 0.1;
  double p = 0;
  ScoringMode scoring_mode = ScoringMode::strict;
  int tolerance_min = -10;
  int tolerance_max = 4;
  HiddenVariants hidden_variants = HiddenVariants::task;
  double hidden_share = 0.2;
  GpuSelection gpus;
  CompileOnly compile_only = CompileOnly::auto_detect;
  std::string gpu_arch = "sm_90";
  bool cpu_precompile = true;
  double worker_timeout_s = 300;
  double compile_timeout_s = 60;
  int compile_memory_mb = 512;    // 0: unlimited
  int worker_memory_mb = 4096;    // 0: unlimited
  int max_cubin_mb = 64;          // 0: unlimited
  int nvrtc_cache_max_mb = 2048;  // 0: unbounded
  StdZeroRule std_zero_rule = StdZeroRule::passforge;
  std::string nvrtc_cache_dir;  // empty: sandbox/nvrtc's CompileCache::default_dir()
  int feedback_max_chars = 8000;
};

struct RunConfig {
  std::vector<std::string> tasks = {"tasks"};
  int samples_per_task = 1;
  int concurrency = 4;
  std::string output_dir = "runs";
  int64_t seed = 0;
  std::string run_id;  // empty: generated from the start time
};

struct PromptsConfig {
  std::string variant = "default";
  std::string dir = "prompts";
};

struct Config {
  EndpointConfig endpoint;
  AgentConfig agent;
  EvaluatorConfig evaluator;
  RunConfig run;
  PromptsConfig prompts;
};

//! The names the config file uses for enum values, in declaration order.
template <class E>
struct EnumNames;
template <>
struct EnumNames<AgentMode> {
  static constexpr std::array<const char*, 2> kNames = {"tools", "chat"};
};
template <>
struct EnumNames<ContextPolicy> {
  static constexpr std::array<const char*, 3> kNames = {"keep_all", "drop_reasoning",
                                                        "last_n_reports"};
};
template <>
struct EnumNames<ScoringMode> {
  static constexpr std::array<const char*, 3> kNames = {"strict", "passnet", "graphnet"};
};
template <>
struct EnumNames<HiddenVariants> {
  static constexpr std::array<const char*, 3> kNames = {"task", "share", "off"};
};
template <>
struct EnumNames<CompileOnly> {
  static constexpr std::array<const char*, 3> kNames = {"auto", "true", "false"};
};
template <>
struct EnumNames<StdZeroRule> {
  static constexpr std::array<const char*, 2> kNames = {"passforge", "graphnet"};
};

template <>
struct EnumNames<TimingClock> {
  static constexpr std::array<const char*, 2> kNames = {"device", "end_to_end"};
};

template <class E>
const char* to_string(E value) {
  return EnumNames<E>::kNames[static_cast<size_t>(value)];
}

//! The API key, read now from the variable named by endpoint.api_key_env
//! (never stored in the config, its dumps or the run record). Empty if unset.
std::string read_api_key(const EndpointConfig& endpoint);

}  // namespace pf
