// Loss-free JSON forms of the store's records: the `raw` export writes them
// and the *_from_json functions read them back (field names = column names).
#pragma once

#include "common/result.h"
#include "trajectories/records.h"

namespace pf::traj {

Json to_json(const RunRecord& r);
Json to_json(const TaskRecord& t);
Json to_json(const EpisodeRecord& e);
Json to_json(const MessageRecord& m);
Json to_json(const LlmCallRecord& c);
Json to_json(const EvaluationRecord& e);  // without the write-only workspace files

Result<RunRecord> run_from_json(const Json& j);
Result<TaskRecord> task_from_json(const Json& j);
Result<EpisodeRecord> episode_from_json(const Json& j);
Result<MessageRecord> message_from_json(const Json& j);
Result<LlmCallRecord> llm_call_from_json(const Json& j);
Result<EvaluationRecord> evaluation_from_json(const Json& j);

}  // namespace pf::traj
