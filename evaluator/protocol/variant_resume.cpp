#include "evaluator/protocol/variant_resume.h"

#include "evaluator/protocol/eval_messages.h"
#include "evaluator/scoring/failure_class.h"

namespace pf::protocol {
namespace {

using nlohmann::json;

json* find_variant(json& result, const std::string& name) {
  if (!result.contains(field::kVariants) || !result[field::kVariants].is_array()) return nullptr;
  for (auto& v : result[field::kVariants]) {
    if (v.value("name", "") == name) return &v;
  }
  return nullptr;
}

bool timed_out(const sandbox::WorkerReply& reply) {
  return reply.status == sandbox::ReplyStatus::timeout;
}

FailureClass killed_class(const sandbox::WorkerReply& reply) {
  if (reply.status == sandbox::ReplyStatus::resource_limit) return FailureClass::resource_limit;
  return timed_out(reply) ? FailureClass::timeout : FailureClass::runtime_fail;
}

std::string killed_message(const std::string& subject, const sandbox::WorkerReply& reply) {
  std::string message =
      "the worker evaluating " + subject + " " +
      (timed_out(reply)                                       ? "timed out"
       : reply.status == sandbox::ReplyStatus::resource_limit ? "hit a resource limit"
                                                              : "died") +
      ": " + reply.describe();
  if (!reply.stderr_tail.empty()) message += "\n" + reply.stderr_tail;
  return message;
}

}  // namespace

std::vector<std::string> pending_variants(const json& result,
                                          const std::vector<std::string>& order) {
  std::vector<std::string> out;
  json copy = result;
  for (const auto& name : order) {
    json* v = find_variant(copy, name);
    if (v == nullptr || !v->value("evaluated", false)) out.push_back(name);
  }
  return out;
}

void merge_evaluated(json& merged, const json& reply) {
  for (const auto& v : reply.value(field::kVariants, json::array())) {
    if (!v.value("evaluated", false)) continue;
    if (json* m = find_variant(merged, v.value("name", ""))) *m = v;
  }
}

void mark_killed(json& merged, const Task& task, const std::string& name,
                 const sandbox::WorkerReply& reply) {
  json* v = find_variant(merged, name);
  if (v == nullptr) {
    bool hidden = false;
    for (const auto& tv : task.variants) hidden = tv.name == name ? tv.hidden : hidden;
    merged[field::kVariants].push_back({{"name", name}, {"hidden", hidden}});
    v = &merged[field::kVariants].back();
  }
  (*v)["evaluated"] = true;
  (*v)["correct"] = false;
  (*v)["speedup"] = nullptr;
  (*v)["first_passing_level"] = nullptr;
  (*v)["unstable"] = false;
  (*v)[field::kFailureClass] = failure_class_name(killed_class(reply));
  (*v)[field::kMessage] = killed_message("this variant", reply);
  v->erase("pending");
}

json killed_compile_only_result(const sandbox::WorkerReply& reply) {
  return {{field::kMode, eval_mode_name(EvalMode::compile_only)},
          {field::kFailureClass, failure_class_name(killed_class(reply))},
          {field::kMessage, killed_message("this pass", reply)},
          {"ok", false},
          {"as", nullptr},
          {"hidden_as", nullptr},
          {"es_curve", nullptr},
          {field::kVariants, json::array()}};
}

}  // namespace pf::protocol
