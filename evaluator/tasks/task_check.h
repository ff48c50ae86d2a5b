// `passforge tasks check`: every variant parses, type-checks and runs on the
// CPU reference with synthesised inputs drawn by the informative-inputs rule
// (informative_inputs.h: degenerate outputs are drawn again); a variant
// whose outputs stay degenerate (constant, all zeros, non-finite, discrete
// elements at a threshold) after every attempt is reported `degenerate`:
// its correctness checks would prove nothing, and the check fails.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

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
  int draw_attempt = 0;     // the rule's attempt whose inputs were used
  std::string redrawn;      // why earlier attempts were rejected ("" when none was)
  bool degenerate = false;  // no attempt carried information
  double seconds = 0;
};

VariantCheck check_variant(const Task& task, const TaskVariant& variant,
                           const SynthesisOptions& options, const OpRegistry& registry);

nlohmann::json variant_check_to_json(const VariantCheck& c);

}  // namespace pf
