#!/usr/bin/env bash
# Installs the newest wheel of build/dist/ into a fresh venv (NumPy from the system site-packages, nothing else)
# and imports it from outside the source tree: the wheel alone must be a working package (no GPU needed to import).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
wheel=$(ls -t build/dist/cuarray-*.whl 2>/dev/null | head -1 || true)
[ -n "$wheel" ] || { echo "check_wheel_install: no wheel in build/dist" >&2; exit 1; }
venv=$(mktemp -d)
trap 'rm -rf "$venv"' EXIT
"$PY" -m venv --system-site-packages "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps "$wheel"
wheel_abs=$(cd "$(dirname "$wheel")" && pwd)/$(basename "$wheel")
(cd "$venv" && "$venv/bin/python" - "$wheel_abs" <<'PYEOF'
import os
import sys

import cuarray

where = os.path.dirname(cuarray.__file__)
assert where.startswith(sys.prefix), f"imported {where}, not the venv's copy"
print(f"check_wheel_install: cuarray {cuarray.__version__} imports from {where}; "
      f"GPU available: {cuarray.cuda.is_available()}")
PYEOF
)
