"""Golden fixtures for evaluator/ops/{normalization,dropout}.cpp.
Run: /usr/bin/python3 tests/golden/gen_norm.py

Expected values are float64 results rounded to the output dtype (f64ref.py). rms_norm is not in
PyTorch 1.13: its reference is PyTorch's definition (x * rsqrt(mean(x^2) + eps) * weight, eps
defaulting to finfo(dtype).eps) in float64 below."""
import torch

from f64ref import f64
from golden_lib import BF16, F16, F32, F64, FLOATS, Golden, dtype_tag, permuted, rnd, strided, transposed

g = Golden("norm")
BN = "torch.nn.functional.batch_norm"
LN = "torch.nn.functional.layer_norm"
GN = "torch.nn.functional.group_norm"


def case(name, spelling, args, kwargs=None, **kw):
    g.case(name, spelling, args, kwargs, fn=f64(spelling), reference="native", **kw)


def r(shape, dt=F32, lo=-2.0, hi=2.0):
    return rnd(shape, dt, lo, hi)


def var(shape, dt=F32):
    return rnd(shape, dt, 0.5, 2.0)


for dt in FLOATS:
    t = dtype_tag(dt)
    # The corpus spelling: (input, running_mean, running_var, weight, bias, False, 0.1, 1e-05)
    case(f"batch_norm/corpus/{t}", BN, [r([2, 3, 2, 2], dt), r([3], dt), var([3], dt), r([3], dt), r([3], dt),
                                        False, 0.1, 1e-05])
    case(f"layer_norm/corpus/{t}", LN, [r([2, 3, 8], dt), (8,), r([8], dt), r([8], dt), 1e-12])
    case(f"group_norm/corpus/{t}", GN, [r([2, 4, 3], dt), 1, r([4], dt), r([4], dt), 1e-05])
case("batch_norm/running_f32_input_f16", BN, [r([2, 3, 4], F16), r([3]), var([3]), r([3]), r([3]), False, 0.03, 0.001])
case("batch_norm/no_affine", BN, [r([4, 2]), r([2]), var([2])])
case("batch_norm/training", BN, [r([3, 2, 2, 2]), None, None, r([2]), r([2])], {"training": True})
case("batch_norm/training_running_given", BN, [r([2, 3, 3], BF16), r([3], BF16), var([3], BF16)], {"training": True})
case("batch_norm/channels_last", BN, [permuted(r([2, 3, 2, 2]), [0, 3, 1, 2]),
                                      r([3]), var([3]), r([3]), r([3]), False, 0.1, 1e-05])
case("batch_norm/training_one_value", BN, [r([1, 2]), None, None], {"training": True}, expect_error=True)
case("batch_norm/wrong_channels", BN, [r([2, 3, 2]), r([4]), var([4])], expect_error=True)
case("layer_norm/two_dims", LN, [r([2, 3, 4]), (3, 4), r([3, 4]), None], {"eps": 1e-06})
case("layer_norm/no_affine", "torch.layer_norm", [r([3, 5], BF16), [5]])
case("layer_norm/transposed", LN, [transposed(r([2, 4, 6])), (6,), r([6]), r([6]), 1e-05])
case("layer_norm/bad_shape", LN, [r([2, 3]), (4,)], expect_error=True)
case("group_norm/groups", GN, [r([2, 6, 2, 2]), 3, r([6]), r([6])])
case("group_norm/no_affine_strided", GN, [strided(r([1, 4, 5])), 2])
case("group_norm/bad_groups", GN, [r([2, 6, 2]), 4], expect_error=True)
case("instance_norm/basic", "torch.nn.functional.instance_norm", [r([2, 3, 4])], {"weight": r([3]), "bias": r([3])})
case("instance_norm/running", "torch.nn.functional.instance_norm", [r([2, 3, 2, 2], F16), r([3], F16), var([3], F16)],
     {"use_input_stats": False})


def rms_norm(input, normalized_shape, weight=None, eps=None):
    out_dt = input.dtype
    if eps is None:
        eps = torch.finfo(input.dtype).eps
    x = input.double()
    dims = tuple(range(-len(normalized_shape), 0))
    y = x * torch.rsqrt(x.pow(2).mean(dims, keepdim=True) + eps)
    if weight is not None:
        y = y * weight.double()
    return y.to(out_dt)


for dt in FLOATS:
    g.case(f"rms_norm/default_eps/{dtype_tag(dt)}", "torch.nn.functional.rms_norm",
           [r([2, 3, 8], dt), (8,), r([8], dt)], fn=rms_norm, reference="native")
g.case("rms_norm/eps_two_dims", "torch.nn.functional.rms_norm", [r([2, 3, 4], F64), [3, 4]], {"eps": 1e-05},
       fn=rms_norm, reference="native")

DROPOUT = "torch.nn.functional.dropout"
for dt in FLOATS:
    g.case(f"dropout/corpus_inference/{dtype_tag(dt)}", DROPOUT, [r([2, 3], dt), 0.1, False, False])
g.case("dropout/p0_training", DROPOUT, [r([3]), 0.0, True])
g.case("dropout/dropout2d", "torch.nn.functional.dropout2d", [r([1, 2, 2, 2])], {"p": 0.5, "training": False})
g.case("dropout/torch_dropout", "torch.dropout", [r([3]), 0.2, False])
g.case("dropout/alpha", "torch.nn.functional.alpha_dropout", [r([4]), 0.3, False])
g.case("dropout/bad_p", DROPOUT, [r([3]), 1.5, False], expect_error=True)

g.write()
