#!/usr/bin/env bash
# Runs the public array-api-tests suite against cuarray (or NumPy, for the baseline) and writes a summary.
#
# Usage, on the GPU machine, from the repository root:
#   bash tools/array_api_tests.sh [cuarray|numpy] [extra pytest arguments...]
# Needs, carried with the tree (prepared on a networked machine; both are gitignored):
#   .deps/array-api-tests   the suite, with its array-api spec checkout in .deps/array-api-tests/array-api
#   .whl                    wheels of what the machine lacks (hypothesis, ndindex, pytest-json-report,
#                           pytest-metadata), installed here with pip --target into /tmp/site
# cuarray must be importable: CUARRAY_PYTHONPATH if set, else build-gpu/python or build/python when they hold
# an extension for this Python (tools/gpu_check.sh builds build-gpu), else an installed cuarray.
# Environment:
#   AAT_MODULE        the module under test when no argument names it (default cuarray)
#   AAT_EXAMPLES      hypothesis examples per test (default 20)
#   AAT_VERSION       ARRAY_API_TESTS_VERSION (default 2025.12, the spec the issue counts 1,384 tests at;
#                     empty: the module's own __array_api_version__)
#   AAT_WORKERS       pytest-xdist workers (default 8; 0 runs in one process)
#   AAT_TIMEOUT_S     wall-clock limit of the pytest run (default 540, under the device's 600 s per command)
#   AAT_TEST_TIMEOUT  per-test limit in seconds where pytest-timeout is installed (default 120)
#   AAT_NO_WHEELS     1: leave .whl alone (the packages are installed already)
#   OUT               where results go (default build/array_api_tests): junit_<module>.xml,
#                     failures_<module>.txt (one failing test id a line), summary_<module>.txt, log_<module>.txt
# Exit status: pytest's (0 all passed, 1 some failed), 124 when the run hit AAT_TIMEOUT_S, 2 for setup errors.

set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT" || exit 2

MODULE=${AAT_MODULE:-cuarray}
if [ $# -gt 0 ] && [[ "$1" != -* ]]; then MODULE=$1; shift; fi
PY=${PYTHON:-python3}
SUITE=$ROOT/.deps/array-api-tests
OUTDIR=${OUT:-$ROOT/build/array_api_tests}
mkdir -p "$OUTDIR"
LOG=$OUTDIR/log_$MODULE.txt
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore PIP_NO_INPUT=1

if [ ! -d "$SUITE/array_api_tests" ] || [ ! -d "$SUITE/array-api/src/array_api_stubs" ]; then
  echo "array_api_tests: $SUITE (with its array-api/ spec checkout) is missing; prepare it on a networked machine" >&2
  exit 2
fi

# Wheels the machine lacks; a fresh target each time so that two versions never meet.
if [ "${AAT_NO_WHEELS:-0}" != 1 ] && compgen -G "$ROOT/.whl/*.whl" >/dev/null; then
  rm -rf /tmp/site
  "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site \
    "$ROOT"/.whl/*.whl >>"$LOG" 2>&1 || { echo "array_api_tests: pip install of .whl failed (see $LOG)" >&2; exit 2; }
  export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
fi

if [ "$MODULE" = cuarray ]; then
  ext=$("$PY" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
  CUARRAY_PATH=${CUARRAY_PYTHONPATH:-}
  if [ -z "$CUARRAY_PATH" ]; then
    for d in "$ROOT/build-gpu/python" "$ROOT/build/python"; do
      if [ -e "$d/cuarray/_core$ext" ]; then CUARRAY_PATH=$d; break; fi
    done
  fi
  [ -n "$CUARRAY_PATH" ] && export PYTHONPATH=$CUARRAY_PATH:$PYTHONPATH
  if ! "$PY" -c 'import cuarray, sys; sys.exit(0 if cuarray.is_available() else 1)' >>"$LOG" 2>&1; then
    echo "array_api_tests: cuarray does not import or sees no GPU (build it first: bash tools/gpu_check.sh)" >&2
    exit 2
  fi
fi

EXAMPLES=${AAT_EXAMPLES:-20}
WORKERS=${AAT_WORKERS:-8}
TIMEOUT_S=${AAT_TIMEOUT_S:-540}
export ARRAY_API_TESTS_MODULE=$MODULE
if [ -n "${AAT_VERSION-2025.12}" ]; then export ARRAY_API_TESTS_VERSION=${AAT_VERSION-2025.12}; fi
# Hypothesis keeps its example database in the working directory: keep it out of the suite's tree.
export HYPOTHESIS_STORAGE_DIRECTORY=/tmp/aat_hypothesis_$MODULE

ARGS=(array_api_tests -q -p no:cacheprovider -rN --max-examples "$EXAMPLES" --disable-deadline
      --junitxml "$OUTDIR/junit_$MODULE.xml" -W ignore)
if [ "$WORKERS" -gt 0 ] && "$PY" -c 'import xdist' 2>/dev/null; then ARGS+=(-n "$WORKERS"); fi
if "$PY" -c 'import pytest_timeout' 2>/dev/null; then ARGS+=(--timeout "${AAT_TEST_TIMEOUT:-120}"); fi

echo "[array_api_tests] $MODULE, spec ${ARRAY_API_TESTS_VERSION:-the module own}, $EXAMPLES examples," \
     "pytest ${ARGS[*]:1} $*"
start=$(date +%s)
(cd "$SUITE" && timeout -k 10 "$TIMEOUT_S" "$PY" -m pytest "${ARGS[@]}" "$@") >>"$LOG" 2>&1
rc=$?
elapsed=$(($(date +%s) - start))

# Summary and failing ids from the JUnit XML (what pytest had written by the time it stopped).
"$PY" - "$OUTDIR/junit_$MODULE.xml" "$OUTDIR/failures_$MODULE.txt" "$OUTDIR/summary_$MODULE.txt" \
  "$MODULE" "$elapsed" "$rc" <<'PYEOF'
import sys
import xml.etree.ElementTree as ET
xml_path, fail_path, summary_path, module, elapsed, rc = sys.argv[1:]
counts = {"passed": 0, "failed": 0, "error": 0, "skipped": 0}
failed = []
try:
    root = ET.parse(xml_path).getroot()
    for case in root.iter("testcase"):
        parts = case.get("classname", "").split(".")
        mod = max((i for i, p in enumerate(parts) if p.startswith("test_")), default=len(parts) - 1)
        name = "::".join(["/".join(parts[:mod + 1]) + ".py"] + parts[mod + 1:] + [case.get("name")])
        kinds = {child.tag for child in case}
        if "failure" in kinds:
            counts["failed"] += 1
            failed.append(name)
        elif "error" in kinds:
            counts["error"] += 1
            failed.append(name + "  (error)")
        elif "skipped" in kinds:
            counts["skipped"] += 1
        else:
            counts["passed"] += 1
except (OSError, ET.ParseError) as e:
    print(f"no JUnit XML ({e})")
with open(fail_path, "w") as f:
    f.write("".join(n + "\n" for n in failed))
total = sum(counts.values())
line = (f"array-api-tests {module}: {counts['passed']} passed, {counts['failed']} failed, {counts['error']} errors, "
        f"{counts['skipped']} skipped of {total} ({elapsed} s, pytest rc {rc}{', TIMED OUT' if rc == '124' else ''})")
with open(summary_path, "w") as f:
    f.write(line + "\n")
print(line)
PYEOF
tail -n 3 "$LOG" | sed 's/^/  /'
exit $rc
