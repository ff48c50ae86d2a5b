#include "agent/scheduler/scheduler.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "common/check.h"

namespace pf::agent {

std::vector<std::optional<EpisodeResult>> run_episodes(const std::vector<EpisodeJob>& jobs,
                                                       int concurrency, ProgressTracker* progress) {
  for (const auto& job : jobs) PF_CHECK(job.services != nullptr && job.settings != nullptr);
  std::vector<std::optional<EpisodeResult>> results(jobs.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    while (true) {
      size_t i = next.fetch_add(1);
      if (i >= jobs.size()) return;
      const EpisodeJob& job = jobs[i];
      if (job.services->cancel != nullptr && job.services->cancel->cancelled()) return;
      if (progress != nullptr) progress->episode_started();
      EpisodeResult r = run_episode(job.spec, *job.services, *job.settings);
      if (progress != nullptr) progress->episode_finished(r);
      results[i] = std::move(r);
    }
  };
  size_t threads = std::min(jobs.size(), static_cast<size_t>(std::max(1, concurrency)));
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (size_t t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  return results;
}

}  // namespace pf::agent
