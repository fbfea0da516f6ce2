#!/usr/bin/env bash
# Installs the carried dask/distributed wheels (.deps/wheels) offline into a target dir and prints the PYTHONPATH.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
wheels="$root/.deps/wheels"
target="${1:-$root/.deps/dask-site}"
# --no-deps over the explicit wheel list: numpy and the rest of the image stay untouched.
"${PYTHON:-python3}" -m pip install -q --no-index --no-deps --target "$target" "$wheels"/*.whl
echo "export PYTHONPATH=$target\${PYTHONPATH:+:\$PYTHONPATH}"
