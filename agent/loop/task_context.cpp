#include "agent/loop/task_context.h"

#include "common/sha256.h"
#include "common/strings.h"
#include "evaluator/dialect/printer.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/tasks/hidden_variants.h"
#include "evaluator/tasks/importer.h"

namespace pf::agent {

void apply_hidden_policy(Task& task, HiddenVariants policy, double share) {
  if (policy == HiddenVariants::task) return;
  hide_variant_share(task, policy == HiddenVariants::off ? 0.0 : share);
}

Result<std::shared_ptr<const TaskContext>> prepare_task(Task task, HiddenVariants policy,
                                                        double share,
                                                        const prompts::PromptVariant& prompts,
                                                        AgentMode mode, const OpRegistry& registry,
                                                        const nlohmann::json& extra_context) {
  apply_hidden_policy(task, policy, share);
  auto ctx = std::make_shared<TaskContext>();
  nlohmann::json variants = nlohmann::json::array();
  int number = 0;
  for (const auto& v : task.variants) {
    if (v.hidden) continue;
    auto graph = typed_variant_graph(v, registry);
    if (!graph.ok()) {
      return graph.error().with_context("task " + task.id + ", variant " + v.name);
    }
    dialect::PrintOptions po;
    po.type_comments = true;
    po.input_header = true;
    std::string text = dialect::print_graph(*graph, registry, po);
    if (!text.empty() && text.back() != '\n') text.push_back('\n');
    variants.push_back({{"number", ++number}, {"name", v.name}, {"graph", text}});
  }
  if (variants.empty()) {
    return make_error(ErrorCode::invalid_argument,
                      "task " + task.id + " has no visible variant to show the model");
  }
  nlohmann::json context = {{"task_id", task.id},
                            {"op_sequence", join(task.op_sequence, " -> ")},
                            {"description", task.description},
                            {"variants", variants},
                            {"variant_count", variants.size()},
                            {"tools_mode", mode == AgentMode::tools},
                            {"chat_mode", mode == AgentMode::chat}};
  context.update(extra_context);
  PF_ASSIGN(ctx->prompt, prompts.render(prompts::kTaskFile, context));
  while (!ctx->prompt.empty() && ctx->prompt.back() == '\n') ctx->prompt.pop_back();
  ctx->visible_variants = variants.size();
  ctx->task_json = task_to_json(task);
  ctx->record.id = task.id;
  ctx->record.suite_hash = sha256_hex(ctx->task_json.dump());
  ctx->record.op_sequence = task.op_sequence;
  ctx->record.variants = ctx->task_json["variants"];
  ctx->task = std::move(task);
  return std::shared_ptr<const TaskContext>(std::move(ctx));
}

Result<Task> task_from_record(const traj::TaskRecord& record) {
  nlohmann::json j = {{"format", kTaskFormat},
                      {"id", record.id},
                      {"op_sequence", record.op_sequence},
                      {"variants", record.variants}};
  return task_from_json(j, "the run's task record " + record.id);
}

}  // namespace pf::agent
