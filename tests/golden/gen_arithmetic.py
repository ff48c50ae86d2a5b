"""Golden fixtures for evaluator/ops/arithmetic.cpp. Run: /usr/bin/python3 tests/golden/gen_arithmetic.py"""
import torch

from golden_lib import (ALL_FLOATS, BF16, F16, F32, F64, Golden, dtype_tag, eps, permuted, rint, rnd, special,
                        strided, transposed)

g = Golden("arithmetic")
I64, I32, I16, I8, U8, BOOL = torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool


def floats_and_ints(name, spelling, lo=-3.0, hi=3.0, ints=True, nonzero_rhs=False, **kw):
    def rhs(shape, dt):
        if dt.is_floating_point:
            t = rnd(shape, dt, lo, hi)
            return torch.where(t.abs() < 0.25, torch.ones_like(t), t) if nonzero_rhs else t
        t = rint(shape, dt, -9, 10)
        return torch.where(t == 0, torch.ones_like(t), t) if nonzero_rhs else t

    for dt in ALL_FLOATS:
        tag = dtype_tag(dt)
        g.case(f"{name}/{tag}/same", spelling, [rnd([2, 3], dt, lo, hi), rhs([2, 3], dt)], **kw)
        g.case(f"{name}/{tag}/broadcast", spelling, [rnd([4, 1, 3], dt, lo, hi), rhs([5, 1], dt)], **kw)
    g.case(f"{name}/f32/transposed", spelling, [transposed(rnd([3, 4], F32, lo, hi)), rhs([3, 4], F32)], **kw)
    g.case(f"{name}/f16/strided", spelling, [strided(rnd([2, 5], F16, lo, hi)), rhs([5], F16)], **kw)
    g.case(f"{name}/f32/int_scalar", spelling, [rnd([6], F32, lo, hi), 2], **kw)
    g.case(f"{name}/f16/float_scalar", spelling, [rnd([6], F16, lo, hi), 1.7], **kw)
    g.case(f"{name}/bf16/zero_dim_f32", spelling, [rnd([6], torch.bfloat16, lo, hi), rhs([], F32)], **kw)
    g.case(f"{name}/f32/zero_dim_f64", spelling, [rnd([2, 3], F32, lo, hi), rhs([], torch.float64)], **kw)
    g.case(f"{name}/f16+f32", spelling, [rnd([2, 3], F16, lo, hi), rhs([3], F32)], **kw)
    g.case(f"{name}/bf16+f16", spelling, [rnd([3], torch.bfloat16, lo, hi), rhs([3], F16)], **kw)
    g.case(f"{name}/f32/special", spelling, [special(F32), rhs([10], F32)], **kw)
    if ints:
        for dt in (I64, I32, I16, I8, U8):
            lo_i = 0 if dt == U8 else -9
            g.case(f"{name}/{dtype_tag(dt)}/same", spelling,
                   [rint([2, 3], dt, lo_i, 10), rhs([2, 3], dt).abs() if dt == U8 else rhs([2, 3], dt)], **kw)
        g.case(f"{name}/i64/float_scalar", spelling, [rint([5], I64), 2.5], **kw)
        g.case(f"{name}/i32/int_scalar", spelling, [rint([5], I32), 3], **kw)
        g.case(f"{name}/i32+i64", spelling, [rint([5], I32), rhs([5], I64)], **kw)
        g.case(f"{name}/i64+f16", spelling, [rint([2, 3], I64), rhs([3], F16)], **kw)
        g.case(f"{name}/i32+zero_dim_f64", spelling, [rint([4], I32), rhs([], torch.float64)], **kw)
        g.case(f"{name}/u8+i8", spelling, [rint([4], U8, 0, 10), rhs([4], I8)], **kw)
        g.case(f"{name}/i64/large", spelling,
               [torch.tensor([2 ** 60 + 1, -(2 ** 55) - 3, 7]), rhs([3], I64)], **kw)


floats_and_ints("add", "torch.add")
g.case("add/alpha/f32", "torch.add", [rnd([3, 2]), rnd([2])], {"alpha": 0.5})
g.case("add/alpha/i64", "torch.add", [rint([4]), rint([4])], {"alpha": 3})
g.case("add/alpha_float_int_input", "torch.add", [rint([4]), rint([4])], {"alpha": 0.5}, expect_error=True)
g.case("add/bool+bool", "operator.add", [torch.tensor([True, False, True]), torch.tensor([True, False, False])])
g.case("add/bool+int_scalar", "operator.add", [torch.tensor([True, False]), 1])
g.case("add/bool+float_scalar", "operator.add", [torch.tensor([True, False]), 1.5])
g.case("add/scalar_first", "operator.add", [1.0, rnd([2, 3])])
g.case("add/int_scalar_first_f16", "operator.add", [3, rnd([4], F16)])
g.case("add/method", "Tensor.add", [rnd([3]), rnd([3])])
g.case("add/iadd", "operator.iadd", [rnd([2, 3]), rnd([3])])
g.case("add/add_", "Tensor.add_", [rnd([2, 3]), 1.0])
g.case("add/zero_dim_both", "torch.add", [rnd([], F32), rnd([], F16)])
g.case("add/zero_dim_int_plus_float_scalar", "torch.add", [rint([], I32), 0.5])
g.case("add/no_broadcast", "torch.add", [rnd([2, 3]), rnd([4])], expect_error=True)
g.case("add/i32/overflow_wraps", "torch.add", [torch.tensor([2 ** 31 - 1], dtype=I32), 1])
g.case("add/eps_f32", "operator.add", [rnd([2, 8]), 1e-06])

floats_and_ints("sub", "torch.sub")
g.case("sub/alpha/f16", "Tensor.sub", [rnd([3, 2], F16), rnd([2], F16)], {"alpha": 2})
g.case("sub/scalar_first", "operator.sub", [1.0, rnd([2, 3])])
g.case("sub/bool", "torch.sub", [torch.tensor([True]), torch.tensor([False])], expect_error=True)
g.case("sub/isub", "operator.isub", [rnd([4]), rnd([4])])
g.case("rsub/f32", "torch.rsub", [rnd([2, 3]), 1.0])
g.case("rsub/alpha/f32", "torch.rsub", [rnd([2, 3]), rnd([3])], {"alpha": 2})
g.case("rsub/i64", "torch.rsub", [rint([5]), 4])

floats_and_ints("mul", "torch.mul")
g.case("mul/bool", "operator.mul", [torch.tensor([True, True, False]), torch.tensor([True, False, False])])
g.case("mul/scalar_first", "operator.mul", [1.702, rnd([2, 3])])
g.case("mul/imul", "operator.imul", [rnd([3], F16), rnd([3], F16)])
g.case("mul/i64/overflow_wraps", "torch.mul", [torch.tensor([2 ** 62, 3]), 4])

floats_and_ints("div", "torch.div", nonzero_rhs=True)
g.case("div/truediv/scalar", "operator.truediv", [rnd([2, 4]), 2.8284271247461903])
g.case("div/truediv/int_scalar", "operator.truediv", [rnd([2, 4], F16), 2])
g.case("div/int_int", "operator.truediv", [rint([6]), rint([6], I64, 1, 5)])
g.case("div/by_zero_float", "torch.div", [torch.tensor([1.0, -1.0, 0.0]), torch.tensor([0.0, 0.0, 0.0])])
g.case("div/scalar_first", "operator.truediv", [1.0, rnd([4], F32, 0.5, 3)])
for mode in ("trunc", "floor"):
    g.case(f"div/{mode}/f32", "torch.div", [rnd([3, 4], F32, -9, 9), rnd([4], F32, 0.3, 2)], {"rounding_mode": mode})
    g.case(f"div/{mode}/f16", "torch.div", [rnd([3, 4], F16, -9, 9), rnd([4], F16, -2, -0.3)], {"rounding_mode": mode})
    g.case(f"div/{mode}/bf16", "Tensor.div", [rnd([3, 4], torch.bfloat16, -9, 9), 0.7], {"rounding_mode": mode})
    g.case(f"div/{mode}/i64", "torch.div", [rint([8], I64, -20, 20), torch.tensor([3, -3, 2, -2, 7, -7, 1, 5])], {"rounding_mode": mode})
    g.case(f"div/{mode}/i32_scalar", "torch.div", [rint([8], I32, -20, 20), -3], {"rounding_mode": mode})
    g.case(f"div/{mode}/i64_by_zero", "torch.div", [rint([3]), torch.tensor([1, 0, 2])], {"rounding_mode": mode}, expect_error=True)
g.case("div/bad_mode", "torch.div", [rnd([3]), 2.0], {"rounding_mode": "round"}, expect_error=True)

for spelling in ("torch.floor_divide", "operator.floordiv"):
    tag = spelling.split(".")[1]
    g.case(f"floordiv/{tag}/f32", spelling, [rnd([3, 4], F32, -9, 9), rnd([4], F32, -3, 3)])
    g.case(f"floordiv/{tag}/i64", spelling, [rint([8], I64, -20, 20), torch.tensor([3, -3, 2, -2, 7, -7, 1, 5])])
g.case("floordiv/f16_scalar", "operator.floordiv", [rnd([6], F16, -9, 9), 2])
g.case("floordiv/i32_scalar", "operator.floordiv", [rint([6], I32, -9, 9), -4])

for spelling in ("torch.remainder", "operator.mod"):
    tag = spelling.split(".")[1]
    g.case(f"remainder/{tag}/f32", spelling, [rnd([3, 4], F32, -9, 9), rnd([4], F32, -3, 3)])
    g.case(f"remainder/{tag}/i64", spelling, [rint([8], I64, -20, 20), torch.tensor([3, -3, 2, -2, 7, -7, 1, 5])])
g.case("remainder/f16_scalar", "Tensor.remainder", [rnd([6], F16, -9, 9), 1.5])
g.case("remainder/by_zero_int", "torch.remainder", [rint([3]), 0], expect_error=True)
g.case("fmod/f32", "torch.fmod", [rnd([3, 4], F32, -9, 9), rnd([4], F32, -3, 3)])
g.case("fmod/i64", "torch.fmod", [rint([8], I64, -20, 20), torch.tensor([3, -3, 2, -2, 7, -7, 1, 5])])
g.case("fmod/bf16", "Tensor.fmod", [rnd([6], torch.bfloat16, -9, 9), 1.5])

for dt in ALL_FLOATS:
    tag = dtype_tag(dt)
    g.case(f"pow/{tag}/square", "Tensor.pow", [rnd([2, 5], dt), 2])
    g.case(f"pow/{tag}/sqrt", "torch.pow", [rnd([2, 5], dt, 0, 4), 0.5])
    g.case(f"pow/{tag}/general", "torch.pow", [rnd([2, 5], dt, 0.1, 3), 1.7], tol={"ulps": 2})
    g.case(f"pow/{tag}/tensor_tensor", "torch.pow", [rnd([2, 5], dt, 0.1, 3), rnd([5], dt, -2, 2)], tol={"ulps": 2})
    g.case(f"pow/{tag}/scalar_base", "torch.pow", [2.0, rnd([5], dt, -3, 3)], tol={"ulps": 2})
g.case("pow/f32/negative_base_int_exp", "operator.pow", [rnd([6], F32, -3, 3), 3], tol={"ulps": 2})
g.case("pow/f32/reciprocal", "operator.pow", [rnd([6], F32, 0.5, 3), -1])
g.case("pow/f32/negative_base_fraction", "torch.pow", [rnd([4], F32, -3, -0.5), 0.5])
g.case("pow/f32/transposed", "torch.pow", [transposed(rnd([3, 4], F32, 0.1, 2)), 2])
g.case("pow/i64/int_exp", "torch.pow", [rint([6], I64, -5, 5), 3])
g.case("pow/i64/tensor_exp", "torch.pow", [rint([6], I64, -3, 4), torch.tensor([0, 1, 2, 3, -1, -2])])
g.case("pow/i64/neg_scalar_exp", "torch.pow", [rint([6], I64, -3, 4), -2], expect_error=True)
g.case("pow/i32/float_exp", "torch.pow", [rint([6], I32, 1, 5), 0.5])
g.case("pow/int_scalar_base", "operator.pow", [2, rint([5], I64, 0, 10)])
g.case("pow/i64/large", "torch.pow", [torch.tensor([3, 7]), 39])

for dt in ALL_FLOATS + (I64, I32, I8):
    tag = dtype_tag(dt)
    x = rnd([2, 4], dt) if dt.is_floating_point else rint([2, 4], dt)
    g.case(f"neg/{tag}", "operator.neg", [x])
    y = rnd([2, 4], dt) if dt.is_floating_point else rint([2, 4], dt)
    g.case(f"abs/{tag}", "torch.abs", [y])
g.case("neg/special", "torch.neg", [special(F32)])
g.case("neg/transposed", "Tensor.neg", [transposed(rnd([3, 4], F16))])
g.case("neg/bool", "torch.neg", [torch.tensor([True])], expect_error=True)
g.case("abs/special", "Tensor.abs", [special(torch.bfloat16)])
g.case("abs/bool", "torch.abs", [torch.tensor([True, False])], expect_error=True)
g.case("abs/i8_min", "torch.abs", [torch.tensor([-128, 5], dtype=I8)])
for dt in ALL_FLOATS:
    g.case(f"reciprocal/{dtype_tag(dt)}", "torch.reciprocal", [rnd([2, 4], dt, 0.1, 4)])
g.case("reciprocal/special", "Tensor.reciprocal", [special(F32)])
g.case("reciprocal/i64", "torch.reciprocal", [rint([5], I64, 1, 9)])
g.case("reciprocal/bool", "torch.reciprocal", [torch.tensor([True, False])])
g.case("positive/f32", "operator.pos", [rnd([2, 3])])
g.case("positive/bool", "torch.positive", [torch.tensor([True])], expect_error=True)
# atan2 / hypot / copysign / logaddexp / xlogy (added last: cases draw from one random stream):
# integer operands compute in float32; PyTorch's float32 formulas allow a few units.
for name in ("atan2", "hypot", "copysign", "logaddexp", "xlogy"):
    for dt in (F32, F16, BF16, F64):
        g.case(f"{name}/{dtype_tag(dt)}", f"torch.{name}", [rnd([3, 4], dt, -3, 3), rnd([4], dt, 0.1, 3)],
               tol={"ulps": 4})
    g.case(f"{name}/int_promotes", f"torch.{name}", [torch.tensor([-3, 0, 2]), torch.tensor([2, 1, 5])],
           tol={"ulps": 4}, expect_error=name in ("hypot", "logaddexp"))
    if name in ("copysign", "xlogy"):  # the others take tensors only in PyTorch 1.13
        g.case(f"{name}/scalar_other", f"torch.{name}", [rnd([5], F32, -3, 3), 2.0], tol={"ulps": 4})
    g.case(f"{name}/method_transposed", f"Tensor.{name}", [transposed(rnd([4, 3], F32, -3, 3)), rnd([4], F32, 0.5, 2).reshape(4, 1)],
           tol={"ulps": 4})
g.case("atan2/arctan2_zeros", "torch.arctan2", [torch.tensor([0.0, -0.0, 0.0, -0.0]), torch.tensor([0.0, 0.0, -0.0, -1.0])])
g.case("logaddexp/infinities", "torch.logaddexp", [torch.tensor([float("inf"), -float("inf"), -float("inf"), 1.0]),
                                                   torch.tensor([float("inf"), -float("inf"), 0.0, float("nan")])])
g.case("xlogy/zero_and_nan", "torch.xlogy", [torch.tensor([0.0, 0.0, 2.0, 0.0]),
                                             torch.tensor([0.0, float("nan"), 0.0, -1.0])])
g.case("xlogy/special", "torch.special.xlogy", [rnd([3], F32, 0.5, 2), rnd([3], F32, 0.5, 2)], tol={"ulps": 4})
g.case("copysign/signed_zero", "torch.copysign", [torch.tensor([1.0, 2.0, float("nan")]), torch.tensor([-0.0, 0.0, -1.0])])
g.case("hypot/in_place", "Tensor.hypot_", [rnd([3], F32), rnd([3], F32)], tol={"ulps": 4})
# lerp, heaviside, float_power (added last); PyTorch's CPU lerp rounds every step in the
# input dtype where the reference computes in double: near-cancelling end - (end - start) * (1 - w)
# is apart by a few ulps of the operands (magnitude up to 3 here)
def lerp_tol(dt=F32):
    return {"ulps": 4, "abs": 4 * 3 * eps(dt if dt.is_floating_point else F32)}


LERP_TOL = lerp_tol()
for dt in ALL_FLOATS:
    g.case(f"lerp/scalar_weight/{dtype_tag(dt)}", "torch.lerp", [rnd([3, 4], dt), rnd([4], dt), 0.3], tol=lerp_tol(dt))
    g.case(f"lerp/tensor_weight/{dtype_tag(dt)}", "torch.lerp",
           [rnd([3, 4], dt), rnd([3, 4], dt), rnd([3, 1], dt, -0.5, 1.5)], tol=lerp_tol(dt))
g.case("lerp/weight_above_half", "Tensor.lerp", [rnd([5], F32), rnd([5], F32), 0.75], tol=LERP_TOL)
g.case("lerp/transposed", "torch.lerp", [transposed(rnd([3, 4], F32)), rnd([4], F32), rnd([3, 4], F32)], tol=LERP_TOL)
g.case("lerp/in_place", "Tensor.lerp_", [rnd([2, 3], F32), rnd([2, 3], F32), 0.5], tol=LERP_TOL)
g.case("lerp/int", "torch.lerp", [rint([3], I64), rint([3], I64), 0.5], expect_error=True)
g.case("lerp/mixed_dtypes", "torch.lerp", [rnd([3], F32), rnd([3], F64), 0.5], expect_error=True)
for dt in (F32, F16, BF16, F64, I64, I32, U8, BOOL):
    x = torch.tensor([-2, 0, 3, 0, 1, 0]).to(dt)
    v = (rnd([6], dt) if dt.is_floating_point else rint([6], dt, 0, 9)) if dt != BOOL else rint([6], I64, 0, 2).bool()
    g.case(f"heaviside/{dtype_tag(dt)}", "torch.heaviside", [x, v])
g.case("heaviside/broadcast_nan", "Tensor.heaviside",
       [torch.tensor([[-1.0, 0.0], [float("nan"), 2.0]]), torch.tensor([0.5])])
g.case("heaviside/mixed_dtypes", "torch.heaviside", [rnd([3], F32), rnd([3], F64)], expect_error=True)
for dt in (F32, F16, I64, BOOL):
    base = rnd([3, 4], dt, 0.1, 3) if dt.is_floating_point else (rint([3, 4], dt, -4, 5) if dt != BOOL else rint([3, 4], I64, 0, 2).bool())
    g.case(f"float_power/scalar_exp/{dtype_tag(dt)}", "torch.float_power", [base, 2])
g.case("float_power/tensor_exp", "torch.float_power", [rnd([3, 4], F32, 0.1, 3), rnd([4], F16, -2, 2)])
g.case("float_power/fractional_negative_base", "Tensor.float_power", [torch.tensor([-8.0, 8.0]), 1 / 3])
g.case("float_power/scalar_base", "torch.float_power", [2, rint([4], I64, -3, 4)])
g.write()
