"""Golden fixtures for evaluator/ops/grid_sample.cpp (F.grid_sample, 2-d).
Run: /usr/bin/python3 tests/golden/gen_grid_sample.py

Grid points reach past [-1, 1] so that every padding mode matters. PyTorch's CPU kernel computes
the coordinates in the input dtype (float32 there: an error of about 1e-7 of the coordinate, which
the pixel gradients turn into up to a few 1e-6 in the value), the reference in float64 rounded once:
float32 bilinear cases allow 1e-5, float64 ones a few ulps (PyTorch reflects with another formula).
"""
import torch

from golden_lib import F32, F64, Golden, rnd, transposed

g = Golden("grid_sample")
GS = "torch.nn.functional.grid_sample"
TOL = {"ulps": 8, "abs": 1e-5}

for mode in ("bilinear", "nearest"):
    for pad in ("zeros", "border", "reflection"):
        for align in (False, True):
            tag = f"{mode}/{pad}/{'align' if align else 'edges'}"
            g.case(tag, GS, [rnd([2, 3, 4, 5]), rnd([2, 3, 6, 2], lo=-1.4, hi=1.4)],
                   {"mode": mode, "padding_mode": pad, "align_corners": align},
                   tol=TOL if mode == "bilinear" else None)
    g.case(f"{mode}/f64_reflection_far", GS, [rnd([1, 2, 3, 4], F64), rnd([1, 5, 5, 2], F64, lo=-4.0, hi=4.0)],
           {"mode": mode, "padding_mode": "reflection"}, tol={"ulps": 8} if mode == "bilinear" else None)
g.case("bilinear/default_align", GS, [rnd([1, 2, 5, 5]), rnd([1, 4, 4, 2])], tol=TOL)
g.case("bilinear/one_pixel_reflection_align", GS, [rnd([1, 2, 1, 1]), rnd([1, 3, 2, 2], lo=-2.0, hi=2.0)],
       {"padding_mode": "reflection", "align_corners": True}, tol=TOL)
g.case("bilinear/transposed_input", GS, [transposed(rnd([3, 4, 5, 2])), rnd([3, 2, 3, 2])],
       {"align_corners": False}, tol=TOL)
g.case("error/padding", GS, [rnd([1, 1, 2, 2]), rnd([1, 1, 1, 2])], {"padding_mode": "wrap"},
       expect_error=True)
g.case("error/grid_dtype", GS, [rnd([1, 1, 2, 2]), rnd([1, 1, 1, 2], F64)], expect_error=True)
g.case("error/grid_last_dim", GS, [rnd([1, 1, 2, 2]), rnd([1, 1, 1, 3])], expect_error=True)
g.case("error/batch", GS, [rnd([2, 1, 2, 2]), rnd([1, 1, 1, 2])], expect_error=True)
g.write()
