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
//! per source task, never the task itself, whose rendered blocks fit within
//! `max_tokens` together (estimated as bytes / 4). Exemplars with similarity
//! 0 are not used.
std::vector<ExemplarChoice> choose_exemplars(const std::vector<Exemplar>& library,
                                             const std::string& task_id,
                                             const std::vector<std::string>& ops, int count,
                                             int64_t max_tokens);

//! The prompt section for the chosen exemplars ("" when none): a heading and
//! each pass as fenced blocks named by path, as chat mode writes them.
std::string exemplar_block(const std::vector<ExemplarChoice>& chosen);

//! One exemplar as it appears in the block (used for the token budget).
std::string render_exemplar(const Exemplar& e, double similarity, size_t index);

}  // namespace pf::experiments
