// Chat mode (docs/design.md "Agent protocol"): an assistant answer carries the
// pass's new or changed files as fenced code blocks whose info string names
// the file (```python passes/FuseLnGelu.py), or the single word SUBMIT to
// finish.
#pragma once

#include <string>
#include <string_view>

#include "trajectories/records.h"

namespace pf::agent {

enum class AnswerProblem {
  none,
  empty,               // no text at all
  no_code_blocks,      // text, but neither blocks nor SUBMIT
  block_without_path,  // a block whose info string names no file
  bad_path,            // a path outside the workspace rules
  duplicate_path,      // the same file in two blocks
  unterminated_block,  // an opening fence without its closing fence
};

struct ChatAnswer {
  traj::Workspace files;  // path -> content (each ends with a newline)
  bool submit = false;    // no blocks, and a line that is just "SUBMIT"
  AnswerProblem problem = AnswerProblem::none;
  // Details of the problem, for the corrective message:
  std::string path;    // bad_path, duplicate_path
  std::string reason;  // bad_path: why (workspace_rules)
  std::string info;    // block_without_path: the info string
  int block = 0;       // block_without_path: 1-based block number

  bool ok() const { return problem == AnswerProblem::none; }
};

//! Never fails: problems are reported in the result. A fence is a line of
//! three or more backticks (indented at most three spaces); it closes with a
//! line of at least as many backticks and nothing else. The path is the first
//! info-string word containing '/' (quotes and a `path=`/`file=` prefix are
//! dropped).
ChatAnswer parse_chat_answer(std::string_view content);

//! The workspace after an answer: its files replace those of `previous`,
//! files it leaves out are kept (an answer may carry only what changed), and
//! a block with nothing but whitespace deletes its file.
traj::Workspace apply_chat_answer(const traj::Workspace& previous, const traj::Workspace& files);

}  // namespace pf::agent
