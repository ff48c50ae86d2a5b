"""Golden fixtures for the indexing writes: masked_scatter (evaluator/ops/masked_scatter.cpp),
scatter_reduce (evaluator/ops/scatter_reduce.cpp) and index_put (evaluator/ops/index_put.cpp). Run: /usr/bin/python3 tests/golden/gen_index_writes.py

index_put without accumulate writes distinct positions (PyTorch leaves duplicates unspecified;
the reference refuses them when their values differ: a case here checks that error against PyTorch's
CPU, which raised nothing, so it is written as an op-level expectation in the C++ tests instead).
scatter_reduce values are small integers (in every dtype) so that sums and means are exact
whatever the order PyTorch adds them in; indices repeat (every reduction is order-independent).
"""
import torch

from golden_lib import BF16, F16, F32, F64, Golden, dtype_tag, rbool, rint, rnd, transposed

g = Golden("index_writes")
I64, I32, U8, BOOL = torch.int64, torch.int32, torch.uint8, torch.bool

for dt in (F32, F16, BF16, F64, I64, I32, U8, BOOL):
    x = rint([4, 5], I64, 0, 9).to(dt)
    src = rint([4, 6], I64, 10, 30).to(dt) if dt != BOOL else torch.ones(4, 6, dtype=BOOL)
    g.case(f"masked_scatter/{dtype_tag(dt)}", "torch.masked_scatter", [x, rbool([4, 5]), src])
g.case("masked_scatter/mask_broadcast_row", "Tensor.masked_scatter",
       [rnd([3, 4]), torch.tensor([True, False, False, True]), rnd([2, 5])])
g.case("masked_scatter/input_broadcast", "torch.masked_scatter",
       [rnd([4]), torch.tensor([[True, False, True, True], [False, True, True, False]]), rnd([7])])
g.case("masked_scatter/in_place_spelling", "Tensor.masked_scatter_",
       [rnd([2, 3, 4]), rbool([3, 1]), rnd([30])])
g.case("masked_scatter/transposed_source", "torch.masked_scatter",
       [rnd([3, 5]), rbool([3, 5]), transposed(rnd([5, 3]))])
g.case("masked_scatter/all_false", "torch.masked_scatter",
       [rnd([2, 3]), torch.zeros(2, 3, dtype=BOOL), rnd([0])])
g.case("masked_scatter/zero_d", "torch.masked_scatter", [torch.tensor(1.5), torch.tensor(True), rnd([2])])
g.case("masked_scatter/source_too_short", "torch.masked_scatter",
       [rnd([2, 3]), torch.ones(2, 3, dtype=BOOL), rnd([5])], expect_error=True)
g.case("masked_scatter/source_dtype", "torch.masked_scatter",
       [rnd([2, 3]), torch.ones(2, 3, dtype=BOOL), rnd([6], F64)], expect_error=True)
g.case("masked_scatter/mask_shape", "torch.masked_scatter",
       [rnd([2, 3]), torch.ones(4, dtype=BOOL), rnd([6])], expect_error=True)

NAN = float("nan")
REDUCES = ["sum", "prod", "mean", "amax", "amin"]
for red in REDUCES:
    for self_ in (True, False):
        tag = "" if self_ else "_exclude_self"
        for dt in (F32, F64, I64, I32, U8, F16, BF16):
            lo, hi = (0, 4) if dt == U8 else (-3, 4)
            x = rint([3, 5], I64, lo, hi).to(dt)
            src = rint([3, 6], I64, 1 if red == "prod" else lo, 3 if red == "prod" else hi).to(dt)
            idx = rint([3, 4], I64, 0, 5)
            g.case(f"scatter_reduce/{red}{tag}/{dtype_tag(dt)}", "torch.scatter_reduce",
                   [x, 1, idx, src, red], {"include_self": self_})
    g.case(f"scatter_reduce/{red}/dim0_method", "Tensor.scatter_reduce",
           [rint([4, 3], I64, -3, 4).to(F32), 0, rint([6, 2], I64, 0, 4), rint([6, 3], I64, -3, 4).to(F32),
            red])
    g.case(f"scatter_reduce/{red}/nan", "torch.scatter_reduce",
           [torch.tensor([[1.0, NAN, 2.0, 0.0]]), 1, torch.tensor([[0, 0, 1, 2]]),
            torch.tensor([[NAN, 3.0, 1.0, -2.0]]), red], {"include_self": True})
    g.case(f"scatter_reduce/{red}/in_place_3d", "Tensor.scatter_reduce_",
           [rint([2, 3, 4], I64, -3, 4).to(F64), 2, rint([2, 2, 5], I64, 0, 3),
            rint([2, 3, 5], I64, -3, 4).to(F64), red], {"include_self": False})
g.case("scatter_reduce/mean_int_floor", "torch.scatter_reduce",
       [torch.tensor([0, 0, 5]), 0, torch.tensor([0, 0, 1, 1]), torch.tensor([-3, -4, 3, 4]), "mean"])
for dt, values in ((U8, [250, 10, 4, 200]), (torch.int8, [120, 10, 4, -100])):
    # The sum wraps in the dtype before the floor division.
    g.case(f"scatter_reduce/mean_int_wraps/{dtype_tag(dt)}", "torch.scatter_reduce",
           [torch.tensor([values[0], 3], dtype=dt), 0, torch.tensor([0, 0, 1]),
            torch.tensor(values[1:], dtype=dt), "mean"])
g.case("scatter_reduce/index_out_of_range", "torch.scatter_reduce",
       [rnd([2, 3]), 1, torch.tensor([[0, 3]]), rnd([2, 3]), "sum"], expect_error=True)
g.case("scatter_reduce/negative_index", "torch.scatter_reduce",
       [rnd([2, 3]), 1, torch.tensor([[0, -1]]), rnd([2, 3]), "sum"], expect_error=True)
g.case("scatter_reduce/bad_reduce", "torch.scatter_reduce",
       [rnd([2, 3]), 1, torch.tensor([[0, 1]]), rnd([2, 3]), "max"], expect_error=True)
g.case("scatter_reduce/src_dtype", "torch.scatter_reduce",
       [rnd([2, 3]), 1, torch.tensor([[0, 1]]), rnd([2, 3], F64), "sum"], expect_error=True)
g.case("scatter_reduce/index_too_big", "torch.scatter_reduce",
       [rnd([2, 3]), 1, torch.zeros(3, 2, dtype=I64), rnd([2, 3]), "sum"], expect_error=True)

for dt in (F32, F16, BF16, F64, I64, I32, U8, BOOL):
    x = rint([4, 5], I64, 0, 9).to(dt)
    g.case(f"index_put/{dtype_tag(dt)}", "torch.index_put",
           [x, (torch.tensor([0, 2, 3]), torch.tensor([4, 1, 1])), rint([3], I64, 0, 9).to(dt)])
    if dt != BOOL:
        g.case(f"index_put/accumulate_duplicates/{dtype_tag(dt)}", "torch.index_put",
               [x, (torch.tensor([1, 1, 3, 1]),), rint([4, 5], I64, 0, 5).to(dt)], {"accumulate": True})
g.case("index_put/one_index_rows_broadcast_value", "Tensor.index_put",
       [rnd([5, 3]), (torch.tensor([4, 0]),), rnd([3])])
g.case("index_put/negative_indices", "torch.index_put",
       [rnd([5, 3]), (torch.tensor([-1, 0]), torch.tensor([-3, 2])), rnd([2])])


def put_by_setitem(x, indices, values, accumulate=False):
    """index_put with None entries, which PyTorch 1.13's Python binding refuses (2.x takes them):
    the same write through item assignment, a None entry a full slice."""
    y = x.clone()
    key = tuple(slice(None) if i is None else i for i in indices)
    if accumulate:
        y[key] += values
    else:
        y[key] = values
    return y


g.case("index_put/none_then_index", fn=put_by_setitem, op="index_put",
       args=[rnd([2, 5, 3]), (None, torch.tensor([[4], [1]])), rnd([2, 2, 1, 3])])
g.case("index_put/adjacent_middle", fn=put_by_setitem, op="index_put",
       args=[rnd([2, 4, 5, 3]), (None, torch.tensor([3, 0]), torch.tensor([[1], [4]])),
             rnd([2, 2, 2, 3])])
g.case("index_put/split_indices_go_first", fn=put_by_setitem, op="index_put",
       args=[rnd([4, 3, 5]), (torch.tensor([0, 3]), None, torch.tensor([2, 4])), rnd([2, 3])])
g.case("index_put/three_indices", "torch.index_put",
       [rnd([4, 3, 5]), (torch.tensor([0, 3]), torch.tensor([1, 1]), torch.tensor([2, 4])), rnd([2])])
g.case("index_put/in_place_zero_d_value", "Tensor.index_put_",
       [rnd([6, 2]), (torch.tensor([5, 1, 2]),), torch.tensor(7.0)], {"accumulate": False})
g.case("index_put/int32_index", "torch.index_put",
       [rnd([6, 2]), (torch.tensor([5, 1, 2], dtype=I32),), torch.tensor(7.0)], expect_error=True)
g.case("index_put/accumulate_2d", "torch.index_put",
       [rint([3, 4], I64, 0, 5).to(F64), (torch.tensor([0, 0, 2]), torch.tensor([1, 1, 3])),
        torch.tensor([1.0, 2.0, 4.0], dtype=F64)], {"accumulate": True})
g.case("index_put/out_of_range", "torch.index_put",
       [rnd([3, 4]), (torch.tensor([3]),), rnd([4])], expect_error=True)
g.case("index_put/values_shape", "torch.index_put",
       [rnd([3, 4]), (torch.tensor([0, 1]),), rnd([3])], expect_error=True)
g.case("index_put/values_dtype", "torch.index_put",
       [rnd([3, 4]), (torch.tensor([0, 1]),), rnd([2, 4], F64)], expect_error=True)
g.case("index_put/float_index", "torch.index_put",
       [rnd([3, 4]), (torch.tensor([0.0, 1.0]),), rnd([2, 4])], expect_error=True)
g.case("index_put/too_many", "torch.index_put",
       [rnd([3]), (torch.tensor([0]), torch.tensor([0])), rnd([1])], expect_error=True)


def setitem(x, index, value):
    """x[index] = value as the pure op the graph IR makes of it."""
    y = x.clone()
    y[index] = value
    return y


# A mask over the leading dims with a value over the other dims: static (every masked position
# takes the same value row).
g.case("setitem/mask_rows_value_row", fn=setitem, op="setitem",
       args=[rnd([4, 3]), torch.tensor([True, False, True, True]), rnd([3])])
g.case("setitem/mask_2d_value_broadcast", fn=setitem, op="setitem",
       args=[rint([2, 3, 4], I64, 0, 9), rbool([2, 3]), rint([1, 4], I64, 10, 20)])
g.case("setitem/mask_value_leading_ones", fn=setitem, op="setitem",
       args=[rnd([3, 2, 5], F64), torch.tensor([False, True, True]), rnd([1, 1, 2, 1], F64)])
# A literal list of ints as the one index among full slices (uploaded as an index tensor).
g.case("setitem/list_index_value_broadcast", fn=setitem, op="setitem",
       args=[rnd([3, 5, 2]), (slice(None), [4, 0, -2]), rnd([3, 1, 2])])
g.case("setitem/list_index_number", fn=setitem, op="setitem",
       args=[rint([4, 3], I64, 0, 9), [3, 1], 7])
g.case("setitem/list_index_out_of_range", fn=setitem, op="setitem",
       args=[rnd([4, 3]), (slice(None), [0, 3]), 1.0], expect_error=True)
g.write()
