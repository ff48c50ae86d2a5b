"""Golden fixtures for evaluator/ops/activation.cpp. Run: /usr/bin/python3 tests/golden/gen_activation.py"""
import torch

from golden_lib import ALL_FLOATS, BF16, F16, F32, Golden, dtype_tag, rint, rnd, special, strided, transposed

g = Golden("activation")
F = "torch.nn.functional."
C = "torch._C._nn."

# name -> (spellings, extra positional args, kwargs variants)
OPS = {
    "relu": ([F + "relu", "torch.relu", "Tensor.relu", "Tensor.relu_", F + "relu_"], [], [{"inplace": True}]),
    "relu6": ([F + "relu6", C + "relu6"], [], [{"inplace": False}]),
    "hardtanh": ([F + "hardtanh", C + "hardtanh", F + "hardtanh_"], [], [{"min_val": -0.5, "max_val": 2}]),
    "gelu": ([F + "gelu", C + "gelu"], [], [{"approximate": "tanh"}, {"approximate": "none"}]),
    "silu": ([F + "silu", C + "silu"], [], [{"inplace": False}]),
    "hardswish": ([F + "hardswish", C + "hardswish"], [], []),
    "hardsigmoid": ([F + "hardsigmoid", C + "hardsigmoid"], [], [{"inplace": False}]),
    "leaky_relu": ([F + "leaky_relu", C + "leaky_relu", F + "leaky_relu_"], [], [{"negative_slope": 0.2}]),
    "elu": ([F + "elu", C + "elu"], [], [{"alpha": 0.5}]),
    "selu": ([F + "selu", "torch.selu"], [], []),
    "celu": ([F + "celu", "torch.celu"], [], [{"alpha": 2.0}]),
    "softplus": ([F + "softplus", C + "softplus"], [], [{"beta": 2, "threshold": 3}]),
    "mish": ([F + "mish", C + "mish"], [], []),
    "logsigmoid": ([F + "logsigmoid", C + "log_sigmoid"], [], []),
    "softsign": ([F + "softsign"], [], []),
    "threshold": ([F + "threshold", "torch.threshold"], [0.5, -2.0], []),
}



def tol_for(name, x):
    """PyTorch's float32 gelu computes 0.5 * x * (1 + erf(x / sqrt(2))) (or 1 + tanh(...)) in
    float32; for negative x the sum cancels, leaving an absolute error of about
    |x| * 2^-24 that float64 does not have. Allow 4x that; other ops need no allowance."""
    if name != "gelu":
        return None
    finite = x.float()[torch.isfinite(x.float())]
    return {"abs": float(finite.abs().max()) * 2.0 ** -22} if finite.numel() else None


def case(name, spelling, x, extra, kwargs=None):
    g.case(name, spelling, [x] + extra, kwargs, tol=tol_for(name.split("/")[0], x))


for name, (spellings, extra, kw_variants) in OPS.items():
    main = spellings[0]
    for dt in ALL_FLOATS:
        case(f"{name}/{dtype_tag(dt)}", main, rnd([3, 6], dt, -5, 5), extra)
    for i, sp in enumerate(spellings[1:]):
        case(f"{name}/spelling{i + 1}", sp, rnd([5], F32, -5, 5), extra)
    for i, kw in enumerate(kw_variants):
        case(f"{name}/kwargs{i}/f32", main, rnd([2, 5], F32, -5, 5), extra, kw)
        case(f"{name}/kwargs{i}/bf16", main, rnd([2, 5], BF16, -5, 5), extra, kw)
    case(f"{name}/transposed", main, transposed(rnd([3, 4], F16, -4, 4)), extra)
    case(f"{name}/strided", main, strided(rnd([2, 3], F32, -4, 4)), extra)
    case(f"{name}/special", main, special(F32), extra)
    case(f"{name}/zero_dim", main, rnd([], F32, -4, 4), extra)

g.case("relu/i64", "torch.relu", [rint([6])])
g.case("relu/i32", F + "relu", [rint([6], torch.int32)])
g.case("relu/bool", "torch.relu", [torch.tensor([True, False])], expect_error=True)
g.case("relu6/i64", F + "relu6", [rint([8])])
g.case("hardtanh/i64", F + "hardtanh", [rint([8])], {"min_val": -2, "max_val": 3})
g.case("hardtanh/inverted_range", F + "hardtanh", [rnd([3])], {"min_val": 2.0, "max_val": 1.0})
g.case("gelu/bad_approximate", F + "gelu", [rnd([3])], {"approximate": "fast"}, expect_error=True)
case("gelu/large_f16", C + "gelu", rnd([2, 8], F16, -12, 12), [])
g.case("leaky_relu/positional", F + "leaky_relu", [rnd([2, 4]), 0.01, True], in_place=True)
g.case("leaky_relu/i64", F + "leaky_relu", [rint([4])], expect_error=True)
g.case("softplus/large", F + "softplus", [rnd([6], F32, 15, 30)])
g.case("silu/int_rejected", F + "silu", [rint([4])], expect_error=True)

for dt in ALL_FLOATS:
    g.case(f"glu/{dtype_tag(dt)}", F + "glu", [rnd([2, 6], dt)])
g.case("glu/dim1", F + "glu", [rnd([2, 4, 3], F32)], {"dim": 1})
g.case("glu/dim0_transposed", F + "glu", [transposed(rnd([4, 3], F16))], {"dim": 0})
g.case("glu/odd", F + "glu", [rnd([2, 5])], expect_error=True)
g.case("glu/positional_dim", F + "glu", [rnd([3, 2, 2], BF16), -2])
for dt in ALL_FLOATS:
    g.case(f"prelu/{dtype_tag(dt)}", "torch.prelu", [rnd([2, 3, 4], dt), rnd([3], dt, 0, 0.5)])
g.case("prelu/shared_weight", F + "prelu", [rnd([2, 3, 4]), torch.tensor([0.25])])
g.case("prelu/1d", "Tensor.prelu", [rnd([5]), torch.tensor([0.1])])
g.case("prelu/bad_weight", "torch.prelu", [rnd([2, 3, 4]), rnd([4])], expect_error=True)
g.write()
