#!/usr/bin/env bash
# Installs the Debian packages passforge builds against (DEVELOPERS.md lists
# them) and checks for the CUDA toolkit. Idempotent and non-interactive: only
# missing packages are installed; as root or through sudo.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  libcurl4-openssl-dev nlohmann-json3-dev libcpp-httplib-dev libspdlog-dev
  libsqlite3-dev libgtest-dev libcli11-dev libtomlplusplus-dev libseccomp-dev
  libkainjow-mustache-dev python3 clang-tidy
)

command -v dpkg-query >/dev/null 2>&1 || die "dpkg-query not found: this script supports Debian
  and Ubuntu; install the equivalents of these packages yourself: ${PACKAGES[*]}"

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  say "all ${#PACKAGES[@]} packages present"
else
  say "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

find_cuda_toolkit
say "CUDA toolkit $CUDA_TOOLKIT_VERSION at $CUDAToolkit_ROOT"
