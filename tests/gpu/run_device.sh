#!/usr/bin/env bash
# Runs passforge's GPU checks on the GPU machine (Ubuntu 24.04, CUDA 13,
# driver 580, no Debian dev packages, no internet), from a build directory
# made on the development machine and carried along:
#   1. device facts (nvidia-smi) and a check that our binaries resolve their
#      libraries (build/lib from scripts/bundle_libs.sh, made here if missing);
#   2. `passforge doctor`, when the CLI has it;
#   3. every registered GPU suite (<build>/gpu_suites/*.txt: the `gpu`-labelled
#      GoogleTest executables and the hostile kernel runner), run directly
#      (no ctest needed), each with JUnit XML and a log.
# Logs land in $OUT (default ./gpu-out); a summary is printed at the end. The
# exit status is non-zero when a suite failed or could not run.
#
# Usage: tests/gpu/run_device.sh [BUILD_DIR]        (default: build)
#        GTEST_FILTER=... narrows the tests; SUITE_TIMEOUT=seconds (default 900);
#        ONLY_SUITES / SKIP_SUITES: space-separated suite names to run / leave out
#
# A whole build directory is too large to carry (debug info); on the build
# machine, pack what the GPU run needs first and carry that instead:
#        tests/gpu/run_device.sh --pack BUILD_DIR DEST    (e.g. DEST=build-device)
# copies, with debug info stripped and the relative layout kept: the binaries
# at the build root (passforge, passforge-worker), every registered GPU suite
# and the helper executables beside it (test workers), lib/ (bundled with
# scripts/bundle_libs.sh when missing) and gpu_suites/.
set -uo pipefail
cd "$(dirname "$0")/../.."
REPO=$(pwd)

if [ "${1:-}" = "--pack" ]; then
  set -e
  src=$(cd "${2:?--pack BUILD_DIR DEST}" && pwd)
  dest=${3:?--pack BUILD_DIR DEST}
  [ -d "$src/gpu_suites" ] || { echo "run_device.sh: $src has no gpu_suites/ (configure and build it first)" >&2; exit 2; }
  [ -f "$src/lib/.bundled" ] || scripts/bundle_libs.sh "$src"
  rm -rf "$dest"
  mkdir -p "$dest"
  dest=$(cd "$dest" && pwd)
  is_elf() { [ -f "$1" ] && [ -x "$1" ] && [ "$(head -c 4 "$1")" = $'\x7fELF' ]; }
  pack() {  # $1: path relative to the build directory
    mkdir -p "$dest/$(dirname "$1")"
    objcopy --strip-debug "$src/$1" "$dest/$1" 2>/dev/null || cp "$src/$1" "$dest/$1"
  }
  for f in "$src"/*; do is_elf "$f" && pack "$(basename "$f")"; done
  for entry in "$src"/gpu_suites/*.txt; do
    dir=$(dirname "$(head -n1 "$entry")")
    for f in "$src/$dir"/*; do is_elf "$f" && pack "$dir/$(basename "$f")"; done
  done
  cp -r "$src/lib" "$src/gpu_suites" "$dest/"
  echo "packed $(find "$dest" -type f | wc -l) files, $(du -sh "$dest" | cut -f1), into $dest"
  exit 0
fi
BUILD_DIR=$(cd "${1:-${BUILD_DIR:-build}}" 2>/dev/null && pwd) || {
  echo "run_device.sh: no build directory ${1:-build}" >&2
  exit 2
}
OUT=${OUT:-$REPO/gpu-out}
mkdir -p "$OUT"
SUITE_TIMEOUT=${SUITE_TIMEOUT:-900}
log() { echo "[run_device] $*" | tee -a "$OUT/summary.txt"; }
: > "$OUT/summary.txt"

# Build-tree paths compiled into the tests are overridden for this location.
export PF_SOURCE_DIR="$REPO" PF_BINARY_DIR="$BUILD_DIR"
export LD_LIBRARY_PATH="$BUILD_DIR/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# The NVRTC cache of this run (the workers may write only where allowed).
export XDG_CACHE_HOME="$OUT/cache"

log "repo $REPO, build $BUILD_DIR, out $OUT"
{ uname -a; cat /etc/os-release 2>/dev/null; } > "$OUT/system.txt" 2>&1
HAVE_GPU=0
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi > "$OUT/nvidia-smi.txt" 2>&1 && HAVE_GPU=1
  log "GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -n1)"
else
  log "nvidia-smi not found"
fi

if [ ! -f "$BUILD_DIR/lib/.bundled" ] && [ -x scripts/bundle_libs.sh ]; then
  log "no $BUILD_DIR/lib: bundling libraries here (run scripts/bundle_libs.sh on the build machine instead)"
  scripts/bundle_libs.sh "$BUILD_DIR" >> "$OUT/summary.txt" 2>&1 || true
fi

status=0
for bin in "$BUILD_DIR/passforge" "$BUILD_DIR/passforge-worker"; do
  [ -x "$bin" ] || continue
  if ldd "$bin" 2>&1 | grep -q "not found"; then
    log "FAIL $bin cannot resolve: $(ldd "$bin" | grep 'not found' | tr -s ' \t' ' ' | tr '\n' ';')"
    status=1
  fi
done

if [ -x "$BUILD_DIR/passforge" ]; then
  if "$BUILD_DIR/passforge" doctor --help >/dev/null 2>&1; then
    "$BUILD_DIR/passforge" doctor > "$OUT/doctor.txt" 2>&1
    log "passforge doctor: exit $? (see doctor.txt)"
  fi
fi

shopt -s nullglob
suites=("$BUILD_DIR"/gpu_suites/*.txt)
[ "${#suites[@]}" -gt 0 ] || { log "FAIL no GPU suites registered in $BUILD_DIR/gpu_suites"; exit 1; }
for entry in "${suites[@]}"; do
  rel=$(head -n1 "$entry")
  exe="$BUILD_DIR/$rel"
  name=$(basename "$rel")
  if [ -n "${ONLY_SUITES:-}" ] && [[ " $ONLY_SUITES " != *" $name "* ]]; then continue; fi
  if [[ " ${SKIP_SUITES:-} " == *" $name "* ]]; then
    log "skip $name (SKIP_SUITES)"
    continue
  fi
  if [ ! -x "$exe" ]; then
    log "FAIL $name: $exe not built"
    status=1
    continue
  fi
  start=$(date +%s)
  timeout --kill-after=30 "$SUITE_TIMEOUT" "$exe" --gtest_output="xml:$OUT/$name.xml" \
    ${GTEST_FILTER:+--gtest_filter="$GTEST_FILTER"} > "$OUT/$name.log" 2>&1
  rc=$?
  took=$(( $(date +%s) - start ))
  counts=$(sed -nE 's/^\[  (PASSED|FAILED|SKIPPED) *\] ([0-9]+) tests?.*/\2 \1/p' "$OUT/$name.log" |
    tr 'A-Z' 'a-z' | paste -sd, -)
  if [ "$rc" -eq 0 ]; then
    log "ok   $name (${took}s) $counts"
  else
    log "FAIL $name exit $rc (${took}s) $counts"
    grep -E '^\[  FAILED  \]' "$OUT/$name.log" | sort -u | sed 's/^/       /' | tee -a "$OUT/summary.txt"
    status=1
  fi
  # Skips mean the GPU (or a sandbox mechanism) was not usable: say why, once.
  # On a machine with a GPU, a GPU skip is a failure.
  reason=$(grep -m1 -A1 ': Skipped$' "$OUT/$name.log" | tail -n1)
  if [ -n "$reason" ]; then
    log "     skip reason: $reason"
    if [ "$HAVE_GPU" = 1 ] && echo "$reason" | grep -qE '^no CUDA (driver|device)'; then
      log "FAIL $name skipped GPU tests on a machine with a GPU"
      status=1
    fi
  fi
  grep '^\[hostile\]' "$OUT/$name.log" >> "$OUT/hostile_classifications.txt" || true
done
[ -s "$OUT/hostile_classifications.txt" ] && log "hostile classifications: hostile_classifications.txt"
log "done: $([ "$status" -eq 0 ] && echo all suites passed || echo FAILURES)"
exit "$status"
