import torch


# Honest control for the weak task: sigmoid(x) * 1e-12 in one kernel.
def pattern(x):
    t = torch.sigmoid(x)
    u = t * 1e-12
    return u


def replacement(x):
    out = torch.empty_like(x)
    n = x.numel()
    launch("scaled_sigmoid", grid=cdiv(n, 256), block=256, args=(x, out, n))
    return out
