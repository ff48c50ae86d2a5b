// `passforge tasks check`: every variant parses, type-checks and runs on the
// CPU reference with synthesised inputs; outputs that are degenerate
// (constant, all zeros, non-finite) are reported: their correctness checks
// would prove nothing.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "evaluator/core/ir.h"
#include "evaluator/tasks/synthesis.h"
#include "evaluator/tasks/task.h"

namespace pf {

class OpRegistry;

struct OutputSummary {
  TensorType type;
  std::string checksum;  // sha256 prefix of the output's bytes
  bool degenerate = false;
  std::string degenerate_reason;  // "all zeros", "constant 1.0", "non-finite values"
};

struct VariantCheck {
  std::string task;
  std::string variant;
  bool hidden = false;
  bool ok = false;
  std::string error;
  std::vector<OutputSummary> outputs;
  double seconds = 0;
};

VariantCheck check_variant(const Task& task, const TaskVariant& variant,
                           const SynthesisOptions& options, const OpRegistry& registry);

nlohmann::json variant_check_to_json(const VariantCheck& c);

}  // namespace pf
