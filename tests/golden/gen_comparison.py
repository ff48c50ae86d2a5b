"""Golden fixtures for evaluator/ops/comparison.cpp. Run: /usr/bin/python3 tests/golden/gen_comparison.py"""
import torch

from golden_lib import ALL_FLOATS, BF16, F16, F32, F64, Golden, dtype_tag, rbool, rint, rnd, special, transposed

g = Golden("comparison")
I64, I32, U8, BOOL = torch.int64, torch.int32, torch.uint8, torch.bool


def small(shape, dt):
    """Values with many ties, so equality matters."""
    if dt == BOOL:
        return rbool(shape)
    if dt.is_floating_point:
        return (rint(shape, I64, -3, 4).to(torch.float64) * 0.5).to(dt)
    return rint(shape, dt, 0 if dt == U8 else -3, 4)


COMPARE = {
    "eq": ["torch.eq", "Tensor.eq", "operator.eq"],
    "ne": ["torch.ne", "torch.not_equal", "operator.ne"],
    "lt": ["torch.lt", "torch.less", "operator.lt"],
    "le": ["torch.le", "Tensor.less_equal", "operator.le"],
    "gt": ["torch.gt", "torch.greater", "operator.gt"],
    "ge": ["torch.ge", "torch.greater_equal", "operator.ge"],
}
for name, spellings in COMPARE.items():
    sp = spellings[0]
    for dt in ALL_FLOATS + (I64, I32, U8, BOOL):
        g.case(f"{name}/{dtype_tag(dt)}", sp, [small([3, 4], dt), small([3, 4], dt)])
    for i, s in enumerate(spellings[1:]):
        g.case(f"{name}/spelling{i + 1}", s, [small([2, 3], F32), small([3], F32)])
    g.case(f"{name}/broadcast", sp, [small([2, 1, 3], F16), small([4, 1], F16)])
    g.case(f"{name}/float_scalar", sp, [small([6], F32), 0.5])
    g.case(f"{name}/f16_vs_scalar_0.1", sp, [torch.tensor([0.1, 0.0999755859375, 0.10003662109375], dtype=F16), 0.1])
    g.case(f"{name}/f32_vs_scalar_0.1", sp, [torch.tensor([0.1, 0.10000000149011612, 0.09999999403953552]), 0.1])
    g.case(f"{name}/int_vs_float_scalar", sp, [small([6], I64), 1.5])
    g.case(f"{name}/int_vs_int_scalar", sp, [small([6], I32), 1])
    g.case(f"{name}/mixed_f16_i64", sp, [small([6], F16), small([6], I64)])
    g.case(f"{name}/special", sp, [special(F32), special(F32).flip(0)])
    g.case(f"{name}/transposed", sp, [transposed(small([3, 4], BF16)), small([4], BF16)])
g.case("gt/operator/scalar_first", "operator.gt", [0.5, small([5], F32)])
g.case("eq/i64/large", "torch.eq", [torch.tensor([2 ** 60, 2 ** 60 + 1]), torch.tensor([2 ** 60 + 1, 2 ** 60 + 1])])

for name in ("maximum", "minimum", "fmax", "fmin"):
    sp = "torch." + name
    for dt in ALL_FLOATS + (I64, I32, BOOL):
        g.case(f"{name}/{dtype_tag(dt)}", sp, [small([3, 4], dt), small([4], dt)])
    g.case(f"{name}/special", sp, [special(F32), special(F32).flip(0)])
    g.case(f"{name}/mixed", "Tensor." + name, [small([2, 3], F16), small([3], F32)])
    g.case(f"{name}/i64_f32", sp, [small([2, 3], I64), small([3], F32)])

for name in ("logical_and", "logical_or", "logical_xor"):
    sp = "torch." + name
    for dt in (BOOL, F32, I64, F16):
        g.case(f"{name}/{dtype_tag(dt)}", sp, [small([3, 4], dt), small([4], dt)])
    g.case(f"{name}/mixed", "Tensor." + name, [small([5], F32), small([5], BOOL)])
    g.case(f"{name}/nan", sp, [special(F32), special(F32)])
for dt in (BOOL, F32, I64, BF16):
    g.case(f"logical_not/{dtype_tag(dt)}", "torch.logical_not", [small([3, 4], dt)])
g.case("logical_not/special", "Tensor.logical_not", [special(F32)])

BITWISE = {
    "bitwise_and": ["torch.bitwise_and", "operator.and_", "Tensor.bitwise_and", "operator.iand"],
    "bitwise_or": ["torch.bitwise_or", "operator.or_", "operator.ior"],
    "bitwise_xor": ["torch.bitwise_xor", "operator.xor"],
}
for name, spellings in BITWISE.items():
    for dt in (BOOL, I64, I32, U8):
        g.case(f"{name}/{dtype_tag(dt)}", spellings[0], [small([3, 4], dt), small([4], dt)])
    for i, s in enumerate(spellings[1:]):
        g.case(f"{name}/spelling{i + 1}", s, [small([6], BOOL), small([6], BOOL)])
    g.case(f"{name}/int_scalar", spellings[0], [rint([5], I64, -50, 50), 6])
    g.case(f"{name}/float", spellings[0], [small([3], F32), small([3], F32)], expect_error=True)
for dt in (BOOL, I64, I32, U8):
    g.case(f"bitwise_not/{dtype_tag(dt)}", "torch.bitwise_not", [small([3, 4], dt)])
g.case("bitwise_not/invert_bool", "operator.invert", [small([6], BOOL)])
g.case("bitwise_not/invert_int", "operator.invert", [rint([6], I64, -50, 50)])
g.case("bitwise_not/float", "torch.bitwise_not", [small([3], F32)], expect_error=True)
# shifts (added last): amounts within the dtype's width (PyTorch 1.13's CPU
# kernel leaves wider ones undefined)
I8, I16 = torch.int8, torch.int16
for dt in (I64, I32, I16, I8, U8):
    bits = 8 * torch.tensor([], dtype=dt).element_size()
    x = rint([3, 4], dt, 0 if dt == U8 else -50, 50)
    n = rint([4], I64, 0, bits).to(dt)
    g.case(f"left_shift/{dtype_tag(dt)}", "torch.bitwise_left_shift", [x, n])
    g.case(f"right_shift/{dtype_tag(dt)}", "torch.bitwise_right_shift", [x, n])
g.case("left_shift/operator_scalar", "operator.lshift", [rint([5], I64, -9, 9), 3])
g.case("right_shift/operator_scalar", "operator.rshift", [rint([5], I64, -99, 99), 2])
g.case("left_shift/scalar_base", "operator.lshift", [1, rint([4], I64, 0, 10)])
g.case("left_shift/in_place", "operator.ilshift", [rint([4], I32, -9, 9), 1])
g.case("right_shift/method_in_place", "Tensor.bitwise_right_shift_", [rint([4], I64, -99, 99), 1])
g.case("left_shift/bool_promotes", "operator.lshift", [rbool([4]), 1])
g.case("left_shift/u8_overflow_wraps", "operator.lshift", [torch.tensor([200, 3], dtype=U8), torch.tensor([1, 7], dtype=U8)])
g.case("left_shift/float", "operator.lshift", [rnd([3], F32), 1], expect_error=True)
g.write()
