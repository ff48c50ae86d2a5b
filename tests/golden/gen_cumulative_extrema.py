"""Golden fixtures for evaluator/ops/cumulative_extrema.cpp (cummax, cummin, logcumsumexp).
Run: /usr/bin/python3 tests/golden/gen_cumulative_extrema.py

PyTorch 1.13 moves the running extremum to every value equal to it (the index of ties is the
last one) and to every NaN (a NaN's index is the latest NaN); logcumsumexp propagates NaN and
keeps equal infinities. Small integer ranges make ties common. PyTorch 1.13's CPU has no float16
cummax/cummin/logcumsumexp (and no meta kernel to type an upcast run): the GPU op-diff cases
sweep float16.
"""
import torch

from golden_lib import BF16, F32, F64, Golden, dtype_tag, rint, rnd, strided, transposed

g = Golden("cumulative_extrema")
I64, I32, U8, BOOL = torch.int64, torch.int32, torch.uint8, torch.bool
NAN, INF = float("nan"), float("inf")

for op in ("cummax", "cummin"):
    for dt in (F32, BF16, F64, I64, I32, U8):
        x = rint([3, 9], I64, 0, 4).to(dt)
        g.case(f"{op}/{dtype_tag(dt)}", f"torch.{op}", [x, 1])
    g.case(f"{op}/bool", f"torch.{op}", [torch.tensor([[True, False, True, False],
                                                        [False, False, True, True]]), -1])
    g.case(f"{op}/ties_last_index", f"torch.{op}", [torch.tensor([1.0, 3.0, 3.0, 2.0, 3.0, 1.0, 1.0]), 0])
    g.case(f"{op}/nan_latest_index", f"torch.{op}",
           [torch.tensor([[1.0, 3.0, 3.0, 2.0, NAN, 5.0, NAN, -1.0],
                          [NAN, -2.0, 4.0, 4.0, -INF, INF, 0.0, INF]]), 1])
    g.case(f"{op}/dim0", f"torch.{op}", [rint([6, 4], I64, -2, 2).to(F32), 0])
    g.case(f"{op}/method_middle_dim", f"Tensor.{op}", [rnd([2, 7, 3]), 1])
    g.case(f"{op}/kw_dim_transposed", f"torch.{op}", [transposed(rint([5, 4], I64, -2, 2).to(F32))],
           {"dim": -2})
    g.case(f"{op}/strided", f"torch.{op}", [strided(rnd([3, 6]))], {"dim": 1})
    g.case(f"{op}/i64_large", f"torch.{op}",
           [torch.tensor([2 ** 62 + 1, 2 ** 62, 2 ** 62 + 1, -(2 ** 62)]), 0])
    g.case(f"{op}/zero_d", f"torch.{op}", [torch.tensor(2.5), 0])
    g.case(f"{op}/dim_out_of_range", f"torch.{op}", [rnd([2, 3]), 2], expect_error=True)

for dt in (F32, BF16, F64):
    g.case(f"logcumsumexp/{dtype_tag(dt)}", "torch.logcumsumexp", [rnd([3, 10], dt), 1])
g.case("logcumsumexp/specials", "torch.logcumsumexp",
       [torch.tensor([[1.0, -INF, INF, 2.0, INF], [-INF, -INF, 2.0, NAN, 1.0],
                      [INF, INF, -INF, 0.0, 0.0], [-INF, -INF, -INF, -INF, 3.0]]), 1])
# A small value before a large one: a shift by the row's maximum would underflow to -inf.
g.case("logcumsumexp/wide_range", "torch.logcumsumexp",
       [torch.tensor([-200.0, -150.0, 0.0, 80.0, -300.0, 85.0]), 0])
g.case("logcumsumexp/f64_wide_range", "torch.logcumsumexp",
       [torch.tensor([-800.0, -750.0, 0.0, 700.0, 705.0], dtype=F64), -1])
g.case("logcumsumexp/dim0", "torch.logcumsumexp", [rnd([7, 3]), 0])
g.case("logcumsumexp/method_transposed", "Tensor.logcumsumexp", [transposed(rnd([4, 6])), 1])
g.case("logcumsumexp/kw_dim_3d", "torch.logcumsumexp", [rnd([2, 5, 3], F32, -20, 20)], {"dim": 1})
g.case("logcumsumexp/zero_d", "torch.logcumsumexp", [torch.tensor(0.75), 0])
g.case("logcumsumexp/int", "torch.logcumsumexp", [rint([2, 3]), 1], expect_error=True)
g.case("logcumsumexp/bool", "torch.logcumsumexp", [torch.tensor([True, False]), 0],
       expect_error=True)
g.write()
