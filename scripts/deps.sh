#!/usr/bin/env bash
# Installs the Debian packages passforge builds against (DEVELOPERS.md lists
# them). Idempotent and non-interactive: installs only what is missing.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  libcurl4-openssl-dev nlohmann-json3-dev libcpp-httplib-dev libspdlog-dev
  libsqlite3-dev libgtest-dev libcli11-dev libtomlplusplus-dev libseccomp-dev
  libkainjow-mustache-dev python3
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"

if [ ! -e /usr/local/cuda/include/cuda.h ] && [ -z "${CUDAToolkit_ROOT:-}" ]; then
  echo "deps: warning: no CUDA toolkit at /usr/local/cuda (headers and NVRTC are needed;" \
       "install the CUDA 13 toolkit or set CUDAToolkit_ROOT)" >&2
fi
