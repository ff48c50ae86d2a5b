// The mutable state of one running episode, shared by the turn loop
// (episode.cpp) and the rebuild from the store on resume
// (episode_resume.cpp). Internal to agent/loop.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "agent/loop/conversation.h"
#include "agent/loop/episode.h"
#include "agent/loop/tool_executor.h"

namespace pf::agent {

struct EpisodeState {
  std::string id;
  Conversation conversation;
  traj::Workspace workspace;
  int64_t turn = 0;  // last committed turn
  //! Turns whose evaluation could not run (not charged to max_steps); stored
  //! with each turn and restored on resume.
  int64_t uncharged_turns = 0;
  int64_t tokens = 0;
  double previous_wall_s = 0;  // before this process took the episode over
  bool submitted = false;
  std::optional<double> best_as;
  bool best_as_correct = false;
  std::optional<double> best_compile_share;
  int evaluations = 0;
  int64_t prompt_tokens = 0, completion_tokens = 0;

  //! Takes an evaluation into the best-so-far (full: counts_as_success and
  //! highest AS; compile-only: highest share of variants without failure).
  void note(const traj::EvaluationRecord& evaluation);
  //! The turns that count against agent.max_steps.
  int64_t charged_turns() const { return turn - uncharged_turns; }
};

//! Share of a compile-only result's variants without a failure class (0 when
//! the whole evaluation failed or lists no variants).
double compile_share(const nlohmann::json& result);

//! Rebuilds `state` from the store (messages, workspace, best, tokens,
//! uncharged turns) and
//! marks the episode running again.
Status restore_episode(traj::TrajectoryStore& store, const EpisodeSettings& settings,
                       ToolExecutor& executor, EpisodeState& state);

}  // namespace pf::agent
