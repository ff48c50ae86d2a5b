#include "evaluator/tasks/task_check.h"

#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>

#include "common/sha256.h"
#include "common/strings.h"
#include "evaluator/ops/cpu_executor.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/tasks/importer.h"

namespace pf {
namespace {

OutputSummary summarize(const Tensor& t) {
  OutputSummary s;
  s.type = {t.dtype(), t.shape()};
  Tensor c = t.contiguous_copy();
  s.checksum = sha256_hex(std::string_view(reinterpret_cast<const char*>(c.data()), c.nbytes()))
                   .substr(0, 16);
  std::vector<double> v = c.to_doubles();
  if (v.empty()) return s;
  bool all_finite = true, constant = true;
  for (double x : v) {
    if (!std::isfinite(x)) all_finite = false;
    if (x != v[0]) constant = false;
  }
  if (!all_finite && is_floating(t.dtype())) {
    s.degenerate = true;
    s.degenerate_reason = "non-finite values";
  } else if (constant && v.size() > 1) {
    s.degenerate = true;
    s.degenerate_reason = v[0] == 0 ? "all zeros" : "constant " + format_double(v[0]);
  }
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
    auto outputs = run_graph_cpu(*graph, synthesize_inputs(variant, options), registry);
    if (!outputs.ok()) {
      c.error = outputs.error().message;
    } else {
      c.ok = true;
      for (const auto& t : *outputs) c.outputs.push_back(summarize(t));
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
  nlohmann::json j = {{"task", c.task},   {"variant", c.variant}, {"hidden", c.hidden},
                      {"ok", c.ok},       {"outputs", outs},      {"seconds", c.seconds}};
  if (!c.ok) j["error"] = c.error;
  return j;
}

}  // namespace pf
