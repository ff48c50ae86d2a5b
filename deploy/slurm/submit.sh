#!/usr/bin/env bash
# Submits a sharded passforge run to Slurm and its merge:
#   deploy/slurm/submit.sh SHARDS CONFIG [sbatch options...]
# e.g. deploy/slurm/submit.sh 16 configs/my-run.toml --partition=gpu --gpus-per-task=1
# Prints the array job id and the merge job id; the merged run ends up in
# <run.output_dir>/slurm-<array job id>/ (runs/ by default).
# PASSFORGE (binary), PASSFORGE_ARGS (extra `run` arguments) and OUTPUT_DIR
# (the run.output_dir the config uses, default runs) are honoured.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shards=${1:?usage: submit.sh SHARDS CONFIG [sbatch options...]}
config=${2:?usage: submit.sh SHARDS CONFIG [sbatch options...]}
shift 2
export PASSFORGE_CONFIG=$config
array=$(sbatch --parsable --array=0-$((shards - 1)) "$@" "$here/passforge.sbatch")
array=${array%%;*}
export PASSFORGE_RUN=${OUTPUT_DIR:-runs}/slurm-$array
merge=$(sbatch --parsable --dependency=afterany:"$array" "$here/merge.sbatch")
echo "array job $array ($shards shards), merge job ${merge%%;*}: $PASSFORGE_RUN"
