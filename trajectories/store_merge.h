// `passforge merge`: combines stores (shards of a run, or several runs) into
// one without loss or duplicates. Rows are identified by their stable ids, so
// merging the same input twice changes nothing; an episode present in both
// keeps the copy with more committed turns (or the finished one). Refuses
// before writing anything: stores newer than this binary, runs from
// different task suites, a task defined differently, or two copies of an
// episode whose histories diverge. Tables outside the trajectory schema
// (e.g. experiments' pf_experiment, pf_exemplars) are carried as they are:
// rows the output lacks are added; a differing definition, or a row whose
// key the output holds with other values, is refused. Runs whose evaluations
// were timed differently ([evaluator] graph_replay; runs from before it
// launched step by step) are merged with a note: their speedups are not
// comparable.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "common/result.h"

namespace pf::traj {

struct MergeSummary {
  std::map<std::string, int64_t> inserted;  // table -> new rows
  int64_t episodes_updated = 0;             // further along in an input
  int64_t runs_updated = 0;
  std::vector<std::string> notes;
  std::string to_text() const;
};

Result<MergeSummary> merge_stores(const std::vector<std::filesystem::path>& inputs,
                                  const std::filesystem::path& out);

}  // namespace pf::traj
