// The evaluation report the model reads after `compile` / `evaluate` (tools
// mode) or after each answer (chat mode): the evaluator's result JSON
// (docs/result-fields.md) rendered with the prompt variant's feedback.md,
// most important first, bounded by evaluator.feedback_max_chars.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "common/result.h"
#include "prompts/prompt_variant.h"

namespace pf::agent {

//! Who reads a report and what they can do next, so no hint names an action
//! the reader lacks.
struct FeedbackSituation {
  enum class Reader {
    person,  // `passforge eval`: no agent actions
    tools,   // tools mode: compile, evaluate, submit
    chat,    // chat mode: answer with files, or SUBMIT
  };
  Reader reader = Reader::person;
  //! The report answers an `evaluate` (tools) or an answer (chat), not a `compile`.
  bool evaluate = true;
  //! The run evaluates in full mode (a GPU); false: every evaluation is compile-only.
  bool gpu = true;
};

//! The hint for `key` as `reader` reads it: messages.json's `<key>_tools` /
//! `<key>_chat` when the variant has it, else `<key>`; nullopt when neither exists.
std::optional<std::string> situated_message(const prompts::PromptVariant& prompts,
                                            const std::string& key,
                                            FeedbackSituation::Reader reader);

//! The template context for feedback.md (documented in docs/agent.md):
//! headline, failure_message, has_score, as, speedup, es,
//! has_variants, variants [{name, status, detail}], hidden, has_flags, flags,
//! compile_warnings, compile_only, evaluate_without_gpu, next, task_note (full results: flags carry
//! the evidence of the first visible variant that shows them). `detail_chars` bounds each variant's
//! detail and `log_chars` the compile log.
nlohmann::json feedback_context(const nlohmann::json& result, const prompts::PromptVariant& prompts,
                                size_t log_chars, size_t detail_chars, size_t max_variants,
                                const FeedbackSituation& situation = {});

//! The rendered report, at most `max_chars` characters: long logs and
//! details are shortened first, then variants beyond the first few are
//! summarised, and only then is the text cut.
Result<std::string> render_feedback(const nlohmann::json& result,
                                    const prompts::PromptVariant& prompts, size_t max_chars,
                                    const FeedbackSituation& situation = {});

//! The report's first line (what an omitted report is shortened to).
std::string first_line(const std::string& text);

//! `text` cut to at most `max_chars` characters (at a UTF-8 boundary), with
//! a marker saying how much was cut.
std::string shorten(const std::string& text, size_t max_chars);

}  // namespace pf::agent
