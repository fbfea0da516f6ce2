#!/usr/bin/env bash
# Type stubs of the extension module: writes python/cuarray/_core/*.pyi (the extension and its submodules fft,
# linalg, sparse...) with nanobind's stubgen, and the stubs of names the package makes in loops
# (python/cuarray/_ufunc_names.pyi, python/cuarray/cuda/_device_attributes.pyi), through tools/gen_stubs.py, from
# the built module in build/python; `--check` regenerates them into a temporary folder and fails when the checked-in
# stubs differ (CI), so a binding change must come with its regenerated stubs.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
PKG=python/cuarray
FILES="_ufunc_names.pyi cuda/_device_attributes.pyi"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# The stubs are the same with or without a GPU: stubgen only imports the module and reads its signatures.
PYTHONPATH="$PWD/build/python${PYTHONPATH:+:$PYTHONPATH}" "$PY" tools/gen_stubs.py "$tmp"
for f in "$tmp"/_core/*.pyi; do
  "$PY" -c "import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])" "$f"
done
if [ "${1:-}" = "--check" ]; then
  stale=0
  diff -ru "$PKG/_core" "$tmp/_core" >&2 || stale=1
  for f in $FILES; do diff -u "$PKG/$f" "$tmp/$f" >&2 || stale=1; done
  if [ $stale = 1 ]; then
    echo "gen_stubs: the stubs in $PKG are out of date: run bash tools/gen_stubs.sh and commit the result" >&2
    exit 1
  fi
  echo "gen_stubs: $PKG/_core/*.pyi, $FILES are up to date"
else
  rm -rf "$PKG/_core" && mkdir "$PKG/_core"
  cp "$tmp"/_core/*.pyi "$PKG/_core/"
  for f in $FILES; do cp "$tmp/$f" "$PKG/$f"; done
fi
