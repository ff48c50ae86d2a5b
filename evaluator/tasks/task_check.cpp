#include "evaluator/tasks/task_check.h"

#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>

#include "common/sha256.h"
#include "common/strings.h"
#include "evaluator/ops/cpu_executor.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/tasks/importer.h"
#include "evaluator/tasks/informative_inputs.h"

namespace pf {
namespace {

OutputSummary summarize(const Tensor& t) {
  OutputSummary s;
  s.type = {t.dtype(), t.shape()};
  Tensor c = t.contiguous_copy();
  s.checksum = sha256_hex(std::string_view(reinterpret_cast<const char*>(c.data()), c.nbytes()))
                   .substr(0, 16);
  s.degenerate_reason = degenerate_reason(c);
  s.degenerate = !s.degenerate_reason.empty();
  return s;
}

}  // namespace

VariantCheck check_variant(const Task& task, const TaskVariant& variant,
                           const SynthesisOptions& options, const OpRegistry& registry) {
  auto start = std::chrono::steady_clock::now();
  VariantCheck c;
  c.task = task.id;
  c.variant = variant.name;
  c.hidden = variant.hidden;
  auto graph = typed_variant_graph(variant, registry);
  if (!graph.ok()) {
    c.error = graph.error().message;
  } else {
    OutputRunner run = [&](const std::vector<Tensor>& inputs) {
      return run_graph_cpu(*graph, inputs, registry);
    };
    auto draw = draw_informative_inputs(variant, options, run);
    if (!draw.ok()) {
      c.error = draw.error().message;
    } else {
      c.ok = true;
      c.draw_attempt = draw->attempt;
      c.redrawn = draw->summary();
      c.degenerate = !draw->informative;
      for (const auto& t : draw->outputs) c.outputs.push_back(summarize(t));
    }
  }
  c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return c;
}

nlohmann::json variant_check_to_json(const VariantCheck& c) {
  nlohmann::json outs = nlohmann::json::array();
  for (const auto& o : c.outputs) {
    nlohmann::json j = {{"type", tensor_type_str(o.type)}, {"checksum", o.checksum}};
    if (o.degenerate) j["degenerate"] = o.degenerate_reason;
    outs.push_back(j);
  }
  nlohmann::json j = {{"task", c.task}, {"variant", c.variant}, {"hidden", c.hidden},
                      {"ok", c.ok},     {"outputs", outs},      {"seconds", c.seconds}};
  if (!c.ok) j["error"] = c.error;
  j["draw_attempt"] = c.draw_attempt;
  if (!c.redrawn.empty()) j["redrawn"] = c.redrawn;
  j["degenerate"] = c.degenerate;
  return j;
}

}  // namespace pf
