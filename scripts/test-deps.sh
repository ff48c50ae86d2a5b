#!/usr/bin/env bash
# Installs the Debian packages that only tests need (idempotent, as root or
# through sudo): a real Slurm for the scheduler test (slurm-wlm, munge) and
# PyYAML for the Kubernetes manifest check. Tests whose tools are missing skip
# with the reason; CI (.ci/run) runs this so none does.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

PACKAGES=(slurm-wlm munge python3-yaml)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  say "all ${#PACKAGES[@]} test packages present"
  exit 0
fi
say "installing ${missing[*]}"
as_root apt-get update -q
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
