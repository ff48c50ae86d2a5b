#include "agent/loop/episode.h"

#include <spdlog/spdlog.h>

#include "agent/loop/chat_answer.h"
#include "agent/loop/episode_state.h"
#include "agent/loop/feedback_report.h"
#include "common/strings.h"
#include "trajectories/ids.h"

namespace pf::agent {
namespace {

using Clock = std::chrono::steady_clock;

class Episode {
 public:
  Episode(const EpisodeSpec& spec, const EpisodeServices& services, const EpisodeSettings& settings)
      : spec_(spec),
        sv_(services),
        settings_(settings),
        executor_(*services.prompts, *services.evaluator, spec.task->task,
                  settings.feedback_max_chars, settings.limits) {
    state_.id = traj::episode_id(services.run_id, spec.task->task.id, spec.sample);
  }

  EpisodeResult run();

 private:
  Status start();
  std::optional<ExitReason> stop_reason() const;
  //! Builds the turn from the assistant's answer, executes it, commits it.
  Status take_turn(llm::ChatResponse& response);
  void answer_tools(const llm::ChatMessage& answer, const std::string& finish_reason,
                    traj::TurnRecord& turn, Conversation& added);
  void answer_chat(const llm::ChatMessage& answer, const std::string& finish_reason,
                   traj::TurnRecord& turn, Conversation& added);
  llm::ChatRequest next_request(FittedContext& fit) const;
  std::string prompt_message(const std::string& key, const nlohmann::json& context = {}) const {
    return executor_.message(key, context);
  }
  std::string steps_line(int64_t steps) const {
    return "\n\n" + prompt_message("steps_remaining", {{"steps", steps}});
  }
  double elapsed_s() const {
    return std::chrono::duration<double>(Clock::now() - started_).count();
  }
  EpisodeResult finish(ExitReason reason, std::string detail = "");
  void record_failed_call(const llm::ChatFailure& failure);

  const EpisodeSpec& spec_;
  const EpisodeServices& sv_;
  const EpisodeSettings& settings_;
  ToolExecutor executor_;
  EpisodeState state_;
  EpisodeTimings timings_;
  Clock::time_point started_ = Clock::now();
  bool uncharged_turn_ = false;  // the turn being taken asked an evaluator that could not run
};

Status Episode::start() {
  traj::EpisodeRecord e;
  e.id = state_.id;
  e.run_id = sv_.run_id;
  e.task_id = spec_.task->task.id;
  e.sample_index = spec_.sample;
  e.seed = spec_.seed;
  e.prompt_variant = sv_.prompts->name();
  e.prompt_hash = sv_.prompts->hash();
  e.model = sv_.model;
  e.agent_mode =
      settings_.mode == AgentMode::tools ? traj::AgentMode::tools : traj::AgentMode::chat;
  e.tools = settings_.mode == AgentMode::tools ? sv_.prompts->tools() : nlohmann::json(nullptr);
  auto system = llm::ChatMessage::system(sv_.system_prompt);
  auto user = llm::ChatMessage::user(spec_.task->prompt + steps_line(settings_.max_steps));
  std::vector<traj::MessageRecord> initial = {to_record(system), to_record(user)};
  {
    ScopedTimer t(&timings_.store_s);
    PF_TRY(sv_.store->start_episode(e, std::move(initial)));
  }
  state_.conversation = {{std::move(system), false}, {std::move(user), false}};
  return ok_status();
}

std::optional<ExitReason> Episode::stop_reason() const {
  if (state_.submitted) return ExitReason::submitted;
  if (sv_.cancel != nullptr && sv_.cancel->cancelled()) return ExitReason::interrupted;
  if (state_.charged_turns() >= settings_.max_steps) return ExitReason::max_steps;
  if (settings_.max_total_tokens > 0 && state_.tokens >= settings_.max_total_tokens) {
    return ExitReason::token_budget;
  }
  if (settings_.max_wall_s > 0 && state_.previous_wall_s + elapsed_s() >= settings_.max_wall_s) {
    return ExitReason::time_budget;
  }
  return std::nullopt;
}

llm::ChatRequest Episode::next_request(FittedContext& fit) const {
  llm::ChatRequest r;
  if (settings_.mode == AgentMode::tools) {
    r.tools = sv_.prompts->tools();
    r.parallel_tool_calls = settings_.parallel_tool_calls;
  }
  fit = fit_context(state_.conversation, settings_.context_policy, settings_.context_last_n,
                    *sv_.prompts, r.tools, settings_.max_context_tokens);
  r.messages = fit.messages;
  r.reasoning_key = fit.reasoning_key;
  if (settings_.send_seed) r.sampling.seed = spec_.seed;
  r.headers = {{llm::kTaskHeader, spec_.task->task.id}};
  return r;
}

void Episode::answer_tools(const llm::ChatMessage& answer, const std::string& finish_reason,
                           traj::TurnRecord& turn, Conversation& added) {
  if (answer.tool_calls.empty()) {
    std::string key = finish_reason == "length" ? "truncated_answer"
                      : answer.content.empty()  ? "empty_answer"
                                                : "no_tool_call";
    std::string text = prompt_message(key, {{"tools", join(sv_.prompts->tool_names(), ", ")}});
    if (key == "empty_answer") {
      text +=
          " " + prompt_message("no_tool_call", {{"tools", join(sv_.prompts->tool_names(), ", ")}});
    }
    added.push_back({llm::ChatMessage::user(std::move(text)), false});
    return;
  }
  // Without parallel calls only the first is executed; with them every call
  // runs in order until one ends the episode.
  std::string executed, ended_by;
  size_t runs = 0;
  uncharged_turn_ = false;
  for (const auto& call : answer.tool_calls) {
    std::string refusal;
    if (!ended_by.empty()) {
      refusal = prompt_message("after_submit", {{"name", ended_by}});
    } else if (!executed.empty() && !settings_.parallel_tool_calls) {
      refusal = prompt_message("one_call_per_turn", {{"executed", executed}});
    } else if (runs >= kMaxToolCallsPerAnswer) {
      refusal = prompt_message("too_many_calls", {{"limit", kMaxToolCallsPerAnswer}});
    }
    if (!refusal.empty()) {
      auto refused = llm::ChatMessage::tool(call.id, std::move(refusal));
      refused.name = call.name;
      added.push_back({std::move(refused), false});
      continue;
    }
    ToolResult result = executor_.execute(call, state_.workspace);
    timings_.eval_s += result.evaluation_seconds;
    auto reply = llm::ChatMessage::tool(call.id, std::move(result.content));
    reply.name = call.name;
    added.push_back({std::move(reply), result.report});
    if (result.evaluation) turn.evaluations.push_back(std::move(*result.evaluation));
    // An evaluation the harness could not run leaves the turn unpaid.
    uncharged_turn_ = uncharged_turn_ || result.uncharged;
    ++runs;
    if (executed.empty()) executed = call.name;
    if (result.submitted) {
      state_.submitted = true;
      ended_by = call.name;
    }
  }
}

void Episode::answer_chat(const llm::ChatMessage& answer, const std::string& finish_reason,
                          traj::TurnRecord& turn, Conversation& added) {
  ChatAnswer parsed = parse_chat_answer(answer.content);
  if (parsed.submit) {
    state_.submitted = true;
    return;
  }
  if (!parsed.ok()) {
    std::string text;
    switch (parsed.problem) {
      case AnswerProblem::empty:
        text = prompt_message(finish_reason == "length" ? "truncated_answer" : "empty_answer") +
               " " + prompt_message("no_code_blocks");
        break;
      case AnswerProblem::no_code_blocks:
        text = prompt_message("no_code_blocks");
        break;
      case AnswerProblem::block_without_path:
        text =
            prompt_message("block_without_path", {{"index", parsed.block}, {"info", parsed.info}});
        break;
      case AnswerProblem::bad_path:
        text = prompt_message("bad_path", {{"path", parsed.path}, {"reason", parsed.reason}});
        break;
      case AnswerProblem::duplicate_path:
        text = prompt_message("duplicate_path", {{"path", parsed.path}});
        break;
      case AnswerProblem::unterminated_block:
        text =
            prompt_message(finish_reason == "length" ? "truncated_answer" : "unterminated_block");
        break;
      case AnswerProblem::none:
        break;
    }
    added.push_back({llm::ChatMessage::user(std::move(text)), false});
    return;
  }
  traj::Workspace next = apply_chat_answer(state_.workspace, parsed.files);
  if (next.size() > settings_.limits.max_files) {
    added.push_back({llm::ChatMessage::user(
                         prompt_message("too_many_files", {{"limit", settings_.limits.max_files}})),
                     false});
    return;
  }
  state_.workspace = std::move(next);
  if (!has_pass(state_.workspace)) {
    added.push_back({llm::ChatMessage::user(prompt_message("empty_workspace")), false});
    return;
  }
  EvaluationOutcome out =
      sv_.evaluator->evaluate(spec_.task->task, state_.workspace, traj::EvalKind::evaluate);
  timings_.eval_s += out.seconds;
  if (!out.evaluated) {
    added.push_back({llm::ChatMessage::user(prompt_message("evaluator_unavailable_chat",
                                                           {{"reason", out.unavailable}})),
                     false});
    uncharged_turn_ = true;
    return;
  }
  FeedbackSituation situation;
  situation.reader = FeedbackSituation::Reader::chat;
  situation.gpu = sv_.evaluator->mode() == traj::EvalMode::full;
  auto report =
      render_feedback(out.record.result, *sv_.prompts, settings_.feedback_max_chars, situation);
  added.push_back({llm::ChatMessage::user(report.ok() ? *report : report.error().message), true});
  turn.evaluations.push_back(std::move(out.record));
}

Status Episode::take_turn(llm::ChatResponse& response) {
  traj::TurnRecord turn;
  turn.episode_id = state_.id;
  turn.turn = state_.turn + 1;
  uncharged_turn_ = false;
  llm::ChatMessage answer = response.message;
  answer.role = "assistant";
  turn.messages.push_back(to_record(answer, response.usage.to_json(), response.latency_s * 1000.0));

  Conversation added;
  if (settings_.mode == AgentMode::tools) {
    answer_tools(answer, response.finish_reason, turn, added);
  } else {
    answer_chat(answer, response.finish_reason, turn, added);
  }
  // A turn whose evaluation could not run is free, up to max_steps of them
  // (an evaluator that stays down must not keep an episode alive for ever).
  const bool uncharged = uncharged_turn_ && state_.uncharged_turns < settings_.max_steps;
  if (!state_.submitted && !added.empty()) {
    const int64_t charged = turn.turn - state_.uncharged_turns - (uncharged ? 1 : 0);
    added.back().message.content += steps_line(settings_.max_steps - charged);
  }
  for (const auto& entry : added) turn.messages.push_back(to_record(entry.message));
  turn.uncharged = uncharged;

  traj::LlmCallRecord call;
  call.request = std::move(response.raw_request);
  call.response = std::move(response.raw_response);
  call.http_status = response.http_status;
  call.attempts = static_cast<int64_t>(response.attempts.size());
  call.attempt_log = nlohmann::json::array();
  for (const auto& a : response.attempts) call.attempt_log.push_back(a.to_json());
  call.latency_ms = response.latency_s * 1000.0;
  call.prompt_tokens = response.usage.prompt_tokens;
  call.completion_tokens = response.usage.completion_tokens;
  turn.llm_call = std::move(call);

  std::vector<traj::EvaluationRecord> evaluations = turn.evaluations;
  {
    ScopedTimer t(&timings_.store_s);
    auto committed = sv_.store->append_turn(std::move(turn));
    if (!committed.ok()) return committed.error();
  }
  state_.turn += 1;
  state_.uncharged_turns += uncharged ? 1 : 0;
  state_.prompt_tokens += response.usage.prompt_tokens;
  state_.completion_tokens += response.usage.completion_tokens;
  state_.tokens += response.usage.prompt_tokens + response.usage.completion_tokens;
  for (const auto& e : evaluations) state_.note(e);
  state_.conversation.push_back({std::move(answer), false});
  for (auto& entry : added) state_.conversation.push_back(std::move(entry));
  return ok_status();
}

EpisodeResult Episode::finish(ExitReason reason, std::string detail) {
  EpisodeResult r;
  r.episode_id = state_.id;
  r.task_id = spec_.task->task.id;
  r.sample = spec_.sample;
  r.exit_reason = reason;
  r.detail = std::move(detail);
  r.turns = state_.turn;
  r.prompt_tokens = state_.prompt_tokens;
  r.completion_tokens = state_.completion_tokens;
  r.evaluations = state_.evaluations;
  r.best_as = state_.best_as;
  r.best_compile_share = state_.best_compile_share;
  r.correct = sv_.evaluator->mode() == traj::EvalMode::full
                  ? state_.best_as.has_value() && state_.best_as_correct
                  : state_.best_compile_share.value_or(0) >= 1.0;
  r.wall_s = state_.previous_wall_s + elapsed_s();
  if (reason != ExitReason::store_error) {
    traj::EpisodeFinish f;
    f.episode_id = state_.id;
    f.status = status_for(reason);
    f.exit_reason = std::string(to_string(reason));
    f.wall_time_s = r.wall_s;
    ScopedTimer t(&timings_.store_s);
    if (auto st = sv_.store->finish_episode(f); !st.ok()) {
      spdlog::error("episode {}: could not record its end ({}): {}", state_.id, to_string(reason),
                    st.error().message);
      r.exit_reason = ExitReason::store_error;
      r.detail = st.error().message;
    }
  }
  timings_.turns = state_.turn;
  timings_.total_s = elapsed_s();
  r.timings = timings_;
  return r;
}

// Why the endpoint call failed, kept in the store (the episode's end only
// says endpoint_error). A store failure here is logged: the episode ends
// with the endpoint's failure either way.
void Episode::record_failed_call(const llm::ChatFailure& failure) {
  traj::FailedLlmCallRecord call;
  call.episode_id = state_.id;
  call.turn = state_.turn + 1;
  call.error_kind = llm::error_kind_name(failure.kind);
  call.last_error = failure.message;
  call.http_status = failure.http_status;
  call.attempts = static_cast<int64_t>(failure.attempts.size());
  for (const auto& a : failure.attempts) call.attempt_log.push_back(a.to_json());
  call.request = failure.raw_request;
  call.response = failure.raw_response;
  ScopedTimer t(&timings_.store_s);
  if (auto st = sv_.store->record_failed_llm_call(call); !st.ok()) {
    spdlog::error("episode {}: could not record the failed endpoint call: {}", state_.id,
                  st.error().message);
  }
}

EpisodeResult Episode::run() {
  Status ready = spec_.resume ? restore_episode(*sv_.store, settings_, executor_, state_) : start();
  if (!ready.ok()) {
    spdlog::error("episode {}: {}", state_.id, ready.error().message);
    return finish(ExitReason::store_error, ready.error().message);
  }
  while (true) {
    if (auto reason = stop_reason()) return finish(*reason);
    FittedContext fit;
    llm::ChatRequest request = next_request(fit);
    if (!fit.fits) {
      return finish(ExitReason::context_overflow,
                    "the next request needs about " + std::to_string(fit.estimated_tokens) +
                        " prompt tokens (estimated), over agent.max_context_tokens = " +
                        std::to_string(settings_.max_context_tokens) +
                        (fit.steps.empty() ? std::string(" under the configured context policy")
                                           : " after " + join(fit.steps, ", ")));
    }
    if (!fit.steps.empty()) {
      spdlog::debug("episode {}: turn {}: context fitted ({})", state_.id, state_.turn + 1,
                    join(fit.steps, ", "));
    }
    llm::ChatOutcome outcome = [&] {
      ScopedTimer t(&timings_.llm_s);
      return sv_.llm->chat(request, sv_.cancel);
    }();
    if (!outcome.ok()) {
      const auto& failure = outcome.failure();
      if (failure.kind == llm::ErrorKind::cancelled) return finish(ExitReason::interrupted);
      spdlog::warn("episode {}: turn {}: {} ({})", state_.id, state_.turn + 1, failure.message,
                   llm::error_kind_name(failure.kind));
      record_failed_call(failure);
      auto reason = parse_exit_reason(failure.exit_reason());
      return finish(reason.value_or(ExitReason::endpoint_error), failure.message);
    }
    if (auto st = take_turn(outcome.response()); !st.ok()) {
      spdlog::error("episode {}: committing turn {} failed: {}", state_.id, state_.turn + 1,
                    st.error().message);
      return finish(ExitReason::store_error, st.error().message);
    }
  }
}

}  // namespace

EpisodeResult run_episode(const EpisodeSpec& spec, const EpisodeServices& services,
                          const EpisodeSettings& settings) {
  Episode episode(spec, services, settings);
  return episode.run();
}

}  // namespace pf::agent
