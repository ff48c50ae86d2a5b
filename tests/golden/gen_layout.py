"""Golden fixtures for the layout families: evaluator/ops/{view_ops,dim_ops,getitem,split_ops,
concat_ops,copy_ops,index_ops}.cpp. Run: /usr/bin/python3 tests/golden/gen_layout.py

Layout ops move elements without arithmetic, so every case must match exactly, and views must
alias their input exactly when PyTorch's do (the test checks `aliases_input`)."""
import torch

from golden_lib import (BF16, F16, F32, F64, FLOATS, Golden, dtype_tag, expanded, permuted, rint,
                        rnd, strided, transposed)

g = Golden("layout")
I64, I32, BOOL = torch.int64, torch.int32, torch.bool


def each_dtype(name, spelling, make_args, kwargs=None, dtypes=FLOATS + (I64,), **kw):
    for dt in dtypes:
        g.case(f"{name}/{dtype_tag(dt)}", spelling, make_args(dt), kwargs, **kw)


def r(shape, dt=F32):
    return rnd(shape, dt) if dt.is_floating_point else rint(shape, dt)


# ---- reshaping views ------------------------------------------------------------------
each_dtype("view/varargs", "Tensor.view", lambda dt: [r([2, 3, 4], dt), 4, -1])
g.case("view/tuple", "Tensor.view", [r([6, 2]), (-1, 1)])
g.case("view/split_dim_of_transposed", "Tensor.view", [transposed(r([3, 4])), 3, 2, 2])
g.case("view/not_viewable", "Tensor.view", [transposed(r([3, 4])), -1], expect_error=True)
g.case("view/bad_size", "Tensor.view", [r([2, 3]), 4, -1], expect_error=True)
g.case("view/to_0d", "Tensor.view", [r([1, 1]), ()])
each_dtype("reshape/contiguous", "Tensor.reshape", lambda dt: [r([2, 12], dt), 1, 2, 3, -1])
g.case("reshape/torch_tuple", "torch.reshape", [r([4, 6]), (3, 8)])
g.case("reshape/transposed_copies", "Tensor.reshape", [transposed(r([3, 4], F16)), -1])
g.case("reshape/strided_copies", "Tensor.reshape", [strided(r([2, 3], BF16)), 6])
g.case("reshape/transposed_splits_view", "Tensor.reshape", [transposed(r([2, 3, 4])), 2, 2, 2, 3])
g.case("reshape/expanded", "Tensor.reshape", [expanded(r([3, 1]), [3, 4]), 12])
g.case("flatten/from_2", "Tensor.flatten", [r([1, 3, 2, 2]), 2])
g.case("flatten/all", "torch.flatten", [r([2, 3, 2], F16)])
g.case("flatten/range", "torch.flatten", [r([2, 3, 2, 2])], {"start_dim": 1, "end_dim": -2})
g.case("flatten/transposed", "Tensor.flatten", [transposed(r([2, 3, 4], BF16)), 1])
g.case("flatten/0d", "torch.flatten", [r([])])
g.case("unflatten/basic", "Tensor.unflatten", [r([2, 12]), 1, (3, -1)])
g.case("view_as/basic", "Tensor.view_as", [r([6]), r([2, 3])])
g.case("reshape_as/transposed", "Tensor.reshape_as", [transposed(r([3, 2])), r([6])])
g.case("contiguous/already", "Tensor.contiguous", [r([2, 3], F16)])
g.case("contiguous/transposed", "Tensor.contiguous", [transposed(r([2, 3], BF16))])
g.case("contiguous/int", "Tensor.contiguous", [permuted(rint([2, 3, 2]), [2, 0, 1])])
g.case("clone/strided", "torch.clone", [strided(r([2, 3]))])
g.case("detach/basic", "Tensor.detach", [r([3])])

# ---- dimension views ---------------------------------------------------------------------
each_dtype("transpose/neg_dims", "Tensor.transpose", lambda dt: [r([2, 3, 4], dt), -1, -2])
g.case("transpose/torch", "torch.transpose", [r([2, 3, 4]), 0, 2])
g.case("transpose/of_strided", "Tensor.transpose", [strided(r([3, 4])), 1, 0])
g.case("transpose/bad_dim", "Tensor.transpose", [r([2, 3]), 0, 2], expect_error=True)
g.case("swapaxes/basic", "torch.swapaxes", [r([2, 3]), 0, 1])
each_dtype("permute/varargs", "Tensor.permute", lambda dt: [r([2, 1, 3, 2, 2], dt), 2, 0, 3, 1, 4])
g.case("permute/tuple", "Tensor.permute", [r([2, 3, 2, 2, 1]), (0, 1, 3, 2, 4)])
g.case("permute/torch", "torch.permute", [transposed(r([2, 3, 4])), (2, 0, 1)])
g.case("permute/wrong_count", "Tensor.permute", [r([2, 3]), 0], expect_error=True)
g.case("t/matrix", "Tensor.t", [r([2, 3])])
g.case("t/vector", "torch.t", [r([3])])
g.case("movedim/basic", "torch.movedim", [r([2, 3, 4]), 0, -1])
g.case("movedim/lists", "Tensor.movedim", [r([2, 3, 4, 1]), (0, 1), (2, 0)])
each_dtype("expand/keep", "Tensor.expand", lambda dt: [r([2, 1, 3], dt), -1, 4, -1])
g.case("expand/new_leading", "Tensor.expand", [r([3, 1]), 1, -1, -1])
g.case("expand/list", "Tensor.expand", [r([1, 3]), [2, 3, 3]])
g.case("expand/5d", "Tensor.expand", [r([2, 3, 1, 2, 2]), -1, -1, 4, -1, -1])
g.case("expand/bad", "Tensor.expand", [r([2, 3]), 4, 3], expect_error=True)
g.case("expand_as/basic", "Tensor.expand_as", [r([1, 3], F16), r([4, 3], F16)])
g.case("unsqueeze/neg", "Tensor.unsqueeze", [r([2, 3]), -1])
g.case("unsqueeze/torch_1", "torch.unsqueeze", [transposed(r([2, 3])), 1])
g.case("squeeze/all", "Tensor.squeeze", [r([1, 3, 1, 2])])
g.case("squeeze/dim", "Tensor.squeeze", [r([1, 3, 1, 2]), 0])
g.case("squeeze/not_one", "torch.squeeze", [r([1, 3, 1, 2]), 1])
g.case("narrow/basic", "torch.narrow", [r([4, 5]), 1, 1, 3])
g.case("narrow/neg_start", "Tensor.narrow", [r([4, 5], F16), 0, -2, 2])
g.case("narrow/too_long", "Tensor.narrow", [r([4, 5]), 1, 3, 3], expect_error=True)
g.case("select/basic", "torch.select", [r([3, 4]), 1, -1])
g.case("select/out_of_range", "Tensor.select", [r([3, 4]), 0, 3], expect_error=True)
g.case("unfold/basic", "Tensor.unfold", [r([2, 7]), 1, 3, 2])

# ---- getitem (the corpus uses these forms) -----------------------------------------------
S = slice(None, None, None)
each_dtype("getitem/int", "operator.getitem", lambda dt: [r([3, 2, 2], dt), 0], dtypes=FLOATS + (I64, BOOL))
g.case("getitem/neg_int", "operator.getitem", [r([3, 4]), -1])
g.case("getitem/corpus_slice_1", "operator.getitem", [r([2, 5, 3]), (S, slice(1, None, None))])
g.case("getitem/corpus_slice_to_1", "operator.getitem", [r([2, 5, 3], F16), (S, slice(None, 1, None))])
g.case("getitem/corpus_step_2", "operator.getitem", [r([1, 2, 3, 6], BF16), (S, S, S, slice(1, None, 2))])
g.case("getitem/corpus_3d_slices", "operator.getitem", [r([2, 10, 14]), (S, slice(None, 8, None), slice(11, None, None))])
g.case("getitem/clamped", "operator.getitem", [r([4, 3]), slice(-100, 100, 3)])
g.case("getitem/empty", "operator.getitem", [r([4, 3]), slice(5, None)])
g.case("getitem/none_ellipsis", "operator.getitem", [r([2, 3]), (None, Ellipsis, None)])
g.case("getitem/ellipsis_int", "operator.getitem", [r([2, 3, 4]), (Ellipsis, 1)])
g.case("getitem/int_slice_none", "operator.getitem", [r([3, 4, 5]), (1, slice(None, None, 2), None)])
g.case("getitem/on_transposed", "operator.getitem", [transposed(r([4, 5])), (slice(1, 3), 2)])
g.case("getitem/int64_values", "operator.getitem", [torch.tensor([[2 ** 60 + 1, 3], [5, -(2 ** 59)]]), (S, 0)])
g.case("getitem/index_tensor", "operator.getitem", [r([4, 3]), torch.tensor([3, 0, -1])])
g.case("getitem/index_tensor_f16", "operator.getitem", [r([4, 3], F16), (S, torch.tensor([2, 0]))])
g.case("getitem/index_tensor_2d", "operator.getitem", [r([5, 2]), torch.tensor([[0, 4], [1, 1]])])
g.case("getitem/two_index_tensors_adjacent", "operator.getitem",
       [r([3, 4, 2]), (torch.tensor([0, 2]), torch.tensor([[1], [3]]))])
g.case("getitem/two_index_tensors_apart", "operator.getitem",
       [r([3, 2, 4]), (torch.tensor([0, 2]), S, torch.tensor([1, 3]))])
g.case("getitem/int_then_index", "operator.getitem", [r([2, 3, 4]), (0, S, torch.tensor([1, 1, 0]))])
g.case("getitem/list_index", "operator.getitem", [r([4, 3]), [0, 2]])
g.case("getitem/too_many", "operator.getitem", [r([2, 3]), (0, 0, 0)], expect_error=True)
g.case("getitem/out_of_range", "operator.getitem", [r([2, 3]), 2], expect_error=True)
g.case("getitem/index_out_of_range", "operator.getitem", [r([2, 3]), torch.tensor([2])], expect_error=True)

# ---- lists of views ----------------------------------------------------------------------
each_dtype("split/corpus_sections", "torch.functional.split", lambda dt: [r([1, 6, 2], dt), [1, 2, 3]], {"dim": 1})
g.case("split/int", "Tensor.split", [r([5, 2]), 2])
g.case("split/int_dim", "torch.split", [transposed(r([3, 7])), 3, 0])
g.case("split/bad_sum", "torch.split", [r([5, 2]), [2, 2]], expect_error=True)
g.case("chunk/basic", "torch.chunk", [r([7, 2]), 3])
g.case("chunk/dim", "Tensor.chunk", [r([2, 6], BF16), 4, -1])
g.case("unbind/corpus", "Tensor.unbind", [r([3, 2, 2], F16), 0])
g.case("unbind/dim1", "torch.unbind", [r([2, 3]), 1])
g.case("tensor_split/sections", "torch.tensor_split", [r([7]), 3])
g.case("tensor_split/indices", "torch.tensor_split", [r([2, 7]), [1, 5, 9]], {"dim": 1})
g.case("meshgrid/corpus_ij", "torch.functional.meshgrid", [r([3]), r([4])], {"indexing": "ij"})
g.case("meshgrid/xy", "torch.meshgrid", [r([3], F16), r([2], F16), r([2], F16)], {"indexing": "xy"})
g.case("meshgrid/int64", "torch.functional.meshgrid", [torch.arange(3), torch.arange(2)], {"indexing": "ij"})

# ---- concatenation -------------------------------------------------------------------------
each_dtype("cat/corpus_list_dim1", "torch.cat", lambda dt: [[r([1, 2, 2], dt), r([1, 3, 2], dt), r([1, 1, 2], dt)]], {"dim": 1})
g.case("cat/tuple_neg_dim", "torch.cat", [(r([2, 3]), transposed(r([2, 2])))], {"dim": -1})
g.case("cat/positional_dim", "torch.cat", [(r([2, 3], BF16), strided(r([1, 3], BF16))), 0])
g.case("cat/promotes", "torch.cat", [[r([2], F16), r([3], F32)]])
g.case("cat/int_and_float", "torch.cat", [[rint([2]), r([2])]])
g.case("cat/int64_exact", "torch.concat", [[torch.tensor([2 ** 60 + 1]), rint([2], I32)]])
g.case("cat/skips_empty_1d", "torch.cat", [[r([2, 3]), torch.empty(0)]])
g.case("cat/mismatch", "torch.cat", [[r([2, 3]), r([2, 4])]], expect_error=True)
each_dtype("stack/corpus_dim4", "torch.stack", lambda dt: [(r([2, 1, 2, 2], dt), r([2, 1, 2, 2], dt))], {"dim": 4})
g.case("stack/neg", "torch.stack", [(r([2, 3]), transposed(r([2, 3]))), -1])
g.case("stack/mismatch", "torch.stack", [[r([2]), r([3])]], expect_error=True)

# ---- copies ----------------------------------------------------------------------------------
each_dtype("pad/corpus_constant", "torch._C._nn.pad", lambda dt: [r([1, 2, 3], dt), (0, 0, 1, 0, 0, 0), "constant", None])
g.case("pad/corpus_list", "torch.nn.functional.pad", [r([2, 5]), [0, 3], "constant", None])
g.case("pad/value", "torch.nn.functional.pad", [r([2, 3], F16), (1, 2)], {"value": 1.5})
g.case("pad/negative_crops", "torch.nn.functional.pad", [r([3, 4]), (-1, 2, 1, -2)])
g.case("pad/reflect", "torch.nn.functional.pad", [r([1, 2, 4, 5]), (2, 1, 3, 1)], {"mode": "reflect"})
g.case("pad/replicate", "torch.nn.functional.pad", [r([1, 2, 3, 2], BF16), (2, 2, 1, 0)], {"mode": "replicate"})
g.case("pad/circular", "torch.nn.functional.pad", [r([1, 2, 4]), (2, 3)], {"mode": "circular"})
g.case("pad/reflect_too_big", "torch.nn.functional.pad", [r([1, 2, 3]), (3, 0)], {"mode": "reflect"}, expect_error=True)
g.case("pad/transposed_input", "torch._C._nn.pad", [transposed(r([2, 3, 4])), [1, 1, 1, 1], "constant", None])
g.case("roll/dims", "torch.roll", [r([3, 4]), (1, -2), (0, 1)])
g.case("roll/flat", "torch.roll", [r([2, 3], F16), 4])
g.case("roll/int", "Tensor.roll", [rint([5]), -1, 0])
g.case("flip/basic", "torch.flip", [r([2, 3, 2]), (0, 2)])
g.case("flip/varargs_transposed", "Tensor.flip", [transposed(r([3, 4], BF16)), 1])
each_dtype("repeat/basic", "Tensor.repeat", lambda dt: [r([2, 3], dt), 2, 1, 2])
g.case("repeat/transposed", "Tensor.repeat", [transposed(r([2, 3])), (2, 2)])
g.case("repeat/too_few", "Tensor.repeat", [r([2, 3]), 2], expect_error=True)
g.case("tile/fewer", "torch.tile", [r([2, 3]), (2,)])
g.case("repeat_interleave/dim", "torch.repeat_interleave", [r([2, 3]), 2], {"dim": 1})
g.case("repeat_interleave/flat", "Tensor.repeat_interleave", [r([2, 2], F16), 3])

# ---- indexing ----------------------------------------------------------------------------------
for dt in FLOATS:
    g.case(f"index_select/corpus/{dtype_tag(dt)}", "Tensor.index_select", [r([3, 5, 2], dt), -2, torch.tensor([4, 0, 0, 2])])
g.case("index_select/int32_index", "torch.index_select", [r([4, 3]), 0, torch.tensor([3, 1], dtype=I32)])
g.case("index_select/transposed", "torch.index_select", [transposed(r([4, 3])), 1, torch.tensor([1])])
g.case("index_select/out_of_range", "torch.index_select", [r([4, 3]), 0, torch.tensor([4])], expect_error=True)
for dt in FLOATS:
    g.case(f"gather/corpus/{dtype_tag(dt)}", "torch.gather", [r([2, 5], dt)], {"dim": -1, "index": torch.tensor([[0, 4, 4], [1, 2, 3]])})
g.case("gather/dim0", "torch.gather", [r([3, 2]), 0, torch.tensor([[2, 0], [1, 1], [0, 2]])])
g.case("gather/out_of_range", "torch.gather", [r([3, 2]), 1, torch.tensor([[2]])], expect_error=True)
for dt in FLOATS + (I64,):
    g.case(f"scatter_add_/corpus/{dtype_tag(dt)}", "Tensor.scatter_add_",
           [torch.zeros(4, 3, dtype=dt), 0, torch.tensor([[0, 1, 3], [0, 0, 3]]), r([2, 3], dt)])
# Two adds land on element [0, 0]: PyTorch rounds after each float32 add, the reference once.
g.case("scatter_add/torch", "torch.scatter_add", [r([3, 4]), 1, torch.tensor([[0, 0], [3, 1]]), r([2, 3])],
       tol={"ulps": 1, "abs": 1e-6})
g.case("scatter/src", "torch.scatter", [r([3, 4]), 1, torch.tensor([[0, 2], [3, 1]]), r([2, 2])])
g.case("scatter/value_positional", "Tensor.scatter", [r([3, 4], F16), 0, torch.tensor([[2, 0, 1]]), 1.5])
g.case("scatter/value_kw", "torch.scatter", [r([3, 4]), 0, torch.tensor([[2, 0, 1]])], {"value": -2.0})
g.case("scatter/reduce_multiply", "Tensor.scatter_", [r([3, 4]), 1, torch.tensor([[0, 0]]), r([1, 2])], {"reduce": "multiply"})
g.case("scatter/index_int32", "torch.scatter", [r([3]), 0, torch.tensor([0], dtype=I32), r([1])], expect_error=True)
for dt in FLOATS:
    g.case(f"embedding/corpus/{dtype_tag(dt)}", "torch.nn.functional.embedding",
           [torch.tensor([[1, 0, 4], [2, 2, 1]]), r([5, 3], dt), None, None, 2.0, False, False])
g.case("embedding/padding_idx", "torch.nn.functional.embedding",
       [torch.tensor([0, 1, 1]), r([4, 3]), 1, None, 2.0, False, False])
g.case("embedding/int32", "torch.nn.functional.embedding", [torch.tensor([3, 0], dtype=I32), r([4, 2])])
g.case("embedding/max_norm", "torch.nn.functional.embedding", [torch.tensor([0, 2, 0]), r([3, 4], F64)],
       {"max_norm": 1.0}, tol={"ulps": 4})  # PyTorch's vectorised norm sums in another order
g.case("embedding/out_of_range", "torch.nn.functional.embedding", [torch.tensor([5]), r([4, 2])], expect_error=True)
g.case("embedding/float_index", "torch.nn.functional.embedding", [r([2]), r([4, 2])], expect_error=True)

# F.one_hot (added last: cases draw from one random stream)
OH = "torch.nn.functional.one_hot"
g.case("one_hot/basic", OH, [torch.tensor([0, 2, 1, 2])], {"num_classes": 3})
g.case("one_hot/2d_positional", OH, [torch.tensor([[1, 0], [3, 3]]), 5])
g.case("one_hot/transposed", OH, [transposed(torch.tensor([[0, 1, 2], [2, 1, 0]]))], {"num_classes": 4})
g.case("one_hot/scalar", OH, [torch.tensor(1)], {"num_classes": 2})
g.case("one_hot/empty", OH, [torch.zeros(0, dtype=torch.int64)], {"num_classes": 3})
g.case("one_hot/out_of_range", OH, [torch.tensor([0, 3])], {"num_classes": 3}, expect_error=True)
g.case("one_hot/negative", OH, [torch.tensor([-1, 0])], {"num_classes": 3}, expect_error=True)
g.case("one_hot/int32", OH, [torch.tensor([0, 1], dtype=torch.int32)], {"num_classes": 2}, expect_error=True)
# item assignment, x[index] = value, as the pure op the graph IR makes of it (added last)
def setitem(x, index, value):
    y = x.clone()
    y[index] = value
    return y


def si(name, args, **kw):
    g.case("setitem/" + name, fn=setitem, op="setitem", args=args, **kw)


S = slice(None)
for dt in FLOATS + (I64, I32, BOOL):
    si(f"column_scalar/{dtype_tag(dt)}", [r([3, 4], dt), (S, 0), 1])
si("ellipsis_slice_tensor", [r([2, 3, 5]), (Ellipsis, slice(1, 3)), r([2, 3, 2])])
si("ellipsis_int_broadcast", [r([2, 3, 5]), (Ellipsis, 1), r([3])])
si("int_scalar_float", [r([4, 3]), 2, -2.5])
si("neg_int", [r([4, 3]), -1, 7.0])
si("none_in_index", [r([4, 3]), (None, S, 1), r([1, 4])])
si("step_slice", [r([10]), slice(1, None, 3), r([3])])
si("leading_ones_dropped", [r([4, 3]), 0, r([1, 3])])
si("value_cast_f64_to_f16", [r([2, 3], F16), (S, 1), r([2], F64)])
si("value_cast_float_into_int", [r([2, 3], I64), (S, 1), 3.75])
si("value_f32_into_int", [r([2, 3], I64), (S, 2), rnd([2], F32, -9, 9)])
si("neg_inf", [r([3, 4]), (S, slice(2, None)), float("-inf")])
si("bool_value", [r([3, 4]), 1, True])
si("whole_ellipsis_copy", [r([3, 4]), Ellipsis, r([4], F16)])
si("transposed_input", [transposed(r([3, 4])), (S, 0), r([3])])
si("empty_slice", [r([3, 4]), slice(5, None), 1.0])
si("value_0d", [r([3, 4]), (S, 2), torch.tensor(4.5)])
si("bad_shape", [r([3, 4]), (S, 0), r([4])], expect_error=True)
si("out_of_bounds", [r([3, 4]), 3, 1.0], expect_error=True)
si("overflow_u8", [torch.zeros(3, dtype=torch.uint8), 0, 300], expect_error=True)
# pixel_shuffle, pixel_unshuffle, channel_shuffle (added last)
PS, PU = "torch.nn.functional.pixel_shuffle", "torch.nn.functional.pixel_unshuffle"
for dt in (F32, F16, I64, BOOL):
    g.case(f"pixel_shuffle/{dtype_tag(dt)}", PS, [r([2, 8, 2, 3], dt), 2])
g.case("pixel_shuffle/batch_dims", PS, [r([2, 1, 9, 2, 2]), 3])
g.case("pixel_shuffle/3d", "torch.pixel_shuffle", [r([4, 2, 3]), 2])
g.case("pixel_shuffle/transposed", PS, [transposed(r([1, 4, 3, 2])), 2])
g.case("pixel_shuffle/factor_1", PS, [r([1, 3, 2, 2]), 1])
g.case("pixel_shuffle/bad_channels", PS, [r([1, 6, 2, 2]), 2], expect_error=True)
g.case("pixel_shuffle/2d", PS, [r([4, 2]), 2], expect_error=True)
for dt in (F32, BF16, I64):
    g.case(f"pixel_unshuffle/{dtype_tag(dt)}", PU, [r([2, 3, 4, 6], dt), 2])
g.case("pixel_unshuffle/batch_dims", PU, [r([2, 2, 1, 3, 6]), 3])
g.case("pixel_unshuffle/strided", PU, [strided(r([1, 2, 4, 4])), 2])
g.case("pixel_unshuffle/bad_height", PU, [r([1, 2, 5, 4]), 2], expect_error=True)
g.case("pixel_unshuffle/bad_width", PU, [r([1, 2, 4, 3]), 2], expect_error=True)
for dt in (F32, F16, I64):
    g.case(f"channel_shuffle/{dtype_tag(dt)}", "torch.channel_shuffle", [r([2, 6, 2, 3], dt), 2])
g.case("channel_shuffle/3d", "torch.channel_shuffle", [r([2, 12, 5]), 3])
g.case("channel_shuffle/5d", "torch.channel_shuffle", [r([1, 4, 2, 2, 2]), 4])
g.case("channel_shuffle/transposed", "torch.channel_shuffle", [transposed(r([2, 4, 3, 3])), 2])
g.case("channel_shuffle/not_divisible", "torch.channel_shuffle", [r([1, 5, 2]), 2], expect_error=True)
g.case("channel_shuffle/2d", "torch.channel_shuffle", [r([2, 4]), 2], expect_error=True)
# diagonal (added last): a view
for dt in (F32, I64, BOOL):
    g.case(f"diagonal/{dtype_tag(dt)}", "torch.diagonal", [r([4, 4], dt)])
g.case("diagonal/offset_dims", "torch.diagonal", [r([2, 3, 5])], {"offset": 1, "dim1": -2, "dim2": -1})
g.case("diagonal/negative_offset_swapped", "Tensor.diagonal", [r([2, 3, 5]), -1, 2, 1])
g.case("diagonal/outer_dims", "torch.diagonal", [r([3, 2, 3])], {"dim1": 0, "dim2": 2})
g.case("diagonal/empty", "torch.diagonal", [r([2, 3]), 5])
g.case("diagonal/transposed", "torch.diagonal", [transposed(r([3, 4]))])
g.case("diagonal/same_dims", "torch.diagonal", [r([3, 3]), 0, 1, 1], expect_error=True)
g.case("diagonal/1d", "torch.diagonal", [r([3])], expect_error=True)
# take_along_dim, index_fill, index_add (added last)
TA = "torch.take_along_dim"
for dt in (F32, F16, I64, BOOL):
    g.case(f"take_along_dim/{dtype_tag(dt)}", TA, [r([3, 4], dt), torch.tensor([[0, 3], [1, 1], [2, 0]])], {"dim": 1})
g.case("take_along_dim/broadcast", TA, [r([2, 1, 5]), torch.tensor([[[4], [0], [2]]])], {"dim": 2})
g.case("take_along_dim/flat", TA, [r([3, 4]), torch.tensor([11, 0, 5])])
g.case("take_along_dim/method_neg_dim", "Tensor.take_along_dim", [transposed(r([3, 4])), torch.tensor([[1], [0], [2]])], {"dim": -1})
g.case("take_along_dim/out_of_range", TA, [r([2, 3]), torch.tensor([[3], [0]])], {"dim": 1}, expect_error=True)
g.case("take_along_dim/rank_mismatch", TA, [r([2, 3]), torch.tensor([0])], {"dim": 1}, expect_error=True)
for dt in (F32, BF16, I64, BOOL):
    g.case(f"index_fill/{dtype_tag(dt)}", "Tensor.index_fill", [r([3, 4], dt), 1, torch.tensor([0, 2]), 1])
g.case("index_fill/negative_index", "torch.index_fill", [r([3, 4]), 0, torch.tensor([-1]), -2.5])
g.case("index_fill/tensor_value", "Tensor.index_fill", [r([2, 3, 4]), 2, torch.tensor(3), torch.tensor(7.0)])
g.case("index_fill/float_into_int", "Tensor.index_fill", [r([3], I64), 0, torch.tensor([1]), 2.75])
g.case("index_fill/in_place", "Tensor.index_fill_", [r([3, 4]), -1, torch.tensor([1, 1]), 0.0])
g.case("index_fill/vector_value", "Tensor.index_fill", [r([3, 4]), 1, torch.tensor([1]), torch.tensor([5.0])],
       expect_error=True)
g.case("index_fill/int32_index", "Tensor.index_fill", [r([3, 4]), 1, torch.tensor([1], dtype=I32), 1.0],
       expect_error=True)
IA_TOL = {"ulps": 4}  # PyTorch adds in the dtype, the reference in double
for dt in (F32, F16, I64, I32):
    g.case(f"index_add/{dtype_tag(dt)}", "Tensor.index_add", [r([4, 3], dt), 0, torch.tensor([3, 0, 3]), r([3, 3], dt)],
           tol=IA_TOL)
g.case("index_add/alpha", "torch.index_add", [r([2, 5]), 1, torch.tensor([4, 1]), r([2, 2])], {"alpha": 2.5}, tol=IA_TOL)
g.case("index_add/int_alpha", "Tensor.index_add", [r([2, 5], I64), 1, torch.tensor([4]), r([2, 1], I64)], {"alpha": -3})
g.case("index_add/in_place_transposed", "Tensor.index_add_", [transposed(r([3, 4])), 1, torch.tensor([2, 2]), r([3, 2])],
       tol=IA_TOL)
g.case("index_add/negative_index", "Tensor.index_add", [r([3, 2]), 0, torch.tensor([-1]), r([1, 2])], expect_error=True)
g.case("index_add/dtype_mismatch", "Tensor.index_add", [r([3, 2]), 0, torch.tensor([1]), r([1, 2], F64)],
       expect_error=True)
# item assignment with one tensor index (added last): a bool mask over the leading dims with a
# number, or one 1-d integer index among full slices
mask = torch.tensor([[True, False, True, False], [False, False, True, True], [True, True, False, False]])
for dt in (F32, F16, I64, BOOL):
    si(f"mask_scalar/{dtype_tag(dt)}", [r([3, 4], dt), mask, 1])
si("mask_leading_dims", [r([3, 4, 2]), mask, float("-inf")])
si("mask_0d_value", [r([3, 4]), mask, torch.tensor(2.5, dtype=F64)])
for dt in (F32, BF16, I64):
    si(f"index_scalar/{dtype_tag(dt)}", [r([5, 3], dt), torch.tensor([4, 0, -2]), 3])
si("index_dim1_tensor_value", [r([2, 5, 3]), (S, torch.tensor([1, 3])), r([2, 2, 3])])
si("index_broadcast_value", [r([4, 6]), (S, torch.tensor([5, 0, 2])), r([3])])
si("index_value_dtype_differs", [r([4, 3], I64), torch.tensor([1]), r([1, 3], F32)], expect_error=True)
si("index_out_of_range", [r([4, 3]), torch.tensor([4]), 0.0], expect_error=True)
si("index_bad_value_shape", [r([4, 3]), torch.tensor([0, 1]), r([3, 3])], expect_error=True)
# atleast_1d/2d/3d (added last): views
for n in (1, 2, 3):
    for shape in ([], [4], [2, 3], [2, 1, 3, 1]):
        g.case(f"atleast_{n}d/rank{len(shape)}", f"torch.atleast_{n}d", [r(shape)])
g.case("atleast_3d/transposed", "torch.atleast_3d", [transposed(r([3, 4]))])
g.write()
