#!/usr/bin/env bash
# The export-mix device check (issue 16), on the GPU machine:
#   bench/export_mix/run.sh [BUILD_DIR] [OUT_DIR]      (defaults: build, export-mix-out)
# Serves bench/export_mix/replay.jsonl with `passforge serve-replay`, runs
#   A  model replay-a on 4 tasks: neg-cat (correct), pow-mean (flagged: reads
#      clock64), add-softmax (wrong: outputs scaled), linear-gelu (correct)
#   B  model replay-b on 2 tasks: neg-cat (wrong: no negation), add-softmax (correct)
#   C  model replay-a on neg-cat and linear-gelu with evaluator.iqr_threshold = 0
#      and remeasure = 0, so every timed variant is marked unstable
# (2 samples each, full GPU evaluation), then exports A+B+C as openai (the
# default verified selection), dpo and raw, and prints each manifest's counts
# and every episode's verdict, AS and correct share. Expected with correct
# reference passes: openai keeps the 6 verified episodes (A neg-cat, A gelu,
# B softmax; 2 samples each) and drops flagged 2, incorrect 4 (A softmax,
# B neg-cat), unstable 4 (C); every dpo pair's chosen side is verified.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
OUT=${2:-export-mix-out}
PF=$BUILD/passforge
[ -x "$PF" ] || { echo "run.sh: no $PF" >&2; exit 2; }
rm -rf "$OUT"
mkdir -p "$OUT/export"

"$PF" serve-replay --script bench/export_mix/replay.jsonl --port 0 > "$OUT/replay.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
url=""
for _ in $(seq 100); do
  url=$(grep -o 'http://[^ ]*/v1' "$OUT/replay.log" | head -n1 || true)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "run.sh: the replay server did not start:" >&2; cat "$OUT/replay.log" >&2; exit 1; }

NEG_CAT=neg-cat-mul-add-6a5c9e
RMS=pow-mean-add-rsqrt-mul-ae9e8f
SOFTMAX=add-softmax-dropout-a73f2b
GELU=linear-mul-truediv-erf-add-mul-2eaa9f
run() {  # run_id model tasks [--set ...]
  local id=$1 model=$2 tasks=$3 rc
  shift 3
  echo "== run $id ($model): $tasks"
  "$PF" run --config bench/export_mix/export_mix.toml --set "endpoint.base_url=$url" \
    --set "endpoint.model=$model" --set "run.output_dir=$OUT/runs" --set "run.run_id=$id" \
    --set "run.tasks=$tasks" "$@" > "$OUT/run-$id.log" 2>&1 && rc=0 || rc=$?
  # 1 = episodes that did not succeed, which this check wants; more is an error.
  if [ "$rc" -gt 1 ]; then
    echo "run $id failed (exit $rc):" >&2
    tail -n 40 "$OUT/run-$id.log" >&2
    exit 1
  fi
  tail -n 15 "$OUT/run-$id.log"
}
run A replay-a "[\"$NEG_CAT\", \"$RMS\", \"$SOFTMAX\", \"$GELU\"]"
run B replay-b "[\"$NEG_CAT\", \"$SOFTMAX\"]"
run C replay-a "[\"$NEG_CAT\", \"$GELU\"]" --set evaluator.iqr_threshold=0 \
  --set evaluator.remeasure=0

stores=("$OUT/runs/A" "$OUT/runs/B" "$OUT/runs/C")
for format in openai dpo raw; do
  echo "== export $format"
  "$PF" export "${stores[@]}" --format "$format" --out "$OUT/export/$format.jsonl"
done
echo "== export openai --correctness-levels tests/data/pytorch_levels.json"
"$PF" export "${stores[@]}" --format openai --correctness-levels tests/data/pytorch_levels.json \
  --out "$OUT/export/openai-levels.jsonl"

python3 - "$OUT/export" <<'PY'
import json, pathlib, sys
d = pathlib.Path(sys.argv[1])
for name in ("openai", "openai-levels", "dpo", "raw"):
    m = json.loads((d / f"{name}.manifest.json").read_text())
    c = m["counts"]
    print(f"manifest {name}: read {c['episodes_read']}, records {c['records']} "
          f"({c['record_unit']}), dropped {json.dumps(c['dropped'], sort_keys=True)}, "
          f"verdicts {json.dumps(c['verdicts'], sort_keys=True)}")
print("episodes (raw): run task sample -> verdict, AS, correct share, correct_rate, flags, unstable")
for line in (d / "raw.jsonl").read_text().splitlines():
    md = json.loads(line)["metadata"]
    print(f"  {md['run']} {md['task']} s{md['sample']} -> "
          f"{'verified' if md['verified'] else md['rejection']}, as {md['as']}, "
          f"share {md['correct_share']}, rate {md['correct_rate']}, flags {md['flags']}, "
          f"unstable {md['unstable']}")
bad = 0
for line in (d / "dpo.jsonl").read_text().splitlines():
    md = json.loads(line)["metadata"]
    if not md["chosen"]["verified"]:
        bad += 1
print(f"dpo: {sum(1 for _ in (d / 'dpo.jsonl').open())} pairs, {bad} with an unverified chosen side")
kept = {json.loads(l)["metadata"]["episode"] for l in (d / "openai.jsonl").read_text().splitlines()}
raw_verified = {json.loads(l)["metadata"]["episode"] for l in (d / "raw.jsonl").read_text().splitlines()
                if json.loads(l)["metadata"]["verified"]}
print(f"openai keeps exactly the verified episodes: {kept == raw_verified} ({len(kept)})")
PY
