// The JSON of the runs and run pages (docs/serve.md "API") and the run's
// charts, read from one store through a read-only TrajectoryReader. Each call
// opens its own reader: the server's threads share nothing but the catalog.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "common/result.h"
#include "serve/run_catalog.h"

namespace pf::serve {

//! One line of the runs page: status, progress, headline metrics.
Result<nlohmann::json> run_summary_json(const RunEntry& entry);

//! The run page: the summary, `passforge stats --json`'s object, a row per
//! task (episodes, best/hidden AS, correctness, speedup, flags, exit reasons)
//! and a row per episode.
Result<nlohmann::json> run_detail_json(const RunEntry& entry);

//! "es_curve" (mean ES_t over tolerance levels) or "failures" (failure-class
//! histogram); not_found for another name.
Result<std::string> run_chart_svg(const RunEntry& entry, const std::string& chart);

}  // namespace pf::serve
