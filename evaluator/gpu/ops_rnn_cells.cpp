// lstm_cell, gru_cell, rnn_tanh_cell and rnn_relu_cell composed of GPU ops
// already verified on the device: two linears (input and hidden gates, as
// PyTorch's cell), narrow views of the gate blocks, sigmoid/tanh/relu and
// elementwise arithmetic in PyTorch's order (GRU: n + z * (h - n)). Half
// operands compute in float32 and round once, as the CPU reference
// (ops/rnn_cells.cpp, which also checked the shapes at type inference).
#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/gpu_op_call.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/op_support.h"

namespace pf::gpu {
namespace {

using Outputs = Result<std::vector<DeviceTensor>>;

enum class Cell : uint8_t { lstm, gru, rnn_tanh, rnn_relu };

constexpr size_t kInput = 0, kHx = 1, kWih = 2, kWhh = 3, kBih = 4, kBhh = 5;

// v @ w.T (+ bias) in `compute`.
Result<DeviceTensor> gates(PlanBuilder& b, const GpuArgs& a, const DeviceTensor& v, size_t w,
                           size_t bias, DType compute) {
  PF_ASSIGN(DeviceTensor vc, as_dtype(b, v, compute));
  PF_ASSIGN(DeviceTensor wc, as_dtype(b, a.tensor(w), compute));
  if (a.is_none(bias)) return call_gpu_op1(b, "linear", {vc, wc});
  PF_ASSIGN(DeviceTensor bc, as_dtype(b, a.tensor(bias), compute));
  return call_gpu_op1(b, "linear", {vc, wc, bc});
}

// Gate block k of hidden columns.
Result<DeviceTensor> block(PlanBuilder& b, const DeviceTensor& g, int64_t k, int64_t hidden) {
  return call_gpu_op1(b, "narrow",
                      {g, Arg::make_int(1), Arg::make_int(k * hidden), Arg::make_int(hidden)});
}

// act(block k of gi + block k of gh).
Result<DeviceTensor> gate(PlanBuilder& b, const std::string& act, const DeviceTensor& gi,
                          const DeviceTensor& gh, int64_t k, int64_t hidden) {
  PF_ASSIGN(DeviceTensor i, block(b, gi, k, hidden));
  PF_ASSIGN(DeviceTensor h, block(b, gh, k, hidden));
  PF_ASSIGN(DeviceTensor sum, call_gpu_op1(b, "add", {i, h}));
  return call_gpu_op1(b, act, {sum});
}

GpuOpFn cell_fn(Cell cell) {
  return [cell](const GpuArgs& a, const std::vector<TensorType>& out, PlanBuilder& b) -> Outputs {
    const DType t = out[0].dtype;
    const DType compute = composite_compute_dtype(t);
    const int64_t hidden = out[0].shape[1];
    std::vector<DeviceTensor> hs;
    if (cell == Cell::lstm) {
      for (const DeviceTensor* h : a.tensors(kHx)) hs.push_back(*h);
    } else {
      hs.push_back(a.tensor(kHx));
    }
    PF_ASSIGN(DeviceTensor h, as_dtype(b, hs[0], compute));
    PF_ASSIGN(DeviceTensor gi, gates(b, a, a.tensor(kInput), kWih, kBih, compute));
    PF_ASSIGN(DeviceTensor gh, gates(b, a, h, kWhh, kBhh, compute));
    std::vector<DeviceTensor> results;
    switch (cell) {
      case Cell::lstm: {
        PF_ASSIGN(DeviceTensor c, as_dtype(b, hs[1], compute));
        PF_ASSIGN(DeviceTensor ig, gate(b, "sigmoid", gi, gh, 0, hidden));
        PF_ASSIGN(DeviceTensor fg, gate(b, "sigmoid", gi, gh, 1, hidden));
        PF_ASSIGN(DeviceTensor gg, gate(b, "tanh", gi, gh, 2, hidden));
        PF_ASSIGN(DeviceTensor og, gate(b, "sigmoid", gi, gh, 3, hidden));
        PF_ASSIGN(DeviceTensor kept, call_gpu_op1(b, "mul", {fg, c}));
        PF_ASSIGN(DeviceTensor fresh, call_gpu_op1(b, "mul", {ig, gg}));
        PF_ASSIGN(DeviceTensor cy, call_gpu_op1(b, "add", {kept, fresh}));
        PF_ASSIGN(DeviceTensor squashed, call_gpu_op1(b, "tanh", {cy}));
        PF_ASSIGN(DeviceTensor hy, call_gpu_op1(b, "mul", {og, squashed}));
        results = {hy, cy};
        break;
      }
      case Cell::gru: {
        PF_ASSIGN(DeviceTensor rg, gate(b, "sigmoid", gi, gh, 0, hidden));
        PF_ASSIGN(DeviceTensor zg, gate(b, "sigmoid", gi, gh, 1, hidden));
        PF_ASSIGN(DeviceTensor in, block(b, gi, 2, hidden));
        PF_ASSIGN(DeviceTensor hn, block(b, gh, 2, hidden));
        PF_ASSIGN(DeviceTensor reset, call_gpu_op1(b, "mul", {rg, hn}));
        PF_ASSIGN(DeviceTensor pre, call_gpu_op1(b, "add", {in, reset}));
        PF_ASSIGN(DeviceTensor ng, call_gpu_op1(b, "tanh", {pre}));
        PF_ASSIGN(DeviceTensor step, call_gpu_op1(b, "sub", {h, ng}));
        PF_ASSIGN(DeviceTensor moved, call_gpu_op1(b, "mul", {zg, step}));
        PF_ASSIGN(DeviceTensor hy, call_gpu_op1(b, "add", {ng, moved}));
        results = {hy};
        break;
      }
      case Cell::rnn_tanh:
      case Cell::rnn_relu: {
        PF_ASSIGN(DeviceTensor hy,
                  gate(b, cell == Cell::rnn_tanh ? "tanh" : "relu", gi, gh, 0, hidden));
        results = {hy};
        break;
      }
    }
    // Fresh results of the ops above, so as_dtype's no-op never aliases an input.
    for (DeviceTensor& r : results) {
      PF_ASSIGN(r, as_dtype(b, r, t));
    }
    return results;
  };
}

}  // namespace

void register_gpu_rnn_cell_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"lstm_cell", cell_fn(Cell::lstm), float_dtypes()});
  r.add(GpuOpInfo{"gru_cell", cell_fn(Cell::gru), float_dtypes()});
  r.add(GpuOpInfo{"rnn_tanh_cell", cell_fn(Cell::rnn_tanh), float_dtypes()});
  r.add(GpuOpInfo{"rnn_relu_cell", cell_fn(Cell::rnn_relu), float_dtypes()});
}

}  // namespace pf::gpu
