// The native task format (docs/tasks.md): one JSON file per task holding every
// variant's graph source (graph dialect) and input metadata.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "common/result.h"
#include "evaluator/core/dtype.h"
#include "evaluator/core/shape.h"

namespace pf {

inline constexpr const char* kTaskFormat = "passforge-task/1";

//! What GraphNet's weight_meta.py records about one input: the facts input
//! synthesis needs (docs/design.md "Evaluation protocol" 3).
struct InputMeta {
  std::string name;
  DType dtype = DType::float32;
  Shape shape;
  std::optional<double> mean;
  std::optional<double> std;
  std::optional<double> min_val;
  std::optional<double> max_val;
  std::optional<std::vector<double>> data;  // literal values, row-major
  std::string original_name;                // name in the source model, if different
};

struct TaskVariant {
  std::string name;    // the source graph directory's name
  bool hidden = false; // evaluated, never shown to the model
  std::string source;  // graph dialect: `def forward(...)` with a `return`
  std::vector<InputMeta> inputs;
  std::string provenance;  // source model / original path
};

struct Task {
  std::string id;                        // the task directory's name
  std::vector<std::string> op_sequence;  // canonical ops in program order
  std::string description;
  std::string source;    // where it was imported from ("graphnet-slices", ...)
  std::string license;   // licence of the source data
  std::vector<std::string> models;  // source models
  std::vector<TaskVariant> variants;

  std::vector<const TaskVariant*> visible_variants() const;
};

nlohmann::json task_to_json(const Task& task);
//! Everything that defines one variant, as bytes (for content keys): its
//! task JSON, then its literal data's exact bytes, so that a key never
//! depends on how JSON spells inf and nan.
std::string variant_content(const TaskVariant& variant);
//! Errors name the file and the JSON path of the offending field.
Result<Task> task_from_json(const nlohmann::json& j, const std::string& origin);

Result<Task> load_task_file(const std::filesystem::path& path);
Status save_task_file(const Task& task, const std::filesystem::path& path);

}  // namespace pf
