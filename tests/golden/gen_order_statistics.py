"""Golden fixtures for evaluator/ops/order_statistics.cpp (kthvalue, median, nanmedian, msort,
quantile, nanquantile). Run: /usr/bin/python3 tests/golden/gen_order_statistics.py

PyTorch's CPU median and nanmedian break ties by index (the reference's order); its kthvalue
leaves the index of tied values unspecified, so kthvalue cases have distinct values.
"""
import torch

from golden_lib import BF16, F16, F32, F64, Golden, distinct, dtype_tag, rint, rnd, transposed

g = Golden("order_statistics")
I64, I32, U8, BOOL = torch.int64, torch.int32, torch.uint8, torch.bool
NAN = float("nan")


# PyTorch 1.13's CPU has no float16 kthvalue/median (the GPU op-diff cases sweep it).
for dt in (F32, BF16, F64, I64, I32, U8):
    g.case(f"kthvalue/{dtype_tag(dt)}", "torch.kthvalue", [distinct([3, 7], dt), 3])
    g.case(f"median_dim/{dtype_tag(dt)}", "torch.median", [distinct([4, 5], dt) if dt != U8
                                                           else rint([4, 5], U8, 0, 200)], {"dim": 1})
    g.case(f"median/{dtype_tag(dt)}", "torch.median", [rint([3, 4], I64, -5, 5).to(dt) if dt != U8
                                                       else rint([3, 4], U8, 0, 9)])
    g.case(f"msort/{dtype_tag(dt)}", "torch.msort", [rint([5, 3], I64, -4, 4).to(dt) if dt != U8
                                                     else rint([5, 3], U8, 0, 9)])
g.case("kthvalue/dim0_keepdim", "torch.kthvalue", [distinct([6, 4]), 2], {"dim": 0, "keepdim": True})
g.case("kthvalue/method_middle_dim", "Tensor.kthvalue", [distinct([2, 5, 3]), 5, 1])
g.case("kthvalue/transposed", "torch.kthvalue", [transposed(distinct([5, 3])), 1])
g.case("kthvalue/nan_last", "torch.kthvalue",
       [torch.tensor([[1.0, NAN, 3.0, NAN], [NAN, 2.0, -1.0, 0.5]]), 4])
g.case("kthvalue/zero_d", "torch.kthvalue", [torch.tensor(2.5), 1])
g.case("kthvalue/k_too_big", "torch.kthvalue", [distinct([2, 3]), 4], expect_error=True)
g.case("kthvalue/k_zero", "torch.kthvalue", [distinct([2, 3]), 0], expect_error=True)
g.case("kthvalue/bool", "torch.kthvalue", [torch.tensor([True, False])], expect_error=True)
g.case("median_dim/ties_by_index", "torch.median", [rint([4, 9], I64, -2, 2)], {"dim": -1})
g.case("median_dim/ties_float_dim0_keepdim", "torch.median", [rint([7, 3], I64, -2, 2).to(F32), 0, True])
g.case("median_dim/even_count", "Tensor.median", [distinct([3, 6]), 1])
g.case("median_dim/nan_first_nan_index", "torch.median",
       [torch.tensor([[1.0, NAN, 3.0, NAN], [0.0, 2.0, -1.0, 0.5], [NAN, NAN, NAN, NAN]])], {"dim": 1})
g.case("median_dim/transposed", "torch.median", [transposed(distinct([5, 4]))], {"dim": 0})
g.case("median_dim/empty_dim", "torch.median", [torch.zeros(2, 0)], {"dim": 1}, expect_error=True)
g.case("median/nan", "torch.median", [torch.tensor([[1.0, NAN], [NAN, 0.5]])])
g.case("median/method_even", "Tensor.median", [distinct([2, 3, 2])])
g.case("median/bool", "torch.median", [torch.tensor([True, False])], expect_error=True)
g.case("nanmedian_dim/mixed", "torch.nanmedian",
       [torch.tensor([[1.0, NAN, 3.0, NAN, 2.0], [0.0, 2.0, -1.0, 0.5, 0.5], [NAN, 4.0, NAN, NAN, NAN]])],
       {"dim": 1})
# An all-NaN row's index is whatever PyTorch's nth_element leaves (the reference: the first NaN),
# so all-NaN rows appear only in the whole-tensor form (values only) below.
g.case("nanmedian_dim/keepdim_bf16", "torch.nanmedian",
       [torch.tensor([[1.0, NAN], [NAN, NAN], [3.0, -2.0]], dtype=F16), 0, True])
g.case("nanmedian_dim/int", "Tensor.nanmedian", [rint([3, 6], I32, -3, 3), -1])
g.case("nanmedian/nan", "torch.nanmedian", [torch.tensor([[1.0, NAN, 7.0], [NAN, 0.5, -3.0]])])
g.case("nanmedian/all_nan", "torch.nanmedian", [torch.tensor([NAN, NAN])])
g.case("msort/f16", "torch.msort", [rint([5, 3], I64, -4, 4).to(F16)])
g.case("msort/nan_3d", "torch.msort",
       [torch.tensor([[[1.0, NAN]], [[NAN, -1.0]], [[0.0, 2.0]]])])
g.case("msort/method_transposed", "Tensor.msort", [transposed(rnd([4, 5]))])
g.case("msort/bool", "torch.msort", [torch.tensor([[True], [False], [True]])])

modes = ["linear", "lower", "higher", "nearest", "midpoint"]
for m in modes:
    g.case(f"quantile/{m}", "torch.quantile", [rnd([3, 11]), 0.7], {"dim": 1, "interpolation": m})
    g.case(f"quantile/{m}_f64_q_tensor", "torch.quantile",
           [rnd([4, 6], F64), torch.tensor([0.0, 0.25, 0.5, 0.9, 1.0], dtype=F64)],
           {"dim": 0, "interpolation": m})
    g.case(f"nanquantile/{m}", "torch.nanquantile",
           [torch.tensor([[1.0, NAN, 3.0, NAN, 2.0, 8.0], [0.0, 2.0, -1.0, 0.5, 0.5, 4.0],
                          [NAN, NAN, NAN, NAN, NAN, NAN], [NAN, 4.0, NAN, NAN, NAN, NAN]]),
            torch.tensor([0.1, 0.5, 0.75])], {"dim": -1, "interpolation": m})
# 0.7 * 10 rounds to 7 in float32 (6.99... in float64): the rank is computed in the input's dtype.
g.case("quantile/rank_in_float32", "torch.quantile", [distinct([2, 11]), 0.7],
       {"dim": 1, "interpolation": "lower"})
g.case("quantile/flatten_keepdim", "torch.quantile", [rnd([3, 4, 2]), 0.3], {"keepdim": True})
g.case("quantile/flatten", "Tensor.quantile", [transposed(rnd([5, 3])), 0.5])
g.case("quantile/nan_row", "torch.quantile",
       [torch.tensor([[1.0, NAN, 3.0], [0.0, 2.0, -1.0]]), 0.5], {"dim": 1, "keepdim": True})
g.case("quantile/q_zero_d_tensor", "torch.quantile", [rnd([4, 5]), torch.tensor(0.25)], {"dim": 0})
g.case("quantile/zero_d_input", "torch.quantile", [torch.tensor(1.5), 0.5], {"dim": 0})
g.case("quantile/q_out_of_range", "torch.quantile", [rnd([4, 5]), 1.5], expect_error=True)
g.case("quantile/q_tensor_out_of_range", "torch.quantile", [rnd([4, 5]), torch.tensor([0.5, -0.1])],
       expect_error=True)
g.case("quantile/q_tensor_dtype", "torch.quantile", [rnd([4, 5]), torch.tensor([0.5], dtype=F64)],
       expect_error=True)
g.case("quantile/int_input", "torch.quantile", [rint([4, 5], I64), 0.5], expect_error=True)
g.case("quantile/half_input", "torch.quantile", [rnd([4, 5], F16), 0.5], expect_error=True)
g.case("quantile/empty", "torch.quantile", [torch.zeros(0), 0.5], expect_error=True)
g.case("quantile/bad_mode", "torch.quantile", [rnd([4, 5]), 0.5], {"interpolation": "cubic"},
       expect_error=True)
g.case("nanquantile/flatten", "torch.nanquantile",
       [torch.tensor([[1.0, NAN, 3.0], [0.0, 2.0, -1.0]]), 0.4])
g.write()
