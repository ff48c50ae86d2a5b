"""Golden fixtures for evaluator/ops/{cast,creation,sequence,triangular}.cpp.
Run: /usr/bin/python3 tests/golden/gen_creation.py"""
import torch

from golden_lib import ALL_FLOATS, BF16, F16, F32, F64, Golden, dtype_tag, rbool, rint, rnd, special, strided, transposed

g = Golden("creation")
I64, I32, I16, I8, U8, BOOL = torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool
ALL = ALL_FLOATS + (I64, I32, I16, I8, U8, BOOL)


def sample(shape, dt):
    if dt == BOOL:
        return rbool(shape)
    if dt.is_floating_point:
        return rnd(shape, dt, -200, 200)
    return rint(shape, dt, 0 if dt == U8 else -100, 100)


# ---- casts
for src in ALL:
    for dst in ALL:
        if src == dst and src not in (F32, I64):
            continue
        x = sample([2, 3], src)
        if not dst.is_floating_point and dst != BOOL and src.is_floating_point:
            x = rnd([2, 3], src, -100, 100)  # in range of every integer type tested
            if dst == U8:
                x = x.abs()
        g.case(f"to/{dtype_tag(src)}->{dtype_tag(dst)}", "Tensor.to", [x, dst])
g.case("to/dtype_kw", "Tensor.to", [rnd([3]), ], {"dtype": F16})
g.case("to/device_only", "Tensor.to", [rnd([3]), "cpu"])
g.case("to/device_kw", "Tensor.to", [rnd([3])], {"device": torch.device("cpu")})
g.case("to/device_and_dtype", "Tensor.to", [rnd([3]), "cpu", BF16])
g.case("to/device_and_dtype_kw", "Tensor.to", [rnd([3])], {"device": "cpu", "dtype": F16})
g.case("to/copy", "Tensor.to", [rnd([3]), F32], {"copy": True})
g.case("to/other_tensor", "Tensor.to", [rnd([3]), rnd([2], F16)])
g.case("to/transposed", "Tensor.to", [transposed(rnd([3, 4])), F16])
g.case("to/transposed_same", "Tensor.to", [transposed(rnd([3, 4])), F32])
g.case("to/special_to_f16", "Tensor.to", [special(F32), F16])
g.case("to/special_to_bool", "Tensor.to", [special(F32), BOOL])
g.case("to/f16_overflow", "Tensor.to", [torch.tensor([70000.0, -1e6, 65519.0, 65520.0]), F16])
g.case("to/f64_to_f32", "Tensor.to", [torch.tensor([0.1, 1e-40, 3.5e38, 1 / 3], dtype=F64), F32])
g.case("to/i64_large_to_f32", "Tensor.to", [torch.tensor([2 ** 24 + 1, 2 ** 53 + 1, -(2 ** 40) - 3]), F32])
for name, dt in (("float", F32), ("half", F16), ("bfloat16", BF16), ("double", F64), ("int", I32),
                 ("long", I64), ("short", I16), ("char", I8), ("byte", U8), ("bool", BOOL)):
    g.case(f"method/{name}", f"Tensor.{name}", [rnd([2, 3], F32, 0, 50)])
    g.case(f"method/{name}/from_i64", f"Tensor.{name}", [rint([4], I64, 0, 100)])
g.case("method/float/same", "Tensor.float", [rnd([3])])
g.case("method/half/same", "Tensor.half", [rnd([3], F16)])
g.case("method/bool/same", "Tensor.bool", [rbool([3])])
for dt in (F16, BF16, F32, I64):
    g.case(f"type_as/{dtype_tag(dt)}", "Tensor.type_as", [rnd([2, 3], F32, 0, 9), sample([1], dt)])
g.case("type_as/same", "Tensor.type_as", [rnd([2, 3]), rnd([5])])

# ---- filled tensors
for name in ("zeros", "ones", "empty"):
    sp = "torch." + name
    kw = {"values": name != "empty"}  # torch.empty's values are whatever memory held
    g.case(f"{name}/varargs", sp, [2, 3], **kw)
    g.case(f"{name}/tuple", sp, [(2, 3, 1)], **kw)
    g.case(f"{name}/list_kw", sp, [], {"size": [4]}, **kw)
    g.case(f"{name}/dtype", sp, [(2, 2)], {"dtype": F16}, **kw)
    g.case(f"{name}/int_dtype", sp, [3], {"dtype": I64, "device": torch.device("cpu")}, **kw)
    g.case(f"{name}/scalar", sp, [()], **kw)
    g.case(f"{name}/negative", sp, [2, -1], expect_error=True)
    g.case(f"{name}_like/f16", f"torch.{name}_like", [rnd([2, 3], F16)], **kw)
    g.case(f"{name}_like/dtype", f"torch.{name}_like", [rnd([2, 3], F16)], {"dtype": I32}, **kw)
    g.case(f"{name}_like/transposed", f"torch.{name}_like", [transposed(rnd([2, 3]))], **kw)
    g.case(f"new_{name}/tuple", f"Tensor.new_{name}", [rnd([2], F16), (3, 2)], **kw)
    g.case(f"new_{name}/varargs", f"Tensor.new_{name}", [rint([2], I32), 4, 1], **kw)
    g.case(f"new_{name}/dtype", f"Tensor.new_{name}", [rnd([2], F16), [3]], {"dtype": F32}, **kw)
g.case("full/float", "torch.full", [(2, 3), 1.5])
g.case("full/int", "torch.full", [(2, 3), 7])
g.case("full/bool", "torch.full", [[4], True])
g.case("full/dtype", "torch.full", [(3,), 2.5], {"dtype": F16})
g.case("full/int_to_float", "torch.full", [(3,), 2], {"dtype": BF16})
g.case("full/neg_inf", "torch.full", [(2,), float("-inf")])
g.case("full/overflow", "torch.full", [(2,), 1e5], {"dtype": F16}, expect_error=True)
g.case("full/large_int", "torch.full", [(2,), 2 ** 62 + 1])
g.case("full_like/f32", "torch.full_like", [rnd([2, 3]), -3.25])
g.case("full_like/int", "torch.full_like", [rint([4], I32), 5])
g.case("full_like/dtype", "torch.full_like", [rint([4], I32), 0.5], {"dtype": F16})
g.case("new_full/f16", "Tensor.new_full", [rnd([2], F16), (2, 2), 3.0])
g.case("new_full/i64", "Tensor.new_full", [rint([2]), [3], 9])

# ---- ranges and literals
g.case("arange/end", "torch.arange", [5])
g.case("arange/end_kw_dtype", "torch.arange", [], {"end": 10, "dtype": F32, "device": torch.device("cpu")})
g.case("arange/start_end", "torch.arange", [2, 9])
g.case("arange/step", "torch.arange", [10, 0, -3])
g.case("arange/float", "torch.arange", [0, 1, 0.1])
g.case("arange/float_end", "torch.arange", [3.5])
g.case("arange/dtype_f16", "torch.arange", [0, 40], {"dtype": F16})
g.case("arange/dtype_bf16_float_step", "torch.arange", [-1.0, 1.0, 0.25], {"dtype": BF16})
g.case("arange/dtype_i32", "torch.arange", [0, 11, 2], {"dtype": I32})
g.case("arange/large", "torch.arange", [2 ** 60, 2 ** 60 + 4])
g.case("arange/empty", "torch.arange", [3, 3])
g.case("arange/bad_step", "torch.arange", [0, 5, -1], expect_error=True)
g.case("arange/zero_step", "torch.arange", [0, 5, 0], expect_error=True)
g.case("linspace/basic", "torch.linspace", [0, 1, 5])
g.case("linspace/negative", "torch.linspace", [-3.5, 2.25, 11])
g.case("linspace/one", "torch.linspace", [2.0, 5.0, 1])
g.case("linspace/f16", "torch.linspace", [-1, 1, 7], {"dtype": F16})
g.case("linspace/i64", "torch.linspace", [0, 10, 4], {"dtype": I64})
g.case("eye/square", "torch.eye", [3])
g.case("eye/rect", "torch.eye", [2, 4], {"dtype": I64})
g.case("tensor/float_scalar", "torch.tensor", [1.0], {"dtype": F32})
g.case("tensor/int_scalar_as_float", "torch.tensor", [16], {"dtype": F32})
g.case("tensor/int_scalar", "torch.tensor", [64])
g.case("tensor/list", "torch.tensor", [[1, 2, 3]])
g.case("tensor/nested_float", "torch.tensor", [[[1, 2.5], [3, 4]]])
g.case("tensor/bool", "torch.tensor", [[True, False]])
g.case("tensor/mixed_bool_int", "torch.tensor", [[True, 2]])
g.case("tensor/dtype_f16", "torch.tensor", [[0.1, 0.2]], {"dtype": F16})
g.case("tensor/large_int", "torch.tensor", [[2 ** 62 + 1, -5]])
g.case("tensor/ragged", "torch.tensor", [[[1, 2], [3]]], expect_error=True)

# ---- triangles
for name in ("triu", "tril"):
    for dt in (F32, F16, BF16, I64, BOOL):
        g.case(f"{name}/{dtype_tag(dt)}", f"torch.{name}", [sample([4, 5], dt)])
    for d in (1, -1, 3, -6):
        g.case(f"{name}/diagonal{d}", f"torch.{name}", [rnd([4, 4])], {"diagonal": d})
    g.case(f"{name}/batched", f"Tensor.{name}", [rnd([2, 3, 4], F16), 1])
    g.case(f"{name}/transposed", f"torch.{name}", [transposed(rnd([3, 5]))])
    g.case(f"{name}/in_place_spelling", f"Tensor.{name}_", [rnd([3, 3])])
    g.case(f"{name}/1d", f"torch.{name}", [rnd([4])], expect_error=True)
g.case("triu/special", "torch.triu", [special(F32).reshape(2, 5)])
# in-place fills (added last: cases draw from one random stream): x.zero_(), x.fill_(v) keep x's dtype
for dt in (F32, F16, I64, BOOL):
    g.case(f"zero_/{dtype_tag(dt)}", "Tensor.zero_", [sample([2, 3], dt)])
g.case("fill_/float_into_f16", "Tensor.fill_", [sample([2, 3], F16), 2.5])
g.case("fill_/int_into_f32", "Tensor.fill_", [sample([3], F32), 7])
g.case("fill_/float_into_int", "Tensor.fill_", [sample([2, 2], I64), 3.75])
g.case("fill_/bool_into_bf16", "Tensor.fill_", [sample([4], BF16), True])
g.case("fill_/transposed", "Tensor.fill_", [transposed(rnd([3, 4])), -1.0])
# x.new_tensor(data): x's dtype unless dtype= (added last)
for dt in (F32, F16, I64, BOOL):
    g.case(f"new_tensor/{dtype_tag(dt)}", "Tensor.new_tensor", [sample([2], dt), [[1, 0, 2], [3, 4, 0]]])
g.case("new_tensor/scalar_float_into_int", "Tensor.new_tensor", [sample([2], I64), 2.75])
g.case("new_tensor/dtype_kw", "Tensor.new_tensor", [sample([2], F32), [1.5, -2.0]], {"dtype": BF16})
g.case("new_tensor/ragged", "Tensor.new_tensor", [sample([2], F32), [[1.0], [2.0, 3.0]]], expect_error=True)
g.write()
