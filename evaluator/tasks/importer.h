// Imports PassBench task directories (graph_list.txt + graphs/<variant>/
// {model.py, weight_meta.py, graph_net.json}) and GraphNet sample directories
// (model.py + weight_meta.py) into native tasks (docs/tasks.md).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "evaluator/core/ir.h"
#include "evaluator/tasks/task.h"

namespace pf {

class OpRegistry;

struct ImportOptions {
  //! Adds, for every variant whose floating inputs are all float32, a copy
  //! with those inputs in each of these dtypes (name suffix ".float16", ...).
  std::vector<DType> extra_float_dtypes;
  //! Share of each task's variants marked hidden, chosen deterministically by
  //! a hash of (task id, variant name); at least one variant stays visible.
  double hidden_share = 0;
  std::string source_label;  // recorded as Task::source
  std::string license;       // recorded as Task::license
};

//! The outcome for one task directory: imported (maybe with skipped
//! variants) or the exact reason it was not.
struct TaskImport {
  std::filesystem::path dir;
  std::optional<Task> task;
  std::string error;                  // set when task is empty
  std::vector<std::string> warnings;  // skipped variants and why
};

//! `root` may be one task directory, a GraphNet sample directory, or a
//! directory holding such directories (searched recursively, sorted).
Result<std::vector<TaskImport>> import_tasks(const std::filesystem::path& root,
                                             const ImportOptions& options,
                                             const OpRegistry& registry);

//! Builds, type-checks and prints one variant from its files' contents.
Result<TaskVariant> import_variant(const std::string& name, std::string_view model_py,
                                   const std::string& model_file, std::string_view weight_meta_py,
                                   const std::string& meta_file, const OpRegistry& registry);

//! Parses a variant's source and infers its types from its input metadata.
Result<Graph> typed_variant_graph(const TaskVariant& variant, const OpRegistry& registry);

}  // namespace pf
