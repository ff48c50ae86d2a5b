import torch


# Honest control for the degenerate-variant task: relu(x) * y in one kernel.
def pattern(x, y):
    t = torch.relu(x)
    u = t * y
    return u


def replacement(x, y):
    out = torch.empty_like(x)
    n = x.numel()
    launch("relu_mul", grid=cdiv(n, 256), block=256, args=(x, y, out, n))
    return out
