"""Golden fixtures for evaluator/ops/losses.cpp (torch.nn.functional losses).
Run: /usr/bin/python3 tests/golden/gen_losses.py

PyTorch sums float32 losses in float32; passforge sums in float64. Reduced cases allow the
float32 accumulation bound n * 2^-24 * max|loss element| on top of 1 ulp (sum_tol).
Class-index targets are drawn inside [0, C) with some set to ignore_index where a case says so.
"""
import torch
import torch.nn.functional as F

from golden_lib import ALL_FLOATS, F16, F32, F64, Golden, dtype_tag, rint, rnd, transposed

g = Golden("losses")
I64, I32 = torch.int64, torch.int32
FN = "torch.nn.functional."


def sum_tol(elements, dt=F32):
    """2 ulps plus the float32 (float64 for dt float64) error of PyTorch's formula and sum over
    `elements` (magnitudes of the terms per element)."""
    e = elements.double()
    e = e[torch.isfinite(e)]
    m = float(e.abs().max()) if e.numel() else 0.0
    unit = 2.0 ** -53 if dt == F64 else 2.0 ** -24
    return {"ulps": 2, "abs": 4 * max(e.numel(), 1) * unit * m}


def term_tol(terms, dt=F32):
    """Elementwise: PyTorch rounds each op of a multi-op formula (a - b cancels)."""
    t = terms.double()
    t = t[torch.isfinite(t)]
    m = float(t.abs().max()) if t.numel() else 0.0
    unit = 2.0 ** -53 if dt == F64 else 2.0 ** -24
    return {"ulps": 2, "abs": 8 * unit * m}


def reduced(name, fn, args, kwargs, elementwise, dt=F32):
    """Cases for reduction 'none', 'mean' and 'sum' of one call."""
    for r in ("none", "mean", "sum"):
        kw = dict(kwargs, reduction=r)
        g.case(f"{name}/{r}", FN + fn, args, kw,
               tol=term_tol(elementwise, dt) if r == "none" else sum_tol(elementwise, dt))


# ---- pointwise losses
for dt in ALL_FLOATS:
    x, t = rnd([4, 5], dt), rnd([4, 5], dt)
    d = (x.double() - t.double()).abs()
    reduced(f"mse_loss/{dtype_tag(dt)}", "mse_loss", [x, t], {}, d * d, dt)
    reduced(f"l1_loss/{dtype_tag(dt)}", "l1_loss", [x, t], {}, d, dt)
    reduced(f"smooth_l1_loss/{dtype_tag(dt)}", "smooth_l1_loss", [x, t], {"beta": 0.5}, d * d, dt)
    reduced(f"huber_loss/{dtype_tag(dt)}", "huber_loss", [x, t], {"delta": 1.5}, d * d, dt)
x, t = rnd([3, 4, 5]), rnd([4, 5])
d = (x.double() - t.double()).abs()
g.case("mse_loss/broadcast_target", FN + "mse_loss", [x, t], tol=sum_tol(d * d))
g.case("mse_loss/transposed", FN + "mse_loss", [transposed(rnd([4, 5])), rnd([4, 5])],
       {"reduction": "sum"}, tol=sum_tol(d * d))
g.case("mse_loss/legacy_reduce_false", FN + "mse_loss", [rnd([3, 4]), rnd([3, 4])], {"reduce": False})
g.case("mse_loss/legacy_size_average_false", FN + "mse_loss", [x, x.flip(0)],
       {"size_average": False}, tol=sum_tol(d * d * 4))
g.case("mse_loss/bad_reduction", FN + "mse_loss", [rnd([3]), rnd([3])], {"reduction": "avg"},
       expect_error=True)
g.case("mse_loss/int", FN + "mse_loss", [rint([3]), rint([3])], expect_error=True)
g.case("l1_loss/mixed_dtypes", FN + "l1_loss", [rnd([3, 4], F16), rnd([3, 4], F32)],
       {"reduction": "none"})
g.case("l1_loss/empty_mean", FN + "l1_loss", [rnd([0, 3]), rnd([0, 3])])
g.case("smooth_l1_loss/beta0", FN + "smooth_l1_loss", [x, t], {"beta": 0.0, "reduction": "none"})
g.case("smooth_l1_loss/default_beta", FN + "smooth_l1_loss", [x, t], {"reduction": "none"})
g.case("huber_loss/default_delta", FN + "huber_loss", [x * 2, t], {"reduction": "none"})
g.case("huber_loss/delta0", FN + "huber_loss", [x, t], {"delta": 0.0}, expect_error=True)

# kl_div: input log-probabilities, target probabilities (zeros included) or log-probabilities.
for dt in ALL_FLOATS:
    lp = F.log_softmax(rnd([4, 6], F64), -1).to(dt)
    p = F.softmax(rnd([4, 6], F64), -1)
    p[0, 1] = 0.0
    p = p.to(dt)
    e = (p.double() * (p.double().clamp_min(1e-30).log() - lp.double())).abs()
    for r in ("none", "mean", "sum", "batchmean"):
        g.case(f"kl_div/{dtype_tag(dt)}/{r}", FN + "kl_div", [lp, p], {"reduction": r},
               tol=term_tol(e, dt) if r == "none" else sum_tol(e, dt))
lp, lt = F.log_softmax(rnd([3, 5]), -1), F.log_softmax(rnd([3, 5]), -1)
g.case("kl_div/log_target", FN + "kl_div", [lp, lt], {"reduction": "batchmean", "log_target": True},
       tol=sum_tol(lt.exp() * (lt - lp)))
g.case("kl_div/log_target_none", FN + "kl_div", [lp, lt], {"reduction": "none", "log_target": True},
       tol=term_tol(lt.exp() * (lt.abs() + lp.abs())))
g.case("kl_div/negative_target_nan", FN + "kl_div", [lp, -lt.exp()], {"reduction": "none"})

# ---- binary cross entropy
for dt in ALL_FLOATS:
    p, t = rnd([4, 5], dt, 0.02, 0.98), rnd([4, 5], dt, 0.0, 1.0)
    w = rnd([5], dt, 0.5, 2.0)
    e = torch.ones(20, dtype=F64) * 5
    reduced(f"binary_cross_entropy/{dtype_tag(dt)}", "binary_cross_entropy", [p, t], {}, e, dt)
    g.case(f"binary_cross_entropy/{dtype_tag(dt)}/weight", FN + "binary_cross_entropy", [p, t],
           {"weight": w}, tol=sum_tol(e * 2, dt))
    z = rnd([4, 5], dt, -4, 4)
    reduced(f"bce_with_logits/{dtype_tag(dt)}", "binary_cross_entropy_with_logits", [z, t], {}, e, dt)
    g.case(f"bce_with_logits/{dtype_tag(dt)}/weight_pos_weight",
           FN + "binary_cross_entropy_with_logits", [z, t],
           {"weight": w, "pos_weight": rnd([5], dt, 0.5, 3.0)}, tol=sum_tol(e * 6, dt))
g.case("binary_cross_entropy/log_clamped", FN + "binary_cross_entropy",
       [torch.tensor([0.0, 1.0, 0.0, 1.0]), torch.tensor([1.0, 0.0, 0.0, 1.0])], {"reduction": "none"})
g.case("binary_cross_entropy/out_of_range", FN + "binary_cross_entropy",
       [torch.tensor([0.5, 1.5]), torch.tensor([1.0, 0.0])], expect_error=True)
g.case("binary_cross_entropy/shape_mismatch", FN + "binary_cross_entropy",
       [rnd([2, 3], F32, 0, 1), rnd([3], F32, 0, 1)], expect_error=True)
z = torch.tensor([-200.0, -30.0, 0.0, 30.0, 200.0])
g.case("bce_with_logits/extremes", FN + "binary_cross_entropy_with_logits",
       [z, torch.tensor([1.0, 0.0, 0.5, 1.0, 0.0])], {"reduction": "none"}, tol=term_tol(z))
g.case("bce_with_logits/pos_weight_rows", FN + "binary_cross_entropy_with_logits",
       [rnd([2, 3, 4]), rnd([2, 3, 4], F32, 0, 1)], {"pos_weight": rnd([3, 1], F32, 0.5, 2),
                                                     "reduction": "none"}, tol=term_tol(torch.ones(1) * 8))

# ---- nll_loss and cross_entropy
def targets(shape, c, ignore=None, ignore_index=-100):
    t = rint(shape, I64, 0, c)
    if ignore is not None:
        t.view(-1)[ignore] = ignore_index
    return t


for dt in ALL_FLOATS:
    x = rnd([5, 4], dt)
    lp = F.log_softmax(x.double(), 1).to(dt)
    t = targets([5], 4, ignore=[1])
    w = rnd([4], dt, 0.5, 2.0)
    e = torch.ones(5, dtype=F64) * 8
    reduced(f"nll_loss/{dtype_tag(dt)}", "nll_loss", [lp, t], {}, e, dt)
    g.case(f"nll_loss/{dtype_tag(dt)}/weight", FN + "nll_loss", [lp, t], {"weight": w}, tol=sum_tol(e, dt))
    reduced(f"cross_entropy/{dtype_tag(dt)}", "cross_entropy", [x, t], {}, e, dt)
    if dt in (F32, F64):  # PyTorch's CPU has no half log_softmax, nor a meta kernel for this path
        g.case(f"cross_entropy/{dtype_tag(dt)}/weight_smoothing", FN + "cross_entropy", [x, t],
               {"weight": w, "label_smoothing": 0.1}, tol=sum_tol(e * 8, dt))
    probs = F.softmax(rnd([5, 4], F64), 1).to(dt)
    reduced(f"cross_entropy/{dtype_tag(dt)}/probs", "cross_entropy", [x, probs], {}, e * 4, dt)
x = rnd([2, 3, 4, 5])
t = targets([2, 4, 5], 3, ignore=[0, 7, 12], ignore_index=-1)
w = rnd([3], F32, 0.5, 2.0)
e = torch.ones(40, dtype=F64) * 8
for r in ("none", "mean", "sum"):
    g.case(f"nll_loss/nd/{r}", FN + "nll_loss", [x, t],
           {"weight": w, "ignore_index": -1, "reduction": r}, tol=sum_tol(e))
    g.case(f"cross_entropy/nd/{r}", FN + "cross_entropy", [x, t],
           {"weight": w, "ignore_index": -1, "reduction": r, "label_smoothing": 0.2}, tol=sum_tol(e))
    g.case(f"cross_entropy/nd_probs/{r}", FN + "cross_entropy",
           [x, F.softmax(rnd([2, 3, 4, 5]), 1)], {"weight": w, "reduction": r, "label_smoothing": 0.3},
           tol=sum_tol(e * 3))
    g.case(f"cross_entropy/smoothing_no_weight/{r}", FN + "cross_entropy",
           [rnd([6, 5]), targets([6], 5, ignore=[2])], {"reduction": r, "label_smoothing": 0.25},
           tol=sum_tol(e))
g.case("nll_loss/1d_input", FN + "nll_loss", [F.log_softmax(rnd([6]), 0), torch.tensor(4)])
g.case("cross_entropy/1d_input", FN + "cross_entropy", [rnd([6]), torch.tensor(2)], {"reduction": "sum"})
g.case("nll_loss/all_ignored_mean_nan", FN + "nll_loss", [rnd([3, 4]), torch.full([3], -100)])
g.case("nll_loss/transposed_input", FN + "nll_loss", [transposed(rnd([3, 4])), targets([3], 4)],
       tol=sum_tol(torch.ones(3) * 3))
g.case("nll_loss/target_out_of_range", FN + "nll_loss", [rnd([3, 4]), torch.tensor([0, 4, 1])],
       expect_error=True)
g.case("nll_loss/negative_target", FN + "nll_loss", [rnd([3, 4]), torch.tensor([0, -2, 1])],
       expect_error=True)
g.case("nll_loss/int32_target", FN + "nll_loss", [rnd([3, 4]), rint([3], I32, 0, 4)], expect_error=True)
g.case("nll_loss/target_shape", FN + "nll_loss", [rnd([3, 4]), targets([4], 4)], expect_error=True)
g.case("nll_loss/weight_size", FN + "nll_loss", [rnd([3, 4]), targets([3], 4)], {"weight": rnd([3])},
       expect_error=True)
g.case("cross_entropy/target_out_of_range", FN + "cross_entropy", [rnd([3, 4]), torch.tensor([0, 9, 1])],
       expect_error=True)
g.case("cross_entropy/probs_ignore_index", FN + "cross_entropy",
       [rnd([3, 4]), F.softmax(rnd([3, 4]), 1)], {"ignore_index": 1}, expect_error=True)
g.case("cross_entropy/legacy_reduce", FN + "cross_entropy", [rnd([3, 4]), targets([3], 4)],
       {"reduce": False})
g.write()
