#!/usr/bin/env bash
# The reference documentation: Sphinx over docs/ into docs/_build/html, warnings as errors. It imports the built
# package from build/python (run tools/test.sh or the cmake build first) and needs sphinx, myst-parser and
# matplotlib (pip install ".[docs]"); docs/_ext/cuarray_docs.py writes the API pages, the comparison with NumPy and
# CuPy and the benchmark plots into docs/_generated at build time. No network is used. -E: every page is read
# again, so that a warning of an unchanged page is reported again (an incremental build would pass silently).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
PYTHONPATH="$PWD/build/python${PYTHONPATH:+:$PYTHONPATH}" "$PY" -m sphinx -E -W --keep-going -q -b html docs docs/_build/html "$@"
echo "build_docs: docs/_build/html/index.html"
