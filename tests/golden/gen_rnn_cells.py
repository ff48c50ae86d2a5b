"""Golden fixtures for evaluator/ops/rnn_cells.cpp (lstm_cell, gru_cell, rnn_tanh_cell,
rnn_relu_cell). Run: /usr/bin/python3 tests/golden/gen_rnn_cells.py

PyTorch 1.13 takes input (batch, in), hx (batch, hidden) (lstm: a tuple (h, c)), w_ih
(gates * hidden, in), w_hh (gates * hidden, hidden) and optional biases; no unbatched input.
Expected values are float64 results rounded once (f64ref.py), what the reference computes;
one case per cell compares against PyTorch's float32 result with a stated tolerance.
"""
import torch

from f64ref import f64
from golden_lib import BF16, F32, F64, Golden, dtype_tag, rnd, transposed

g = Golden("rnn_cells")
# float32 GEMM partial sums over <= 6 terms, then sigmoid/tanh and a few products.
NATIVE_TOL = {"ulps": 8, "abs": 2e-6}
# float64 inputs: PyTorch's and the reference's float64 sums in different orders.
F64_TOL = {"ulps": 8, "abs": 1e-15}


def case(name, spelling, args, kwargs=None, tol=None):
    g.case(name, spelling, args, kwargs, fn=f64(spelling), reference="native", tol=tol)
GATES = {"lstm_cell": 4, "gru_cell": 3, "rnn_tanh_cell": 1, "rnn_relu_cell": 1}


def operands(cell, batch, n_in, hidden, dt=F32):
    rows = GATES[cell] * hidden
    x, h = rnd([batch, n_in], dt), rnd([batch, hidden], dt)
    hx = (h, rnd([batch, hidden], dt)) if cell == "lstm_cell" else h
    return x, hx, rnd([rows, n_in], dt, -0.5, 0.5), rnd([rows, hidden], dt, -0.5, 0.5), \
        rnd([rows], dt), rnd([rows], dt)


for cell in GATES:
    for dt in (F32, F64, BF16):
        x, hx, w_ih, w_hh, b_ih, b_hh = operands(cell, 3, 5, 4, dt)
        case(f"{cell}/{dtype_tag(dt)}", f"torch.{cell}", [x, hx, w_ih, w_hh, b_ih, b_hh],
             tol=F64_TOL if dt == F64 else None)
        if dt == F32:
            g.case(f"{cell}/native_f32", f"torch.{cell}", [x, hx, w_ih, w_hh, b_ih, b_hh],
                   tol=NATIVE_TOL)
    x, hx, w_ih, w_hh, b_ih, b_hh = operands(cell, 2, 6, 3)
    case(f"{cell}/no_bias", f"torch.{cell}", [x, hx, w_ih, w_hh])
    case(f"{cell}/vf_none_biases", f"torch._VF.{cell}", [x, hx, w_ih, w_hh, None, None])
    case(f"{cell}/kw_one_bias", f"torch.{cell}", [x, hx, w_ih, w_hh], {"b_hh": b_hh})
    x, hx, w_ih, w_hh, b_ih, b_hh = operands(cell, 4, 3, 5)
    case(f"{cell}/transposed_weight", f"torch.{cell}", [x, hx, transposed(w_ih), w_hh, b_ih, b_hh])
    g.case(f"{cell}/unbatched", f"torch.{cell}",
           [x[0], hx if cell != "lstm_cell" else (hx[0][0], hx[1][0]), w_ih, w_hh],
           expect_error=True)
    g.case(f"{cell}/wrong_hidden", f"torch.{cell}",
           [x, (hx[0][:, :2], hx[1][:, :2]) if cell == "lstm_cell" else hx[:, :2], w_ih, w_hh],
           expect_error=True)
    g.case(f"{cell}/int", f"torch.{cell}",
           [x.long(), hx if cell != "lstm_cell" else (hx[0].long(), hx[1].long()), w_ih.long(),
            w_hh.long()], expect_error=True)
g.write()
