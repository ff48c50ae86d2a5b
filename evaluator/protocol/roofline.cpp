#include "evaluator/protocol/roofline.h"

#include <algorithm>
#include <set>
#include <string>

namespace pf::protocol {
namespace {

// Ops that may read only part of a tensor operand (by index, by window or
// not at all): their operands count nothing.
const std::set<std::string, std::less<>>& partial_readers() {
  static const std::set<std::string, std::less<>> ops = {
      "embedding",   "gather",     "index_select", "getitem",    "scatter",    "scatter_add",
      "max_pool1d",  "max_pool2d", "max_pool3d",   "avg_pool1d", "avg_pool2d", "avg_pool3d",
      "interpolate", "empty_like", "zeros_like",   "ones_like",  "full_like",  "new_empty",
      "new_full",    "new_ones",   "new_zeros",    "pad"};
  return ops;
}

// Ops whose output may be the operand itself (PyTorch returns the input for
// `to` without a dtype change, `contiguous` of a contiguous tensor, reshape
// of a viewable one): they read what their users read.
const std::set<std::string, std::less<>>& pass_through() {
  static const std::set<std::string, std::less<>> ops = {
      "reshape", "reshape_as", "flatten",  "unflatten", "contiguous", "to",      "type_as",
      "float",   "half",       "bfloat16", "double",    "int",        "long",    "bool",
      "byte",    "char",       "short",    "view",      "view_as",    "permute", "transpose",
      "t",       "movedim",    "squeeze",  "unsqueeze", "detach",     "dropout"};
  return ops;
}

int64_t numel_of(const Value& v) {
  if (v.is_list || v.types.size() != 1) return 0;
  return shape_numel(v.types[0].shape);
}

class NeededElements {
 public:
  NeededElements(const Graph& g, const OpRegistry& r) : g_(g), r_(r) {}

  // Elements of `value` that some op must read; 0 when unknown.
  int64_t of(ValueId value, int depth = 0) {
    const Value& v = g_.values[value];
    const int64_t total = numel_of(v);
    if (total == 0 || depth > 64) return 0;
    int64_t best = 0;
    for (int n : g_.users(value)) {
      const Node& node = g_.nodes[n];
      const OpInfo* info = r_.find(node.op);
      int64_t part = 0;
      if (partial_readers().count(node.op) != 0 || node.op.rfind("pass.", 0) == 0) {
        part = 0;
      } else if (pass_through().count(node.op) != 0 || (info != nullptr && info->is_view)) {
        part = std::min(total, of(node.output, depth + 1));
      } else {
        part = total;
      }
      best = std::max(best, part);
    }
    return best;
  }

 private:
  const Graph& g_;
  const OpRegistry& r_;
};

const TensorType* tensor_arg(const Graph& g, const Node& n, size_t i) {
  if (i >= n.args.size() || !n.args[i].is_value()) return nullptr;
  const Value& v = g.values[n.args[i].value];
  return v.types.size() == 1 && !v.is_list ? &v.types[0] : nullptr;
}

double node_flops(const Graph& g, const Node& n) {
  const Value& out = g.values[n.output];
  if (out.types.size() != 1) return 0;
  const double out_numel = static_cast<double>(shape_numel(out.types[0].shape));
  size_t k_arg = 0;
  bool conv = false;
  if (n.op == "mm" || n.op == "bmm" || n.op == "matmul" || n.op == "linear") {
    k_arg = 0;
  } else if (n.op == "addmm" || n.op == "baddbmm") {
    k_arg = 1;
  } else if (n.op == "conv1d" || n.op == "conv2d" || n.op == "conv3d") {
    k_arg = 1;
    conv = true;
  } else {
    return 0;
  }
  const TensorType* t = tensor_arg(g, n, k_arg);
  if (t == nullptr || t->shape.empty()) return 0;
  double k = 0;
  if (conv) {
    if (t->shape[0] <= 0) return 0;
    k = static_cast<double>(shape_numel(t->shape)) / static_cast<double>(t->shape[0]);
  } else {
    k = static_cast<double>(t->shape.size() == 1 ? t->shape[0] : t->shape.back());
  }
  return 2.0 * out_numel * k;
}

}  // namespace

DevicePeaks device_peaks(int sm_count, int clock_khz, double peak_memory_bandwidth) {
  // 4096 flops per SM per clock is Hopper's dense 16-bit tensor-core rate;
  // doubled for sparsity it bounds every dtype from above.
  constexpr double kFlopsPerSmClock = 4096.0 * 2.0;
  DevicePeaks p;
  p.memory_bytes_per_s = peak_memory_bandwidth;
  p.flops_per_s = static_cast<double>(sm_count) * clock_khz * 1e3 * kFlopsPerSmClock;
  return p;
}

RooflineFloor roofline_floor(const Graph& graph, const OpRegistry& registry,
                             const DevicePeaks& peaks) {
  RooflineFloor f;
  NeededElements needed(graph, registry);
  for (ValueId in : graph.inputs) {
    const Value& v = graph.values[in];
    if (v.types.size() != 1) continue;
    f.bytes += needed.of(in) * static_cast<int64_t>(dtype_size(v.types[0].dtype));
  }
  std::set<ValueId> counted;
  for (ValueId out : graph.outputs) {
    const Value& v = graph.values[out];
    if (v.producer < 0 || v.types.size() != 1 || v.is_list || !counted.insert(out).second) continue;
    const Node& n = graph.nodes[v.producer];
    const OpInfo* info = registry.find(n.op);
    // A view or pass-through may alias an input, and a partial reader
    // (getitem's basic slicing) may be a view too: no write counts.
    if (pass_through().count(n.op) != 0 || partial_readers().count(n.op) != 0 ||
        (info != nullptr && info->is_view)) {
      continue;
    }
    f.write_bytes +=
        shape_numel(v.types[0].shape) * static_cast<int64_t>(dtype_size(v.types[0].dtype));
  }
  f.write_bytes = std::max<int64_t>(0, f.write_bytes - peaks.l2_bytes);
  for (const Node& n : graph.nodes) f.flops += node_flops(graph, n);
  if (peaks.memory_bytes_per_s > 0) {
    f.memory_floor_ms =
        static_cast<double>(f.bytes + f.write_bytes) / peaks.memory_bytes_per_s * 1e3;
  }
  if (peaks.flops_per_s > 0) f.compute_floor_ms = f.flops / peaks.flops_per_s * 1e3;
  return f;
}

nlohmann::json RooflineFloor::to_json() const {
  return {{"bytes", bytes},
          {"write_bytes", write_bytes},
          {"flops", flops},
          {"memory_floor_us", memory_floor_ms * 1e3},
          {"compute_floor_us", compute_floor_ms * 1e3}};
}

}  // namespace pf::protocol
