// Runs a run's episodes with bounded concurrency: `concurrency` threads take
// episodes in order from one list and run them to their end; all share the
// LLM client, the worker pool and the store (EpisodeServices). Once the
// cancel token is set no further episode starts; running ones stop before
// their next LLM call and are marked interrupted.
#pragma once

#include <optional>
#include <vector>

#include "agent/loop/episode.h"
#include "agent/scheduler/progress.h"

namespace pf::agent {

//! Results in the order of `specs`; nullopt for episodes never started
//! (cancelled first). `progress` may be null.
std::vector<std::optional<EpisodeResult>> run_episodes(const std::vector<EpisodeSpec>& specs,
                                                       const EpisodeServices& services,
                                                       const EpisodeSettings& settings,
                                                       int concurrency, ProgressTracker* progress);

}  // namespace pf::agent
