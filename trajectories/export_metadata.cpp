#include <set>

#include "trajectories/export_record.h"
#include "trajectories/schema.h"

namespace pf::traj {
namespace {

Json opt(const std::optional<double>& v) {
  return v ? Json(*v) : Json(nullptr);
}

}  // namespace

Json export_metadata(const ExportItem& item) {
  const auto& c = *item.candidate;
  const auto& ep = c.episode;
  const auto* best = c.best_evaluation();
  std::set<std::string> episode_flags;
  for (const auto& e : c.evaluations) {
    if (!e.hack_flags.is_array()) continue;
    for (const auto& f : e.hack_flags) {
      if (f.is_string()) episode_flags.insert(f.get<std::string>());
    }
  }
  Json variants = Json::array(), hidden = Json::array();
  if (item.task->variants.is_array()) {
    for (const auto& v : item.task->variants) {
      if (!v.is_object()) continue;
      (field_or(v, "hidden", false) ? hidden : variants)
          .push_back(field_or(v, "name", std::string()));
    }
  }
  const auto& run = *item.run;
  Json m = {
      {"run", ep.run_id},
      {"task", ep.task_id},
      {"episode", ep.id},
      {"sample", ep.sample_index},
      {"prompt_variant", ep.prompt_variant},
      {"prompt_hash", ep.prompt_hash},
      {"model", ep.model},
      {"agent_mode", to_string(ep.agent_mode)},
      {"status", to_string(ep.status)},
      {"exit_reason", ep.exit_reason},
      {"turns", ep.turns},
      // One token count everywhere: the episode's prompt + completion tokens
      // over all its LLM calls, as `passforge stats` and the run table count
      // them; record_tokens is the exported conversation's length (--max-tokens).
      {"tokens", ep.prompt_tokens + ep.completion_tokens},
      {"record_tokens", c.tokens},
      {"evaluation", best ? Json(best->id) : Json(nullptr)},
      {"verified", c.verdict.verified()},
      {"rejection", c.verdict.verified() ? Json(nullptr) : Json(to_string(c.verdict.rejection))},
      {"as", opt(c.score)},
      {"correct_share", opt(c.verdict.correct_share)},
      {"best_as", opt(ep.best_as)},
      {"best_evaluation",
       ep.best_evaluation_id.empty() ? Json(nullptr) : Json(ep.best_evaluation_id)},
      {"es_curve", best ? best->es_curve : Json(nullptr)},
      {"correct_rate", best ? opt(best->correct_rate) : Json(nullptr)},
      {"geomean_speedup", best ? opt(best->geomean_speedup) : Json(nullptr)},
      {"hidden_as", best ? opt(best->hidden_as) : Json(nullptr)},
      {"flags", best ? best->hack_flags : Json::array()},
      {"unstable", best ? best->unstable : false},
      {"episode_flags", std::vector<std::string>(episode_flags.begin(), episode_flags.end())},
      {"provenance",
       {{"passforge_version", run.passforge_version},
        {"git_commit", run.git_commit},
        {"endpoint", run.endpoint_base_url},
        {"gpu", run.gpu_name},
        {"driver", run.driver_version},
        {"nvrtc", run.nvrtc_version},
        {"run_seed", run.seed},
        {"episode_seed", ep.seed},
        {"task_suite_id", run.task_suite_id},
        {"task_suite_hash", run.task_suite_hash},
        {"variants", variants},
        {"hidden_variants", hidden},
        {"store", item.source},
        {"schema_version", kSchemaVersion}}}};
  if (!c.split.empty()) m["split"] = c.split;
  return m;
}

}  // namespace pf::traj
