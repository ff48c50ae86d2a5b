"""Golden fixtures for evaluator/ops/search_ops.cpp (torch.bucketize, torch.searchsorted,
torch.isin, torch.angle). Run: /usr/bin/python3 tests/golden/gen_search.py
"""
import torch

from golden_lib import ALL_FLOATS, F16, F32, F64, Golden, dtype_tag, rbool, rint, rnd, transposed

g = Golden("search")
I64, I32, U8 = torch.int64, torch.int32, torch.uint8
NAN = float("nan")

b = torch.tensor([-1.0, 0.0, 0.5, 0.5, 2.0])
x = torch.tensor([[-2.0, -1.0, 0.0, 0.25], [0.5, 1.0, 2.0, NAN], [3.0, -0.0, 0.5, 1.999]])
g.case("bucketize/left", "torch.bucketize", [x, b])
g.case("bucketize/right", "torch.bucketize", [x, b], {"right": True})
g.case("bucketize/out_int32", "torch.bucketize", [x, b], {"out_int32": True})
g.case("bucketize/int_values", "torch.bucketize", [rint([3, 4], I64, -3, 4), b])
g.case("bucketize/f16", "torch.bucketize", [rnd([5], F16), b.to(F16)])
g.case("bucketize/f64_transposed", "torch.bucketize", [transposed(rnd([3, 4], F64)), b.double()])
g.case("bucketize/2d_boundaries", "torch.bucketize", [x, b.view(1, 5)], expect_error=True)
s = torch.sort(rnd([2, 3, 6]), -1).values
g.case("searchsorted/1d", "torch.searchsorted", [b, x])
g.case("searchsorted/batched", "torch.searchsorted", [s, rnd([2, 3, 4])])
g.case("searchsorted/batched_right", "torch.searchsorted", [s, rnd([2, 3, 4])], {"right": True})
g.case("searchsorted/side_right", "torch.searchsorted", [b, x], {"side": "right"})
g.case("searchsorted/side_left_int32", "torch.searchsorted", [b, x], {"side": "left", "out_int32": True})
g.case("searchsorted/ints", "torch.searchsorted", [torch.tensor([1, 3, 3, 7]), rint([6], I64, 0, 9)])
g.case("searchsorted/opposites", "torch.searchsorted", [b, x], {"side": "left", "right": True},
       expect_error=True)
g.case("searchsorted/shape_mismatch", "torch.searchsorted", [s, rnd([3, 3, 4])], expect_error=True)
g.case("isin/ints", "torch.isin", [rint([3, 4], I64, 0, 6), torch.tensor([1, 3, 5])])
g.case("isin/invert", "torch.isin", [rint([3, 4], I64, 0, 6), torch.tensor([1, 3, 5])], {"invert": True})
g.case("isin/assume_unique", "torch.isin", [rint([5], I32, 0, 4), torch.tensor([0, 2], dtype=I32)],
       {"assume_unique": True})
g.case("isin/floats_nan", "torch.isin", [torch.tensor([1.0, NAN, 2.5, -0.0]), torch.tensor([NAN, 0.0, 2.5])])
g.case("isin/scalar", "torch.isin", [rint([2, 3], I64, 0, 3), 2])
g.case("isin/mixed", "torch.isin", [torch.tensor([1.0, 2.0, 2.5]), torch.tensor([2, 3])])
g.case("isin/test_2d", "torch.isin", [rint([4], U8, 0, 5), rint([2, 2], U8, 0, 5)])
for dt in ALL_FLOATS:
    g.case(f"angle/{dtype_tag(dt)}", "torch.angle",
           [torch.tensor([-1.5, 0.0, -0.0, NAN, 2.0, float("-inf")]).to(dt)])
g.case("angle/int", "torch.angle", [torch.tensor([-3, 0, 4])])
g.case("angle/bool", "Tensor.angle", [rbool([4])])
g.write()
