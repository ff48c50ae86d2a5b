#!/usr/bin/env bash
# End-to-end checks on the GPU machine, beside the GPU suites of run_device.sh:
#   1. the quickstart job cold (fresh NVRTC cache) and warm: wall time, AS;
#   2. every reference pass (examples/passes) through `passforge eval`: AS,
#      hidden AS, correct share and flags (honest passes must stay clean);
#   3. the export-mix check (bench/export_mix/run.sh): verified exports;
# each step's log under $OUT (default ./device-check-out), key lines printed.
#   tests/gpu/device_check.sh [BUILD_DIR]
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD=$(cd "${1:-build}" && pwd)
OUT=${OUT:-$PWD/device-check-out}
mkdir -p "$OUT"
PF=$BUILD/passforge
export LD_LIBRARY_PATH="$BUILD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
status=0

export XDG_CACHE_HOME="$OUT/cold-cache"
for pass in cold warm; do
  start=$(date +%s%N)
  "$PF" run --config configs/quickstart.toml --set "run.output_dir=$OUT/runs" \
    --set "run.run_id=quickstart-$pass" > "$OUT/quickstart-$pass.log" 2>&1
  rc=$?
  took_ms=$(( ($(date +%s%N) - start) / 1000000 ))
  echo "[device_check] quickstart $pass: exit $rc, ${took_ms} ms"
  grep -E "^(all |evaluation:|worker isolation|data:)|episode \[" "$OUT/quickstart-$pass.log" | head -12
  [ "$rc" -eq 0 ] || status=1
done

for dir in examples/passes/*/; do
  task=$(basename "$dir")
  "$PF" eval --task "$task" --pass "$dir" > "$OUT/eval-$task.log" 2>&1
  rc=$?
  echo "[device_check] eval $task: exit $rc: $(grep -E '^AS ' "$OUT/eval-$task.log" | head -n1)"
  grep -iE "flag|fatal|error" "$OUT/eval-$task.log" | head -n 3
  [ "$rc" -eq 0 ] || status=1
done

if [ -x bench/export_mix/run.sh ]; then
  bench/export_mix/run.sh "$BUILD" "$OUT/export-mix" > "$OUT/export-mix.log" 2>&1
  rc=$?
  echo "[device_check] export mix: exit $rc"
  tail -n 40 "$OUT/export-mix.log"
  [ "$rc" -eq 0 ] || status=1
fi
echo "[device_check] done: $([ "$status" -eq 0 ] && echo ok || echo FAILURES)"
exit "$status"
