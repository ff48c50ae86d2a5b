// Runs one op (looked up by a spelling such as "Tensor.view") on host tensors
// through the real pipeline: OpRegistry::resolve + normalize, infer_types,
// then the op's CPU reference. For direct unit tests of op families.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"
#include "evaluator/core/ir.h"
#include "evaluator/core/tensor.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/type_inference.h"

namespace pf::testing_ops {

struct OpRun {
  std::vector<TensorType> types;  // inferred
  std::vector<Tensor> outputs;    // CPU reference
};

//! Inputs become graph values 0..n-1, so Arg::make_value(i) refers to inputs[i].
inline Result<OpRun> run_op(const std::string& spelling, const std::vector<Tensor>& inputs,
                            std::vector<Arg> positional,
                            std::vector<std::pair<std::string, Arg>> keywords = {}) {
  const OpRegistry& reg = OpRegistry::builtin();
  const OpInfo* found = reg.find_alias(spelling);
  if (!found) return make_error(ErrorCode::not_found, "no op spelled " + spelling);
  const OpInfo& op = reg.resolve(*found, spelling, positional, keywords);
  PF_ASSIGN(std::vector<Arg> args, reg.normalize(op, std::move(positional), std::move(keywords)));
  Graph g;
  g.name = "test";
  std::vector<TensorType> types;
  for (size_t i = 0; i < inputs.size(); ++i) {
    g.inputs.push_back(g.add_value("in_" + std::to_string(i), false, -1));
    types.push_back({inputs[i].dtype(), inputs[i].shape()});
  }
  Node node;
  node.op = op.name;
  node.args = std::move(args);
  node.output = g.add_value("out", op.returns_list, 0);
  g.nodes.push_back(node);
  g.outputs.push_back(node.output);
  PF_TRY(infer_types(g, types, reg));
  std::vector<std::vector<Tensor>> env(g.values.size());
  for (size_t i = 0; i < inputs.size(); ++i) env[g.inputs[i]] = {inputs[i]};
  BoundArgs<Tensor> bound(g.nodes[0], reg.param_names(op.name), env);
  OpRun run;
  run.types = g.values[node.output].types;
  PF_ASSIGN(run.outputs, op.cpu(bound, run.types));
  return run;
}

//! A float32 tensor holding 0, 1, 2, ... (row-major).
inline Tensor iota(const Shape& shape, DType dtype = DType::float32) {
  std::vector<double> v(static_cast<size_t>(shape_numel(shape)));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i);
  return Tensor::from_doubles(dtype, shape, v);
}

inline Arg ints(std::vector<int64_t> v) {
  std::vector<Arg> items;
  for (int64_t x : v) items.push_back(Arg::make_int(x));
  return Arg::make_tuple(std::move(items));
}

inline Arg slice(std::optional<int64_t> start, std::optional<int64_t> stop,
                 std::optional<int64_t> step = std::nullopt) {
  auto part = [](std::optional<int64_t> v) { return v ? Arg::make_int(*v) : Arg::make_none(); };
  return Arg::make_slice(part(start), part(stop), part(step));
}

}  // namespace pf::testing_ops
