#include "experiments/ab_experiment.h"

#include "agent/scheduler/run_tasks.h"
#include "config/config_json.h"
#include "experiments/experiment_store.h"
#include "trajectories/ids.h"
#include "trajectories/trajectory_reader.h"
#include "trajectories/trajectory_store.h"

namespace pf::experiments {
namespace {

namespace fs = std::filesystem;
constexpr const char* kKind = "ab";

std::vector<ArmRef> arm_refs(const ExperimentRecord& record) {
  std::vector<ArmRef> refs;
  for (const auto& a : record.state.value("arms", nlohmann::json::array())) {
    refs.push_back({a.value("name", ""), a.value("run_id", "")});
  }
  return refs;
}

Result<ExperimentRecord> load_record(const fs::path& dir) {
  PF_ASSIGN(auto store, ExperimentStore::open_read_only(dir));
  PF_ASSIGN(auto record, store.load());
  if (!record || record->kind != kKind) {
    return make_error(ErrorCode::not_found,
                      dir.string() + " holds no A/B experiment (start one with --config FILE)");
  }
  return *record;
}

}  // namespace

Result<AbOutcome> run_ab(const AbRequest& request, const llm::CancelToken& cancel) {
  AbOutcome outcome;
  SessionRequest session;
  session.terminal = request.terminal;
  session.notice = request.notice;
  ExperimentRecord record;
  std::vector<std::string> task_ids;
  if (request.spec) {
    const AbSpec& spec = *request.spec;
    outcome.id = spec.id.empty() ? "ab-" + traj::make_run_id() : spec.id;
    record.id = outcome.id;
    record.kind = kKind;
    record.spec_text = spec.text;
    record.spec_path = spec.file.string();
    record.state["arms"] = nlohmann::json::array();
    for (const auto& arm_spec : spec.arms) {
      PF_ASSIGN(Config config, arm_config(spec, arm_spec));
      ArmPlan arm;
      arm.name = arm_spec.name;
      arm.run_id = outcome.id + "." + arm_spec.name;
      arm.config = std::move(config);
      arm.config_toml = spec.text;
      record.state["arms"].push_back({{"name", arm.name},
                                      {"run_id", arm.run_id},
                                      {"sets", arm_spec.sets},
                                      {"config", config_to_json(arm.config)}});
      session.arms.push_back(std::move(arm));
    }
    outcome.dir = fs::path(session.arms.front().config.run.output_dir) / outcome.id;
    if (has_experiment(outcome.dir)) {
      return make_error(ErrorCode::invalid_argument,
                        "experiment " + outcome.id + " already exists in " + outcome.dir.string() +
                            "; continue it with --resume " + outcome.dir.string() +
                            " or choose another id");
    }
    PF_ASSIGN(auto tasks, agent::load_run_tasks(session.arms.front().config.run.tasks));
    for (const auto& t : tasks) task_ids.push_back(t.id);
    session.tasks = std::move(tasks);
    record.state["tasks"] = task_ids;
    PF_ASSIGN(auto store, ExperimentStore::open(outcome.dir));
    PF_TRY(store.save(record));
  } else {
    outcome.dir = request.resume_dir;
    PF_ASSIGN(record, load_record(outcome.dir));
    outcome.id = record.id;
    for (const auto& a : record.state.value("arms", nlohmann::json::array())) {
      auto config = config_from_json(a.value("config", nlohmann::json::object()));
      if (!config.ok()) return config.error().with_context("the stored configuration of an arm");
      ArmPlan arm;
      arm.name = a.value("name", "");
      arm.run_id = a.value("run_id", "");
      arm.config = std::move(config).value();
      arm.config_toml = record.spec_text;
      session.arms.push_back(std::move(arm));
    }
    for (const auto& t : record.state.value("tasks", nlohmann::json::array())) {
      task_ids.push_back(t.get<std::string>());
    }
    auto tasks = stored_tasks(outcome.dir, task_ids);
    if (!tasks.ok()) {
      // Stopped before the tasks were stored: load them as the arms name them.
      PF_ASSIGN(tasks, agent::load_run_tasks(session.arms.front().config.run.tasks));
    }
    session.tasks = std::move(tasks).value();
  }
  if (session.arms.size() < 2) {
    return make_error(ErrorCode::invalid_argument, "an A/B experiment needs two or more arms");
  }
  for (auto& arm : session.arms) arm.llm = request.llm_options(arm.config.endpoint);
  session.store_dir = outcome.dir;
  request.notice("experiment " + outcome.id + ": " + std::to_string(session.arms.size()) +
                 " arms x " + std::to_string(session.tasks.size()) + " tasks x " +
                 std::to_string(session.arms.front().config.run.samples_per_task) +
                 " samples, interleaved; store " + traj::store_path(outcome.dir).string());
  PF_ASSIGN(outcome.session, run_arm_session(session, cancel));
  PF_ASSIGN(outcome.report, report_ab(outcome.dir));
  return outcome;
}

Result<AbReport> report_ab(const fs::path& dir) {
  PF_ASSIGN(auto record, load_record(dir));
  PF_ASSIGN(auto reader, traj::TrajectoryReader::open(dir));
  return build_ab_report(reader, record.id, arm_refs(record));
}

}  // namespace pf::experiments
