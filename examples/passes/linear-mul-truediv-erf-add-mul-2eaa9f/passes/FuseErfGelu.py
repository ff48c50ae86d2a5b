import torch


# The erf GELU written out op by op after a linear layer: the GEMM stays
# with the baseline (cuBLAS, bias in its epilogue) and the five elementwise
# ops that follow become one vectorised kernel reading the GEMM output once.
def pattern(x):
    t1 = x * 0.5
    t2 = x / 1.4142135623730951
    t3 = torch.erf(t2)
    t4 = 1.0 + t3
    return t1 * t4


def replacement(x):
    out = torch.empty_like(x)
    n = x.numel()
    vec = 16 // x.element_size()
    if n % vec != 0:
        vec = 1
    if x.dtype == torch.float16:
        kernel = "erf_gelu_f16"
    elif x.dtype == torch.bfloat16:
        kernel = "erf_gelu_bf16"
    else:
        kernel = "erf_gelu_f32"
    threads = 256
    launch(kernel, grid=cdiv(n // vec, threads), block=threads, args=(x, out, n, vec))
    return out
