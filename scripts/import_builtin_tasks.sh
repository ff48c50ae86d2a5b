#!/usr/bin/env bash
# Regenerates the built-in task suite under tasks/ from the GraphNet slices
# (derived from PaddlePaddle/GraphNet, MIT): the corpus directory (the one
# PF_CORPUS_DIR names in tests) holds graphnet-slices/ (50 tasks) and
# graphnet-slices-more/ (150 tasks). Every task, plus float16 and bfloat16
# copies of float32 variants, 20% of each task's variants hidden
# (deterministic); tasks no input draw makes informative are removed (below).
# Then checks every variant on the CPU reference (exit 1 on a degenerate
# variant; about 5.5 CPU minutes).
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 CORPUS_DIR  (holding graphnet-slices/ and graphnet-slices-more/)" >&2
  exit 2
fi
CORPUS=$(realpath "$1")
cd "$(dirname "$0")/.."
scripts/build.sh passforge >/dev/null
rm -f tasks/*.json
for part in graphnet-slices graphnet-slices-more; do
  build/passforge import "$CORPUS/$part" --out tasks --add-dtypes float16,bfloat16 \
    --hidden-share 0.2 --source-label "$part" \
    --license "MIT (derived from PaddlePaddle/GraphNet samples)"
done
# A task whose outputs are constant under every input draw of the
# informative-inputs rule (docs/tasks.md "Degenerate variants") cannot decide
# correctness and is left out:
#   tensor-sub-to-masked_fill-a1f98d: masked_fill(1 - m, 1 - m != 0, -FLT_MAX);
#   the real mask m is all ones (std 0), so any synthesised m (never exactly 1)
#   fills every element, and the output is the constant -FLT_MAX.
rm -f tasks/tensor-sub-to-masked_fill-a1f98d.json
build/passforge tasks check tasks
