"""Golden fixtures for evaluator/ops/math_unary.cpp. Run: /usr/bin/python3 tests/golden/gen_math.py

PyTorch computes float32 transcendentals with vectorised approximations (SLEEF); passforge
computes in float64 and rounds once. On these inputs they agree within the default 1 ulp, so
no case needs a larger allowance.
"""
import torch

from golden_lib import ALL_FLOATS, F16, F32, BF16, F64, Golden, dtype_tag, eps, rint, rnd, special, strided, transposed

g = Golden("math")

# name -> (domain lo, hi, spellings to cover)
OPS = {
    "exp": (-5, 5, ["torch.exp", "Tensor.exp", "Tensor.exp_"]),
    "exp2": (-5, 5, ["torch.exp2", "torch.special.exp2"]),
    "expm1": (-2, 2, ["torch.expm1", "torch.special.expm1"]),
    "log": (0.05, 8, ["torch.log", "Tensor.log"]),
    "log2": (0.05, 8, ["torch.log2"]),
    "log10": (0.05, 8, ["torch.log10"]),
    "log1p": (-0.9, 3, ["torch.log1p", "torch.special.log1p"]),
    "sqrt": (0, 8, ["torch.sqrt", "Tensor.sqrt"]),
    "rsqrt": (0.05, 8, ["torch.rsqrt", "Tensor.rsqrt"]),
    "sin": (-4, 4, ["torch.sin", "Tensor.sin"]),
    "cos": (-4, 4, ["torch.cos", "Tensor.cos"]),
    "tan": (-1.4, 1.4, ["torch.tan"]),
    "asin": (-0.99, 0.99, ["torch.asin", "torch.arcsin"]),
    "acos": (-0.99, 0.99, ["torch.acos", "Tensor.arccos"]),
    "atan": (-4, 4, ["torch.atan"]),
    "sinh": (-3, 3, ["torch.sinh"]),
    "cosh": (-3, 3, ["torch.cosh"]),
    "tanh": (-3, 3, ["torch.tanh", "Tensor.tanh", "torch.nn.functional.tanh"]),
    "sigmoid": (-6, 6, ["torch.sigmoid", "Tensor.sigmoid", "torch.nn.functional.sigmoid",
                        "torch.special.expit"]),
    "erf": (-2.5, 2.5, ["torch.erf", "Tensor.erf", "torch.special.erf"]),
    "erfc": (-2.5, 2.5, ["torch.erfc", "torch.special.erfc"]),
    "ceil": (-4, 4, ["torch.ceil", "Tensor.ceil"]),
    "floor": (-4, 4, ["torch.floor", "Tensor.floor"]),
    "trunc": (-4, 4, ["torch.trunc", "torch.fix"]),
    "round": (-4, 4, ["torch.round", "Tensor.round"]),
    "sign": (-4, 4, ["torch.sign", "torch.sgn"]),
    "square": (-4, 4, ["torch.square", "Tensor.square"]),
    "isnan": (-4, 4, ["torch.isnan", "Tensor.isnan"]),
    "isinf": (-4, 4, ["torch.isinf"]),
    "isfinite": (-4, 4, ["torch.isfinite"]),
    "isposinf": (-4, 4, ["torch.isposinf"]),
    "isneginf": (-4, 4, ["torch.isneginf"]),
    "nan_to_num": (-4, 4, ["torch.nan_to_num", "Tensor.nan_to_num"]),
}
FLOAT_ONLY = {"ceil", "floor", "trunc", "round"}  # bool inputs are rejected by these

for name, (lo, hi, spellings) in OPS.items():
    for dt in ALL_FLOATS:
        g.case(f"{name}/{dtype_tag(dt)}", spellings[0], [rnd([3, 5], dt, lo, hi)])
    for i, sp in enumerate(spellings[1:]):
        g.case(f"{name}/spelling{i + 1}", sp, [rnd([4], F32, lo, hi)])
    g.case(f"{name}/transposed", spellings[0], [transposed(rnd([3, 4], F16, lo, hi))])
    g.case(f"{name}/strided", spellings[0], [strided(rnd([2, 3], F32, lo, hi))])
    g.case(f"{name}/special", spellings[0], [special(F32)])
    g.case(f"{name}/special_bf16", spellings[0], [special(BF16)],
           reference="native" if name == "nan_to_num" else "auto")
    g.case(f"{name}/i64", spellings[0], [rint([6], torch.int64, max(int(lo), -5), max(int(hi), 2))])
    g.case(f"{name}/i32", spellings[0], [rint([6], torch.int32, max(int(lo), -5), max(int(hi), 2))])
    bool_in = torch.tensor([True, False, True])
    g.case(f"{name}/bool", spellings[0], [bool_in], expect_error=name in FLOAT_ONLY)
    g.case(f"{name}/zero_dim", spellings[0], [rnd([], F32, lo, hi)])

g.case("round/half_even", "torch.round", [torch.tensor([0.5, 1.5, 2.5, -0.5, -1.5, 3.4999])])
for d in (1, 2, -1):
    g.case(f"round/decimals{d}/f32", "torch.round", [rnd([8], F32, -50, 50)], {"decimals": d})
    g.case(f"round/decimals{d}/f16", "torch.round", [rnd([8], F16, -50, 50)], {"decimals": d})
g.case("nan_to_num/args", "torch.nan_to_num", [special(F32)], {"nan": 1.5, "posinf": 100.0, "neginf": -7})
# The infinities' defaults are the input dtype's max/lowest: an upcast reference would give
# float32's, so these run natively (PyTorch's CPU kernel handles 16-bit floats here).
g.case("nan_to_num/positional", "torch.nan_to_num", [special(F16), 2.0, 3.0], reference="native")
g.case("nan_to_num/f16_default", "torch.nan_to_num", [special(F16)], reference="native")
g.case("nan_to_num/bf16_default", "torch.nan_to_num", [special(BF16)], reference="native")
g.case("square/i64/large", "torch.square", [torch.tensor([3037000499, -5, 2 ** 33])])
g.case("sqrt/negative", "torch.sqrt", [torch.tensor([-1.0, 4.0])])
g.case("log/zero", "torch.log", [torch.tensor([0.0, -1.0, 1.0])])
g.case("exp/overflow_f16", "torch.exp", [torch.tensor([11.0, 12.0, -20.0], dtype=F16)])
# deg2rad / rad2deg / sinc / frac / tanhshrink (added last: cases draw from one random stream).
# PyTorch computes sinc in the input's float (pi * x rounded first): a few float32 units off
# absolutely; tanhshrink cancels (x - tanh x), so its error scales with |x|.
F32_ABS = {"ulps": 1, "abs": 4 * 2.0 ** -24}


def tol_for(name, dt):
    if name == "sinc" and dt in (F32, torch.int64):
        return F32_ABS
    if name == "tanhshrink" and dt in (F32, F64):
        return {"ulps": 1, "abs": 16 * (2.0 ** -53 if dt == F64 else 2.0 ** -24)}
    return None


for name in ("deg2rad", "rad2deg", "sinc", "frac"):
    for dt in (F32, F16, BF16, F64):
        g.case(f"{name}/{dtype_tag(dt)}", f"torch.{name}", [rnd([3, 5], dt, -4, 4)], tol=tol_for(name, dt))
    g.case(f"{name}/method_transposed", f"Tensor.{name}", [transposed(rnd([4, 3], F32, -4, 4))],
           tol=tol_for(name, F32))
    g.case(f"{name}/special", f"torch.{name}", [special(F32)], tol=tol_for(name, F32))
for name in ("deg2rad", "rad2deg", "sinc"):
    g.case(f"{name}/int_promotes", f"torch.{name}", [torch.tensor([-3, 0, 2, 7])], tol=tol_for(name, torch.int64))
g.case("sinc/zero_and_integers", "torch.sinc", [torch.tensor([0.0, -0.0, 1.0, -2.0, 0.5])], tol=F32_ABS)
g.case("frac/int", "torch.frac", [torch.tensor([1, 2])], expect_error=True)
for dt in (F32, F16, BF16, F64):
    g.case(f"tanhshrink/{dtype_tag(dt)}", "torch.nn.functional.tanhshrink", [rnd([3, 5], dt, -4, 4)],
           tol=tol_for("tanhshrink", dt))
g.case("tanhshrink/int_promotes", "torch.nn.functional.tanhshrink", [torch.tensor([-3, 0, 2])],
       tol=tol_for("tanhshrink", F32))
g.case("frac/in_place", "Tensor.frac_", [rnd([2, 3], F32, -4, 4)])
# logit (added last); PyTorch's CPU kernel rounds x / (1 - x) to the dtype before the log:
# near x = 1/2 that is a few ulps of 1 apart
def logit_tol(dt=F32):
    return {"ulps": 4, "abs": 4 * eps(dt)}


LOGIT_TOL = logit_tol()
for dt in (F32, F16, BF16, F64):
    g.case(f"logit/{dtype_tag(dt)}", "torch.logit", [rnd([3, 5], dt, 0.01, 0.99)], tol=logit_tol(dt))
    g.case(f"logit/eps/{dtype_tag(dt)}", "torch.logit", [rnd([3, 5], dt, -0.5, 1.5)], {"eps": 0.05},
           tol=logit_tol(dt))
g.case("logit/edges_nan", "torch.logit", [torch.tensor([0.0, 1.0, float("nan"), 0.5, -1.0])], tol=LOGIT_TOL)
g.case("logit/edges_eps", "Tensor.logit", [torch.tensor([0.0, 1.0, float("nan"), 0.5, -1.0])], {"eps": 1e-6}, tol=LOGIT_TOL)
g.case("logit/negative_eps_no_clamp", "torch.logit", [torch.tensor([0.0, 1.0, 0.25])], {"eps": -0.5}, tol=LOGIT_TOL)
g.case("logit/int_promotes", "torch.logit", [torch.tensor([0, 1])], tol=LOGIT_TOL)
g.case("logit/special_spelling", "torch.special.logit", [rnd([4], F32, 0.1, 0.9)], tol=LOGIT_TOL)
g.case("logit/in_place", "Tensor.logit_", [rnd([4], F32, 0.1, 0.9)], tol=LOGIT_TOL)
g.write()
