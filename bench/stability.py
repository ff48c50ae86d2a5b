#!/usr/bin/env python3
"""Timing stability of the eager baseline (issue 10): the same variants timed
in N fresh processes (pf_baseline_bench), spread of the per-process medians.

    bench/stability.py --build build CORPUS/graphnet-slices

(CORPUS: a directory of PassBench-layout task directories, e.g. the GraphNet
slices; tests/data/graphnet-slices ships seven of them.)

For each variant: spread = (max - min) / median over the N process medians
(device time and end-to-end time). Writes bench/results/stability-<stamp>.json
and prints the median and worst spread. Needs no PyTorch.
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import tempfile


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tasks", nargs="+")
    ap.add_argument("--build", default="build")
    ap.add_argument("--out", default="bench/results")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--per-task", type=int, default=1)
    ap.add_argument("--trials", type=int, default=100)
    ap.add_argument("--filter", default="")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="pf-stability-")
    medians = {}  # (task, variant) -> {"device": [...], "e2e": [...]}
    for i in range(args.runs):
        out = os.path.join(work, f"run{i}.json")
        cmd = [os.path.join(args.build, "bench", "pf_baseline_bench"), *args.tasks, "--out", out,
               "--trials", str(args.trials), "--per-task", str(args.per_task), "--graph-only"]
        if args.filter:
            cmd += ["--filter", args.filter]
        subprocess.run(cmd, check=True, stderr=subprocess.DEVNULL)
        with open(out) as f:
            for r in json.load(f)["variants"]:
                if r.get("status") != "ok":
                    continue
                m = medians.setdefault((r["task"], r["variant"]), {"device": [], "e2e": []})
                m["device"].append(r["device_us"]["median"])
                m["e2e"].append(r["e2e_us"]["median"])
        print(f"run {i + 1}/{args.runs} done", flush=True)
    rows = []
    for (task, variant), m in sorted(medians.items()):
        row = {"task": task, "variant": variant}
        for k in ("device", "e2e"):
            xs = m[k]
            mid = statistics.median(xs)
            row[k + "_medians_us"] = xs
            row[k + "_spread"] = (max(xs) - min(xs)) / mid if mid > 0 else 0.0
        rows.append(row)
    summary = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "runs": args.runs,
        "variants": len(rows),
        "device_spread_median": statistics.median(r["device_spread"] for r in rows) if rows else None,
        "device_spread_max": max((r["device_spread"] for r in rows), default=None),
        "e2e_spread_median": statistics.median(r["e2e_spread"] for r in rows) if rows else None,
        "e2e_spread_max": max((r["e2e_spread"] for r in rows), default=None),
    }
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    path = os.path.join(args.out, f"stability-{stamp}.json")
    with open(path, "w") as f:
        json.dump({"summary": summary, "variants": rows}, f, indent=1)
    print(json.dumps(summary, indent=1))
    print("wrote", path)


if __name__ == "__main__":
    main()
