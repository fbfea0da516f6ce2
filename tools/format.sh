#!/usr/bin/env bash
# Formats cuarray's C++/CUDA sources in place with clang-format 14 and the repository's .clang-format;
# `--check` changes nothing and exits 1 listing the files that need formatting (CI; a few seconds).
# Usage: bash tools/format.sh [--check] [FILE...]   (no FILE: every source of ours, see below)
set -euo pipefail
cd "$(dirname "$0")/.."

mode=apply
if [ "${1:-}" = "--check" ]; then mode=check; shift; fi

# The version is pinned: another clang-format major version formats the same code differently, so a check run
# with it would fail on files formatted with 14. CLANG_FORMAT overrides the command.
CF=${CLANG_FORMAT:-}
if [ -z "$CF" ]; then
  for c in clang-format-14 clang-format; do
    if command -v "$c" >/dev/null 2>&1; then CF=$c; break; fi
  done
fi
if [ -z "$CF" ]; then
  echo "format: clang-format 14 not found: install Debian's clang-format-14 (or set CLANG_FORMAT)" >&2
  exit 2
fi
version=$("$CF" --version)
if ! [[ $version =~ version\ 14\. ]]; then
  echo "format: $CF is '$version'; .clang-format is tuned to and checked with clang-format 14" >&2
  exit 2
fi

# Ours: the C++/CUDA sources under these folders that git tracks or would track (so build folders, .deps and
# other ignored paths are left out), less the files tools/gen_ufunc_table.py generates.
ROOTS=(src include python/src tests/cpp examples tools)
GENERATED='^(src/engine/ufunc_table\.inc|include/cuarray/ufunc_list\.inc)$'
if [ $# -gt 0 ]; then
  files=("$@")
elif git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files -co --exclude-standard -- "${ROOTS[@]}" |
    grep -E '\.(c|h|cpp|hpp|cu|cuh|inc)$' | grep -vE "$GENERATED" | sort)
else
  mapfile -t files < <(find "${ROOTS[@]}" -type f \
    \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' -o -name '*.cuh' -o -name '*.inc' \) |
    grep -vE "$GENERATED" | sort)
fi
existing=()
for f in "${files[@]}"; do [ -f "$f" ] && existing+=("$f"); done
files=("${existing[@]}")

if [ $mode = apply ]; then
  [ ${#files[@]} -gt 0 ] && "$CF" -i --style=file "${files[@]}"
  echo "format: formatted ${#files[@]} files"
  exit 0
fi

bad=()
for f in "${files[@]}"; do
  if ! "$CF" --style=file "$f" | cmp -s - "$f"; then bad+=("$f"); fi
done
if [ ${#bad[@]} -gt 0 ]; then
  echo "format: ${#bad[@]} of ${#files[@]} files need formatting (run bash tools/format.sh, or see the change with" >&2
  echo "  clang-format-14 FILE | diff FILE -):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "format: ${#files[@]} files formatted as .clang-format says"
