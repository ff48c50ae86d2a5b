#include "agent/loop/chat_answer.h"

#include <vector>

#include "agent/loop/workspace_rules.h"
#include "common/strings.h"

namespace pf::agent {
namespace {

struct Fence {
  size_t ticks = 0;
  std::string_view rest;  // after the backticks
};

// A fence line: up to three spaces, then three or more backticks.
bool read_fence(std::string_view line, Fence& fence) {
  size_t i = 0;
  while (i < line.size() && i < 3 && line[i] == ' ') ++i;
  size_t start = i;
  while (i < line.size() && line[i] == '`') ++i;
  if (i - start < 3) return false;
  fence.ticks = i - start;
  fence.rest = line.substr(i);
  return true;
}

std::string path_of(std::string_view info) {
  for (const auto& word : split(std::string(trim(info)), ' ')) {
    std::string_view w = trim(word);
    for (std::string_view prefix : {"path=", "file=", "filename=", "title="}) {
      if (w.starts_with(prefix)) w.remove_prefix(prefix.size());
    }
    while (!w.empty() && (w.front() == '"' || w.front() == '\'' || w.front() == '`')) {
      w.remove_prefix(1);
    }
    while (!w.empty() &&
           (w.back() == '"' || w.back() == '\'' || w.back() == '`' || w.back() == ':')) {
      w.remove_suffix(1);
    }
    if (w.find('/') != std::string_view::npos) return std::string(w);
  }
  return "";
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (end == text.size()) break;
    start = end + 1;
  }
  return lines;
}

}  // namespace

ChatAnswer parse_chat_answer(std::string_view content) {
  ChatAnswer answer;
  if (trim(content).empty()) {
    answer.problem = AnswerProblem::empty;
    return answer;
  }
  const auto lines = lines_of(content);
  bool saw_submit = false;
  int blocks = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    Fence open;
    if (!read_fence(lines[i], open)) {
      if (trim(lines[i]) == "SUBMIT" || trim(lines[i]) == "SUBMIT.") saw_submit = true;
      continue;
    }
    ++blocks;
    std::string body;
    size_t j = i + 1;
    bool closed = false;
    for (; j < lines.size(); ++j) {
      Fence close;
      if (read_fence(lines[j], close) && close.ticks >= open.ticks && trim(close.rest).empty()) {
        closed = true;
        break;
      }
      body.append(lines[j]);
      body.push_back('\n');
    }
    if (!closed) {
      answer.problem = AnswerProblem::unterminated_block;
      return answer;
    }
    i = j;
    std::string path = path_of(open.rest);
    if (path.empty()) {
      answer.problem = AnswerProblem::block_without_path;
      answer.block = blocks;
      answer.info = std::string(trim(open.rest));
      return answer;
    }
    if (auto st = check_workspace_path(path); !st.ok()) {
      answer.problem = AnswerProblem::bad_path;
      answer.path = path;
      answer.reason = st.error().message;
      return answer;
    }
    if (answer.files.count(path)) {
      answer.problem = AnswerProblem::duplicate_path;
      answer.path = path;
      return answer;
    }
    answer.files[path] = std::move(body);
  }
  if (blocks == 0) {
    if (saw_submit) {
      answer.submit = true;
    } else {
      answer.problem = AnswerProblem::no_code_blocks;
    }
  }
  return answer;
}

traj::Workspace apply_chat_answer(const traj::Workspace& previous, const traj::Workspace& files) {
  traj::Workspace out = previous;
  for (const auto& [path, content] : files) {
    if (trim(content).empty()) {
      out.erase(path);
    } else {
      out[path] = content;
    }
  }
  return out;
}

}  // namespace pf::agent
