"""Golden fixtures for evaluator/ops/{linalg,einsum,attention}.cpp.
Run: /usr/bin/python3 tests/golden/gen_linalg.py

Expected values are float64 results rounded to the output dtype (f64ref.py), compared within
1 ulp; `native/*` cases compare with PyTorch's own float32 kernels under a stated tolerance.
scaled_dot_product_attention is not in PyTorch 1.13: its reference is the documented math
(softmax(q k^T * scale + mask) v) written with float64 PyTorch primitives below."""
import math

import torch

from f64ref import f64
from golden_lib import BF16, F16, F32, FLOATS, Golden, dtype_tag, rnd, strided, transposed

g = Golden("linalg")
NATIVE_TOL = {"ulps": 8, "abs": 2e-6}  # float32 partial sums over k <= 16 terms of magnitude <= 9


def case(name, spelling, args, kwargs=None, **kw):
    g.case(name, spelling, args, kwargs, fn=f64(spelling), reference="native", **kw)


def r(shape, dt=F32):
    return rnd(shape, dt, -1.5, 1.5)


for dt in FLOATS:
    t = dtype_tag(dt)
    case(f"linear/corpus/{t}", "torch._C._nn.linear", [r([1, 5, 8], dt), r([6, 8], dt), r([6], dt)])
    case(f"linear/no_bias/{t}", "torch.nn.functional.linear", [r([3, 8], dt), r([4, 8], dt)])
    case(f"matmul/batched_broadcast/{t}", "torch.matmul", [r([2, 1, 3, 4], dt), r([3, 4, 5], dt)])
    case(f"bmm/{t}", "torch.bmm", [r([2, 3, 4], dt), r([2, 4, 2], dt)])
    case(f"addmm/{t}", "torch.addmm", [r([5], dt), r([3, 4], dt), r([4, 5], dt)])
case("linear/transposed_weight", "torch._C._nn.linear", [r([4, 6]), transposed(r([5, 6])), r([5])])
case("linear/strided_input", "torch.nn.functional.linear", [strided(r([2, 6])), r([3, 6]), None])
case("linear/1d_weight", "torch.nn.functional.linear", [r([3, 4]), r([4])])
case("linear/bias_broadcast", "torch.nn.functional.linear", [r([2, 3, 4]), r([5, 4]), r([1, 5])])
case("linear/mismatch", "torch.nn.functional.linear", [r([2, 4]), r([5, 3])], expect_error=True)
g.case("linear/mixed_dtypes", "torch.nn.functional.linear", [r([2, 4]), r([5, 4], F16)], expect_error=True)
case("matmul/vec_vec", "torch.matmul", [r([5]), r([5])])
case("matmul/mat_vec", "Tensor.matmul", [r([3, 5]), r([5])])
case("matmul/vec_mat", "torch.matmul", [r([5], BF16), r([5, 2], BF16)])
case("matmul/vec_batched", "torch.matmul", [r([4]), r([2, 4, 3])])
case("matmul/batched_vec", "torch.matmul", [r([2, 3, 4]), r([4])])
case("matmul/operator", "operator.matmul", [transposed(r([4, 3])), r([3, 2])])
case("matmul/attention_like", "torch.matmul", [r([1, 2, 5, 4], F16), transposed(r([1, 2, 4, 5], F16))])
case("matmul/mismatch", "torch.matmul", [r([2, 3]), r([4, 2])], expect_error=True)
case("matmul/0d", "torch.matmul", [r([]), r([3])], expect_error=True)
case("mm/basic", "torch.mm", [r([3, 4]), transposed(r([2, 4]).t().contiguous())])
case("mm/not_matrix", "torch.mm", [r([3, 4, 1]), r([1, 2])], expect_error=True)
case("bmm/corpus_transposed", "torch.bmm", [r([2, 3, 4]), transposed(r([2, 4, 3]))])
case("bmm/batch_mismatch", "torch.bmm", [r([2, 3, 4]), r([3, 4, 2])], expect_error=True)
case("addmm/beta_alpha", "torch.addmm", [r([3, 5]), r([3, 4]), r([4, 5])], {"beta": 0.5, "alpha": 2.0})
case("baddbmm/basic", "torch.baddbmm", [r([2, 1, 3]), r([2, 2, 4]), r([2, 4, 3])], {"alpha": 0.125})
# beta = 0 ignores input entirely, NaN included.
case("addmm/beta0_ignores_nan", "torch.addmm", [torch.full([2, 2], float("nan")), r([2, 3]), r([3, 2])],
     {"beta": 0.0})

g.case("native/linear_f32", "torch._C._nn.linear", [r([2, 16]), r([3, 16]), r([3])], tol=NATIVE_TOL)
g.case("native/matmul_f32", "torch.matmul", [r([2, 3, 16]), r([16, 4])], tol=NATIVE_TOL)

# ---- einsum -------------------------------------------------------------------------------
for dt in FLOATS:
    case(f"einsum/attention/{dtype_tag(dt)}", "torch.einsum",
         ["bhqd,bhkd->bhqk", r([1, 2, 3, 4], dt), r([1, 2, 5, 4], dt)])
case("einsum/matmul_implicit", "torch.einsum", ["ij,jk", r([2, 3]), r([3, 4])])
case("einsum/list_operands", "torch.einsum", ["ij,jk->ik", [r([2, 3]), transposed(r([3, 4]))]])
case("einsum/trace", "torch.einsum", ["ii", r([3, 3])])
case("einsum/diagonal", "torch.einsum", ["ii->i", r([3, 3])])
case("einsum/outer", "torch.einsum", ["i,j->ij", r([3]), r([2])])
case("einsum/sum_all", "torch.einsum", ["ijk->", r([2, 3, 2])])
case("einsum/permute", "torch.einsum", ["abc->cab", r([2, 3, 4])])
case("einsum/ellipsis", "torch.einsum", ["...ij,...jk->...ik", r([2, 3, 4]), r([4, 2])])
case("einsum/ellipsis_summed", "torch.einsum", ["...ij->ij", r([2, 3, 4])])
case("einsum/broadcast_label", "torch.einsum", ["ij,jk->ik", r([2, 1]), r([3, 4])])
case("einsum/uppercase_implicit", "torch.einsum", ["bA,Ac", r([2, 3]), r([3, 2])])
case("einsum/three_operands", "torch.einsum", ["ab,bc,cd->ad", r([2, 3]), r([3, 2]), r([2, 2])])
case("einsum/spaces", "torch.einsum", [" bn , nd -> bd ", r([2, 3]), r([3, 2])])
case("einsum/bad_label", "torch.einsum", ["ij,jk->iz", r([2, 3]), r([3, 4])], expect_error=True)
case("einsum/too_few_operands", "torch.einsum", ["ij,jk->ik", r([2, 3])], expect_error=True)
case("einsum/size_mismatch", "torch.einsum", ["ij,jk->ik", r([2, 3]), r([4, 4])], expect_error=True)


# ---- scaled_dot_product_attention ---------------------------------------------------------------
def sdpa(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None, enable_gqa=False):
    """The math of torch.nn.functional.scaled_dot_product_attention (PyTorch >= 2.5) in float64."""
    if dropout_p > 0:
        raise RuntimeError("dropout is random")
    if is_causal and attn_mask is not None:
        raise RuntimeError("attn_mask must be None when is_causal")
    out_dt = query.dtype
    q, k, v = query.double(), key.double(), value.double()
    if enable_gqa and k.size(-3) != q.size(-3):
        k = k.repeat_interleave(q.size(-3) // k.size(-3), -3)
        v = v.repeat_interleave(q.size(-3) // v.size(-3), -3)
    s = scale if scale is not None else 1.0 / math.sqrt(q.size(-1))
    att = (q @ k.transpose(-2, -1)) * s
    L, S = q.size(-2), k.size(-2)
    if is_causal:
        att = att.masked_fill(~torch.ones(L, S, dtype=torch.bool).tril(), float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            att = att.masked_fill(~attn_mask, float("-inf"))
        else:
            att = att + attn_mask.double()
    att = torch.softmax(att, -1).nan_to_num(0.0)  # fully masked rows give zeros
    return (att @ v).to(out_dt)


SDPA = "torch.nn.functional.scaled_dot_product_attention"


def attn(name, args, kwargs=None, **kw):
    g.case(name, SDPA, args, kwargs, fn=sdpa, reference="native", **kw)


for dt in FLOATS:
    attn(f"sdpa/plain/{dtype_tag(dt)}", [r([1, 2, 3, 4], dt), r([1, 2, 5, 4], dt), r([1, 2, 5, 3], dt)])
attn("sdpa/causal", [r([2, 4, 3]), r([2, 4, 3]), r([2, 4, 3])], {"is_causal": True})
attn("sdpa/causal_rect", [r([1, 3, 2]), r([1, 5, 2]), r([1, 5, 2])], {"is_causal": True})
attn("sdpa/bool_mask", [r([1, 2, 3, 4]), r([1, 2, 3, 4]), r([1, 2, 3, 4])],
     {"attn_mask": torch.tensor([[True, False, True], [False, False, True], [True, True, True]])})
attn("sdpa/fully_masked_row", [r([1, 2, 2]), r([1, 3, 2]), r([1, 3, 2])],
     {"attn_mask": torch.tensor([[False, False, False], [True, False, True]])})
attn("sdpa/float_mask_scale", [r([2, 3, 4], F16), r([2, 3, 4], F16), r([2, 3, 4], F16), r([3, 3], F16)],
     {"scale": 0.3})
attn("sdpa/gqa", [r([1, 4, 2, 3]), r([1, 2, 3, 3]), r([1, 2, 3, 2])], {"enable_gqa": True})
attn("sdpa/transposed_key", [r([1, 3, 4], BF16), transposed(r([1, 3, 4], BF16)), r([1, 3, 2], BF16)])
attn("sdpa/dropout_refused", [r([1, 2, 2]), r([1, 2, 2]), r([1, 2, 2])], {"dropout_p": 0.1}, expect_error=True)
attn("sdpa/mask_and_causal", [r([1, 2, 2]), r([1, 2, 2]), r([1, 2, 2]), r([2, 2])], {"is_causal": True},
     expect_error=True)

# tensordot (float64 reference) and kron (a broadcast mul) (added last)
for dt in FLOATS:
    t = dtype_tag(dt)
    case(f"tensordot/int_dims/{t}", "torch.tensordot", [r([2, 3, 4], dt), r([3, 4, 5], dt)])
case("tensordot/lists", "torch.tensordot", [r([4, 6]), r([6, 3])], {"dims": ([1], [0])})
case("tensordot/two_dims_swapped", "torch.tensordot", [r([3, 4, 5]), r([5, 2, 3])], {"dims": ([0, 2], [2, 0])})
case("tensordot/transposed_first_dims", "torch.tensordot", [transposed(r([4, 6])), r([4, 2])], {"dims": ([0], [0])})
case("tensordot/zero_dims", "torch.tensordot", [r([2, 3]), r([4])], {"dims": 0})
g.case("tensordot/size_mismatch", "torch.tensordot", [r([2, 3]), r([4, 2])], {"dims": ([1], [0])}, expect_error=True)
g.case("tensordot/mixed_dtypes", "torch.tensordot", [r([2, 3]), r([3, 2], F16)], {"dims": 1}, expect_error=True)
for dt in (F32, F16, BF16, torch.int64, torch.bool):
    x = r([2, 3], dt) if dt.is_floating_point else (torch.randint(-5, 6, (2, 3)) if dt == torch.int64 else torch.randint(0, 2, (2, 3)).bool())
    y = r([3, 2], dt) if dt.is_floating_point else (torch.randint(-5, 6, (3, 2)) if dt == torch.int64 else torch.randint(0, 2, (3, 2)).bool())
    g.case(f"kron/{dtype_tag(dt)}", "torch.kron", [x, y])
g.case("kron/rank_padding", "torch.kron", [r([3]), r([2, 2, 2])])
g.case("kron/promotes", "Tensor.kron", [r([2, 2], F16), r([2], F32)])
g.write()
