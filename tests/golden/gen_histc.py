"""Golden fixtures for evaluator/ops/histc.cpp (torch.histc).
Run: /usr/bin/python3 tests/golden/gen_histc.py

PyTorch 1.13's CPU histc (float32/float64 only): equal min and max take the data's range
(widened by 1 each way when that is one value); edges from linspace; the last bin includes max;
values outside the range are not counted, NaN lands in the first bin (its CPU loop's range test
lets NaN through; its CUDA kernel drops it); a non-finite range is an error. Values sit on
edges that linspace computes exactly (integers, halves) so the edge rule is exercised.
"""
import torch

from golden_lib import F32, F64, Golden, rint, rnd, transposed

g = Golden("histc")
NAN, INF = float("nan"), float("inf")

g.case("data_range_default_bins", "torch.histc", [rnd([4, 25])])
g.case("data_range_f64", "torch.histc", [rnd([3, 7], F64)], {"bins": 6})
g.case("data_range_ties_at_max", "torch.histc", [torch.tensor([1.0, 2.0, 1.0, 4.0, 2.0, 4.0, 4.0, 0.0]), 4])
g.case("explicit_range_edges_and_outside", "torch.histc",
       [torch.tensor([0.0, 1.0, 2.0, 3.0, 4.0, -1.0, 5.0, 4.0, 0.5, -0.0])], {"bins": 4, "min": 0, "max": 4})
g.case("integers_on_edges", "torch.histc", [rint([6, 9], torch.int64, 0, 10).to(F32), 10, 0, 10])
g.case("halves_on_edges_f64", "torch.histc", [(rint([5, 8], torch.int64, -8, 8) / 2).to(F64), 8, -4, 4])
g.case("one_value_widened", "torch.histc", [torch.tensor([2.0, 2.0]), 3])
g.case("equal_literals_use_data", "Tensor.histc", [rnd([10]), 5, 3.0, 3.0])
g.case("nan_first_bin_inf_outside", "torch.histc",
       [torch.tensor([1.0, NAN, 2.0, INF, -INF, 0.5, NAN, 2.5]), 3, 0, 3])
g.case("method_transposed", "Tensor.histc", [transposed(rnd([5, 6]))], {"bins": 7, "min": -1.5, "max": 2.5})
g.case("zero_d", "torch.histc", [torch.tensor(0.25), 4])
g.case("empty", "torch.histc", [torch.zeros(0), 4])
g.case("int_input", "torch.histc", [rint([5]), 4], expect_error=True)
g.case("bins_zero", "torch.histc", [rnd([5]), 0], expect_error=True)
g.case("min_above_max", "torch.histc", [rnd([5]), 3, 2, 1], expect_error=True)
g.case("nan_data_range", "torch.histc", [torch.tensor([1.0, NAN]), 3], expect_error=True)
g.case("inf_data_range", "torch.histc", [torch.tensor([1.0, INF]), 3], expect_error=True)
g.case("inf_literal_range", "torch.histc", [rnd([5]), 3, 0, INF], expect_error=True)
g.write()
