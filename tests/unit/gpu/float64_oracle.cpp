#include "tests/unit/gpu/float64_oracle.h"

#include "evaluator/ops/cpu_executor.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/tasks/importer.h"

namespace pf::gpu::test {

Result<std::vector<Tensor>> float64_oracle(const TaskVariant& variant,
                                           const std::vector<Tensor>& inputs,
                                           const std::vector<Tensor>& like) {
  TaskVariant wide = variant;
  std::vector<Tensor> wide_inputs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const bool floating = is_floating(inputs[i].dtype());
    if (i < wide.inputs.size() && floating) wide.inputs[i].dtype = DType::float64;
    wide_inputs.push_back(floating ? inputs[i].to_dtype(DType::float64) : inputs[i]);
  }
  const OpRegistry& reg = OpRegistry::builtin();
  PF_ASSIGN(Graph graph, typed_variant_graph(wide, reg));
  PF_ASSIGN(std::vector<Tensor> outs, run_graph_cpu(graph, wide_inputs, reg));
  if (outs.size() != like.size()) {
    return make_error(ErrorCode::internal, "the float64 graph has a different number of outputs");
  }
  for (size_t k = 0; k < outs.size(); ++k) {
    if (outs[k].dtype() != like[k].dtype()) outs[k] = outs[k].to_dtype(like[k].dtype());
  }
  return outs;
}

std::string compare_outputs(GraphRun& run, const TaskVariant& variant,
                            const std::vector<Tensor>& inputs) {
  std::string diff = compare_outputs(run);
  if (diff.empty()) return diff;
  auto oracle = float64_oracle(variant, inputs, run.cpu);
  if (!oracle.ok()) return diff + "(no float64 result: " + oracle.error().message + ")\n";
  run.oracle = std::move(*oracle);
  return compare_outputs(run);
}

}  // namespace pf::gpu::test
