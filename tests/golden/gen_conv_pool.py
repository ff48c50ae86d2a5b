"""Golden fixtures for evaluator/ops/{conv,pooling,adaptive_pool,interpolate}.cpp.
Run: /usr/bin/python3 tests/golden/gen_conv_pool.py

Convolutions and average pooling use float64 references rounded to the output dtype
(f64ref.py, 1 ulp). Max pooling is exact. interpolate runs natively: PyTorch computes source
coordinates in float for float32/float16/bfloat16 (double for float64), as the reference does,
and blends in float; the reference blends in float64, hence a few ulps for float32."""
import torch

from f64ref import f64
from golden_lib import BF16, F16, F32, F64, FLOATS, Golden, dtype_tag, permuted, rnd, strided, transposed

g = Golden("conv_pool")
INTERP = "torch.nn.functional.interpolate"
INTERP_TOL = {"ulps": 4, "abs": 1e-6}
# bicubic blends 16 float32 products of magnitude <= 1.5: PyTorch's float32 result is itself
# ~1e-6 away from its float64 one.
BICUBIC_TOL = {"ulps": 4, "abs": 3e-6}


def case(name, spelling, args, kwargs=None, **kw):
    g.case(name, spelling, args, kwargs, fn=f64(spelling), reference="native", **kw)


def r(shape, dt=F32):
    return rnd(shape, dt, -1.5, 1.5)


# ---- convolution ------------------------------------------------------------------------------
for dt in FLOATS:
    t = dtype_tag(dt)
    # corpus: torch.conv2d(x, w, b, (1, 1), (1, 1), (1, 1), 1)
    case(f"conv2d/corpus_pad1/{t}", "torch.conv2d", [r([1, 3, 5, 5], dt), r([4, 3, 3, 3], dt), r([4], dt),
                                                     (1, 1), (1, 1), (1, 1), 1])
    case(f"conv2d/corpus_1x1_nobias/{t}", "torch.conv2d", [r([2, 4, 3, 3], dt), r([2, 4, 1, 1], dt), None,
                                                           (1, 1), (0, 0), (1, 1), 1])
    case(f"conv1d/corpus_stride2/{t}", "torch.conv1d", [r([1, 3, 9], dt), r([2, 3, 3], dt), r([2], dt),
                                                        (2,), (0,), (1,), 1])
case("conv2d/patchify", "torch.conv2d", [r([1, 2, 8, 8]), r([3, 2, 4, 4]), r([3]), (4, 4), (0, 0), (1, 1), 1])
case("conv2d/depthwise", "torch.conv2d", [r([1, 4, 5, 5]), r([4, 1, 3, 3]), r([4]), (1, 1), (1, 1), (1, 1), 4])
case("conv2d/groups2_dilation", "torch.nn.functional.conv2d", [r([1, 4, 7, 6]), r([6, 2, 3, 2]), None],
     {"padding": (2, 1), "dilation": (2, 1), "groups": 2})
case("conv2d/asym_stride", "torch.nn.functional.conv2d", [r([2, 2, 7, 5]), r([3, 2, 3, 3])], {"stride": (2, 3)})
case("conv2d/same_even_kernel", "torch.nn.functional.conv2d", [r([1, 2, 5, 6]), r([2, 2, 4, 2]), r([2])],
     {"padding": "same"})
case("conv2d/same_dilated", "torch.conv2d", [r([1, 1, 6, 6]), r([2, 1, 3, 3])], {"padding": "same", "dilation": 2})
case("conv2d/valid", "torch.conv2d", [r([1, 1, 4, 4]), r([1, 1, 3, 3])], {"padding": "valid"})
case("conv2d/unbatched", "torch.conv2d", [r([2, 4, 4]), r([3, 2, 2, 2])])
case("conv2d/channels_last_input", "torch.conv2d", [permuted(r([1, 3, 4, 4]), [0, 3, 1, 2]), r([2, 3, 3, 3]), None,
                                                    1, 1])
case("conv2d/bf16_bias", "torch.conv2d", [r([1, 2, 4, 4], BF16), r([2, 2, 3, 3], BF16), r([2], BF16), 1, 1])
case("conv1d/padding_groups", "torch.nn.functional.conv1d", [r([2, 4, 6]), r([4, 2, 3]), r([4])],
     {"padding": 2, "groups": 2})
case("conv1d/same", "torch.conv1d", [r([1, 2, 7]), r([3, 2, 4])], {"padding": "same"})
case("conv2d/channel_mismatch", "torch.conv2d", [r([1, 3, 4, 4]), r([2, 2, 3, 3])], expect_error=True)
case("conv2d/kernel_too_big", "torch.conv2d", [r([1, 1, 2, 2]), r([1, 1, 3, 3])], expect_error=True)
case("conv2d/same_strided", "torch.conv2d", [r([1, 1, 4, 4]), r([1, 1, 3, 3])], {"padding": "same", "stride": 2},
     expect_error=True)
g.case("conv2d/mixed_dtypes", "torch.conv2d", [r([1, 1, 4, 4]), r([1, 1, 3, 3], F16)], expect_error=True)
case("conv_transpose2d/basic", "torch.nn.functional.conv_transpose2d", [r([1, 2, 3, 3]), r([2, 3, 2, 2]), r([3])],
     {"stride": 2})
case("conv_transpose2d/pad_outpad_groups", "torch.conv_transpose2d", [r([1, 4, 3, 4]), r([4, 1, 3, 3])],
     {"stride": 2, "padding": 1, "output_padding": 1, "groups": 2})
case("conv_transpose2d/dilation", "torch.conv_transpose2d", [r([2, 1, 3, 3], F16), r([1, 2, 2, 2], F16)],
     {"dilation": 2})
case("conv_transpose1d/basic", "torch.nn.functional.conv_transpose1d", [r([1, 2, 4]), r([2, 3, 3]), r([3])],
     {"stride": 3, "padding": 1})
g.case("native/conv2d_f32", "torch.conv2d", [r([1, 3, 5, 5]), r([2, 3, 3, 3]), r([2]), 1, 1],
       tol={"ulps": 8, "abs": 2e-6})

# ---- pooling -------------------------------------------------------------------------------------
MP = "torch.nn.functional.max_pool2d"
AP = "torch._C._nn.avg_pool2d"
for dt in FLOATS:
    t = dtype_tag(dt)
    # corpus: max_pool2d(x, 5, 1, 2, 1, ceil_mode=False, return_indices=False)
    g.case(f"max_pool2d/corpus/{t}", MP, [r([1, 2, 5, 5], dt), 5, 1, 2, 1], {"ceil_mode": False, "return_indices": False})
    case(f"avg_pool2d/corpus_3_1_1/{t}", AP, [r([1, 2, 4, 4], dt), 3, 1, 1, False, False, None])
    case(f"avg_pool2d/corpus_2_2_0/{t}", AP, [r([1, 2, 5, 4], dt), 2, 2, 0, False, True, None])
g.case("max_pool2d/ceil_mode", MP, [r([1, 1, 5, 6]), 2], {"stride": 2, "ceil_mode": True})
g.case("max_pool2d/dilation_padding", MP, [r([1, 2, 7, 7]), (3, 2)], {"stride": (2, 1), "padding": 1, "dilation": 2})
g.case("max_pool2d/nan", MP, [torch.tensor([[[[1.0, float("nan")], [3.0, 4.0]]]]), 2])
g.case("max_pool2d/unbatched_transposed", MP, [transposed(r([2, 4, 4])), 2])
g.case("max_pool2d/torch_alias", "torch.max_pool2d", [r([1, 1, 4, 4]), [2, 2], [], 0, 1, False])
g.case("max_pool2d/pad_too_big", MP, [r([1, 1, 4, 4]), 2, 1, 2], expect_error=True)
g.case("max_pool1d/basic", "torch.nn.functional.max_pool1d", [r([2, 3, 7], F16), 3], {"stride": 2, "padding": 1})
case("avg_pool2d/ceil_count_pad", "torch.nn.functional.avg_pool2d", [r([1, 1, 5, 5]), 2],
     {"stride": 2, "padding": 1, "ceil_mode": True})
case("avg_pool2d/ceil_no_count_pad", "torch.nn.functional.avg_pool2d", [r([1, 1, 5, 5]), 2],
     {"stride": 2, "padding": 1, "ceil_mode": True, "count_include_pad": False})
case("avg_pool2d/divisor_override", AP, [r([1, 2, 4, 4]), 2, None, 0, False, True, 3])
case("avg_pool2d/strided_input", "torch.nn.functional.avg_pool2d", [strided(r([1, 1, 4, 3])), (2, 3)])
case("avg_pool1d/basic", "torch.nn.functional.avg_pool1d", [r([1, 2, 7], BF16), 3], {"stride": 2, "padding": 1})
case("avg_pool1d/ceil", "torch.avg_pool1d", [r([1, 1, 6]), 4, 3, 0, True, False])

AAP = "torch.nn.functional.adaptive_avg_pool2d"
for dt in FLOATS:
    case(f"adaptive_avg_pool2d/corpus_1/{dtype_tag(dt)}", AAP, [r([2, 3, 3, 4], dt), 1])
case("adaptive_avg_pool2d/uneven", AAP, [r([1, 2, 7, 5]), (3, 2)])
case("adaptive_avg_pool2d/none_keeps", AAP, [r([1, 1, 5, 4]), (2, None)])
case("adaptive_avg_pool2d/upsample", AAP, [r([1, 1, 2, 3]), 4])
case("adaptive_avg_pool2d/unbatched", "torch._C._nn.adaptive_avg_pool2d", [r([2, 6, 6]), [4, 3]])
case("adaptive_avg_pool1d/basic", "torch.nn.functional.adaptive_avg_pool1d", [r([1, 2, 7], F16), 3])
g.case("adaptive_max_pool2d/basic", "torch.nn.functional.adaptive_max_pool2d", [r([1, 2, 5, 7]), (2, 3)])
g.case("adaptive_max_pool1d/basic", "torch.nn.functional.adaptive_max_pool1d", [r([2, 7]), 3])

# ---- interpolate -------------------------------------------------------------------------------------
for dt in FLOATS:
    t = dtype_tag(dt)
    # corpus: interpolate(x, (64, 64), None, 'bilinear', False) and size=..., mode='bicubic'
    g.case(f"interpolate/corpus_bilinear/{t}", INTERP, [r([1, 2, 3, 4], dt), (5, 7), None, "bilinear", False],
           tol=INTERP_TOL)
    g.case(f"interpolate/corpus_bicubic/{t}", INTERP, [r([1, 1, 4, 5], dt)],
           {"size": (6, 3), "mode": "bicubic", "align_corners": False}, tol=BICUBIC_TOL)
    g.case(f"interpolate/nearest/{t}", INTERP, [r([1, 2, 3, 3], dt)], {"scale_factor": 2.0})
g.case("interpolate/bilinear_align", INTERP, [r([1, 1, 3, 4])], {"size": [5, 9], "mode": "bilinear",
                                                                  "align_corners": True}, tol=INTERP_TOL)
g.case("interpolate/bilinear_downscale", INTERP, [r([1, 1, 6, 7])], {"size": (4, 3), "mode": "bilinear"},
       tol=INTERP_TOL)
g.case("interpolate/bilinear_scale_factor", INTERP, [r([1, 1, 3, 5])], {"scale_factor": 1.7, "mode": "bilinear"},
       tol=INTERP_TOL)
g.case("interpolate/bilinear_recompute", INTERP, [r([1, 1, 3, 5])],
       {"scale_factor": (1.7, 2.3), "mode": "bilinear", "recompute_scale_factor": True}, tol=INTERP_TOL)
g.case("interpolate/bicubic_align_f64", INTERP, [r([1, 1, 4, 4], F64)],
       {"size": 7, "mode": "bicubic", "align_corners": True}, tol=BICUBIC_TOL)
g.case("interpolate/bicubic_upscale", INTERP, [transposed(r([1, 2, 3, 3]))], {"scale_factor": 2.5, "mode": "bicubic"},
       tol=BICUBIC_TOL)
g.case("interpolate/nearest_size", INTERP, [r([1, 1, 5, 3])], {"size": (3, 7)})
g.case("interpolate/nearest_third", INTERP, [r([1, 1, 3, 3])], {"size": 9, "mode": "nearest"})
g.case("interpolate/nearest_scale_float", INTERP, [r([1, 1, 4, 5])], {"scale_factor": 1.3})
g.case("interpolate/nearest_1d", INTERP, [r([2, 3, 4], F16)], {"size": 7})
g.case("interpolate/nearest_exact", INTERP, [r([1, 1, 5, 3])], {"size": (3, 7), "mode": "nearest-exact"})
g.case("interpolate/linear_1d", INTERP, [r([1, 2, 5])], {"size": 8, "mode": "linear"}, tol=INTERP_TOL)
g.case("interpolate/trilinear", INTERP, [r([1, 1, 2, 3, 2])], {"scale_factor": 2, "mode": "trilinear"}, tol=INTERP_TOL)
g.case("interpolate/area", INTERP, [r([1, 1, 5, 7])], {"size": (2, 3), "mode": "area"}, tol=INTERP_TOL)
g.case("interpolate/upsample_alias", "torch.nn.functional.upsample", [r([1, 1, 2, 2])], {"scale_factor": 2})
g.case("interpolate/mode_rank_mismatch", INTERP, [r([1, 2, 3])], {"size": 4, "mode": "bilinear"}, expect_error=True)
g.case("interpolate/align_with_nearest", INTERP, [r([1, 1, 2, 2])], {"size": 4, "align_corners": True},
       expect_error=True)
g.case("interpolate/size_and_scale", INTERP, [r([1, 1, 2, 2])], {"size": 4, "scale_factor": 2.0},
       expect_error=True)

# F.unfold (im2col), added last: cases draw from one random stream
UNFOLD = "torch.nn.functional.unfold"
g.case("unfold/basic", UNFOLD, [r([2, 3, 4, 5])], {"kernel_size": 2})
g.case("unfold/all_params", UNFOLD, [r([1, 2, 6, 7])],
       {"kernel_size": (2, 3), "dilation": (2, 1), "padding": 1, "stride": (2, 3)})
g.case("unfold/positional", UNFOLD, [r([1, 2, 5, 5]), 3, 1, 1, 2])
g.case("unfold/unbatched_f16", UNFOLD, [r([2, 4, 4], torch.float16)], {"kernel_size": 3, "padding": 1})
g.case("unfold/int64", UNFOLD, [torch.arange(2 * 3 * 3, dtype=torch.int64).reshape(1, 2, 3, 3)],
       {"kernel_size": 2}, expect_error=True)
g.case("unfold/bf16_strided", UNFOLD, [transposed(r([1, 2, 5, 4], BF16))], {"kernel_size": (3, 2), "stride": 2})
g.case("unfold/too_big", UNFOLD, [r([1, 1, 2, 2])], {"kernel_size": 3}, expect_error=True)
g.case("unfold/5d", UNFOLD, [r([1, 1, 2, 2, 2])], {"kernel_size": 1}, expect_error=True)

# interpolate(antialias=True), added last: cases draw from one random stream. PyTorch 1.13's CPU
# kernel has no float16/bfloat16 (its CUDA kernel has). It sums the stretched filter's taps in the
# input dtype, one dim after the other, rounding in between; passforge sums in float64 once.
AA_TOL = {"ulps": 4, "abs": 3e-6}
for dt in (F32, F64):
    t = dtype_tag(dt)
    for mode in ("bilinear", "bicubic"):
        g.case(f"interpolate_aa/{mode}_down/{t}", INTERP, [r([1, 2, 11, 9], dt)],
               {"size": (4, 3), "mode": mode, "antialias": True}, tol=AA_TOL)
        g.case(f"interpolate_aa/{mode}_scale/{t}", INTERP, [r([2, 1, 10, 13], dt)],
               {"scale_factor": 0.37, "mode": mode, "antialias": True}, tol=AA_TOL)
        g.case(f"interpolate_aa/{mode}_up/{t}", INTERP, [r([1, 1, 3, 4], dt)],
               {"size": (7, 5), "mode": mode, "antialias": True}, tol=AA_TOL)
        g.case(f"interpolate_aa/{mode}_align/{t}", INTERP, [r([1, 1, 9, 8], dt)],
               {"size": (4, 5), "mode": mode, "align_corners": True, "antialias": True}, tol=AA_TOL)
g.case("interpolate_aa/strided", INTERP, [transposed(r([1, 3, 8, 12]))],
       {"size": (5, 3), "mode": "bilinear", "antialias": True}, tol=AA_TOL)
g.case("interpolate_aa/linear_3d", INTERP, [r([1, 2, 9])], {"size": 4, "mode": "linear", "antialias": True},
       expect_error=True)
g.case("interpolate_aa/nearest", INTERP, [r([1, 2, 9, 9])], {"size": 4, "antialias": True}, expect_error=True)

# conv3d / conv_transpose3d, added last: cases draw from one random stream
for dt in FLOATS:
    t = dtype_tag(dt)
    case(f"conv3d/basic/{t}", "torch.conv3d", [r([1, 2, 4, 5, 3], dt), r([3, 2, 3, 3, 2], dt), r([3], dt),
                                              (1, 1, 1), (1, 1, 0), (1, 1, 1), 1])
case("conv3d/stride_dilation_groups", "torch.nn.functional.conv3d", [r([2, 4, 6, 5, 7]), r([6, 2, 2, 3, 2]), r([6])],
     {"stride": (2, 1, 3), "padding": (1, 2, 0), "dilation": (2, 1, 2), "groups": 2})
case("conv3d/same_even_kernel", "torch.nn.functional.conv3d", [r([1, 2, 4, 5, 6]), r([2, 2, 2, 3, 4])],
     {"padding": "same", "dilation": (1, 2, 1)})
case("conv3d/valid_unbatched", "torch.conv3d", [r([2, 3, 4, 4]), r([2, 2, 2, 2, 3])], {"padding": "valid"})
case("conv3d/depthwise_bf16", "torch.conv3d", [r([1, 3, 3, 4, 4], BF16), r([6, 1, 2, 2, 2], BF16), r([6], BF16)],
     {"groups": 3, "padding": 1})
case("conv3d/gemm_path", "torch.conv3d", [r([1, 2, 3, 4, 4]), r([9, 2, 1, 2, 2]), None, 1, 0, 1, 1])
case("conv3d/strided_input", "torch.conv3d", [transposed(r([1, 2, 3, 4, 5])), r([2, 2, 1, 1, 1])])
case("conv3d/kernel_too_big", "torch.conv3d", [r([1, 1, 2, 4, 4]), r([1, 1, 3, 3, 3])], expect_error=True)
case("conv3d/4d_weight", "torch.conv3d", [r([1, 1, 3, 4, 4]), r([1, 1, 3, 3])], expect_error=True)
case("conv_transpose3d/basic", "torch.nn.functional.conv_transpose3d", [r([1, 2, 2, 3, 3]), r([2, 3, 2, 2, 2]), r([3])],
     {"stride": 2})
case("conv_transpose3d/all_params", "torch.conv_transpose3d", [r([2, 4, 2, 3, 2], F16), r([4, 1, 3, 2, 3], F16)],
     {"stride": (2, 1, 2), "padding": (1, 0, 1), "output_padding": (1, 0, 0), "groups": 2, "dilation": (1, 2, 1)})

# 3-d pooling, added last: cases draw from one random stream. PyTorch 1.13 has no CPU float16
# max_pool3d, so max pooling goes through f64 as well (exact either way).
MP3 = "torch.nn.functional.max_pool3d"
AP3 = "torch.nn.functional.avg_pool3d"
for dt in FLOATS:
    t = dtype_tag(dt)
    case(f"max_pool3d/basic/{t}", MP3, [r([1, 2, 4, 5, 6], dt), 2])
    case(f"avg_pool3d/basic/{t}", AP3, [r([1, 2, 4, 5, 6], dt), 3], {"stride": 2, "padding": 1})
g.case("max_pool3d/all_params", MP3, [r([2, 2, 5, 7, 6]), (3, 2, 3)],
       {"stride": (2, 1, 2), "padding": (1, 1, 0), "dilation": (1, 2, 1), "ceil_mode": True})
g.case("max_pool3d/nan", MP3, [torch.tensor([[[[[1.0, float("nan")], [3.0, 4.0]], [[0.5, 2.0], [1.0, -1.0]]]]]), 2])
g.case("max_pool3d/unbatched_transposed", MP3, [transposed(r([2, 3, 4, 4])), 2])
g.case("max_pool3d/torch_alias", "torch.max_pool3d", [r([1, 1, 4, 4, 4]), [2, 2, 2], [], 0, 1, False])
g.case("max_pool3d/pad_too_big", MP3, [r([1, 1, 4, 4, 4]), 2, 1, 2], expect_error=True)
case("avg_pool3d/ceil_no_count_pad", AP3, [r([1, 1, 5, 5, 4])], {"kernel_size": 2, "stride": 2, "padding": 1,
                                                               "ceil_mode": True, "count_include_pad": False})
case("avg_pool3d/divisor_override", "torch._C._nn.avg_pool3d", [r([1, 2, 4, 4, 4]), 2, None, 0, False, True, 3])
case("avg_pool3d/unbatched_strided", AP3, [strided(r([2, 3, 4, 3])), (2, 1, 3)])
AAP3 = "torch.nn.functional.adaptive_avg_pool3d"
for dt in FLOATS:
    case(f"adaptive_avg_pool3d/1/{dtype_tag(dt)}", AAP3, [r([2, 3, 3, 4, 5], dt), 1])
case("adaptive_avg_pool3d/uneven_none", AAP3, [r([1, 2, 5, 7, 4]), (3, None, 2)])
case("adaptive_avg_pool3d/unbatched_alias", "torch._C._nn.adaptive_avg_pool3d", [r([2, 3, 6, 5]), [2, 4, 3]])
g.case("adaptive_max_pool3d/basic", "torch.nn.functional.adaptive_max_pool3d", [r([1, 2, 5, 7, 3]), (2, 3, 2)])
case("adaptive_max_pool3d/int", "torch.nn.functional.adaptive_max_pool3d", [r([2, 4, 4, 5], F16), 3])
g.case("adaptive_avg_pool3d/two_sizes", AAP3, [r([1, 1, 2, 2, 2]), (1, 1)], expect_error=True)

# F.fold (col2im), added last: cases draw from one random stream. Overlapping blocks add up:
# float64 reference (PyTorch adds in the input dtype).
FOLD = "torch.nn.functional.fold"
for dt in FLOATS:
    case(f"fold/basic/{dtype_tag(dt)}", FOLD, [r([2, 3 * 4, 12], dt)], {"output_size": (4, 5), "kernel_size": 2})
case("fold/all_params", FOLD, [r([1, 2 * 6, 9])],
     {"output_size": (6, 7), "kernel_size": (2, 3), "dilation": (2, 1), "padding": 1, "stride": (2, 3)})
case("fold/positional", FOLD, [r([1, 2 * 9, 9]), (5, 5), 3, 1, 1, 2])
case("fold/unbatched_f16", FOLD, [r([2 * 9, 16], F16)], {"output_size": 4, "kernel_size": 3, "padding": 1})
case("fold/transposed_bf16", FOLD, [transposed(r([1, 6, 10], BF16))], {"output_size": (2, 6), "kernel_size": (1, 2),
                                                                       "stride": (1, 1)})
case("fold/unfold_roundtrip", FOLD, [torch.nn.functional.unfold(r([1, 2, 5, 6]), 3, padding=1)],
     {"output_size": (5, 6), "kernel_size": 3, "padding": 1})
g.case("fold/int64", FOLD, [torch.arange(8, dtype=torch.int64).reshape(1, 4, 2)],
       {"output_size": (2, 3), "kernel_size": 2}, expect_error=True)
g.case("fold/not_divisible", FOLD, [r([1, 5, 4])], {"output_size": 3, "kernel_size": 2}, expect_error=True)
g.case("fold/wrong_blocks", FOLD, [r([1, 4, 5])], {"output_size": 3, "kernel_size": 2}, expect_error=True)
g.case("fold/4d", FOLD, [r([1, 1, 4, 4])], {"output_size": 3, "kernel_size": 2}, expect_error=True)

# max pooling with return_indices=True, added last: cases draw from one random stream. The
# indices count within each input plane; ties keep the first, a NaN its own position.
MP1, MP3 = "torch.nn.functional.max_pool1d", "torch.nn.functional.max_pool3d"
for dt in FLOATS:
    g.case(f"max_pool2d_indices/{dtype_tag(dt)}", MP, [r([2, 3, 7, 6], dt), 3, 2, 1], {"return_indices": True})
g.case("max_pool2d_indices/ceil_dilation", MP, [r([1, 2, 7, 9]), (2, 3)],
       {"stride": (2, 2), "padding": 1, "dilation": (2, 1), "ceil_mode": True, "return_indices": True})
g.case("max_pool2d_indices/nan_and_ties", MP,
       [torch.tensor([[[[1.0, 1.0, float("nan")], [1.0, 0.5, float("nan")], [-1.0, -2.0, 3.0]]]]), 2, 1],
       {"return_indices": True})
g.case("max_pool2d_indices/all_neg_inf", MP, [torch.full([1, 1, 3, 3], float("-inf")), 2, 1, 1],
       {"return_indices": True})
g.case("max_pool2d_indices/positional", MP, [r([1, 1, 5, 5]), 2, 2, 0, 1, False, True])
g.case("max_pool2d_indices/with_indices", "torch.nn.functional.max_pool2d_with_indices", [r([2, 4, 4]), 2])
g.case("max_pool1d_indices/basic", MP1, [r([2, 3, 9], F16), 3], {"stride": 2, "padding": 1, "return_indices": True})
g.case("max_pool3d_indices/basic", MP3, [r([1, 2, 5, 6, 4]), 3],
       {"stride": (2, 2, 1), "padding": 1, "return_indices": True})
g.case("max_pool3d_indices/unbatched", MP3, [r([2, 4, 4, 4]), 2], {"return_indices": True})

# adaptive max pooling with return_indices=True, added last: cases draw from one random stream.
AMP2 = "torch.nn.functional.adaptive_max_pool2d"
for dt in FLOATS:
    g.case(f"adaptive_max_pool2d_indices/{dtype_tag(dt)}", AMP2, [r([2, 3, 7, 9], dt), (3, 4), True])
g.case("adaptive_max_pool2d_indices/nan", AMP2,
       [torch.tensor([[[[1.0, float("nan"), 2.0], [float("nan"), 0.5, 3.0]]]]), (1, 2)], {"return_indices": True})
g.case("adaptive_max_pool2d_indices/with_indices", "torch.nn.functional.adaptive_max_pool2d_with_indices",
       [r([3, 5, 6]), (2, None)])
g.case("adaptive_max_pool1d_indices/basic", "torch.nn.functional.adaptive_max_pool1d", [r([2, 3, 11]), 4],
       {"return_indices": True})
g.case("adaptive_max_pool3d_indices/basic", "torch.nn.functional.adaptive_max_pool3d", [r([1, 2, 5, 6, 4]), (2, 3, 2)],
       {"return_indices": True})

# F.affine_grid (2-d; added last): PyTorch's float32 bmm against the float64 reference
AG = "torch.nn.functional.affine_grid"
AG_TOL = {"ulps": 4, "abs": 4e-7}
for dt in (F32, F64):
    g.case(f"affine_grid/{dtype_tag(dt)}", AG, [rnd([2, 2, 3], dt), [2, 3, 4, 5]], {"align_corners": False},
           tol=AG_TOL)
g.case("affine_grid/align_corners", AG, [rnd([1, 2, 3], F32), [1, 1, 6, 3]], {"align_corners": True}, tol=AG_TOL)
g.case("affine_grid/unit_dims", AG, [rnd([1, 2, 3], F32), [1, 2, 1, 1]], {"align_corners": False}, tol=AG_TOL)
g.case("affine_grid/transposed_theta", AG, [transposed(rnd([2, 2, 3], F32)), [2, 1, 3, 3]],
       {"align_corners": False}, tol=AG_TOL)
g.case("affine_grid/f16", AG, [rnd([1, 2, 3], F16), [1, 1, 4, 4]], {"align_corners": False})
g.case("affine_grid/3d_size", AG, [rnd([1, 2, 3], F32), [1, 1, 2, 2, 2]], {"align_corners": False},
       expect_error=True)
g.case("affine_grid/batch_mismatch", AG, [rnd([2, 2, 3], F32), [3, 1, 2, 2]], {"align_corners": False},
       expect_error=True)
g.write()
