// A prompt variant: every text the model reads, as files under
// prompts/<variant>/ (A/B tests compare variants):
//
//   system.md      system prompt template (both agent modes)
//   task.md        task prompt template (the graphs of the visible variants)
//   feedback.md    evaluation report template
//   tools.json     OpenAI tool schemas (tools mode)
//   messages.json  {"key": "template", ...}: short corrective and status messages
//   *.md           any further file is a partial: `{{> chat_format}}` includes chat_format.md
//
// The variant's hash covers every file (name and content), so a changed
// comma gives a new hash; it is recorded with every run and episode.
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/result.h"
#include "prompts/template_renderer.h"

namespace pf::prompts {

inline constexpr const char* kSystemFile = "system.md";
inline constexpr const char* kTaskFile = "task.md";
inline constexpr const char* kFeedbackFile = "feedback.md";
inline constexpr const char* kToolsFile = "tools.json";
inline constexpr const char* kMessagesFile = "messages.json";

//! Immutable after loading; safe to share between threads.
class PromptVariant {
 public:
  //! Reads `<prompts_dir>/<name>/` (regular, non-hidden files; no
  //! subdirectories). Errors name the file: a missing required file, a
  //! template that does not parse, tools.json that is not an array of
  //! function schemas, messages.json that is not an object of strings.
  static Result<PromptVariant> load(const std::filesystem::path& prompts_dir,
                                    const std::string& name);
  //! The same checks on files already in memory (file name -> content).
  static Result<PromptVariant> from_files(std::string name,
                                          std::map<std::string, std::string> files);

  const std::string& name() const { return name_; }
  //! SHA-256 (hex) over every file's name and content, in name order.
  const std::string& hash() const { return hash_; }
  const std::map<std::string, std::string>& files() const { return files_; }
  //! The OpenAI `tools` array.
  const nlohmann::json& tools() const { return tools_; }
  //! Function names declared in tools.json, in file order.
  std::vector<std::string> tool_names() const;

  //! Renders one of the .md templates with `context`; the other .md files
  //! are available as partials by their stem. Runs of blank lines that
  //! empty sections leave behind are collapsed to one (collapse_blank_lines).
  Result<std::string> render(const std::string& file, const nlohmann::json& context) const;
  //! Renders the messages.json entry `key`.
  Result<std::string> message(const std::string& key, const nlohmann::json& context = {}) const;
  bool has_message(const std::string& key) const;

 private:
  std::string name_;
  std::string hash_;
  std::map<std::string, std::string> files_;
  Partials partials_;
  nlohmann::json tools_;
  std::map<std::string, std::string> messages_;
};

//! At most one blank line in a row (whitespace-only lines count as blank and
//! lose their whitespace); indentation of other lines is kept.
std::string collapse_blank_lines(std::string_view text);

//! The SHA-256 of a set of files as PromptVariant::hash() computes it.
std::string hash_files(const std::map<std::string, std::string>& files);

}  // namespace pf::prompts
