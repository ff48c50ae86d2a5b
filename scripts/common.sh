# shellcheck shell=bash
# Shared by the scripts in this directory (sourced, not run).

say() { echo "[$(basename "$0")] $*"; }
die() { echo "[$(basename "$0")] error: $*" >&2; exit 1; }

# Finds the CUDA toolkit (headers + NVRTC; CUDA 13 expected) and exports
# CUDAToolkit_ROOT for CMake. Looks at $CUDAToolkit_ROOT, $CUDA_HOME,
# /usr/local/cuda and the nvcc on PATH. Fails with instructions if none.
find_cuda_toolkit() {
  local candidates=()
  [ -n "${CUDAToolkit_ROOT:-}" ] && candidates+=("$CUDAToolkit_ROOT")
  [ -n "${CUDA_HOME:-}" ] && candidates+=("$CUDA_HOME")
  candidates+=(/usr/local/cuda)
  if command -v nvcc >/dev/null 2>&1; then
    candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v nvcc)")")")")
  fi
  local root
  for root in "${candidates[@]}"; do
    if [ -f "$root/include/cuda.h" ] && [ -f "$root/include/nvrtc.h" ] && [ -x "$root/bin/nvcc" ]; then
      export CUDAToolkit_ROOT="$root"
      local version
      version=$(sed -n 's/^#define CUDA_VERSION \([0-9]*\).*/\1/p' "$root/include/cuda.h" | head -n1)
      CUDA_TOOLKIT_VERSION="$((version / 1000)).$(((version % 1000) / 10))"
      if [ "$((version / 1000))" -lt 13 ]; then
        say "warning: CUDA toolkit $CUDA_TOOLKIT_VERSION at $root; passforge targets CUDA 13"
      fi
      return 0
    fi
    if [ "$root" = "${CUDAToolkit_ROOT:-}" ]; then
      say "warning: CUDAToolkit_ROOT=$root lacks include/cuda.h, include/nvrtc.h or bin/nvcc; looking elsewhere"
    fi
  done
  die "no CUDA toolkit found (looked in: ${candidates[*]}).
  passforge needs the CUDA 13 toolkit's headers and NVRTC at build time (no GPU needed).
  Install it from NVIDIA (https://developer.nvidia.com/cuda-downloads, Debian 12 network repo:
  'cuda-toolkit-13-0'), or point CUDAToolkit_ROOT at an existing installation."
}

# Runs a command as root: directly, or through sudo (without a password prompt
# unless a terminal is attached).
as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo -n "$@"
  elif command -v sudo >/dev/null 2>&1 && [ -t 0 ]; then
    sudo "$@"
  else
    die "root is needed to run: $*
  run this script as root, or with passwordless sudo, or run that command yourself first"
  fi
}
