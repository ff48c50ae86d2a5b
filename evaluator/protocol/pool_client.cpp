#include "evaluator/protocol/pool_client.h"

#include <algorithm>
#include <vector>

#include "evaluator/protocol/protocol_options.h"
#include "evaluator/protocol/result_score.h"

namespace pf::protocol {
namespace {

using nlohmann::json;

std::vector<std::string> variant_names(const json& task) {
  std::vector<std::string> names;
  for (const auto& v : task.value("variants", json::array())) {
    if (v.is_object() && v.contains("name") && v["name"].is_string()) {
      names.push_back(v["name"].get<std::string>());
    }
  }
  return names;
}

json* find_variant(json& result, const std::string& name) {
  if (!result.contains("variants") || !result["variants"].is_array()) return nullptr;
  for (auto& v : result["variants"]) {
    if (v.value("name", "") == name) return &v;
  }
  return nullptr;
}

std::vector<std::string> pending(const json& result, const std::vector<std::string>& order) {
  std::vector<std::string> out;
  json copy = result;
  for (const auto& name : order) {
    json* v = find_variant(copy, name);
    if (v == nullptr || !v->value("evaluated", false)) out.push_back(name);
  }
  return out;
}

// Takes every evaluated variant of `reply` into `merged`.
void merge(json& merged, const json& reply) {
  for (const auto& v : reply.value("variants", json::array())) {
    if (!v.value("evaluated", false)) continue;
    if (json* m = find_variant(merged, v.value("name", ""))) *m = v;
  }
}

// A variant whose request killed its worker.
void mark_killed(json& merged, const json& task, const std::string& name,
                 const sandbox::WorkerReply& reply) {
  json* v = find_variant(merged, name);
  if (v == nullptr) {
    bool hidden = false;
    for (const auto& tv : task.value("variants", json::array())) {
      if (tv.value("name", "") == name) hidden = tv.value("hidden", false);
    }
    merged["variants"].push_back({{"name", name}, {"hidden", hidden}});
    v = &merged["variants"].back();
  }
  const bool timeout = reply.status == sandbox::ReplyStatus::timeout;
  const bool limit = reply.status == sandbox::ReplyStatus::resource_limit;
  (*v)["evaluated"] = true;
  (*v)["correct"] = false;
  (*v)["speedup"] = nullptr;
  (*v)["first_passing_level"] = nullptr;
  (*v)["unstable"] = false;
  (*v)["failure_class"] = timeout ? "timeout" : limit ? "resource_limit" : "runtime_fail";
  std::string message = "the worker evaluating this variant " +
                        std::string(timeout ? "timed out"
                                    : limit ? "hit a resource limit"
                                            : "died") +
                        ": " + reply.describe();
  if (!reply.stderr_tail.empty()) message += "\n" + reply.stderr_tail;
  (*v)["message"] = message;
  v->erase("pending");
}

}  // namespace

Result<PoolEvaluation> evaluate_through_pool(sandbox::WorkerPool& pool,
                                             const PoolRequest& request) {
  PoolEvaluation out;
  json body = {{"task", request.task},
               {"files", request.files},
               {"mode", request.full ? "full" : "compile_only"},
               {"options", request.options}};
  const std::vector<std::string> order = variant_names(request.task);
  std::vector<std::string> todo = order;
  bool one_at_a_time = false;
  json merged = nullptr;
  // Each round either evaluates at least one variant or classifies one.
  for (size_t round = 0; round <= order.size() + 1 && (merged.is_null() || !todo.empty());
       ++round) {
    std::vector<std::string> batch = todo;
    if (one_at_a_time && batch.size() > 1) batch.resize(1);
    if (request.full) {
      body["variants"] = batch.size() == order.size() ? json(nullptr) : json(batch);
    }
    ++out.requests;
    sandbox::WorkerReply reply = pool.call("evaluate", body, request.timeout);
    out.restarts += reply.worker_replaced ? 1 : 0;
    switch (reply.status) {
      case sandbox::ReplyStatus::ok:
        break;
      case sandbox::ReplyStatus::error:
      case sandbox::ReplyStatus::unavailable:
        return reply.error.with_context("evaluate");
      case sandbox::ReplyStatus::resource_limit:
        if (!request.full) {
          out.result = {{"mode", "compile_only"},
                        {"ok", false},
                        {"failure_class", "resource_limit"},
                        {"message", reply.error.message},
                        {"variants", json::array()}};
          return out;
        }
        [[fallthrough]];
      case sandbox::ReplyStatus::timeout:
      case sandbox::ReplyStatus::crashed:
      case sandbox::ReplyStatus::protocol_error:
        if (!request.full) {
          return make_error(ErrorCode::internal, "evaluate: " + reply.describe());
        }
        if (batch.size() == 1) {
          if (merged.is_null()) merged = {{"mode", "full"}, {"variants", json::array()}};
          mark_killed(merged, request.task, batch.front(), reply);
          todo.erase(std::find(todo.begin(), todo.end(), batch.front()));
        }
        one_at_a_time = true;
        continue;
    }
    if (!request.full) {
      out.result = std::move(reply.body);
      return out;
    }
    // Variants re-sent to a fresh worker use the seed the first reply drew,
    // so the merged result describes one set of inputs.
    const bool seed_given =
        request.options.is_object() && request.options.value("seed", json()).is_number_integer();
    if (!seed_given && reply.body.is_object() && reply.body.contains("options") &&
        reply.body["options"].is_object() &&
        reply.body["options"].value("seed", json()).is_number_integer()) {
      body["options"]["seed"] = reply.body["options"]["seed"];
    }
    if (merged.is_null() || !merged.contains("compile")) {
      json killed = merged;
      merged = reply.body;
      if (!killed.is_null()) merge(merged, killed);
    } else {
      merge(merged, reply.body);
    }
    if (merged.contains("failure_class") && merged["failure_class"].is_string()) break;
    todo = pending(merged, order);
  }
  if (merged.contains("fatal")) {
    merged["fatal_recovered"] = merged["fatal"];
    merged.erase("fatal");
  }
  PF_ASSIGN(ProtocolOptions options, options_from_json(request.options));
  score_result(merged, options);
  merged["worker_requests"] = out.requests;
  merged["worker_restarts"] = out.restarts;
  out.result = std::move(merged);
  return out;
}

}  // namespace pf::protocol
