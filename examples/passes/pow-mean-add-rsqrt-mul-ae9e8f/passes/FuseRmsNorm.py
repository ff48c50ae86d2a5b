import torch


# RMSNorm without a weight: x * rsqrt(mean(x ** 2, -1) + eps). One warp per
# row with 16-byte loads: one read to reduce, one (cached) read to scale and
# one write, instead of eager's five kernels and four intermediates.
def pattern(x, eps):
    t0 = x.pow(2)
    t1 = t0.mean(-1, keepdim=True)
    t2 = t1 + eps
    t3 = torch.rsqrt(t2)
    return x * t3


def replacement(x, eps):
    out = torch.empty_like(x)
    d = x.shape[-1]
    rows = x.numel() // d
    vec = 16 // x.element_size()
    if d % vec != 0:
        vec = 1
    if x.dtype == torch.float16:
        kernel = "rms_norm_f16"
    elif x.dtype == torch.bfloat16:
        kernel = "rms_norm_bf16"
    else:
        kernel = "rms_norm_f32"
    warps = 4
    launch(kernel, grid=cdiv(rows, warps), block=32 * warps, args=(x, out, rows, d, eps, vec))
    return out
