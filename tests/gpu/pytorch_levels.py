#!/usr/bin/env python3
"""PyTorch's own numerical error on the GPU, per variant: the fixture behind the
graph-level GPU tests' tolerance (tests/data/pytorch_levels.json).

The graph suites (gpu_suite_test, gpu_corpus_test) judge our GPU baseline
against the CPU reference, which computes in float64 and rounds each output
once. A float32 or float16 GPU computation of the same graph cannot always meet
the dtype baseline (t = -5) against that: ill-conditioned real inputs (a
batch_norm whose running variance is tiny, a long convolution sum, a cancelling
add after a rounded intermediate) amplify the unavoidable rounding. The tests
must not fail for being as accurate as PyTorch, nor pass something less
accurate. So this script measures, for every variant, the first tolerance
level at which PyTorch's own CUDA result (eager, the variant's dtypes, TF32
off) matches PyTorch's float64 CPU result of the same graph on the same inputs
(our synthesised input set 0, dumped by pf_baseline_bench), and writes the
variants where that level is above t = -5. A test then accepts our result at
that level, no looser.

Run on the GPU machine (PyTorch there), from the repository root:
    tests/gpu/pytorch_levels.py --build build tasks CORPUS/graphnet-slices \\
        CORPUS/passnet-fusible --out tests/data/pytorch_levels.json
(CORPUS: the full task corpus, not shipped with the repository; `tasks` alone
covers the built-in suite.)
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
import torch  # noqa: E402
from fidelity import load_inputs, make_callable  # noqa: E402

LEVELS = range(-10, 5)
BASELINE_LEVEL = -5


def p10(e):
    return float(f"{10.0 ** e:.3g}")  # evaluator/scoring/tolerance.cpp: 3 significant figures


def tolerance(dtype, t):
    if dtype == torch.float16:
        return p10(0.6 * t), p10(t)
    if dtype == torch.bfloat16:
        return p10(0.3592 * t), p10(t)
    if dtype == torch.float32:
        return p10(1.1772 * t), p10(t)
    if dtype == torch.float64:
        return p10(1.4 * t), p10(1.4 * t)
    return None


def first_level(got, want):
    """First t at which got matches want (the float64 result rounded to got's dtype), NaN equal."""
    if got.shape != want.shape:
        return None
    want = want.to(got.dtype)
    if tolerance(got.dtype, 0) is None:
        return LEVELS[0] if torch.equal(got, want) else None
    g, w = got.double(), want.double()
    both_nan = torch.isnan(g) & torch.isnan(w)
    g, w = torch.where(both_nan, 0, g), torch.where(both_nan, 0, w)
    for t in LEVELS:
        rtol, atol = tolerance(got.dtype, t)
        if bool(((g - w).abs() <= atol + rtol * w.abs()).all()):
            return t
    return None


def worst_level(got, want):
    worst = LEVELS[0]
    for g, w in zip(got, want):
        if not isinstance(g, torch.Tensor):
            continue
        lv = first_level(g.cpu(), w)
        worst = max(worst, LEVELS[-1] + 1 if lv is None else lv)
    return worst


def load_array(spec):
    return load_inputs({"inputs": [spec]})[0].cpu()


def as_tuple(out):
    return tuple(out) if isinstance(out, (tuple, list)) else (out,)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tasks", nargs="+")
    ap.add_argument("--build", default="build")
    ap.add_argument("--out", default="tests/data/pytorch_levels.json")
    args = ap.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    work = tempfile.mkdtemp(prefix="pf-levels-")
    cmd = [os.path.join(args.build, "bench", "pf_baseline_bench"), *args.tasks, "--warmup", "0",
           "--trials", "1", "--graph-only", "--dump-inputs", work, "--out", os.path.join(work, "b.json")]
    print("running", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, stderr=open(os.path.join(work, "bench.log"), "w"))
    with open(os.path.join(work, "b.json")) as f:
        rows = json.load(f)["variants"]
    levels, failed, measured, ours_worse = {}, [], 0, {}

    def write():  # after every 100 variants too: a run cut short keeps what it measured
        doc = {
            "what": "first tolerance level at which PyTorch's CUDA result matches its float64 CPU "
                    "result, for variants above t = -5 (tests/gpu/pytorch_levels.py)",
            "torch": torch.__version__,
            "device": torch.cuda.get_device_name(0),
            "measured": measured,
            "levels": dict(sorted(levels.items())),
            "not_measured": failed,
            "ours_less_accurate": dict(sorted(ours_worse.items())),
        }
        with open(args.out, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")

    for i, r in enumerate(rows):
        if i % 100 == 99:
            write()
            print(f"{i + 1}/{len(rows)}", flush=True)
        if r.get("status") != "ok":
            continue
        key = f"{r['task']}/{r['variant']}"
        try:
            inputs = load_inputs(r)
            # The dialect source, as our CPU reference runs it (not the corpus model.py).
            fn = make_callable({k: v for k, v in r.items() if k != "model_py"}, inputs)
            with torch.no_grad():
                got = as_tuple(fn(*inputs))
                ref_in = [t.cpu().double() if t.is_floating_point() else t.cpu() for t in inputs]
                # Factories that name no device make CPU tensors here, as the inputs are.
                want = as_tuple(getattr(fn, "plain", fn)(*ref_in))
        except Exception as e:  # reported, not fatal: the fixture lists what it measured
            failed.append({"variant": key, "error": f"{type(e).__name__}: {e}"[:200]})
            continue
        measured += 1
        worst = worst_level(got, want)
        if worst > BASELINE_LEVEL:
            levels[key] = worst
        # Ours against the same float64 result: where we are less accurate than PyTorch, the
        # fixture must not excuse it (the test would pass something PyTorch does better).
        if r.get("outputs"):
            mine = worst_level([load_array(o) for o in r["outputs"]], want)
            if mine > max(worst, BASELINE_LEVEL):
                ours_worse[key] = {"ours": mine, "pytorch": worst}
                print(f"ours less accurate than PyTorch: {key}: t = {mine} vs {worst}", flush=True)
    write()
    print(f"{measured} variants measured, {len(levels)} above t = {BASELINE_LEVEL}, "
          f"{len(failed)} not measured, ours less accurate than PyTorch on {len(ours_worse)}; "
          f"wrote {args.out}")


if __name__ == "__main__":
    main()
