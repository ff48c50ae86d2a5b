// In-context improvement: solved training tasks' passes, chosen for a task by
// the similarity of operator sequences and put into its prompt.
//
// Similarity of op sequences a and b: 2 * LCS(a, b) / (|a| + |b|), the
// longest common subsequence ratio (1 = same sequence, 0 = no op in
// common). LCS keeps the order that pattern matching depends on, and tolerates
// an inserted or missing op (a cast, a dropout) where exact n-gram sets
// would not. Ties go to the higher score, then the task id.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "experiments/experiment_store.h"

namespace pf::experiments {

double op_similarity(const std::vector<std::string>& a, const std::vector<std::string>& b);

struct ExemplarChoice {
  const Exemplar* exemplar = nullptr;
  double similarity = 0;
};

//! At most `count` exemplars for a task with `ops`, most similar first, one
//! per source task, never the task itself, that fit within `max_tokens`
//! together (an exemplar costs its operator names, file paths and contents,
//! plus 100 bytes of heading, / 4). Exemplars with similarity 0 are not used.
std::vector<ExemplarChoice> choose_exemplars(const std::vector<Exemplar>& library,
                                             const std::string& task_id,
                                             const std::vector<std::string>& ops, int count,
                                             int64_t max_tokens);

//! The `exemplars` key of task.md's context: null when none are chosen (the
//! section renders nothing), else {"count", "examples": [{"number",
//! "task_id", "op_sequence", "similarity" ("0.80"), "score" ("1.500"),
//! "files": [{"path", "lang" (python/cuda/text), "content" (ends with a
//! newline)}]}]}; prompts/<variant>/task.md decides how they read.
nlohmann::json exemplar_context(const std::vector<ExemplarChoice>& chosen);

}  // namespace pf::experiments
