"""Golden fixtures for evaluator/ops/where.cpp and clamp.cpp. Run: /usr/bin/python3 tests/golden/gen_where.py"""
import torch

from golden_lib import ALL_FLOATS, BF16, F16, F32, F64, Golden, dtype_tag, rbool, rint, rnd, special, strided, transposed

g = Golden("where")
I64, I32, BOOL = torch.int64, torch.int32, torch.bool

for dt in ALL_FLOATS + (I64, I32, BOOL):
    x = rnd([3, 4], dt) if dt.is_floating_point else (rbool([3, 4]) if dt == BOOL else rint([3, 4], dt))
    y = rnd([4], dt) if dt.is_floating_point else (rbool([4]) if dt == BOOL else rint([4], dt))
    g.case(f"where/{dtype_tag(dt)}", "torch.where", [rbool([3, 4]), x, y])
g.case("where/broadcast_cond", "torch.where", [rbool([2, 1, 4]), rnd([3, 1], F16), rnd([4], F16)])
g.case("where/scalar_other", "torch.where", [rbool([2, 3]), rnd([2, 3], F16), 0.0])
g.case("where/scalar_input", "torch.where", [rbool([2, 3]), -1e4, rnd([2, 3], BF16)])
g.case("where/float_scalars", "torch.where", [rbool([5]), 1.0, 0.0])
g.case("where/int_scalars", "torch.where", [rbool([5]), 1, 0])
g.case("where/int_and_float_scalar", "torch.where", [rbool([5]), rint([5], I64), 0.5])
g.case("where/mixed_dtypes", "torch.where", [rbool([5]), rnd([5], F16), rnd([5], F32)])
g.case("where/zero_dim_other", "torch.where", [rbool([5]), rnd([5], F16), rnd([], F32)])
g.case("where/transposed", "torch.where", [transposed(rbool([3, 4])), transposed(rnd([3, 4])), rnd([3, 4])])
g.case("where/method", "Tensor.where", [rnd([2, 3]), rbool([2, 3]), rnd([3])])
g.case("where/method_zero_dim", "Tensor.where", [rnd([2, 3], F16), rbool([2, 3]), rnd([], F16)])
g.case("where/float_condition", "torch.where", [rnd([3]), rnd([3]), rnd([3])], expect_error=True)
g.case("where/no_broadcast", "torch.where", [rbool([3]), rnd([4]), rnd([3])], expect_error=True)
g.case("where/special", "torch.where", [rbool([10]), special(F32), special(F32).flip(0)])

for dt in ALL_FLOATS + (I64, I32, BOOL):
    x = rnd([3, 4], dt) if dt.is_floating_point else (rbool([3, 4]) if dt == BOOL else rint([3, 4], dt))
    g.case(f"masked_fill/{dtype_tag(dt)}", "Tensor.masked_fill", [x, rbool([3, 4]), 1])
g.case("masked_fill/f32_min", "Tensor.masked_fill", [rnd([2, 4]), rbool([2, 4]), -3.4028234663852886e+38])
g.case("masked_fill/f16_f32_min", "Tensor.masked_fill", [rnd([2, 4], F16), rbool([2, 4]), -3.4028234663852886e+38],
       expect_error=True)
g.case("masked_fill/bf16_f32_min", "Tensor.masked_fill", [rnd([2, 4], BF16), rbool([2, 4]), -3.4028234663852886e+38],
       expect_error=True)
g.case("masked_fill/f16_min", "Tensor.masked_fill", [rnd([2, 4], F16), rbool([2, 4]), -65504.0])
g.case("masked_fill/f16_neg_inf", "Tensor.masked_fill", [rnd([2, 4], F16), rbool([2, 4]), float("-inf")])
g.case("masked_fill/bf16_neg_10000", "Tensor.masked_fill", [rnd([2, 4], BF16), rbool([2, 4]), -10000.0])
g.case("masked_fill/broadcast_mask", "Tensor.masked_fill", [rnd([2, 3, 4]), rbool([1, 3, 1]), 0.0])
g.case("masked_fill/mask_bigger", "Tensor.masked_fill", [rnd([3]), rbool([2, 3]), 0.5])
g.case("masked_fill/tensor_value", "Tensor.masked_fill", [rnd([2, 4], F16), rbool([2, 4]), torch.tensor(-2.5)])
g.case("masked_fill/int_tensor_value", "torch.masked_fill", [rint([2, 4]), rbool([2, 4]), torch.tensor(7)])
g.case("masked_fill/float_into_int", "torch.masked_fill", [rint([2, 4]), rbool([2, 4]), 2.7])
g.case("masked_fill/i32_overflow", "torch.masked_fill", [rint([4], I32), rbool([4]), 2 ** 40], expect_error=True)
g.case("masked_fill/in_place_spelling", "Tensor.masked_fill_", [rnd([2, 4]), rbool([2, 4]), -10000.0])
g.case("masked_fill/transposed", "Tensor.masked_fill", [transposed(rnd([3, 4])), transposed(rbool([3, 4])), 0.0])
g.case("masked_fill/float_mask", "Tensor.masked_fill", [rnd([3]), rnd([3]), 0.0], expect_error=True)
g.case("masked_fill/value_not_0dim", "Tensor.masked_fill", [rnd([3]), rbool([3]), torch.tensor([1.0])],
       expect_error=True)

for dt in ALL_FLOATS + (I64, I32):
    x = rnd([3, 4], dt, -3, 3) if dt.is_floating_point else rint([3, 4], dt)
    g.case(f"clamp/{dtype_tag(dt)}", "torch.clamp", [x, -1, 2])
g.case("clamp/min_only", "torch.clamp", [rnd([6])], {"min": 0.0})
g.case("clamp/max_only", "Tensor.clamp", [rnd([6], F16)], {"max": 0.5})
g.case("clamp/clip", "torch.clip", [rnd([6]), -0.5, 0.5])
g.case("clamp/clamp_", "Tensor.clamp_", [rnd([6]), 0.0, 1.0])
g.case("clamp/int_float_bounds", "torch.clamp", [rint([6]), 0.5, 6.5])
g.case("clamp/int_from_corpus", "torch.clamp", [rint([6], I64, -100, 600), 0, 511])
g.case("clamp/bool", "torch.clamp", [rbool([4]), 0, 1])
g.case("clamp/tensor_bounds", "torch.clamp", [rnd([2, 3]), rnd([3], F32, -2, 0), rnd([2, 1], F32, 0, 2)])
g.case("clamp/tensor_bounds_promote", "torch.clamp", [rnd([2, 3], F16), rnd([], F32, -1, 0), rnd([3], F64, 0, 1)])
g.case("clamp/inverted", "torch.clamp", [rnd([5]), 1.0, -1.0])
g.case("clamp/nan", "torch.clamp", [special(F32), -1.0, 1.0])
g.case("clamp/nan_bound", "torch.clamp", [rnd([3]), float("nan"), 1.0])
g.case("clamp/transposed", "torch.clamp", [transposed(rnd([3, 4], BF16)), -0.5, 0.5])
g.case("clamp/no_bounds", "torch.clamp", [rnd([3])], expect_error=True)
g.case("clamp_min/f32", "torch.clamp_min", [rnd([2, 3]), 0.0])
g.case("clamp_min/tensor", "Tensor.clamp_min", [rnd([2, 3], F16), rnd([3], F16)])
g.case("clamp_max/f32", "torch.clamp_max", [rnd([2, 3]), 0.0])
g.case("clamp_max/i64", "Tensor.clamp_max", [rint([5]), 2])
g.write()
