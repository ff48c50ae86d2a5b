import torch


# Inference batch norm, ReLU and a global average pool: one warp per (n, c)
# plane normalises, rectifies and sums it, writing one value per plane.
# Eager writes the normalised tensor, rectifies it in place and reads it
# again to pool; the fused pass reads the input once and writes N*C values.
def pattern(x, mean, var, weight, bias, momentum, eps):
    t0 = torch.nn.functional.batch_norm(x, mean, var, weight, bias, False, momentum, eps)
    t1 = torch.nn.functional.relu(t0, inplace=True)
    return torch.nn.functional.adaptive_avg_pool2d(t1, 1)


def replacement(x, mean, var, weight, bias, momentum, eps):
    n, c, h, w = x.shape
    out = torch.empty((n, c, 1, 1), dtype=x.dtype)
    planes = n * c
    if x.dtype == torch.float16:
        kernel = "bn_relu_pool_f16"
    elif x.dtype == torch.bfloat16:
        kernel = "bn_relu_pool_bf16"
    else:
        kernel = "bn_relu_pool_f32"
    warps = 8
    launch(kernel, grid=cdiv(planes, warps), block=32 * warps, args=(x, mean, var, weight, bias, out, planes, c, h * w, eps))
    return out
