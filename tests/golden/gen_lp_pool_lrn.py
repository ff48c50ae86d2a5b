"""Golden fixtures for evaluator/ops/lp_pool_lrn.cpp (F.lp_pool1d/2d, F.local_response_norm).
Run: /usr/bin/python3 tests/golden/gen_lp_pool_lrn.py

PyTorch composes both in Python from float32 ops (pow, avg_pool, mul, ...), rounding each;
passforge runs the composition in float64. tol() allows a few float32 roundings of the largest
intermediate on top of 2 ulps.
"""
from golden_lib import ALL_FLOATS, F32, F64, Golden, dtype_tag, rnd, transposed

g = Golden("lp_pool_lrn")
FN = "torch.nn.functional."


def tol(dt, scale=1.0, window=9):
    unit = 2.0 ** -53 if dt == F64 else 2.0 ** -24
    return {"ulps": 4, "abs": 8 * window * unit * scale}


for dt in ALL_FLOATS:
    x = rnd([2, 3, 7, 7], dt, 0.1, 3)
    g.case(f"lp_pool2d/{dtype_tag(dt)}", FN + "lp_pool2d", [x, 2.0, 3], tol=tol(dt, 9))
    g.case(f"lp_pool1d/{dtype_tag(dt)}", FN + "lp_pool1d", [rnd([2, 3, 9], dt, 0.1, 3), 3, 2],
           tol=tol(dt, 27))
    g.case(f"local_response_norm/{dtype_tag(dt)}", FN + "local_response_norm",
           [rnd([2, 6, 5, 4], dt), 3], tol=tol(dt, 3))
x = rnd([2, 3, 7, 7], F32, -3, 3)
g.case("lp_pool2d/ceil_mode_signed", FN + "lp_pool2d", [x, 2, 3], {"ceil_mode": True}, tol=tol(F32, 9))
g.case("lp_pool2d/odd_norm_negative_nan", FN + "lp_pool2d", [x, 3.0, (2, 3)], {"stride": (1, 2)},
       tol=tol(F32, 27))
g.case("lp_pool2d/p1_transposed", FN + "lp_pool2d", [transposed(rnd([1, 2, 6, 8], F32, 0, 2)), 1, 2],
       tol=tol(F32, 4))
g.case("lp_pool2d/unbatched", FN + "lp_pool2d", [rnd([3, 6, 6], F32, 0, 2), 1.5, 2, 1], tol=tol(F32, 9))
g.case("lp_pool1d/stride_ceil", FN + "lp_pool1d", [rnd([2, 4, 10], F32, 0, 2), 2, 3, 2, True],
       tol=tol(F32, 9))
g.case("local_response_norm/3d", FN + "local_response_norm", [rnd([2, 7, 5]), 4],
       {"alpha": 0.01, "beta": 0.5, "k": 2.0}, tol=tol(F32, 3))
g.case("local_response_norm/5d", FN + "local_response_norm", [rnd([2, 5, 3, 4, 2]), 2], tol=tol(F32, 3))
g.case("local_response_norm/size_1", FN + "local_response_norm", [rnd([1, 4, 3, 3]), 1, 0.5, 0.75, 1.0],
       tol=tol(F32, 3))
g.case("local_response_norm/wide", FN + "local_response_norm", [transposed(rnd([2, 3, 4, 5])), 7],
       tol=tol(F32, 3))
g.case("local_response_norm/2d_input", FN + "local_response_norm", [rnd([3, 4]), 2], expect_error=True)
g.write()
