"""Golden fixtures for evaluator/ops/diag_blocks.cpp (F.bilinear, torch.diag_embed,
torch.block_diag). Run: /usr/bin/python3 tests/golden/gen_diag_blocks.py

bilinear sums in1 * in2 products in float32 in PyTorch, in float64 in passforge: tol() allows
that accumulation on top of 2 ulps.
"""
import torch

from golden_lib import ALL_FLOATS, F32, F64, Golden, dtype_tag, rbool, rint, rnd, transposed

g = Golden("diag_blocks")
I64, I32, U8, BOOL = torch.int64, torch.int32, torch.uint8, torch.bool


def tol(dt, n, m=27.0):
    unit = 2.0 ** -53 if dt == F64 else 2.0 ** -24
    return {"ulps": 2, "abs": 4 * n * unit * m}


for dt in ALL_FLOATS:
    x1, x2, w, b = rnd([4, 5], dt), rnd([4, 3], dt), rnd([6, 5, 3], dt), rnd([6], dt)
    g.case(f"bilinear/{dtype_tag(dt)}", "torch.nn.functional.bilinear", [x1, x2, w, b], tol=tol(dt, 15))
    g.case(f"diag_embed/{dtype_tag(dt)}", "torch.diag_embed", [rnd([2, 4], dt)])
g.case("bilinear/no_bias_3d", "torch.nn.functional.bilinear",
       [rnd([2, 3, 4]), rnd([2, 3, 2]), rnd([5, 4, 2])], tol=tol(F32, 8))
g.case("bilinear/torch_spelling", "torch.bilinear", [rnd([3, 4]), rnd([3, 4]), rnd([2, 4, 4]), None],
       tol=tol(F32, 16))
g.case("bilinear/transposed", "torch.nn.functional.bilinear",
       [transposed(rnd([4, 3])), rnd([4, 2]), rnd([5, 3, 2]), rnd([5])], tol=tol(F32, 6))
g.case("bilinear/batch_mismatch", "torch.nn.functional.bilinear",
       [rnd([4, 3]), rnd([5, 2]), rnd([5, 3, 2])], expect_error=True)
g.case("bilinear/weight_mismatch", "torch.nn.functional.bilinear",
       [rnd([4, 3]), rnd([4, 2]), rnd([5, 2, 2])], expect_error=True)
g.case("diag_embed/offset_pos", "torch.diag_embed", [rnd([2, 3]), 2])
g.case("diag_embed/offset_neg_dims", "torch.diag_embed", [rnd([2, 3]), -1, 0, 2])
g.case("diag_embed/dims_swapped", "torch.diag_embed", [rnd([2, 3]), 1, -1, 0])
g.case("diag_embed/1d", "Tensor.diag_embed", [rnd([4])])
g.case("diag_embed/int", "torch.diag_embed", [rint([3, 2], I64)], {"offset": -2})
g.case("diag_embed/bool", "torch.diag_embed", [rbool([2, 3])])
g.case("diag_embed/nan_stays_on_diagonal", "torch.diag_embed", [torch.tensor([float("nan"), 1.0])])
g.case("diag_embed/transposed", "torch.diag_embed", [transposed(rnd([3, 4]))])
g.case("diag_embed/same_dims", "torch.diag_embed", [rnd([2, 3]), 0, 1, 1], expect_error=True)
g.case("block_diag/mixed_ranks", "torch.block_diag", [torch.tensor(3.0), rnd([2]), rnd([2, 3]), rnd([1, 1])])
g.case("block_diag/promotes", "torch.block_diag", [rint([2, 2], I32), rnd([1, 3], torch.float16)])
g.case("block_diag/ints", "torch.block_diag", [rint([2, 2], I64), rint([3], U8)])
g.case("block_diag/bools", "torch.block_diag", [rbool([2, 2]), rbool([1, 2])])
g.case("block_diag/one", "torch.block_diag", [rnd([2, 3])])
g.case("block_diag/empty_block", "torch.block_diag", [rnd([2, 0]), rnd([1, 2])])
g.case("block_diag/3d", "torch.block_diag", [rnd([2, 2, 2])], expect_error=True)
g.write()
