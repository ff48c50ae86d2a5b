// Runs episodes with bounded concurrency: `concurrency` threads take
// episodes in order from one list and run them to their end. Each job names
// the services and settings it runs with, so the runs of one session (an
// experiment's arms) share the threads, the worker pool and the store while
// differing in endpoint, prompts and agent settings. Once a job's cancel
// token is set no further episode starts; running ones stop before their
// next LLM call and are marked interrupted.
#pragma once

#include <optional>
#include <vector>

#include "agent/loop/episode.h"
#include "agent/scheduler/progress.h"

namespace pf::agent {

struct EpisodeJob {
  EpisodeSpec spec;
  const EpisodeServices* services = nullptr;  // outlives run_episodes
  const EpisodeSettings* settings = nullptr;  // outlives run_episodes
};

//! Results in the order of `jobs`; nullopt for episodes never started
//! (cancelled first). `progress` may be null.
std::vector<std::optional<EpisodeResult>> run_episodes(const std::vector<EpisodeJob>& jobs,
                                                       int concurrency, ProgressTracker* progress);

}  // namespace pf::agent
