#!/usr/bin/env bash
# Type stubs of the extension module: writes python/cuarray/_core.pyi with nanobind's stubgen from the
# built module in build/python; `--check` regenerates into a temporary file and fails when the checked-in
# stub differs (CI), so a binding change must come with its regenerated stub.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
STUB=python/cuarray/_core.pyi
out=$STUB
if [ "${1:-}" = "--check" ]; then out=$(mktemp --suffix=.pyi); trap 'rm -f "$out"' EXIT; fi
# The stub is the same with or without a GPU: stubgen only imports the module and reads its signatures.
PYTHONPATH="$PWD/build/python${PYTHONPATH:+:$PYTHONPATH}" "$PY" -m nanobind.stubgen -q -m cuarray._core -p tools/stubgen_patterns.txt -o "$out"
"$PY" -c "import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])" "$out"
if [ "$out" != "$STUB" ]; then
  if ! diff -u "$STUB" "$out" >/dev/null; then
    diff -u "$STUB" "$out" | head -40 >&2 || true
    echo "gen_stubs: $STUB is out of date: run bash tools/gen_stubs.sh and commit the result" >&2
    exit 1
  fi
  echo "gen_stubs: $STUB is up to date"
fi
