// The raw export: every stored fact of one episode, for analysis and for
// round-tripping (record_json's field names).
#include "trajectories/export_record.h"
#include "trajectories/record_json.h"
#include "trajectories/schema.h"

namespace pf::traj {

Json raw_record(const ExportItem& item, const std::vector<LlmCallRecord>& llm_calls,
                const Json& artifacts) {
  Json messages = Json::array(), calls = Json::array(), evals = Json::array();
  for (const auto& m : item.messages) messages.push_back(to_json(m));
  for (const auto& c : llm_calls) calls.push_back(to_json(c));
  for (const auto& e : item.candidate->evaluations) evals.push_back(to_json(e));
  return {{"format", "passforge-raw"},
          {"schema_version", kSchemaVersion},
          {"run", to_json(*item.run)},
          {"task", to_json(*item.task)},
          {"episode", to_json(item.candidate->episode)},
          {"messages", messages},
          {"llm_calls", calls},
          {"evaluations", evals},
          {"artifacts", artifacts},
          {"metadata", export_metadata(item)}};
}

}  // namespace pf::traj
