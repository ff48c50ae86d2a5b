import torch


# Inference batch norm, a residual add and ReLU in one pass over memory:
# read x and the residual once, write the result once (eager: three kernels,
# two intermediate tensors). 16-byte vectors along each (n, c) plane; the
# per-channel statistics are loaded once per thread.
def pattern(x, mean, var, weight, bias, momentum, eps, residual):
    t0 = torch.nn.functional.batch_norm(x, mean, var, weight, bias, False, momentum, eps)
    t1 = t0 + residual
    return torch.nn.functional.relu(t1, inplace=True)


def replacement(x, mean, var, weight, bias, momentum, eps, residual):
    out = torch.empty_like(x)
    # [N, C, *spatial]: 2-d images and 3-d volumes alike.
    n = x.shape[0]
    c = x.shape[1]
    hw = x.numel() // (n * c)
    vec = 16 // x.element_size()
    if hw % vec != 0:
        vec = 1
    if x.dtype == torch.float16:
        kernel = "bn_add_relu_f16"
    elif x.dtype == torch.bfloat16:
        kernel = "bn_add_relu_bf16"
    else:
        kernel = "bn_add_relu_f32"
    threads = 256
    launch(kernel, grid=(cdiv(hw // vec, threads), n * c), block=threads, args=(x, residual, mean, var, weight, bias, out, c, hw, eps, vec))
    return out
