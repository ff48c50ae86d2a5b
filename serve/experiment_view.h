// The JSON of the experiments page (docs/serve.md "API"): a store's A/B test
// (arms, paired differences with CIs, verdict) or improvement loop (per-round
// metrics) as `passforge ab|improve --report-only --json` prints it, its chart,
// and the export manifest: which episodes `passforge export` would write with
// its default options, and how many each filter drops.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "common/result.h"
#include "serve/run_catalog.h"

namespace pf::serve {

//! {"kind": "ab"|"improve"|null, "report": ...}; kind null for a plain run.
Result<nlohmann::json> experiment_json(const RunEntry& entry);

//! The experiment's chart (forest plot, per-round panels); not_found without one.
Result<std::string> experiment_svg(const RunEntry& entry);

//! {"format", "min_as", "episodes_read", "kept": [ids], "excluded": {filter: n}}.
Result<nlohmann::json> export_manifest_json(const RunEntry& entry);

}  // namespace pf::serve
