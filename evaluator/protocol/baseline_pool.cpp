#include "evaluator/protocol/baseline_pool.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "common/sha256.h"
#include "evaluator/dialect/printer.h"
#include "evaluator/gpu/timing_stats.h"

namespace pf::protocol {
namespace {

// The last `n` values of `v` (all of them when it holds fewer).
std::vector<double> last(const std::vector<double>& v, size_t n) {
  const size_t from = v.size() > n ? v.size() - n : 0;
  return {v.begin() + static_cast<std::ptrdiff_t>(from), v.end()};
}

}  // namespace

BaselinePool& BaselinePool::process() {
  static BaselinePool pool;
  return pool;
}

std::string BaselinePool::key(const Graph& graph, const OpRegistry& registry,
                              const TaskVariant& variant, const gpu::TimingOptions& options,
                              const std::string& device) {
  std::string text = dialect::print_graph(graph, registry) + '\n' + variant_content(variant);
  const nlohmann::json timing = {{"warmup", options.warmup},
                                 {"flush_l2", options.flush_l2},
                                 {"graph_replay", options.graph_replay},
                                 {"batch_rounds", options.batch_rounds},
                                 {"stability", static_cast<int>(options.stability)},
                                 {"device", device}};
  text += '\n' + timing.dump();
  return sha256_hex(text);
}

std::optional<gpu::PriorSamples> BaselinePool::find(const std::string& key) {
  std::lock_guard<std::mutex> lock(mu_);
  const gpu::PriorSamples* samples = entries_.find(key);
  if (samples == nullptr) return std::nullopt;
  return *samples;
}

void BaselinePool::insert(const std::string& key, const gpu::SideTiming& side) {
  if (side.device_ms.empty()) return;
  gpu::PriorSamples samples;
  samples.device_ms = last(side.device_ms, kMaxSamples);
  samples.e2e_ms = last(side.e2e_ms, kMaxSamples);
  samples.launch = side.launch;
  std::lock_guard<std::mutex> lock(mu_);
  entries_.put(key, std::move(samples), 1);
}

bool BaselinePool::observe(double fresh_over_prior, double bound) {
  if (!(fresh_over_prior > 0) || !std::isfinite(fresh_over_prior)) return false;
  std::lock_guard<std::mutex> lock(mu_);
  ratios_.push_back(fresh_over_prior);
  if (ratios_.size() > kDriftWindow) ratios_.pop_front();
  if (ratios_.size() < kDriftMinimum) return false;
  std::vector<double> sorted(ratios_.begin(), ratios_.end());
  std::sort(sorted.begin(), sorted.end());
  const double median = gpu::quantile_sorted(sorted, 0.5);
  if (std::abs(median - 1) <= bound) return false;
  entries_.clear();
  ratios_.clear();
  ++drift_resets_;
  return true;
}

uint64_t BaselinePool::drift_resets() const {
  std::lock_guard<std::mutex> lock(mu_);
  return drift_resets_;
}

size_t BaselinePool::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.size();
}

}  // namespace pf::protocol
