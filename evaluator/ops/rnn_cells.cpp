// One step of PyTorch's recurrent cells, as torch.lstm_cell / gru_cell /
// rnn_tanh_cell / rnn_relu_cell (and torch._VF's spellings, which dynamo
// writes for nn.LSTMCell and friends): input (batch, in), hx (batch, hidden)
// (lstm: a tuple (h, c)), w_ih (gates * hidden, in), w_hh (gates * hidden,
// hidden), optional biases. The reference computes every gate in double and
// rounds the outputs once; the GPU baseline composes linear and elementwise
// ops in float32 (gpu/ops_rnn_cells.cpp).
#include <algorithm>
#include <cmath>

#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"

namespace pf {
namespace {

enum class Cell : uint8_t { lstm, gru, rnn_tanh, rnn_relu };

int64_t gate_count(Cell c) {
  switch (c) {
    case Cell::lstm:
      return 4;
    case Cell::gru:
      return 3;
    default:
      return 1;
  }
}

constexpr size_t kInput = 0, kHx = 1, kWih = 2, kWhh = 3, kBih = 4, kBhh = 5;

// The states hx names: lstm (h, c), the others h.
template <typename T>
std::vector<const T*> states(const BoundArgs<T>& a, Cell cell) {
  if (cell == Cell::lstm) return a.tensors(kHx);
  return {&a.tensor(kHx)};
}

// PyTorch's check_rnn_cell_forward_input / _hidden and the weight shapes
// its gates imply; every operand in the input's floating dtype.
Result<std::vector<TensorType>> infer_cell(const BoundArgs<TensorType>& a, Cell cell,
                                           const std::string& name) {
  const TensorType& x = a.tensor(kInput);
  if (!is_floating(x.dtype)) {
    return a.error(kInput, name + " needs a floating input, got " + dtype_name(x.dtype));
  }
  if (x.shape.size() != 2) {
    return a.error(kInput,
                   name + " needs a 2-d input (batch, input_size), got " + shape_str(x.shape));
  }
  const std::vector<const TensorType*> hs = states(a, cell);
  if (hs.size() != (cell == Cell::lstm ? 2U : 1U)) {
    return a.error(kHx, name + ": hx must be a tuple of (h, c)");
  }
  const TensorType& w_hh = a.tensor(kWhh);
  const TensorType& w_ih = a.tensor(kWih);
  if (w_hh.shape.size() != 2 || w_ih.shape.size() != 2) {
    return a.error(kWih, name + ": the weights must be 2-d");
  }
  const int64_t hidden = w_hh.shape[1];
  const int64_t rows = gate_count(cell) * hidden;
  const Shape state = {x.shape[0], hidden};
  if (w_ih.shape != Shape{rows, x.shape[1]} || w_hh.shape != Shape{rows, hidden}) {
    return a.error(kWih, name + ": weights " + shape_str(w_ih.shape) + " and " +
                             shape_str(w_hh.shape) + " do not fit input " + shape_str(x.shape) +
                             " and " + std::to_string(gate_count(cell)) + " gates of " +
                             std::to_string(hidden));
  }
  for (const TensorType* h : hs) {
    if (h->shape != state) {
      return a.error(kHx, name + ": hidden state " + shape_str(h->shape) + " does not match " +
                              shape_str(state));
    }
  }
  std::vector<const TensorType*> all = hs;
  all.push_back(&w_ih);
  all.push_back(&w_hh);
  for (size_t i : {kBih, kBhh}) {
    const TensorType* bias = a.optional_tensor(i);
    if (bias == nullptr) continue;
    if (bias->shape != Shape{rows}) {
      return a.error(i, name + ": bias " + shape_str(bias->shape) + " is not of " +
                            std::to_string(rows) + " values");
    }
    all.push_back(bias);
  }
  for (const TensorType* t : all) {
    if (t->dtype != x.dtype) {
      return a.error(kInput, name + ": every operand must be " + dtype_name(x.dtype) + ", got " +
                                 dtype_name(t->dtype));
    }
  }
  std::vector<TensorType> out{{x.dtype, state}};
  if (cell == Cell::lstm) out.push_back({x.dtype, state});
  return out;
}

// w (rows, k) times row `r` of v (batch, k) plus bias: every gate row.
std::vector<double> affine(const Tensor& v, int64_t r, const Tensor& w, const Tensor* bias) {
  const int64_t rows = w.shape()[0], k = w.shape()[1];
  std::vector<double> y(static_cast<size_t>(rows));
  for (int64_t o = 0; o < rows; ++o) {
    double s = bias != nullptr ? bias->get(o) : 0.0;
    for (int64_t j = 0; j < k; ++j) s += w.get(o * k + j) * v.get(r * k + j);
    y[static_cast<size_t>(o)] = s;
  }
  return y;
}

double logistic(double v) {
  return 1.0 / (1.0 + std::exp(-v));
}

OpInfo cell_op(const std::string& name, Cell cell) {
  OpInfo op;
  op.name = name;
  op.aliases = {"torch." + name, "torch._VF." + name};
  op.params = {tensor_param("input"),
               param("hx", cell == Cell::lstm ? ParamKind::tensor_list : ParamKind::tensor),
               tensor_param("w_ih"),
               tensor_param("w_hh"),
               param("b_ih", ParamKind::optional_tensor, Arg::make_none()),
               param("b_hh", ParamKind::optional_tensor, Arg::make_none())};
  op.returns_list = cell == Cell::lstm;
  op.infer = [cell, name](const BoundArgs<TensorType>& a) { return infer_cell(a, cell, name); };
  op.cpu = [cell](const BoundArgs<Tensor>& a,
                  const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(kInput);
    const std::vector<const Tensor*> hs = states(a, cell);
    const Tensor& h = *hs[0];
    const Tensor& w_ih = a.tensor(kWih);
    const Tensor& w_hh = a.tensor(kWhh);
    const Tensor* b_ih = a.optional_tensor(kBih);
    const Tensor* b_hh = a.optional_tensor(kBhh);
    const int64_t batch = out[0].shape[0], hidden = out[0].shape[1];
    Tensor hy = Tensor::zeros(out[0].dtype, out[0].shape);
    Tensor cy = Tensor::zeros(out[0].dtype, out[0].shape);
    for (int64_t r = 0; r < batch; ++r) {
      const std::vector<double> gi = affine(x, r, w_ih, b_ih);
      const std::vector<double> gh = affine(h, r, w_hh, b_hh);
      for (int64_t j = 0; j < hidden; ++j) {
        const auto at = [&](const std::vector<double>& g, int64_t gate) {
          return g[static_cast<size_t>(gate * hidden + j)];
        };
        const int64_t e = r * hidden + j;
        const double hp = h.get(e);
        switch (cell) {
          case Cell::lstm: {
            const double ig = logistic(at(gi, 0) + at(gh, 0));
            const double fg = logistic(at(gi, 1) + at(gh, 1));
            const double gg = std::tanh(at(gi, 2) + at(gh, 2));
            const double og = logistic(at(gi, 3) + at(gh, 3));
            const double c = fg * hs[1]->get(e) + ig * gg;
            cy.set(e, c);
            hy.set(e, og * std::tanh(c));
            break;
          }
          case Cell::gru: {
            const double rg = logistic(at(gi, 0) + at(gh, 0));
            const double zg = logistic(at(gi, 1) + at(gh, 1));
            const double ng = std::tanh(at(gi, 2) + rg * at(gh, 2));
            hy.set(e, ng + zg * (hp - ng));
            break;
          }
          case Cell::rnn_tanh:
            hy.set(e, std::tanh(at(gi, 0) + at(gh, 0)));
            break;
          case Cell::rnn_relu:
            hy.set(e, std::max(at(gi, 0) + at(gh, 0), 0.0));
            break;
        }
      }
    }
    if (cell == Cell::lstm) return std::vector<Tensor>{hy, cy};
    return std::vector<Tensor>{hy};
  };
  op.doc = cell == Cell::lstm  ? "one LSTM step: (h', c')"
           : cell == Cell::gru ? "one GRU step: h'"
                               : "one Elman RNN step: h'";
  return op;
}

}  // namespace

void register_rnn_cell_ops(OpRegistry& r) {
  r.add(cell_op("lstm_cell", Cell::lstm));
  r.add(cell_op("gru_cell", Cell::gru));
  r.add(cell_op("rnn_tanh_cell", Cell::rnn_tanh));
  r.add(cell_op("rnn_relu_cell", Cell::rnn_relu));
}

}  // namespace pf
