#include "experiments/arm_session.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>

#include "agent/llm/llm_client.h"
#include "agent/loop/task_context.h"
#include "agent/scheduler/demo_replay.h"
#include "agent/scheduler/run_session.h"
#include "agent/scheduler/run_setup.h"
#include "common/check.h"
#include "evaluator/ops/op_registry.h"
#include "trajectories/trajectory_reader.h"
#include "trajectories/trajectory_store.h"

namespace pf::experiments {
namespace {

namespace fs = std::filesystem;

}  // namespace

Result<std::vector<Task>> stored_tasks(const fs::path& store_dir,
                                       const std::vector<std::string>& ids) {
  PF_ASSIGN(auto reader, traj::TrajectoryReader::open(store_dir));
  PF_ASSIGN(auto records, reader.tasks());
  std::vector<Task> tasks;
  for (const auto& id : ids) {
    auto it = std::find_if(records.begin(), records.end(),
                           [&](const traj::TaskRecord& r) { return r.id == id; });
    if (it == records.end()) {
      return make_error(ErrorCode::not_found,
                        "task " + id + " is not in the store " + store_dir.string());
    }
    PF_ASSIGN(auto task, agent::task_from_record(*it));
    tasks.push_back(std::move(task));
  }
  return tasks;
}

Result<SessionOutcome> run_arm_session(const SessionRequest& request,
                                       const llm::CancelToken& cancel) {
  PF_CHECK(!request.arms.empty());
  const Config& shared = request.arms.front().config;

  PF_ASSIGN(auto gpus, protocol::plan_evaluation(shared.evaluator));
  PF_ASSIGN(auto store, traj::TrajectoryStore::open(request.store_dir,
                                                    traj::TrajectoryStore::OpenMode::create));
  PF_ASSIGN(auto reader, store->reader());
  PF_ASSIGN(auto known_runs, reader.runs());

  // Per arm: prompts, task prompts, endpoint, run record. The prompts and
  // the endpoint client live here; the arm's SessionRun services point to them.
  std::vector<prompts::PromptVariant> arm_prompts(request.arms.size());
  std::vector<std::unique_ptr<llm::LlmClient>> arm_clients(request.arms.size());
  std::vector<agent::SessionRun> runs(request.arms.size());
  std::optional<agent::DemoReplay> demo;
  const OpRegistry& registry = OpRegistry::builtin();
  for (size_t a = 0; a < request.arms.size(); ++a) {
    const ArmPlan& plan = request.arms[a];
    prompts::PromptVariant& variant = arm_prompts[a];
    agent::SessionRun& run = runs[a];
    const Config& c = plan.config;
    const fs::path prompts_dir = agent::resolve_data_dir(c.prompts.dir);
    PF_ASSIGN(variant, prompts::PromptVariant::load(prompts_dir, c.prompts.variant));
    for (const auto& task : request.tasks) {
      auto extra = plan.task_context.find(task.id);
      auto ctx = agent::prepare_task(
          task, shared.evaluator.hidden_variants, shared.evaluator.hidden_share, variant,
          c.agent.mode, registry,
          extra != plan.task_context.end() ? extra->second : nlohmann::json::object());
      if (!ctx.ok()) return ctx.error().with_context("arm " + plan.name);
      run.tasks.push_back(std::move(ctx).value());
    }
    llm::LlmOptions llm = plan.llm;
    std::string endpoint_record = llm.base_url;
    if (llm.base_url.empty()) {
      if (!demo) {
        PF_ASSIGN(demo, agent::start_demo_replay(prompts_dir, shared.run.concurrency));
        request.notice(
            "endpoint: no endpoint.base_url configured, so the arms without one "
            "REPLAY RECORDED ANSWERS from " +
            demo->script.string() + "; they do not ask a model");
      }
      llm = demo->client_options(std::move(llm), shared.run.concurrency);
      endpoint_record = demo->record();
    }
    // The arms' episodes share run.concurrency threads; any arm may have all of them.
    llm.max_concurrent = std::max(llm.max_concurrent, shared.run.concurrency);
    PF_ASSIGN(arm_clients[a], llm::LlmClient::create(llm));

    bool exists = std::any_of(known_runs.begin(), known_runs.end(),
                              [&](const traj::RunRecord& r) { return r.id == plan.run_id; });
    if (!exists) {
      PF_TRY(store->create_run(agent::new_run_record(
          plan.run_id, c, plan.config_toml, endpoint_record, llm.model, variant, gpus, run.tasks)));
    }
    run.run_id = plan.run_id;
    run.settings = agent::episode_settings(c);
    run.services.llm = arm_clients[a].get();
    run.services.prompts = &variant;
    run.services.run_id = plan.run_id;
    run.services.model = llm.model;
    PF_ASSIGN(run.services.system_prompt,
              agent::render_system_prompt(variant, c, agent::to_record_mode(gpus.mode)));
  }
  for (const auto& ctx : runs.front().tasks) PF_TRY(store->upsert_task(ctx->record));

  PF_ASSIGN(auto service,
            protocol::EvaluationService::start(protocol::service_options(shared, gpus)));
  agent::SessionContext session{.config = shared,
                                .service = *service,
                                .store = *store,
                                .shard = agent::Shard{},
                                .terminal = request.terminal,
                                .notice = request.notice};
  return agent::run_session(runs, session, cancel);
}

}  // namespace pf::experiments
