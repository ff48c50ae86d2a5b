import torch


# Honest control: sigmoid(x) * y in one kernel, every element written once.
def pattern(x, y):
    t = torch.sigmoid(x)
    u = t * y
    return u


def replacement(x, y):
    out = torch.empty_like(x)
    n = x.numel()
    launch("sigmoid_mul", grid=cdiv(n, 256), block=256, args=(x, y, out, n))
    return out
