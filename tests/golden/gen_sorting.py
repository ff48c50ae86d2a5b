"""Golden fixtures for evaluator/ops/sorting.cpp (topk, sort, argsort). Run: /usr/bin/python3 tests/golden/gen_sorting.py

PyTorch leaves the order of equal values unspecified where not stable (its CPU topk returns ties
out of index order), so cases with ties ask for stable=True; topk cases have distinct values.
"""
import torch

from golden_lib import BF16, F16, F32, F64, Golden, distinct, dtype_tag, rint, transposed

g = Golden("sorting")
I64, I32, U8, BOOL = torch.int64, torch.int32, torch.uint8, torch.bool


for dt in (F32, F16, BF16, F64, I64, I32):
    g.case(f"topk/{dtype_tag(dt)}", "torch.topk", [distinct([3, 7], dt), 3])
    g.case(f"sort/{dtype_tag(dt)}", "torch.sort", [distinct([4, 5], dt)])
    g.case(f"argsort/{dtype_tag(dt)}", "torch.argsort", [distinct([4, 5], dt)], {"descending": True})
g.case("topk/smallest_dim0", "torch.topk", [distinct([6, 4]), 2], {"dim": 0, "largest": False})
g.case("topk/method_middle_dim", "Tensor.topk", [distinct([2, 5, 3]), 4, 1])
g.case("topk/all", "torch.topk", [distinct([2, 5]), 5])
g.case("topk/zero", "torch.topk", [distinct([2, 5]), 0])
g.case("topk/transposed", "torch.topk", [transposed(distinct([5, 3])), 2])
g.case("topk/nan_first", "torch.topk", [torch.tensor([[1.0, float("nan"), 3.0, -2.0]]), 2])
g.case("topk/nan_last_when_smallest", "torch.topk", [torch.tensor([[1.0, float("nan"), 3.0, -2.0]]), 4],
       {"largest": False})
g.case("topk/k_too_big", "torch.topk", [distinct([2, 3]), 4], expect_error=True)
g.case("sort/descending_dim0", "torch.sort", [distinct([5, 3])], {"dim": 0, "descending": True})
g.case("sort/stable_ties", "torch.sort", [rint([3, 9], I64, -2, 2)], {"stable": True})
g.case("sort/stable_ties_descending", "torch.sort", [rint([3, 9], I64, -2, 2)],
       {"stable": True, "descending": True})
g.case("sort/nan_inf_signed_zero", "torch.sort",
       [torch.tensor([1.0, float("nan"), float("inf"), -float("inf"), 3.0, float("nan")])],
       {"stable": True, "descending": True})
g.case("sort/bool", "torch.sort", [torch.tensor([True, False, True, False])], {"stable": True})
g.case("sort/uint8_method", "Tensor.sort", [rint([2, 6], U8, 0, 200)], {"dim": -1, "stable": True})
g.case("sort/int64_large", "torch.sort", [torch.tensor([2 ** 62 + 1, 2 ** 62, -(2 ** 62)])])
g.case("argsort/stable_ties", "torch.argsort", [rint([2, 8], I64, 0, 3)], {"dim": 1, "stable": True})
g.case("argsort/method_dim0", "Tensor.argsort", [distinct([4, 3], F16), 0])
g.write()
