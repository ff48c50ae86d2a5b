#include "serve/experiment_view.h"

#include "experiments/ab_experiment.h"
#include "experiments/experiment_store.h"
#include "experiments/improve_loop.h"
#include "trajectories/export_selection.h"
#include "trajectories/exporter.h"

namespace pf::serve {
namespace {

using nlohmann::json;

Result<std::string> experiment_kind(const RunEntry& entry) {
  PF_ASSIGN(auto store, experiments::ExperimentStore::open_read_only(entry.dir));
  PF_ASSIGN(auto record, store.load());
  return record ? record->kind : std::string();
}

}  // namespace

Result<json> experiment_json(const RunEntry& entry) {
  PF_ASSIGN(auto kind, experiment_kind(entry));
  if (kind == "ab") {
    PF_ASSIGN(auto report, experiments::report_ab(entry.dir));
    return json{{"kind", kind}, {"report", report.to_json()}};
  }
  if (kind == "improve") {
    PF_ASSIGN(auto report, experiments::report_improve(entry.dir));
    return json{{"kind", kind}, {"report", report.to_json()}};
  }
  return json{{"kind", nullptr}, {"report", nullptr}};
}

Result<std::string> experiment_svg(const RunEntry& entry) {
  PF_ASSIGN(auto kind, experiment_kind(entry));
  if (kind == "ab") {
    PF_ASSIGN(auto report, experiments::report_ab(entry.dir));
    return report.svg();
  }
  if (kind == "improve") {
    PF_ASSIGN(auto report, experiments::report_improve(entry.dir));
    return report.svg();
  }
  return make_error(ErrorCode::not_found, entry.name + " holds no experiment");
}

Result<json> export_manifest_json(const RunEntry& entry) {
  traj::ExportOptions options;
  PF_ASSIGN(auto preview, traj::preview_export({entry.dir}, options));
  auto min_as = traj::effective_min_as(options);
  return json{{"format", traj::to_string(options.format)},
              {"min_as", min_as ? json(*min_as) : json()},
              {"episodes_read", preview.episodes_read},
              {"kept", preview.kept},
              {"excluded", preview.excluded}};
}

}  // namespace pf::serve
