#!/usr/bin/env bash
# Configures (once) and builds passforge into build/ (or $BUILD_DIR).
# Arguments name the targets to build (default: all of them, the test suites
# and benchmarks included). BUILD_TYPE (default RelWithDebInfo) and JOBS
# (default: all cores) are honoured.
#   scripts/build.sh                            everything
#   scripts/build.sh passforge passforge-worker  what `passforge run` needs
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

BUILD_DIR=${BUILD_DIR:-build}
find_cuda_toolkit
command -v cmake >/dev/null 2>&1 || die "cmake not found: run scripts/deps.sh first"
command -v ninja >/dev/null 2>&1 || die "ninja not found: run scripts/deps.sh first"

# ccache, when installed, makes rebuilds in other clones of the tree cheap:
# paths under the checkout are hashed relative to it.
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(pwd)} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
fi
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  args=(-S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}"
        -DCUDAToolkit_ROOT="$CUDAToolkit_ROOT")
  command -v ccache >/dev/null 2>&1 && args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  say "configuring $BUILD_DIR/"
  cmake "${args[@]}"
fi
targets=()
for t in "$@"; do targets+=(--target "$t"); done
say "building ${*:-everything} in $BUILD_DIR/ with ${JOBS:-$(nproc)} jobs"
cmake --build "$BUILD_DIR" -j "${JOBS:-$(nproc)}" "${targets[@]}"
