#!/usr/bin/env bash
# Checks Note [one cuda runtime] (src/cuda/runtime_table.hpp): the extension holds no CUDA runtime of its own
# and leaves no runtime symbol for the loader to find. Usage: bash tools/check_one_runtime.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
ext=$(ls "$build"/python/cuarray/_core*.so | head -1)
own=$(nm --defined-only "$ext" | grep -cE ' [tTdDbBrR] (cuda[A-Z]|__cuda)' || true)
undef=$(nm -D --undefined-only "$ext" | grep -E ' (cuda[A-Z]|__cuda)' || true)
if [ "$own" != 0 ] || [ -n "$undef" ]; then
  echo "one runtime: $ext defines $own CUDA runtime symbols; undefined: ${undef:-none}" >&2
  echo "call the runtime through detail::cudart() (src/cuda/runtime_table.hpp) and link no cudart" >&2
  exit 1
fi
echo "one runtime: $ext uses libcuarray's CUDA runtime"
