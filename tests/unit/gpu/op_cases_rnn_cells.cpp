// Cases of the recurrent cells (gpu/ops_rnn_cells.cpp): two linears and the
// gate arithmetic, with and without biases, the torch._VF spelling dynamo
// writes, and a hidden size that is no multiple of a vector width.
#include "tests/unit/gpu/op_cases.h"

namespace pf::gpu::test {

void add_rnn_cell_cases(std::vector<OpCase>& c) {
  // x, h, w_ih, w_hh and `biases` bias vectors.
  const auto weights = [](int64_t gates, int64_t hidden, int64_t n_in, int biases) {
    std::vector<CaseInput> v{in({5, n_in}), in({5, hidden}), in({gates * hidden, n_in}, -0.5, 0.5),
                             in({gates * hidden, hidden}, -0.5, 0.5)};
    for (int k = 0; k < biases; ++k) v.push_back(in({gates * hidden}));
    return v;
  };
  std::vector<CaseInput> lstm = weights(4, 16, 12, 2);
  lstm.push_back(in({5, 16}));
  c.push_back({"lstm_cell", "x, h, w, u, bi, bh, cx",
               "hy, cy = torch.lstm_cell(x, (h, cx), w, u, bi, bh)\n    return (hy, cy)", lstm,
               kFloat});
  lstm = weights(4, 7, 9, 0);
  lstm.push_back(in({5, 7}));
  c.push_back({"lstm_cell", "x, h, w, u, cx",
               "hy, cy = torch._VF.lstm_cell(x, [h, cx], w, u)\n    return (hy, cy)", lstm,
               kFloat});
  c.push_back({"gru_cell", "x, h, w, u, bi, bh", "torch.gru_cell(x, h, w, u, bi, bh)",
               weights(3, 16, 12, 2), kFloat});
  c.push_back({"gru_cell", "x, h, w, u, bh", "torch._VF.gru_cell(x, h, w, u, None, bh)",
               weights(3, 7, 9, 1), kFloat});
  c.push_back({"rnn_tanh_cell", "x, h, w, u, bi, bh", "torch.rnn_tanh_cell(x, h, w, u, bi, bh)",
               weights(1, 16, 12, 2), kFloat});
  c.push_back({"rnn_relu_cell", "x, h, w, u, bi", "torch._VF.rnn_relu_cell(x, h, w, u, bi)",
               weights(1, 7, 9, 1), kFloat});
}

}  // namespace pf::gpu::test
