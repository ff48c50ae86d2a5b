#!/usr/bin/env python3
"""Probe graphs for the import sweep: one tiny GraphNet sample per torch call.

Usage: scripts/graphnet_op_probe.py [--passforge build/passforge] [--torch /usr/bin/python3]
                                    [--keep DIR] [--json]

The shared corpora only say what the graphs seen so far call. This writes one
PassBench task per probe below (a `model.py` in dynamo's GraphModule form and
its `weight_meta.py`), imports them all with one `passforge import --json`
and prints which probes import and, for the others, the importer's reason.
The probes are calls GraphNet samples of HF transformers, timm and
torchvision models make (in the spellings dynamo writes), including ones
outside the corpora.

With --torch PYTHON (a Python with PyTorch, e.g. Debian's python3-torch),
every probe is also run in PyTorch on random inputs, and the probes it
refuses are listed apart: a bad probe, or an API newer than that PyTorch
(Debian's is 1.13; GraphNet records graphs with 2.x).
Only Python's standard library is needed otherwise.
"""

import argparse
import json
import pathlib
import re
import subprocess
import sys
import tempfile

F = "torch.nn.functional."
X4 = ([2, 4, 6, 6], "float32")   # NCHW activation
X3 = ([2, 5, 8], "float32")      # (batch, tokens, hidden)
M2 = ([4, 6], "float32")
B3 = ([2, 5, 8], "bool")
L2 = ([2, 5], "int64")

# (name, body, inputs[, outputs]): body is an expression of in_0, in_1, ...
# (or statements assigning `out`); `outputs` marks a call giving that many
# tensors (a tuple), all returned.
PROBES = [
    # activations
    ("F.gelu tanh", F + "gelu(in_0, approximate='tanh')", [X3]),
    ("F.silu", F + "silu(in_0, inplace=False)", [X3]),
    ("F.mish", F + "mish(in_0)", [X3]),
    ("F.hardswish", F + "hardswish(in_0)", [X4]),
    ("F.hardsigmoid", F + "hardsigmoid(in_0)", [X4]),
    ("F.leaky_relu", F + "leaky_relu(in_0, 0.1)", [X4]),
    ("F.elu", F + "elu(in_0)", [X4]),
    ("F.selu", F + "selu(in_0)", [X4]),
    ("F.celu", F + "celu(in_0)", [X4]),
    ("F.softplus", F + "softplus(in_0, beta=2)", [X3]),
    ("F.relu6", F + "relu6(in_0)", [X4]),
    ("F.prelu", F + "prelu(in_0, in_1)", [X4, ([4], "float32")]),
    ("F.glu", F + "glu(in_0, -1)", [X3]),
    ("F.logsigmoid", F + "logsigmoid(in_0)", [X3]),
    ("F.hardtanh", F + "hardtanh(in_0, -1.0, 1.0)", [X3]),
    ("F.softsign", F + "softsign(in_0)", [X3]),
    ("F.tanhshrink", F + "tanhshrink(in_0)", [X3]),
    ("F.threshold", F + "threshold(in_0, 0.1, 20.0)", [X3]),
    ("torch.erf", "torch.erf(in_0)", [X3]),
    ("Tensor.sigmoid_", "in_0.sigmoid_()", [X3]),
    # normalisation
    ("F.layer_norm", F + "layer_norm(in_0, (8,), in_1, in_2, 1e-05)",
     [X3, ([8], "float32"), ([8], "float32")]),
    ("F.group_norm", F + "group_norm(in_0, 2, in_1, in_2, 1e-05)",
     [X4, ([4], "float32"), ([4], "float32")]),
    ("F.instance_norm", F + "instance_norm(in_0)", [X4]),
    ("F.batch_norm", F + "batch_norm(in_0, in_1, in_2, in_3, in_4, False, 0.1, 1e-05)",
     [X4] + [([4], "float32")] * 4),
    ("F.local_response_norm", F + "local_response_norm(in_0, 3)", [X4]),
    ("F.rms_norm", F + "rms_norm(in_0, (8,))", [X3]),
    ("F.normalize", F + "normalize(in_0, p=2.0, dim=-1)", [X3]),
    ("torch.rsqrt var", "in_0 * torch.rsqrt(in_0.pow(2).mean(-1, keepdim=True) + 1e-06)", [X3]),
    # attention and matrix products
    ("F.scaled_dot_product_attention",
     F + "scaled_dot_product_attention(in_0, in_0, in_0, attn_mask=None, dropout_p=0.0, is_causal=True)",
     [([2, 2, 5, 8], "float32")]),
    ("torch.baddbmm", "torch.baddbmm(in_0, in_1, in_2)",
     [([2, 5, 5], "float32"), ([2, 5, 8], "float32"), ([2, 8, 5], "float32")]),
    ("torch.addmm", "torch.addmm(in_0, in_1, in_2)", [([6], "float32"), M2, ([6, 6], "float32")]),
    ("torch.einsum", "torch.einsum('bhqd,bhkd->bhqk', in_0, in_0)", [([2, 2, 5, 8], "float32")]),
    ("torch.bmm", "torch.bmm(in_0, in_1.transpose(1, 2))", [X3, X3]),
    ("F.linear", F + "linear(in_0, in_1, None)", [X3, ([3, 8], "float32")]),
    ("F.bilinear", F + "bilinear(in_0, in_0, in_1)", [X3, ([3, 8, 8], "float32")]),
    ("torch.tensordot", "torch.tensordot(in_0, in_1, dims=([1], [0]))", [M2, ([6, 3], "float32")]),
    ("torch.kron", "torch.kron(in_0, in_0)", [([2, 3], "float32")]),
    ("torch.cdist", "torch.cdist(in_0, in_0)", [X3]),
    ("torch.linalg.vector_norm", "torch.linalg.vector_norm(in_0, 2, -1, True)", [X3]),
    ("torch.dist", "torch.dist(in_0, in_1)", [X3, X3]),
    ("F.cosine_similarity", F + "cosine_similarity(in_0, in_1, dim=-1)", [X3, X3]),
    ("F.pairwise_distance", F + "pairwise_distance(in_0, in_1)", [M2, M2]),
    # convolution, pooling, resampling
    ("F.conv1d", F + "conv1d(in_0, in_1, None, 1, 1)", [X3, ([3, 5, 3], "float32")]),
    ("F.conv_transpose2d", F + "conv_transpose2d(in_0, in_1, None, 2)", [X4, ([4, 3, 2, 2], "float32")]),
    ("F.conv_transpose1d", F + "conv_transpose1d(in_0, in_1, None, 2)", [X3, ([5, 3, 2], "float32")]),
    ("F.max_pool2d indices", F + "max_pool2d(in_0, 2, return_indices=True)", [X4], 2),
    ("F.adaptive_max_pool2d indices", F + "adaptive_max_pool2d(in_0, 2, 2)", [X4], True),
    ("F.lp_pool2d", F + "lp_pool2d(in_0, 2.0, 2)", [X4]),
    ("F.pixel_shuffle", F + "pixel_shuffle(in_0, 2)", [X4]),
    ("F.pixel_unshuffle", F + "pixel_unshuffle(in_0, 2)", [X4]),
    ("F.interpolate nearest", F + "interpolate(in_0, scale_factor=2.0, mode='nearest')", [X4]),
    ("F.upsample", F + "upsample(in_0, scale_factor=2, mode='bilinear', align_corners=False)", [X4]),
    ("F.grid_sample", F + "grid_sample(in_0, in_1, align_corners=False)",
     [X4, ([2, 3, 3, 2], "float32")]),
    ("F.affine_grid", F + "affine_grid(in_0, [2, 4, 6, 6], align_corners=False)", [([2, 2, 3], "float32")]),
    ("F.pad reflect", F + "pad(in_0, (1, 1, 2, 2), mode='reflect')", [X4]),
    ("F.embedding", F + "embedding(in_0, in_1, 0)", [L2, ([3, 8], "float32")]),
    ("F.one_hot", F + "one_hot(in_0, 3)", [L2]),
    ("F.dropout2d", F + "dropout2d(in_0, 0.1, False)", [X4]),
    ("F.channel_shuffle", "torch.channel_shuffle(in_0, 2)", [X4]),
    # creation and shape
    ("torch.arange", "in_0 + torch.arange(8, device='cuda:0')", [X3]),
    ("torch.linspace", "in_0 * torch.linspace(0, 1, 8)", [X3]),
    ("torch.full_like", "torch.full_like(in_0, 2.0)", [X3]),
    ("torch.zeros_like", "torch.zeros_like(in_0) + in_0", [X3]),
    ("Tensor.new_zeros", "in_0.new_zeros((2, 3))", [X3]),
    ("Tensor.new_ones", "in_0.new_ones(4)", [X3]),
    ("Tensor.new_full", "in_0.new_full((2, 3), 1.5)", [X3]),
    ("Tensor.new_tensor", "in_0 + in_0.new_tensor(1.0)", [X3]),
    ("torch.tensor", "in_0 * torch.tensor(2.0)", [X3]),
    ("torch.ones", "torch.ones((2, 5, 8), dtype=torch.float32) + in_0", [X3]),
    ("torch.empty", "torch.empty((2, 3)).fill_(1.0)", [X3]),
    ("Tensor.new_empty", "in_0 + in_0.new_empty((2, 5, 8)).zero_()", [X3]),
    ("torch.eye", "torch.eye(6) * in_0[0, 0]", [M2]),
    ("torch.tril", "torch.tril(torch.ones(5, 5)) * in_0[0]", [([2, 5], "float32")]),
    ("torch.triu", "torch.triu(in_0, diagonal=1)", [M2]),
    ("torch.meshgrid", "torch.meshgrid(torch.arange(3), torch.arange(4), indexing='ij')[0] + in_0",
     [([3, 4], "int64")]),
    ("torch.stack", "torch.stack([in_0, in_0], dim=1)", [X3]),
    ("torch.flatten", "torch.flatten(in_0, 1)", [X4]),
    ("Tensor.unflatten", "in_0.unflatten(-1, (2, 4))", [X3]),
    ("Tensor.flip", "in_0.flip(-1)", [X3]),
    ("torch.roll", "torch.roll(in_0, shifts=(1, 2), dims=(1, 2))", [X4]),
    ("Tensor.unfold", "in_0.unfold(2, 3, 2)", [X3]),
    ("Tensor.repeat_interleave", "in_0.repeat_interleave(2, dim=1)", [X3]),
    ("torch.repeat_interleave", "torch.repeat_interleave(in_0, 2, dim=1)", [X3]),
    ("Tensor.expand_as", "in_1.expand_as(in_0)", [X3, ([1, 5, 1], "float32")]),
    ("Tensor.view_as", "in_0.view_as(in_1)", [X3, ([10, 8], "float32")]),
    ("Tensor.reshape_as", "in_0.reshape_as(in_1)", [X3, ([10, 8], "float32")]),
    ("Tensor.type_as", "in_0.type_as(in_1)", [X3, L2]),
    ("torch.movedim", "torch.movedim(in_0, 1, -1)", [X4]),
    ("torch.swapaxes", "torch.swapaxes(in_0, 1, 2)", [X3]),
    ("Tensor.mT", "in_0.mT", [X3]),
    ("Tensor.T", "in_0.T", [M2]),
    ("torch.split sizes", "torch.split(in_0, [3, 5], dim=-1)", [X3], 2),
    ("torch.tensor_split", "torch.tensor_split(in_0, 2, dim=-1)", [X3], 2),
    ("torch.unbind", "torch.unbind(in_0, dim=1)", [X3], 5),
    ("Tensor.narrow", "in_0.narrow(1, 1, 2)", [X3]),
    ("torch.diagonal", "torch.diagonal(in_0, dim1=-2, dim2=-1)", [([2, 5, 5], "float32")]),
    ("torch.diag_embed", "torch.diag_embed(in_0)", [M2]),
    ("torch.block_diag", "torch.block_diag(in_0, in_0)", [M2]),
    ("torch.atleast_2d", "torch.atleast_2d(in_0)", [([5], "float32")]),
    # indexing
    ("torch.gather", "torch.gather(in_0, 1, in_1)", [([2, 5], "float32"), L2]),
    ("torch.take_along_dim", "torch.take_along_dim(in_0, in_1, dim=1)", [([2, 5], "float32"), L2]),
    ("Tensor.index_select", "in_0.index_select(1, in_1[0])", [X3, L2]),
    ("Tensor.masked_select", "in_0.masked_select(in_1)", [X3, B3]),
    ("torch.where 1-arg", "torch.where(in_0)", [B3], 3),
    ("Tensor.nonzero", "in_0.nonzero()", [B3]),
    ("Tensor.index_put", "in_0.index_put((in_1[0],), in_2)",
     [([5, 8], "float32"), L2, ([8], "float32")]),
    ("Tensor.index_fill", "in_0.index_fill(1, in_1[0], 0.0)", [X3, L2]),
    ("Tensor.index_add", "in_0.index_add(0, in_1[0], in_2)",
     [([5, 8], "float32"), L2, ([5, 8], "float32")]),
    ("Tensor.scatter_reduce", "in_0.scatter_reduce(1, in_1, in_2, 'amax')",
     [([2, 5], "float32"), L2, ([2, 5], "float32")]),
    ("Tensor.masked_scatter", "in_0.masked_scatter(in_1, in_2)", [X3, B3, X3]),
    ("torch.bucketize", "torch.bucketize(in_0, in_1)", [X3, ([4], "float32")]),
    ("torch.searchsorted", "torch.searchsorted(in_1, in_0)", [X3, ([4], "float32")]),
    ("setitem", "in_0[:, 0] = 1.0\n        out = in_0", [X3]),
    ("setitem ellipsis tensor", "in_0[..., 1:3] = in_1\n        out = in_0",
     [X3, ([5, 2], "float32")]),
    ("setitem dynamo", "in_0[(0, None)] = in_1;  setitem = in_0\n        out = setitem",
     [X3, ([1, 5, 8], "float32")]),
    ("setitem mask", "in_0[in_1] = -1e9\n        out = in_0", [X3, B3]),
    ("setitem index tensor", "in_0[:, in_1[0]] = 0.0\n        out = in_0", [X3, L2]),
    ("setitem list index", "in_0[(slice(None, None, None), [0, 3])] = in_1\n        out = in_0",
     [X3, ([2, 2, 8], "float32")]),
    ("setitem two index tensors", "in_0[in_1[0], in_1[1]] = 0.0\n        out = in_0", [X3, L2]),
    ("setitem mask value row", "in_0[in_1[..., 0]] = in_2\n        out = in_0",
     [X3, B3, ([8], "float32")]),
    # reductions and sorting
    ("torch.topk", "torch.topk(in_0, 3, dim=-1)", [X3], 2),
    ("torch.sort", "torch.sort(in_0, dim=-1, descending=True)", [X3], 2),
    ("torch.argsort", "torch.argsort(in_0, dim=-1)", [X3]),
    ("torch.kthvalue", "torch.kthvalue(in_0, 2, dim=-1)", [X3], 2),
    ("torch.median dim", "torch.median(in_0, dim=-1)", [X3], 2),
    ("torch.mode", "torch.mode(in_0, dim=-1)", [L2], 2),
    ("torch.quantile", "torch.quantile(in_0, 0.5, dim=-1)", [X3]),
    ("torch.median", "torch.median(in_0)", [X3]),
    ("Tensor.median dim", "in_0.median(-1, keepdim=True)", [X3], 2),
    ("torch.nanmedian dim", "torch.nanmedian(in_0, dim=1)", [X3], 2),
    ("torch.msort", "torch.msort(in_0)", [X3]),
    ("torch.quantile q tensor",
     "torch.quantile(in_0, torch.tensor([0.25, 0.75]), dim=1, interpolation='midpoint')", [X3]),
    ("torch.nanquantile", "torch.nanquantile(in_0.flatten(1), 0.9, dim=1)", [X3]),
    ("F.grid_sample reflection", F + "grid_sample(in_0, in_1.tanh(), padding_mode='reflection', "
     "align_corners=False)", [X4, ([2, 3, 3, 2], "float32")]),
    ("torch.index_put accumulate", "torch.index_put(in_0, (in_1[0], in_1[1]), in_0[0, :5], True)",
     [X3, L2]),
    ("torch.cummax", "torch.cummax(in_0, dim=-1)", [X3], 2),
    ("torch.logcumsumexp", "torch.logcumsumexp(in_0, dim=-1)", [X3]),
    ("torch.count_nonzero", "torch.count_nonzero(in_0, dim=-1)", [X3]),
    ("torch.var_mean", "torch.var_mean(in_0, dim=-1, unbiased=False)", [X3], 2),
    ("torch.std_mean", "torch.std_mean(in_0, dim=-1)", [X3], 2),
    ("torch.aminmax", "torch.aminmax(in_0, dim=-1)", [X3], 2),
    ("torch.unique", "torch.unique(in_0)", [L2]),
    ("torch.bincount", "torch.bincount(in_0.flatten())", [L2]),
    ("torch.histc", "torch.histc(in_0, bins=4)", [X3]),
    ("torch.nanmean", "torch.nanmean(in_0, dim=-1)", [X3]),
    # pointwise
    ("torch.lerp", "torch.lerp(in_0, in_1, 0.3)", [X3, X3]),
    ("torch.hypot", "torch.hypot(in_0, in_1)", [X3, X3]),
    ("torch.atan2", "torch.atan2(in_0, in_1)", [X3, X3]),
    ("torch.logaddexp", "torch.logaddexp(in_0, in_1)", [X3, X3]),
    ("torch.xlogy", "torch.xlogy(in_0, in_1)", [X3, X3]),
    ("torch.copysign", "torch.copysign(in_0, in_1)", [X3, X3]),
    ("torch.nan_to_num", "torch.nan_to_num(in_0, nan=0.0)", [X3]),
    ("torch.clamp tensor bounds", "torch.clamp(in_0, min=in_1)", [X3, X3]),
    ("torch.sign", "torch.sign(in_0)", [X3]),
    ("torch.sgn", "torch.sgn(in_0)", [X3]),
    ("torch.trunc", "torch.trunc(in_0)", [X3]),
    ("torch.frac", "torch.frac(in_0)", [X3]),
    ("torch.log1p", "torch.log1p(in_0.abs())", [X3]),
    ("torch.expm1", "torch.expm1(in_0)", [X3]),
    ("torch.logit", "torch.logit(in_0.sigmoid())", [X3]),
    ("torch.sinc", "torch.sinc(in_0)", [X3]),
    ("torch.isinf", "torch.isinf(in_0)", [X3]),
    ("torch.isfinite", "torch.isfinite(in_0)", [X3]),
    ("torch.isin", "torch.isin(in_0, in_1)", [L2, ([3], "int64")]),
    ("torch.heaviside", "torch.heaviside(in_0, in_1)", [X3, X3]),
    ("torch.bitwise_left_shift", "torch.bitwise_left_shift(in_0, 1)", [L2]),
    ("Tensor.__lshift__", "in_0 << 1", [L2]),
    ("Tensor.__rshift__", "in_0 >> in_0.abs().clamp(max=3)", [L2]),
    ("Tensor.__ilshift__", "in_0.__ilshift__(1)", [L2]),
    ("torch.logical_xor", "torch.logical_xor(in_0, in_1)", [B3, B3]),
    ("torch.maximum", "torch.maximum(in_0, in_1)", [X3, X3]),
    ("torch.fmax", "torch.fmax(in_0, in_1)", [X3, X3]),
    ("torch.square", "torch.square(in_0)", [X3]),
    ("torch.float_power", "torch.float_power(in_0, 2)", [X3]),
    ("torch.round decimals", "torch.round(in_0, decimals=2)", [X3]),
    ("torch.angle", "torch.angle(in_0)", [X3]),
    ("torch.deg2rad", "torch.deg2rad(in_0)", [X3]),
    ("Tensor.bool", "in_0.bool()", [X3]),
    ("Tensor.half", "in_0.half()", [X3]),
    ("Tensor.to dtype kw", "in_0.to(dtype=torch.bfloat16)", [X3]),
    ("Tensor.float", "in_0.float()", [L2]),
    ("Tensor.long", "in_0.long()", [X3]),
    ("Tensor.int", "in_0.int()", [X3]),
    ("Tensor.masked_fill_", "in_0.masked_fill_(in_1, -1e9)", [X3, B3]),
    ("Tensor.clamp_min_", "in_0.clamp_min_(0.0)", [X3]),
    ("Tensor.copy_", "in_0.copy_(in_1)", [X3, X3]),
    ("Tensor.zero_", "in_0.zero_()", [X3]),
    ("Tensor.fill_", "in_0.fill_(2.0)", [X3]),
    ("Tensor.detach", "in_0.detach()", [X3]),
    ("Tensor.contiguous", "in_0.contiguous()", [X3]),
    ("Tensor.clone", "in_0.clone()", [X3]),
    ("Tensor.requires_grad_", "in_0.requires_grad_(False)", [X3]),
    # in-place forms and norms the unseen graphs needed
    ("Tensor.__isub__", "in_0.__isub__(in_1)", [X3, X3]),
    ("Tensor.__itruediv__", "in_0.__itruediv__(2.0)", [X3]),
    ("Tensor.__ior__", "in_0.__ior__(in_1)", [B3, B3]),
    ("Tensor.add_", "in_0.add_(in_1, alpha=2)", [X3, X3]),
    ("Tensor.mul_", "in_0.mul_(in_1)", [X3, X3]),
    ("torch.linalg.norm nuc", "torch.linalg.norm(in_0, 'nuc')", [M2]),
    ("torch.linalg.matrix_norm 2", "torch.linalg.matrix_norm(in_0, 2)", [X3]),
    ("torch.linalg.norm -2 dims", "torch.linalg.norm(in_0, -2, dim=(0, 2))", [X3]),
    ("torch.norm nuc", "torch.norm(in_0, p='nuc', dim=(1, 2))", [X3]),
    ("F.max_pool3d indices", F + "max_pool3d(in_0, 2, return_indices=True)", [([1, 2, 4, 4, 4], "float32")], 2),
    ("F.max_pool1d indices", F + "max_pool1d(in_0, 2, return_indices=True)", [X3], 2),
    # losses and probabilities
    ("F.cross_entropy", F + "cross_entropy(in_0, in_1)", [([2, 5], "float32"), ([2], "int64")]),
    ("F.log_softmax", F + "log_softmax(in_0, dim=-1)", [X3]),
    ("F.softmin", F + "softmin(in_0, dim=-1)", [X3]),
    ("F.gumbel_softmax", F + "gumbel_softmax(in_0)", [X3]),
    ("F.mse_loss", F + "mse_loss(in_0, in_1)", [X3, X3]),
    ("F.l1_loss", F + "l1_loss(in_0, in_1)", [X3, X3]),
    ("F.smooth_l1_loss", F + "smooth_l1_loss(in_0, in_1)", [X3, X3]),
    ("F.binary_cross_entropy_with_logits",
     F + "binary_cross_entropy_with_logits(in_0, in_1)", [X3, X3]),
    ("F.kl_div", F + "kl_div(in_0, in_1, reduction='batchmean')", [X3, X3]),
    ("F.nll_loss", F + "nll_loss(in_0, in_1)", [([2, 5], "float32"), ([2], "int64")]),
    ("F.huber_loss", F + "huber_loss(in_0, in_1, reduction='sum', delta=0.5)", [X3, X3]),
    ("F.binary_cross_entropy", F + "binary_cross_entropy(torch.sigmoid(in_0), in_1)", [X3, X3]),
    ("F.cross_entropy smoothing", F + "cross_entropy(in_0, in_1, label_smoothing=0.1, "
     "ignore_index=0)", [([2, 5], "float32"), ([2], "int64")]),
    ("F.cross_entropy probs", F + "cross_entropy(in_0, in_1.softmax(-1), reduction='none')",
     [([2, 5], "float32"), ([2, 5], "float32")]),
    ("F.nll_loss 4d", F + "nll_loss(in_0, in_1, reduction='sum')",
     [([2, 3, 4, 4], "float32"), ([2, 4, 4], "int64")]),
    ("F.lp_pool1d", F + "lp_pool1d(in_0, 2, 3)", [X3]),
    ("torch.block_diag mixed ranks", "torch.block_diag(in_0, in_1)", [M2, ([3], "float32")]),
    ("torch.bucketize sorted", "torch.bucketize(in_0, torch.sort(in_1)[0])", [X3, ([4], "float32")]),
    ("torch.searchsorted sorted right", "torch.searchsorted(torch.sort(in_1)[0], in_0, side='right')",
     [X3, ([4], "float32")]),
    # complex and spectral (ViTs with FFT mixing)
    ("torch.fft.rfft", "torch.fft.rfft(in_0, dim=-1).real", [X3]),
    ("torch.view_as_real", "torch.view_as_real(torch.fft.fft(in_0))", [X3]),
    # RNNs in older detectors / speech front ends
    ("torch.lstm cell", "torch.lstm_cell(in_0, (in_1, in_1), in_2, in_3)",
     [([2, 8], "float32"), ([2, 4], "float32"), ([16, 8], "float32"), ([16, 4], "float32")], 2),
]


def model_py(body, n_inputs, outputs):
    params = ", ".join(f"in_{i}" for i in range(n_inputs))
    lines = body if "\n" in body else f"out = {body}"
    ret = "(" + ", ".join(f"out[{k}]" for k in range(outputs)) + ")" if outputs else "(out,)"
    return ("import torch\n\n\nclass GraphModule(torch.nn.Module):\n"
            f"    def forward(self, {params}):\n        {lines}\n        return {ret}\n")


def weight_meta_py(inputs):
    out = []
    for i, (shape, dtype) in enumerate(inputs):
        extra = "    min_val = 0\n    max_val = 1\n" if dtype == "int64" else ""
        out.append(f"class Program_weight_tensor_meta_in_{i}:\n    name = \"in_{i}\"\n"
                   f"    shape = {shape}\n    dtype = \"torch.{dtype}\"\n    device = \"cuda:0\"\n"
                   f"    mean = 0.5\n    std = 1.0\n{extra}\n")
    return "\n".join(out)


def slug(name):
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def write_probes(root):
    for name, body, inputs, *outputs in PROBES:
        task = root / slug(name)
        graph = task / "graphs" / "probe"
        graph.mkdir(parents=True)
        (graph / "model.py").write_text(model_py(body, len(inputs), outputs[0] if outputs else 0))
        (graph / "weight_meta.py").write_text(weight_meta_py(inputs))
        (task / "graph_list.txt").write_text("graphs/probe\n")


# Runs every probe in PyTorch (CPU; the device string is mapped to cpu):
# prints {slug: error or null} as JSON.
TORCH_CHECK = r"""
import json, pathlib, sys, torch
root = pathlib.Path(sys.argv[1])
result = {}
for task in sorted(p for p in root.iterdir() if p.is_dir()):
    g = task / "graphs" / "probe"
    src = (g / "model.py").read_text().replace("device='cuda:0'", "device='cpu'")
    meta = {}
    exec((g / "weight_meta.py").read_text(), meta)
    args = []
    for k in sorted(k for k in meta if k.startswith("Program_weight_tensor_meta_in_")):
        c = meta[k]
        dt = getattr(torch, c.dtype.split(".")[1])
        if dt == torch.int64:
            args.append(torch.randint(0, 2, c.shape))
        elif dt == torch.bool:
            args.append(torch.rand(c.shape) > 0.5)
        else:
            args.append(torch.rand(c.shape, dtype=dt) + 0.1)
    scope = {}
    try:
        exec(src, scope)
        scope["GraphModule"]().forward(*args)
        result[task.name] = None
    except Exception as e:
        result[task.name] = f"{type(e).__name__}: {e}".splitlines()[0]
print(json.dumps(result))
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--passforge", default="build/passforge", help="passforge binary")
    ap.add_argument("--torch", help="a Python with PyTorch: check every probe runs there first")
    ap.add_argument("--keep", type=pathlib.Path, help="write the probe tasks here (kept)")
    ap.add_argument("--json", action="store_true", help="machine-readable output")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or pathlib.Path(tmp) / "probes"
        root.mkdir(parents=True, exist_ok=True)
        write_probes(root)
        torch_errors = {}
        if args.torch:
            run = subprocess.run([args.torch, "-c", TORCH_CHECK, str(root)],
                                 capture_output=True, text=True)
            if run.returncode != 0:
                sys.exit(f"{args.torch}: {run.stderr.strip()}")
            torch_errors = json.loads(run.stdout)
        run = subprocess.run([args.passforge, "import", str(root), "--out", str(pathlib.Path(tmp) / "out"),
                              "--json"], capture_output=True, text=True)
        if not run.stdout.strip():
            sys.exit(f"{args.passforge} import failed: {run.stderr.strip()}")
        report = json.loads(run.stdout)

    failures = {}
    for r in report["results"]:
        task = pathlib.Path(r.get("dir", "")).name
        reasons = [w.partition(": ")[2] or w for w in r.get("warnings", [])]
        if r.get("error"):
            reasons.append(r["error"])
        if r.get("variants", 0) == 0 or r.get("error"):
            failures[task] = reasons[0] if reasons else "no variant imported"
    rows = []
    for name, *_ in PROBES:
        s = slug(name)
        row = {"probe": name, "status": "supported", "reason": ""}
        if s in failures:
            row = {"probe": name, "status": "unsupported",
                   "reason": re.sub(r"^\S+:\d+:\d+: ", "", failures[s])}
        if torch_errors.get(s):
            # A call this PyTorch lacks (newer API) is still worth the import's answer.
            row["torch_error"] = torch_errors[s]
        rows.append(row)
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    supported = sum(r["status"] == "supported" for r in rows)
    print(f"{supported}/{len(rows)} probes import")
    unsupported = [r for r in rows if r["status"] == "unsupported"]
    if unsupported:
        print("\nunsupported:")
        for r in unsupported:
            print(f"  {r['probe']:36s} {r['reason']}")
    refused = [r for r in rows if r.get("torch_error")]
    if refused:
        print("\nPyTorch (--torch) refused these probes (a newer API, or a bad probe):")
        for r in refused:
            print(f"  {r['probe']:36s} [{r['status']}] {r['torch_error']}")


if __name__ == "__main__":
    main()
