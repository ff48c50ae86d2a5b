#include "agent/scheduler/scheduler.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace pf::agent {

std::vector<std::optional<EpisodeResult>> run_episodes(const std::vector<EpisodeSpec>& specs,
                                                       const EpisodeServices& services,
                                                       const EpisodeSettings& settings,
                                                       int concurrency, ProgressTracker* progress) {
  std::vector<std::optional<EpisodeResult>> results(specs.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    while (true) {
      if (services.cancel != nullptr && services.cancel->cancelled()) return;
      size_t i = next.fetch_add(1);
      if (i >= specs.size()) return;
      if (progress != nullptr) progress->episode_started();
      EpisodeResult r = run_episode(specs[i], services, settings);
      if (progress != nullptr) progress->episode_finished(r);
      results[i] = std::move(r);
    }
  };
  size_t threads = std::min(specs.size(), static_cast<size_t>(std::max(1, concurrency)));
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (size_t t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  return results;
}

}  // namespace pf::agent
