// The result bookkeeping of a full evaluation that a worker crash
// interrupted (evaluation_service.h): which variants are still pending,
// merging the variants a later reply evaluated, and classifying the variant
// whose request killed its worker.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "evaluator/tasks/task.h"
#include "sandbox/pool/worker_reply.h"

namespace pf::protocol {

//! The variants of `order` that `result` does not list as evaluated.
std::vector<std::string> pending_variants(const nlohmann::json& result,
                                          const std::vector<std::string>& order);

//! Takes every evaluated variant of `reply` into `merged`.
void merge_evaluated(nlohmann::json& merged, const nlohmann::json& reply);

//! Marks `name` as the variant whose request killed its worker: runtime_fail
//! (crash) or timeout, with the worker's words.
void mark_killed(nlohmann::json& merged, const Task& task, const std::string& name,
                 const sandbox::WorkerReply& reply);

//! A compile-only result for a pass whose request killed its worker.
nlohmann::json killed_compile_only_result(const sandbox::WorkerReply& reply);

}  // namespace pf::protocol
