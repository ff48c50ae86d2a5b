"""Golden fixtures for evaluator/ops/mode.cpp (torch.mode).
Run: /usr/bin/python3 tests/golden/gen_mode.py

PyTorch 1.13's CPU mode: the smallest most frequent value; its index is the last element of
that value's run after std::sort, which is the last occurrence for rows of up to 16 values
(insertion sort) and unspecified beyond, so every row here holds at most 16 values.
"""
import torch

from golden_lib import BF16, F32, F64, Golden, dtype_tag, rint, transposed

g = Golden("mode")
I64, I32, U8, BOOL = torch.int64, torch.int32, torch.uint8, torch.bool
NAN = float("nan")

for dt in (F32, BF16, F64, I64, I32, U8):
    g.case(f"mode/{dtype_tag(dt)}", "torch.mode", [rint([4, 11], I64, 0, 4).to(dt)])
g.case("mode/bool", "torch.mode", [torch.tensor([[True, False, True], [False, True, False]])])
g.case("mode/tie_smallest_value", "torch.mode", [torch.tensor([[3, 1, 3, 1, 2], [5, 5, 4, 4, 4]])], {"dim": 1})
g.case("mode/all_distinct_smallest", "torch.mode", [torch.tensor([3.0, 2.0, 1.0, 7.0])])
g.case("mode/dim0_keepdim", "torch.mode", [rint([9, 4], I64, -2, 2), 0, True])
g.case("mode/method_middle_dim", "Tensor.mode", [rint([2, 13, 3], I64, 0, 3).to(F32), 1])
g.case("mode/transposed", "torch.mode", [transposed(rint([6, 5], I64, 0, 3))], {"dim": -2})
g.case("mode/nan_is_its_own_value", "torch.mode",
       [torch.tensor([[1.0, NAN, NAN, 2.0], [NAN, NAN, NAN, NAN], [NAN, 4.0, 4.0, NAN]])])
g.case("mode/zero_d", "torch.mode", [torch.tensor(2.5)])
g.case("mode/empty_rows", "torch.mode", [torch.zeros(0, 3)], {"dim": 1})
g.case("mode/empty_dim", "torch.mode", [torch.zeros(2, 0)], {"dim": 1}, expect_error=True)
g.case("mode/dim_out_of_range", "torch.mode", [torch.zeros(2, 3)], {"dim": 2}, expect_error=True)
g.write()
