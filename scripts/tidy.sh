#!/usr/bin/env bash
# clang-tidy (the repository's .clang-tidy: naming, bug-prone and performance
# checks) on the C++ files changed since a base commit, warnings as errors.
# Only changed files are checked, so CI stays quick on 2 cores (about 10 s a
# file); a changed header is checked through the changed sources that include
# it and its own findings count, unchanged headers' do not.
#
# Base: $TIDY_BASE, else the merge base with the `main` branch when HEAD is
# not on it, else the previous commit. Uncommitted changes count as changed.
# Needs a configured build (compile_commands.json and generated headers:
# scripts/build.sh) in $BUILD_DIR (default build).
#
# Usage: scripts/tidy.sh [FILE...]   (files given: check exactly those)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

BUILD_DIR=${BUILD_DIR:-build}
command -v clang-tidy >/dev/null 2>&1 || die "clang-tidy not found: run scripts/deps.sh first"
[ -f "$BUILD_DIR/compile_commands.json" ] ||
  die "$BUILD_DIR/compile_commands.json missing: configure and build first (scripts/build.sh)"

if [ $# -gt 0 ]; then
  changed=("$@")
else
  if [ -n "${TIDY_BASE:-}" ]; then
    base=$TIDY_BASE
  elif git rev-parse -q --verify main >/dev/null &&
       ! git merge-base --is-ancestor HEAD main; then
    base=$(git merge-base HEAD main)
  elif git rev-parse -q --verify HEAD~1 >/dev/null; then
    base=HEAD~1
  else
    base=$(git hash-object -t tree /dev/null)  # a single commit: everything is new
  fi
  mapfile -t changed < <(git diff --name-only --diff-filter=d "$base" -- '*.cpp' '*.h')
  mapfile -t -O "${#changed[@]}" changed < <(git ls-files --others --exclude-standard -- '*.cpp' '*.h')
  say "C++ files changed since $(git rev-parse --short "$base" 2>/dev/null || echo "$base"): ${#changed[@]}"
fi

# Sources to run on: changed .cpp files the build compiles (generated code,
# scripts' fixtures and files outside the build have no compile command).
sources=()
headers=()
for f in "${changed[@]}"; do
  case "$f" in
    *.cpp)
      if grep -q "\"file\": \"$(pwd)/$f\"" "$BUILD_DIR/compile_commands.json"; then
        sources+=("$f")
      fi ;;
    *.h) headers+=("$f") ;;
  esac
done
# A changed header without a changed source: check it through one source that includes it.
for h in "${headers[@]}"; do
  covered=0
  for s in "${sources[@]}"; do
    if grep -q "#include \"$h\"" "$s"; then covered=1; break; fi
  done
  if [ $covered -eq 0 ]; then
    while IFS= read -r s; do
      if grep -q "\"file\": \"$(pwd)/$s\"" "$BUILD_DIR/compile_commands.json"; then
        sources+=("$s"); break
      fi
    done < <(git grep -l -F "#include \"$h\"" -- '*.cpp')
  fi
done
if [ ${#sources[@]} -eq 0 ]; then
  say "nothing to check"
  exit 0
fi

# Findings count in the changed files only (sources and headers): clang-tidy's
# line filter drops every diagnostic outside the files it lists, including
# the main file of a source run only to check a header.
line_filter="[$(printf '{"name":"%s"},' "${changed[@]}" | sed 's/,$//')]"

say "clang-tidy on ${#sources[@]} file(s) with ${JOBS:-$(nproc)} jobs"
status=0
printf '%s\n' "${sources[@]}" |
  xargs -P "${JOBS:-$(nproc)}" -I{} clang-tidy -p "$BUILD_DIR" --quiet --warnings-as-errors='*' \
    --header-filter='.*' --line-filter="$line_filter" --extra-arg=-Wno-unknown-warning-option {} ||
  status=$?
if [ $status -ne 0 ]; then
  die "clang-tidy found problems (above) in the changed files"
fi
say "clang-tidy: no findings in ${#sources[@]} file(s)"
