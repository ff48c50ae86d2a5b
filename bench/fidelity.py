#!/usr/bin/env python3
"""Eager-baseline fidelity (issue 10, docs/design.md "Performance targets").

For every variant of a task suite: our baseline's device time per run
(pf_baseline_bench: its plan captured in a CUDA graph and replayed, as
evaluations time it; CUDA events, L2 flushed, two input sets rotated) against
PyTorch eager running the same graph on the same inputs, captured in a CUDA
graph and replayed (the same kernels without Python's launch overhead; L2
flushed before each replay). Also records plain Python eager wall time and
TorchInductor (torch.compile, default mode) wall time, so reports can say
which baseline a speedup is against. Writes per-variant ratios and the
geometric mean to bench/results/.

Run on the GPU machine (PyTorch installed there), from the repository root:
    bench/fidelity.py --build build tasks
Options: --trials, --per-task, --filter, --compile-limit (torch.compile is
slow: it runs on at most this many variants, the first of each task first),
--torch-tf32 (PyTorch's own default: TF32 in cuDNN convolutions; by default
both sides run fp32 convolutions and matmuls without TF32, as our baseline
does, see docs/gpu-executor.md).

A variant whose PyTorch code cannot be captured in a CUDA graph (host syncs,
host-to-device copies of literals) is timed with CUDA events around one eager
call instead (torch_event_us: includes launch gaps, so it overstates
PyTorch's kernel time); such variants are listed but left out of the geomean.
"""
import argparse
import datetime
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch

DTYPES = {
    "bool": torch.bool, "uint8": torch.uint8, "int8": torch.int8, "int16": torch.int16,
    "int32": torch.int32, "int64": torch.int64, "float16": torch.float16,
    "bfloat16": torch.bfloat16, "float32": torch.float32, "float64": torch.float64,
}


def load_inputs(row):
    out = []
    for spec in row["inputs"]:
        arr = np.load(spec["file"])
        t = torch.from_numpy(arr).to(DTYPES[spec["dtype"]])  # bfloat16 was written as float32
        out.append(t.reshape(spec["shape"]).cuda())
    return out


def make_callable(row, inputs):
    """The variant as a Python callable: the corpus model.py when present, else the dialect source.
    A variant whose factory calls name no device (torch.arange(n)) and then meet CUDA tensors runs
    under torch.device("cuda"), as where the subgraph was captured (our baseline creates every
    tensor on the GPU); only then: that mode costs Python time on every op, which would inflate the
    eager wall time, and it makes torch.tensor(literal) a host-to-device copy a CUDA graph cannot
    capture."""
    if row.get("model_py"):
        scope = {}
        with open(row["model_py"]) as f:
            exec(compile(f.read(), row["model_py"], "exec"), scope)
        fn = scope["GraphModule"]().cuda().eval()
    else:
        scope = {"torch": torch, "operator": __import__("operator")}
        exec(compile("import torch\n" + row["source"], row["variant"], "exec"), scope)
        fn = scope["forward"]

    def on_cuda(*a):
        with torch.device("cuda"):
            return fn(*a)
    on_cuda.plain = fn  # for a CPU run of the same graph (tests/gpu/pytorch_levels.py)
    try:
        with torch.no_grad():
            fn(*inputs)
        return fn
    except RuntimeError as e:
        if "device" not in str(e):
            raise
        return on_cuda


class Flusher:
    def __init__(self):
        l2 = torch.cuda.get_device_properties(0).L2_cache_size
        self.buf = torch.empty(max(2 * l2, 8 << 20), dtype=torch.uint8, device="cuda")

    def __call__(self):
        self.buf.zero_()


def time_graph(fn, inputs, flush, warmup, trials):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s), torch.no_grad():
        for _ in range(3):
            fn(*inputs)
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g), torch.no_grad():
        fn(*inputs)
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    samples = []
    for i in range(warmup + trials):
        flush()
        start.record()
        g.replay()
        end.record()
        end.synchronize()
        if i >= warmup:
            samples.append(start.elapsed_time(end) * 1000.0)
    return statistics.median(samples)


def time_events(fn, inputs, flush, warmup, trials):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    samples = []
    with torch.no_grad():
        for i in range(warmup + trials):
            flush()
            start.record()
            fn(*inputs)
            end.record()
            end.synchronize()
            if i >= warmup:
                samples.append(start.elapsed_time(end) * 1000.0)
    return statistics.median(samples)


def time_wall(fn, inputs, flush, warmup, trials):
    samples = []
    with torch.no_grad():
        for i in range(warmup + trials):
            flush()
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            fn(*inputs)
            torch.cuda.synchronize()
            if i >= warmup:
                samples.append((time.perf_counter() - t0) * 1e6)
    return statistics.median(samples)


def torch_kernels(fn, inputs, runs=10):
    """PyTorch's kernels for one eager call: [(name, mean device us per call)], slowest first.
    No L2 flush between the profiled calls (its own fill kernel would be listed)."""
    from torch.profiler import ProfilerActivity, profile
    with torch.no_grad():
        fn(*inputs)
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(runs):
                fn(*inputs)
            torch.cuda.synchronize()
    rows = []
    for e in prof.key_averages():
        t = getattr(e, "device_time_total", None) or getattr(e, "cuda_time_total", 0)
        if t > 0:
            rows.append((e.key[:120], t / runs))
    return sorted(rows, key=lambda r: -r[1])[:8]


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tasks", nargs="+", help="task files/directories or corpus directories")
    ap.add_argument("--build", default="build", help="build directory with bench/pf_baseline_bench")
    ap.add_argument("--out", default="bench/results", help="results directory")
    ap.add_argument("--warmup", type=int, default=25)
    ap.add_argument("--trials", type=int, default=100)
    ap.add_argument("--per-task", type=int, default=0)
    ap.add_argument("--filter", default="")
    ap.add_argument("--compile-limit", type=int, default=40)
    ap.add_argument("--baseline-json", help="reuse a pf_baseline_bench result (with --dump-inputs paths)")
    ap.add_argument("--steps", action="store_true",
                    help="per-step times of ours and PyTorch's kernels (profiler) for variants off by > 10%%")
    ap.add_argument("--torch-tf32", action="store_true",
                    help="PyTorch's default cuDNN TF32 for fp32 convolutions (ours stays without)")
    args = ap.parse_args()

    os.makedirs(args.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="pf-fidelity-")
    if args.baseline_json:
        with open(args.baseline_json) as f:
            ours = json.load(f)
    else:
        cmd = [os.path.join(args.build, "bench", "pf_baseline_bench"), *args.tasks,
               "--warmup", str(args.warmup), "--trials", str(args.trials), "--dump-inputs", work,
               "--out", os.path.join(work, "baseline.json")]
        if args.per_task:
            cmd += ["--per-task", str(args.per_task)]
        if args.filter:
            cmd += ["--filter", args.filter]
        if args.steps:
            cmd += ["--steps"]
        print("running", " ".join(cmd), flush=True)
        subprocess.run(cmd, check=True)
        with open(os.path.join(work, "baseline.json")) as f:
            ours = json.load(f)

    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = args.torch_tf32
    torch.backends.cudnn.benchmark = False
    flush = Flusher()
    rows = []
    compiled_tasks = set()
    compiles = 0
    for r in ours["variants"]:
        if r.get("status") != "ok":
            rows.append({"task": r["task"], "variant": r["variant"], "status": r.get("status"),
                         "reason": r.get("reason")})
            continue
        row = {"task": r["task"], "variant": r["variant"], "status": "ok", "steps": r["steps"],
               "ours_device_us": r["device_us"]["median"], "ours_e2e_us": r["e2e_us"]["median"],
               "ours_launch": r.get("launch", "stream")}
        if "stream_device_us" in r:
            row["ours_stream_device_us"] = r["stream_device_us"]["median"]
        try:
            inputs = load_inputs(r)
            fn = make_callable(r, inputs)
            try:
                row["torch_graph_us"] = time_graph(fn, inputs, flush, args.warmup, args.trials)
                row["ratio"] = row["ours_device_us"] / row["torch_graph_us"]
            except Exception as e:  # not capturable: eager with events, outside the geomean
                torch.cuda.synchronize()
                row["graph_error"] = f"{type(e).__name__}: {e}"[:300]
                row["torch_event_us"] = time_events(fn, inputs, flush, args.warmup, args.trials)
                row["ratio_events"] = row["ours_device_us"] / row["torch_event_us"]
            row["torch_eager_wall_us"] = time_wall(fn, inputs, flush, args.warmup, args.trials)
            if args.steps and not 0.9 <= row.get("ratio", 1.0) <= 1.1:
                row["ours_steps"] = r.get("step_device_us")
                row["torch_kernels"] = torch_kernels(fn, inputs)
            if compiles < args.compile_limit and r["task"] not in compiled_tasks:
                compiled_tasks.add(r["task"])
                compiles += 1
                torch._dynamo.reset()
                cfn = torch.compile(fn)
                row["inductor_wall_us"] = time_wall(cfn, inputs, flush, 5, args.trials)
        except Exception as e:  # a variant PyTorch cannot run is reported, not fatal
            row["status"] = "torch_error"
            row["reason"] = f"{type(e).__name__}: {e}"[:300]
        rows.append(row)
        print(f"{r['task']}/{r['variant']}: ours {row.get('ours_device_us', 0):.1f} us, "
              f"torch graph {row.get('torch_graph_us', float('nan')):.1f} us, "
              f"ratio {row.get('ratio', float('nan')):.3f}", flush=True)

    ok = [r for r in rows if r.get("status") == "ok" and "ratio" in r]
    uncaptured = [r for r in rows if r.get("status") == "ok" and "ratio_events" in r]
    summary = {
        "torch_cudnn_allow_tf32": args.torch_tf32,
        "variants_not_capturable": len(uncaptured),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "device": ours.get("device", {}).get("name"),
        "torch": torch.__version__,
        "variants_timed": len(ok),
        "variants_skipped": sum(1 for r in rows if r.get("status") == "skipped"),
        "variants_failed": sum(1 for r in rows if r.get("status") not in ("ok", "skipped")),
        "geomean_ratio_ours_over_torch_graph": geomean([r["ratio"] for r in ok]),
        "ours_graph_replayed": sum(1 for r in ok if r.get("ours_launch") == "graph"),
        "geomean_ours_stream_over_graph": geomean(
            [r["ours_stream_device_us"] / r["ours_device_us"] for r in ok if "ours_stream_device_us" in r]),
        "within_10pct": sum(1 for r in ok if 0.9 <= r["ratio"] <= 1.1),
        "geomean_torch_eager_wall_over_graph": geomean([r["torch_eager_wall_us"] / r["torch_graph_us"] for r in ok]),
        "geomean_ratio_ours_over_torch_events_uncaptured": geomean([r["ratio_events"] for r in uncaptured]),
        "geomean_inductor_wall_over_eager_wall": geomean(
            [r["inductor_wall_us"] / r["torch_eager_wall_us"] for r in ok if "inductor_wall_us" in r]),
    }
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    path = os.path.join(args.out, f"fidelity-{stamp}.json")
    with open(path, "w") as f:
        json.dump({"summary": summary, "variants": rows}, f, indent=1)
    md = [f"# Baseline fidelity {summary['date']} ({summary['device']}, torch {summary['torch']})", "",
          f"ours / PyTorch-eager-in-CUDA-graph device time, geomean over {len(ok)} variants: "
          f"**{summary['geomean_ratio_ours_over_torch_graph']:.3f}** "
          f"({summary['within_10pct']} within 10%); skipped {summary['variants_skipped']}, "
          f"failed {summary['variants_failed']}; {len(uncaptured)} not capturable in a CUDA graph "
          f"(events around eager: geomean ratio {summary['geomean_ratio_ours_over_torch_events_uncaptured']:.3f}). "
          f"PyTorch cuDNN TF32: {args.torch_tf32}. Ours replayed as captured CUDA graphs: "
          f"{summary['ours_graph_replayed']} of {len(ok)}; ours launched step by step / replayed: "
          f"{summary['geomean_ours_stream_over_graph']:.2f}x.",
          f"Python eager wall / graph replay: {summary['geomean_torch_eager_wall_over_graph']:.2f}x; "
          f"Inductor wall / Python eager wall: {summary['geomean_inductor_wall_over_eager_wall']:.2f}x.", "",
          "| task | variant | ours us | torch graph us | ratio | ours stream us | eager wall us | inductor wall us |",
          "|---|---|---|---|---|---|---|---|"]
    for r in sorted(ok, key=lambda r: -abs(math.log(r["ratio"]))):
        md.append(f"| {r['task']} | {r['variant']} | {r['ours_device_us']:.1f} | {r['torch_graph_us']:.1f} | "
                  f"{r['ratio']:.3f} | {r.get('ours_stream_device_us', float('nan')):.1f} | "
                  f"{r['torch_eager_wall_us']:.1f} | {r.get('inductor_wall_us', float('nan')):.1f} |")
    with open(os.path.join(args.out, f"fidelity-{stamp}.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print(json.dumps(summary, indent=1))
    print("wrote", path)


if __name__ == "__main__":
    sys.exit(main())
