"""Golden fixtures for evaluator/ops/{reduction,minmax,statistics,cumulative,softmax}.cpp.
Run: /usr/bin/python3 tests/golden/gen_reduction.py

PyTorch accumulates float32 (and, on the float32-upcast reference, float16/bfloat16) sums in
float32; passforge accumulates in float64. For ops that sum, acc_tol() allows the float32
accumulation error bound n * 2^-24 * max|x| (n = elements per output) on top of 1 ulp.
"""
import torch

from golden_lib import ALL_FLOATS, BF16, F16, F32, F64, Golden, dtype_tag, rbool, rint, rnd, special, strided, transposed

g = Golden("reduction")
I64, I32, U8, BOOL = torch.int64, torch.int32, torch.uint8, torch.bool


def acc_tol(x, n):
    """float32 (float64 for float64 inputs) accumulation error bound for n-term sums.
    Integer inputs matter only when the result is float (mean(dtype=), logsumexp): float32."""
    if not x.is_floating_point() and x.dtype != torch.int64 and x.dtype != torch.int32:
        return None
    unit = 2.0 ** -53 if x.dtype == F64 else 2.0 ** -24
    xf = x.double()
    finite = xf[torch.isfinite(xf)]
    m = float(finite.abs().max()) if finite.numel() else 0.0
    return {"ulps": 1, "abs": 2 * max(n, 1) * unit * m}


def group_size(x, dim):
    if dim is None:
        return x.numel()
    dims = dim if isinstance(dim, (list, tuple)) else [dim]
    if len(dims) == 0:
        return x.numel()
    n = 1
    for d in dims:
        n *= x.shape[d] if -x.dim() <= d < max(x.dim(), 1) and x.dim() else 1
    return n


def sample(shape, dt, lo=-3, hi=3):
    if dt == BOOL:
        return rbool(shape)
    if dt.is_floating_point:
        return rnd(shape, dt, lo, hi)
    return rint(shape, dt, 0 if dt == U8 else -5, 6)


def red(name, sp, x, dim=None, kwargs=None, summing=True, **kw):
    kwargs = dict(kwargs or {})
    args = [x] if dim is None else [x, dim]
    tol = acc_tol(x, group_size(x, dim)) if summing else None
    g.case(name, sp, args, kwargs, tol=tol, **kw)


# sum / mean / nansum / prod
for op in ("sum", "mean", "nansum", "prod"):
    sp = "torch." + op
    dts = ALL_FLOATS + ((I64, I32, BOOL) if op != "mean" else ())
    for dt in dts:
        x = sample([3, 4, 5], dt, -2, 2) if op != "prod" else sample([3, 4, 5], dt, 0.5, 1.5)
        red(f"{op}/{dtype_tag(dt)}/all", sp, x)
        red(f"{op}/{dtype_tag(dt)}/dim1", sp, x, 1)
        if op != "prod":
            red(f"{op}/{dtype_tag(dt)}/dims", sp, x, [0, 2])
    red(f"{op}/keepdim", "Tensor." + op, sample([2, 3, 4], F32), -1, {"keepdim": True})
    red(f"{op}/transposed", sp, transposed(sample([4, 6], F16)), 0)
    red(f"{op}/strided", sp, strided(sample([3, 4], F32)), 1)
    red(f"{op}/zero_dim", sp, sample([], F32))
    red(f"{op}/empty_dim", sp, torch.zeros(0, 3), 0)
    red(f"{op}/special", sp, special(F32).reshape(2, 5), 1)
    red(f"{op}/bad_dim", sp, sample([2, 3], F32), 2, expect_error=True)
red("sum/dtype_f32_from_f16", "torch.sum", sample([4, 8], F16), 1, {"dtype": F32})
red("sum/dtype_f16_from_i64", "torch.sum", sample([4, 8], I64), 1, {"dtype": F16})
red("sum/empty_list", "torch.sum", sample([2, 3], F32), [])
red("sum/i64/large", "torch.sum", torch.tensor([2 ** 62, 2 ** 62, 2 ** 62, 5]))
red("sum/repeated_dim", "torch.sum", sample([2, 3], F32), [1, -1], expect_error=True)
red("mean/from_corpus", "Tensor.mean", sample([2, 7, 16], F32), -1, {"keepdim": True})
red("mean/dims_keepdim", "Tensor.mean", sample([2, 3, 4, 5], BF16), [2, 3], {"keepdim": True})
red("mean/int", "torch.mean", sample([4], I64), expect_error=True)
red("mean/int_dtype", "torch.mean", sample([4, 3], I64), 1, {"dtype": F32})
red("mean/dtype_f16", "torch.mean", sample([4, 3], F32), 1, {"dtype": F16})
red("prod/i64/large", "torch.prod", torch.tensor([2 ** 40, 2 ** 30, 3]))

# logsumexp
for dt in ALL_FLOATS:
    red(f"logsumexp/{dtype_tag(dt)}", "torch.logsumexp", sample([3, 6], dt, -5, 5), 1)
red("logsumexp/dims", "torch.logsumexp", sample([2, 3, 4], F32), [0, 2], {"keepdim": True})
red("logsumexp/int", "torch.logsumexp", sample([2, 3], I64), 1)
red("logsumexp/inf", "torch.logsumexp", torch.tensor([[float("-inf")] * 3, [float("inf"), 0, 1], [1, 2, 3]]), 1)
red("logsumexp/large", "Tensor.logsumexp", sample([2, 5], F32, 80, 100), 1)

# all / any
for op in ("all", "any"):
    for dt in (BOOL, F32, I64, U8, F16):
        x = sample([3, 4], dt)
        if dt == BOOL:
            x = torch.rand(3, 4) < (0.8 if op == "all" else 0.2)
        red(f"{op}/{dtype_tag(dt)}/all", "torch." + op, x, summing=False)
        red(f"{op}/{dtype_tag(dt)}/dim", "torch." + op, x, 1, summing=False)
    red(f"{op}/keepdim", "Tensor." + op, rbool([2, 3]), 0, {"keepdim": True}, summing=False)
    red(f"{op}/nan", "torch." + op, special(F32), summing=False)

# amax / amin / max / min / argmax / argmin
for op in ("amax", "amin"):
    for dt in ALL_FLOATS + (I64, I32, BOOL):
        x = sample([3, 4, 5], dt)
        red(f"{op}/{dtype_tag(dt)}/dim", "torch." + op, x, -1, summing=False)
        red(f"{op}/{dtype_tag(dt)}/dims", "torch." + op, x, [0, 1], summing=False)
    red(f"{op}/all", "Tensor." + op, sample([3, 4], F32), summing=False)
    red(f"{op}/keepdim", "torch." + op, sample([3, 4], F16), 0, {"keepdim": True}, summing=False)
    red(f"{op}/nan", "torch." + op, special(F32).reshape(2, 5), 1, summing=False)
    red(f"{op}/empty", "torch." + op, torch.zeros(0, 3), 0, summing=False, expect_error=True)
    red(f"{op}/i64/large", "torch." + op, torch.tensor([2 ** 60 + 1, 2 ** 60, 2 ** 60 + 2]), summing=False)
TIES = torch.tensor([[1.0, 3, 3, 0], [2, 2, 1, 2], [0, 0, 0, 0]])
for op in ("max", "min"):
    for dt in ALL_FLOATS + (I64, BOOL):
        x = sample([3, 4], dt)
        g.case(f"{op}/{dtype_tag(dt)}/full", "torch." + op, [x])
        g.case(f"{op}/{dtype_tag(dt)}/dim", "torch." + op, [x, 1])
    g.case(f"{op}/ties", "torch." + op, [TIES, 1])
    g.case(f"{op}/ties_dim0", "Tensor." + op, [TIES, 0])
    g.case(f"{op}/keepdim", "Tensor." + op, [sample([2, 3, 4], F16)], {"dim": -1, "keepdim": True})
    g.case(f"{op}/nan", "torch." + op, [special(F32).reshape(2, 5), 1])
    g.case(f"{op}/nan_full", "Tensor." + op, [special(F32)])
    g.case(f"{op}/other", "torch." + op, [sample([2, 3], F32), sample([3], F32)])
    g.case(f"{op}/transposed", "torch." + op, [transposed(sample([3, 4], BF16)), 0])
    g.case(f"{op}/empty", "torch." + op, [torch.zeros(0)], expect_error=True)
for op in ("argmax", "argmin"):
    for dt in ALL_FLOATS + (I64, I32):
        x = sample([3, 4], dt)
        g.case(f"{op}/{dtype_tag(dt)}/flat", "torch." + op, [x])
        g.case(f"{op}/{dtype_tag(dt)}/dim", "torch." + op, [x, 1])
    g.case(f"{op}/ties", "torch." + op, [TIES, 1])
    g.case(f"{op}/keepdim", "Tensor." + op, [sample([2, 3, 4], F32), 1, True])
    g.case(f"{op}/flat_keepdim", "Tensor." + op, [sample([2, 3], F32)], {"keepdim": True})
    g.case(f"{op}/nan", "torch." + op, [special(F32).reshape(2, 5), 1])

# var / std
for op in ("var", "std"):
    sp = "torch." + op
    for dt in ALL_FLOATS:
        x = sample([3, 6], dt)
        red(f"{op}/{dtype_tag(dt)}/all", sp, x)
        red(f"{op}/{dtype_tag(dt)}/dim", sp, x, 1)
    red(f"{op}/biased", sp, sample([3, 6], F32), 1, {"unbiased": False})
    g.case(f"{op}/positional_flag", sp, [sample([4, 5], F32), False], tol=acc_tol(sample([1], F32), 20))
    g.case(f"{op}/dim_unbiased_keepdim", sp, [sample([2, 3, 4], F32), [0, 2], True, True],
           tol={"ulps": 2, "abs": 1e-6})
    red(f"{op}/correction", sp, sample([3, 6], F32), 1, {"correction": 0})
    red(f"{op}/correction2", sp, sample([3, 6], F16), [0, 1], {"correction": 2})
    red(f"{op}/single", sp, sample([3, 1], F32), 1)
    red(f"{op}/int", sp, sample([3, 6], I64), 1, expect_error=True)

# norms
for dt in ALL_FLOATS:
    red(f"norm/{dtype_tag(dt)}/default", "torch.norm", sample([3, 4], dt))
    red(f"norm/{dtype_tag(dt)}/dim", "Tensor.norm", sample([3, 4], dt), None, {"dim": 1})
for p in (0, 1, 2, 3, 0.5, float("inf"), float("-inf")):
    g.case(f"norm/p{p}", "Tensor.norm", [sample([3, 5], F32)], {"p": p, "dim": 1},
           tol=acc_tol(sample([3, 5], F32, 3, 3) * 5, 5))
g.case("norm/fro_dim", "torch.norm", [sample([3, 5], F32)], {"p": "fro", "dim": 1, "keepdim": True},
       tol=acc_tol(torch.tensor([3.0]), 5))
g.case("norm/fro_two_dims", "torch.norm", [sample([2, 3, 4], F16)], {"dim": (1, 2)})
g.case("norm/positional_p", "Tensor.norm", [sample([4, 4], F32), 2, -1], tol=acc_tol(torch.tensor([3.0]), 4))
g.case("norm/int", "torch.norm", [sample([3], I64)], expect_error=True)
g.case("norm/special", "torch.norm", [special(F32)], {"p": 2})
g.case("vector_norm/default", "torch.linalg.vector_norm", [sample([3, 4], F32)], tol=acc_tol(torch.tensor([3.0]), 12))
g.case("vector_norm/ord1_dim", "torch.linalg.vector_norm", [sample([3, 4], BF16), 1, -1])
g.case("vector_norm/inf", "torch.linalg.vector_norm", [sample([3, 4], F16)], {"ord": float("inf"), "dim": 0})
for dt in ALL_FLOATS:
    g.case(f"normalize/{dtype_tag(dt)}", "torch.nn.functional.normalize", [sample([3, 4], dt)],
           tol=acc_tol(torch.tensor([3.0]), 4))
g.case("normalize/dim_p", "torch.nn.functional.normalize", [sample([2, 3, 4], F32)], {"p": 1.0, "dim": -1},
       tol=acc_tol(torch.tensor([3.0]), 4))
g.case("normalize/zeros_eps", "torch.nn.functional.normalize", [torch.zeros(2, 3)], {"dim": 0})

# cumsum / cumprod
for op in ("cumsum", "cumprod"):
    sp = "torch." + op
    for dt in ALL_FLOATS + (I64, I32, BOOL):
        x = sample([3, 5], dt, 0.5, 1.5) if op == "cumprod" else sample([3, 5], dt)
        red(f"{op}/{dtype_tag(dt)}/dim1", sp, x, 1)
        red(f"{op}/{dtype_tag(dt)}/dim0", sp, x, 0)
    red(f"{op}/dtype", "Tensor." + op, sample([3, 5], I64), 1, {"dtype": F32})
    red(f"{op}/dtype_f64", sp, sample([3, 5], F16), -1, {"dtype": F64})
    red(f"{op}/transposed", sp, transposed(sample([3, 5], F32)), 1)
    red(f"{op}/special", sp, special(F32), 0)
red("cumsum/i64/large", "torch.cumsum", torch.tensor([2 ** 62, 2 ** 62, 1]), 0)

# softmax / log_softmax
for op in ("softmax", "log_softmax"):
    F = "torch.nn.functional." + op
    for dt in ALL_FLOATS:
        red(f"{op}/{dtype_tag(dt)}", F, sample([3, 7], dt, -4, 4), None, {"dim": -1})
    red(f"{op}/dim0", F, sample([4, 3], F32), None, {"dim": 0})
    red(f"{op}/torch_spelling", "torch." + op, sample([2, 5], F32), 1)
    red(f"{op}/method", "Tensor." + op, sample([2, 5], BF16), -1)
    g.case(f"{op}/torch_dtype_positional", "torch." + op, [sample([2, 5], F16), 1, F32],
           tol=acc_tol(torch.tensor([4.0]), 5))
    red(f"{op}/dtype_kw", F, sample([2, 5], F32), None, {"dim": 1, "dtype": F64})
    red(f"{op}/implicit_dim_2d", F, sample([3, 4], F32))
    red(f"{op}/implicit_dim_3d", F, sample([2, 3, 4], F32))
    red(f"{op}/transposed", F, transposed(sample([5, 3], F16)), None, {"dim": -1})
    red(f"{op}/large", F, sample([2, 6], F32, 50, 90), None, {"dim": 1})
    red(f"{op}/masked", F, torch.tensor([[0.5, float("-inf"), 1.0], [-3.4028234663852886e+38, 0.0, 1.0]]),
        None, {"dim": 1})
    red(f"{op}/stacklevel", F, sample([2, 5], F32), None, {"dim": 1, "_stacklevel": 5})
    red(f"{op}/int", F, sample([2, 5], I64), None, {"dim": 1}, expect_error=True)

# matrix norms (added last: cases draw from one random stream): linalg.norm with a matrix ord and linalg.matrix_norm (max/min |row| or |column| sums)
for o, tag in ((float("inf"), "inf"), (-float("inf"), "ninf"), (1, "one"), (-1, "neg_one")):
    g.case(f"linalg_norm/matrix_{tag}", "torch.linalg.norm", [sample([3, 4], F32), o], tol=acc_tol(torch.tensor([3.0]), 4))
    g.case(f"matrix_norm/{tag}_dims", "torch.linalg.matrix_norm", [sample([2, 3, 4], F32), o],
           {"dim": (2, 0), "keepdim": True}, tol=acc_tol(torch.tensor([3.0]), 4))
g.case("matrix_norm/fro_bf16", "torch.linalg.matrix_norm", [sample([3, 4], BF16)])
g.case("matrix_norm/fro_f64", "torch.linalg.matrix_norm", [sample([2, 3, 4], F64), "fro"])
g.case("linalg_norm/3d_no_dim", "torch.linalg.norm", [sample([2, 3, 4], F32), float("inf")], expect_error=True)
# norms from singular values (added last: cases draw from one random stream): 'nuc' (their sum),
# 2 and -2 (largest, smallest). PyTorch runs LAPACK in the input dtype: the allowance is a few
# units of the dtype times the Frobenius norm.
def svd_tol(x):
    unit = 2.0 ** -53 if x.dtype == F64 else 2.0 ** -24
    return {"ulps": 4, "abs": 64 * unit * float(x.double().norm())}


for o, tag in (("nuc", "nuc"), (2, "two"), (-2, "neg_two")):
    x = sample([3, 4], F32)
    g.case(f"linalg_norm/matrix_{tag}", "torch.linalg.norm", [x, o], tol=svd_tol(x))
    x = sample([2, 3, 4], F32)
    g.case(f"matrix_norm/{tag}_dims", "torch.linalg.matrix_norm", [x, o], {"dim": (2, 0), "keepdim": True},
           tol=svd_tol(x))
    x = sample([5, 3], F64)
    g.case(f"matrix_norm/{tag}_f64", "torch.linalg.matrix_norm", [x], {"ord": o}, tol=svd_tol(x))
x = sample([20, 30], F32)
g.case("matrix_norm/nuc_20x30", "torch.linalg.matrix_norm", [x, "nuc"], tol=svd_tol(x))
x = sample([4, 30, 20], F32)
g.case("matrix_norm/two_batched_dtype", "torch.linalg.matrix_norm", [x, 2], {"dtype": F64}, tol=svd_tol(x))
x = torch.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]], dtype=F64)
g.case("matrix_norm/neg_two_rank_deficient", "torch.linalg.matrix_norm", [x, -2], tol=svd_tol(x))
x = sample([4, 4], F32)
g.case("norm/nuc", "torch.norm", [x, "nuc"], tol=svd_tol(x))
x = sample([3, 2, 4], F32)
g.case("norm/nuc_dims_keepdim", "torch.norm", [x], {"p": "nuc", "dim": (2, 0), "keepdim": True}, tol=svd_tol(x))
x = sample([3, 5], F64)
g.case("norm/nuc_method", "Tensor.norm", [x], {"p": "nuc"}, tol=svd_tol(x))
x = sample([3, 5], F32)
g.case("norm/functional_nuc", "torch.functional.norm", [x, "nuc"], tol=svd_tol(x))
g.case("matrix_norm/nuc_empty", "torch.linalg.matrix_norm", [torch.zeros(2, 0, 3), "nuc"])
g.case("matrix_norm/two_empty", "torch.linalg.matrix_norm", [torch.zeros(0, 3), 2], expect_error=True)
g.case("matrix_norm/nuc_f16", "torch.linalg.matrix_norm", [sample([3, 3], F16), "nuc"], expect_error=True)
g.case("matrix_norm/two_bf16", "torch.linalg.matrix_norm", [sample([3, 3], BF16), 2], expect_error=True)
g.case("linalg_norm/nuc_3d_no_dim", "torch.linalg.norm", [sample([2, 3, 4], F32), "nuc"], expect_error=True)
g.case("norm/nuc_one_dim", "torch.norm", [sample([3, 4], F32), "nuc", 1], expect_error=True)
g.case("matrix_norm/three", "torch.linalg.matrix_norm", [sample([3, 3], F32), 3], expect_error=True)
# var_mean / std_mean (added last: cases draw from one random stream): (var or std, mean)
for op in ("var_mean", "std_mean"):
    for dt in (F32, F16, BF16, F64):
        x = sample([3, 8], dt)
        g.case(f"{op}/{dtype_tag(dt)}", f"torch.{op}", [x, 1], tol=acc_tol(x, 8))
    x = sample([2, 3, 4], F32)
    g.case(f"{op}/unbiased_false_keepdim", f"torch.{op}", [x, (0, 2), False, True], tol=acc_tol(x, 8))
    x = sample([4, 5], F32)
    g.case(f"{op}/all_positional_flag", f"torch.{op}", [x, False], tol=acc_tol(x, 20))
    x = sample([4, 5], F32)
    g.case(f"{op}/correction", f"torch.{op}", [x], {"dim": 0, "correction": 0, "keepdim": True}, tol=acc_tol(x, 4))
    g.case(f"{op}/transposed", f"torch.{op}", [transposed(sample([5, 3], F16))], {"dim": -1}, tol=acc_tol(x, 5))
    g.case(f"{op}/int", f"torch.{op}", [sample([2, 3], I64)], expect_error=True)
# softmin (added last): softmax of -input
SM = "torch.nn.functional.softmin"
for dt in ALL_FLOATS:
    red(f"softmin/{dtype_tag(dt)}", SM, sample([3, 7], dt, -4, 4), None, {"dim": -1})
red("softmin/dim0", SM, sample([4, 3], F32), None, {"dim": 0})
red("softmin/dtype_kw", SM, sample([2, 5], F16), None, {"dim": 1, "dtype": F32})
red("softmin/transposed", SM, transposed(sample([5, 3], F32)), None, {"dim": -1})
g.case("softmin/implicit_dim", SM, [sample([2, 3], F32)])
g.case("softmin/int", SM, [sample([2, 3], I64)], {"dim": 0}, expect_error=True)
# nanmean, count_nonzero, aminmax (added last)
def with_nans(x):
    x = x.clone()
    x.view(-1)[::3] = float("nan")
    return x


for dt in ALL_FLOATS:
    red(f"nanmean/{dtype_tag(dt)}", "torch.nanmean", with_nans(sample([3, 5], dt)), 1)
red("nanmean/all", "torch.nanmean", with_nans(sample([4, 3], F32)))
red("nanmean/all_nan_row", "Tensor.nanmean", torch.tensor([[float("nan")] * 3, [1.0, 2.0, 4.0]]), 1,
    {"keepdim": True})
red("nanmean/dtype", "torch.nanmean", with_nans(sample([2, 6], F16)), None, {"dim": (0, 1), "dtype": F32})
g.case("nanmean/int", "torch.nanmean", [sample([3], I64)], expect_error=True)
for dt in (F32, F16, I64, I32, BOOL):
    g.case(f"count_nonzero/{dtype_tag(dt)}", "torch.count_nonzero", [sample([3, 5], dt, -1, 1)], {"dim": 1})
g.case("count_nonzero/all", "torch.count_nonzero", [sample([4, 3], I64)])
g.case("count_nonzero/dims_nan", "Tensor.count_nonzero", [with_nans(sample([2, 3, 4], F32)), (0, 2)])
for dt in (F32, BF16, I64, U8):
    g.case(f"aminmax/{dtype_tag(dt)}", "torch.aminmax", [sample([3, 5], dt)], {"dim": 1})
g.case("aminmax/all", "torch.aminmax", [sample([4, 3], F32)])
g.case("aminmax/keepdim", "Tensor.aminmax", [sample([4, 3], I32)], {"dim": 0, "keepdim": True})
g.case("aminmax/nan", "torch.aminmax", [with_nans(sample([2, 4], F32))], {"dim": -1})
g.case("aminmax/transposed", "torch.aminmax", [transposed(sample([3, 4], F32))], {"dim": 0})
# F.cosine_similarity, F.pairwise_distance (added last)
CS, PD = "torch.nn.functional.cosine_similarity", "torch.nn.functional.pairwise_distance"
for dt in ALL_FLOATS:
    x = sample([3, 6], dt)
    g.case(f"cosine_similarity/{dtype_tag(dt)}", CS, [x, sample([3, 6], dt)], tol=acc_tol(x, 18))
    g.case(f"pairwise_distance/{dtype_tag(dt)}", PD, [x, sample([3, 6], dt)], tol=acc_tol(x, 18))
x = sample([2, 5, 8], F32)
g.case("cosine_similarity/broadcast_dim_last", CS, [sample([5, 8], F32), x], {"dim": -1}, tol=acc_tol(x, 16))
g.case("cosine_similarity/broadcast_dim1", CS, [sample([5, 8], F32), x], {"dim": 1}, tol=acc_tol(x, 16))
g.case("cosine_similarity/eps_clamps_each", CS, [torch.tensor([[1e-5, 0.0]]), torch.tensor([[1e-5, 0.0]])],
       {"eps": 1e-3}, tol={"ulps": 4})  # PyTorch rounds each quotient to float32
g.case("cosine_similarity/mixed_dtypes", CS, [sample([4, 3], F16), sample([4, 3], F32)], {"dim": 0},
       tol=acc_tol(x, 8))
g.case("cosine_similarity/int", CS, [sample([2, 3], I64), sample([2, 3], I64)], expect_error=True)
g.case("pairwise_distance/p1_keepdim", PD, [x, sample([8], F32)], {"p": 1.0, "keepdim": True}, tol=acc_tol(x, 16))
g.case("pairwise_distance/pinf", PD, [x, sample([5, 8], F32)], {"p": float("inf")})
g.case("pairwise_distance/p3_eps", PD, [x, x.clone()], {"p": 3.0, "eps": 0.5}, tol=acc_tol(x, 16))
g.case("pairwise_distance/1d", PD, [sample([6], F32), sample([6], F32)], tol=acc_tol(x, 16))
g.case("pairwise_distance/int_promotes", PD, [sample([3, 4], I64), sample([3, 4], I64)], tol=acc_tol(x, 16))
# torch.cdist (added last); up to 25 rows PyTorch computes the differences, past that (p = 2)
# its matrix-product form, whose cancellation needs an absolute allowance against the exact
# reference
CD = "torch.cdist"
for dt in (F32, F64):
    x = sample([2, 5, 6], dt)
    g.case(f"cdist/{dtype_tag(dt)}", CD, [x, sample([2, 7, 6], dt)], tol=acc_tol(x, 6))
g.case("cdist/p1_broadcast_batch", CD, [sample([1, 4, 3], F32), sample([3, 5, 3], F32)], {"p": 1.0},
       tol={"ulps": 4})
g.case("cdist/pinf_2d", CD, [sample([4, 3], F32), sample([6, 3], F32)], {"p": float("inf")})
g.case("cdist/p0", CD, [sample([4, 3], F32), sample([6, 3], F32)], {"p": 0.0})
g.case("cdist/mm_rows", CD, [sample([30, 8], F32), sample([27, 8], F32)], tol={"ulps": 8, "abs": 2e-5})
g.case("cdist/donot_use_mm", CD, [sample([30, 8], F32), sample([27, 8], F32)],
       {"compute_mode": "donot_use_mm_for_euclid_dist"}, tol={"ulps": 4})
g.case("cdist/columns_differ", CD, [sample([3, 4], F32), sample([3, 5], F32)], expect_error=True)
g.case("cdist/1d", CD, [sample([4], F32), sample([4], F32)], expect_error=True)
g.case("cdist/int", CD, [sample([3, 4], I64), sample([3, 4], I64)], expect_error=True)
# torch.dist (added last)
for dt in ALL_FLOATS:
    x = sample([3, 4], dt)
    g.case(f"dist/{dtype_tag(dt)}", "torch.dist", [x, sample([3, 4], dt)], tol=acc_tol(x, 12))
g.case("dist/p3_broadcast", "Tensor.dist", [sample([3, 4], F32), sample([4], F32), 3], tol={"ulps": 4})
g.case("dist/p0", "torch.dist", [sample([3, 4], F32), sample([3, 4], F32), 0])
g.case("dist/pinf", "torch.dist", [sample([3, 4], F32), sample([3, 1], F32), float("inf")])
g.case("dist/mixed", "torch.dist", [sample([5], F16), sample([5], F32)], tol={"ulps": 4})
g.case("dist/int", "torch.dist", [sample([3], I64), sample([3], I64)], expect_error=True)
g.write()
