#!/usr/bin/env bash
# Runs everything on the GPU machine: C++ build + ctest, pip install + self-check + pytest, numba interop, quick benchmarks; prints a summary.
#
# Usage, from anywhere (it works in the repository root):   bash tools/gpu_check.sh
# Needs no network: CUDA toolkit (/usr/local/cuda/bin), CMake, ninja, Python 3.12 with numpy, nanobind,
# scikit-build-core, pytest, cupy, torch already installed.  Optional inputs carried with the tree:
#   .deps/googletest    GoogleTest sources (passed as CUARRAY_GTEST_SOURCE_DIR)
#   .deps/numpy-old     an older NumPy (pip install --target) so that numba-cuda imports, for the interop tests
#   COMMIT              the commit id, where the tree carries no .git
# Environment:
#   OUT                   log to $OUT/gpu_log.txt and benchmarks to $OUT/bench (default: build/)
#   PYTHON                interpreter (default: python3)
#   GPU_CHECK_SKIP        steps or groups to skip, space or comma separated:
#                         info configure build ctest install selfcheck pytest numba sanitizer fuzz bench
#                         | cpp python
#   GPU_CHECK_PYTEST_ARGS what pytest runs (default: tests/python); with GPU_CHECK_SKIP, a run can be split
#                         over two calls on the same warm machine (the second skipping the build), e.g. with
#                         "-m gpu -n 16 --dist load $(python3 tools/split_tests.py 2 1)" and then "... 2 2"
#   GPU_CHECK_PYTEST_LIMIT_S   the pytest step's limit in seconds (default 420; the budget caps it): a half of
#                         the suite took 235-420+ s on H200 hosts of differing speed
#   GPU_CHECK_BUDGET_S    wall-clock budget in seconds (default 570, under the device's 600 s per command);
#                         each step is cut off so that the benchmarks and the summary still fit
#   GPU_CHECK_BENCH_RESERVE_S   seconds kept for the benchmark step (default 90); also its limit where above 150 s
#   GPU_CHECK_BENCH_ARGS  extra arguments of benchmarks/run.py, e.g. "--only manipulation"
#   GPU_CHECK_INSTALL     pip (default): pip install the package; build: use build-gpu/python from the C++ build
#                         (PYTHONPATH), skipping pip's second build of the same code
#   GPU_CHECK_FUZZ_CASES  cases of the fuzz step (default 10000)
#   GPU_CHECK_CMAKE_ARGS  further arguments of the configure step, e.g. "-DCMAKE_CXX_FLAGS=-g" for profiling
# Output: progress lines and a summary block (< 25 lines) on stdout; everything else in the log.
# Exit status: 0 when every step that ran passed, 1 otherwise (performance targets are reported, not enforced).

set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT" || exit 2

PY=${PYTHON:-python3}
command -v "$PY" >/dev/null 2>&1 || PY=python
if [ -n "${OUT:-}" ]; then
  LOGDIR=$OUT
  BENCH_OUT=$OUT/bench
else
  LOGDIR=$ROOT/build
  BENCH_OUT=$ROOT/build/bench
fi
mkdir -p "$LOGDIR"
LOG=$LOGDIR/gpu_log.txt
: >"$LOG"
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/gpu_check.XXXXXX")

export PATH=/usr/local/cuda/bin:$PATH
# The GPU machine's default compiler (/opt/gcc) links libstdc++ statically into each shared object; with
# libcuarray.so and the extension module each holding a copy, std::ostringstream in the kernel generator
# crashes. The distribution's g++ links the shared libstdc++ that Python's other extensions use.
if [ -x /usr/bin/g++ ] && { [ -z "${CXX:-}" ] && [ "$(command -v g++)" != /usr/bin/g++ ] || [[ "${CXX:-}" == /opt/* ]]; }; then
  export CC=/usr/bin/gcc CXX=/usr/bin/g++ CUDAHOSTCXX=/usr/bin/g++
fi
[ -z "${CUDACXX:-}" ] && [ -x /usr/local/cuda/bin/nvcc ] && export CUDACXX=/usr/local/cuda/bin/nvcc
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore PIP_NO_INPUT=1
export CMAKE_BUILD_PARALLEL_LEVEL=16

BUDGET_S=${GPU_CHECK_BUDGET_S:-570}
BENCH_RESERVE_S=${GPU_CHECK_BENCH_RESERVE_S:-90}
SKIP=" $(echo "${GPU_CHECK_SKIP:-}" | tr ',' ' ') "

now_ms() { echo $(($(date +%s%N) / 1000000)); }
START_MS=$(now_ms)
elapsed_s() { echo $((($(now_ms) - START_MS) / 1000)); }
fmt_dur() { # milliseconds -> "0.4s" / "12s" / "3m05s"
  local ms=$1
  if [ "$ms" -lt 10000 ]; then printf '%d.%ds' $((ms / 1000)) $((ms % 1000 / 100))
  elif [ "$ms" -lt 120000 ]; then printf '%ds' $((ms / 1000))
  else printf '%dm%02ds' $((ms / 60000)) $((ms % 60000 / 1000)); fi
}
log() { echo "$*" >>"$LOG"; }
say() { echo "[gpu_check $(elapsed_s)s] $*"; log "[gpu_check $(elapsed_s)s] $*"; }

# --- step bookkeeping -------------------------------------------------------
STEPS=()
declare -A STATUS=() DUR=() NOTE=()
STEP_LIMIT=60
CURRENT_STEP=""
STEP_PID=""
STEP_T0=0

lim() { # run a command under the current step's time limit; its pid is kept for the signal trap
  timeout --kill-after=15 "$STEP_LIMIT" "$@" <&0 & # <&0: an async command would get /dev/null as stdin
  local pid=$!
  echo "$pid" >"$TMPD/lim.pid"
  wait "$pid"
}

is_skipped() { # step name, group name
  case "$SKIP" in *" $1 "* | *" $2 "*) return 0 ;; esac
  return 1
}

# run_step NAME GROUP LIMIT_S FUNCTION [NEEDS_STEP]
# The function's output goes straight into the log (it survives a kill); $TMPD/NAME.txt gets a copy.
run_step() {
  local name=$1 group=$2 limit=$3 fn=$4 needs=${5:-}
  STEPS+=("$name")
  DUR[$name]=0
  if is_skipped "$name" "$group"; then
    STATUS[$name]=skip NOTE[$name]="GPU_CHECK_SKIP"
    say "$name: skipped (GPU_CHECK_SKIP)"
    return
  fi
  # A step the user skipped on purpose counts as done (e.g. cuarray already installed).
  if [ -n "$needs" ] && [ "${STATUS[$needs]:-}" != ok ] && [ "${NOTE[$needs]:-}" != GPU_CHECK_SKIP ]; then
    STATUS[$name]=skip NOTE[$name]="needs $needs"
    say "$name: skipped ($needs: ${STATUS[$needs]:-not run})"
    return
  fi
  local reserve=5
  [ "$name" != bench ] && reserve=$((BENCH_RESERVE_S + 5))
  local left=$((BUDGET_S - $(elapsed_s) - reserve))
  [ "$left" -lt "$limit" ] && limit=$left
  if [ "$limit" -lt 10 ]; then
    STATUS[$name]=skip NOTE[$name]="no time left"
    say "$name: skipped (no time left in the ${BUDGET_S}s budget)"
    return
  fi
  STEP_LIMIT=$limit
  log ""
  log "===================================================================="
  log "=== step $name (limit ${limit}s) $(date -u +%FT%TZ)"
  log "===================================================================="
  local off rc
  off=$(stat -c %s "$LOG")
  STEP_T0=$(now_ms)
  CURRENT_STEP=$name
  STATUS[$name]=running
  rm -f "$TMPD/lim.pid"
  # In the background, so that a signal reaches the trap at once rather than after the step.
  "$fn" >>"$LOG" 2>&1 </dev/null &
  STEP_PID=$!
  wait "$STEP_PID"
  rc=$?
  STEP_PID="" CURRENT_STEP=""
  DUR[$name]=$(($(now_ms) - STEP_T0))
  tail -c +$((off + 1)) "$LOG" >"$TMPD/$name.txt"
  if [ $rc -eq 0 ]; then
    STATUS[$name]=ok
  elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    STATUS[$name]=TIMEOUT NOTE[$name]="cut off after ${limit}s"
  elif [ $rc -eq 99 ]; then # the step decided there was nothing to run
    STATUS[$name]=skip
  else
    STATUS[$name]=FAIL
    [ -z "${NOTE[$name]:-}" ] && NOTE[$name]="exit $rc"
  fi
  log "=== step $name: ${STATUS[$name]} rc=$rc in $(fmt_dur "${DUR[$name]}")"
  say "$name: ${STATUS[$name]} $(fmt_dur "${DUR[$name]}")${NOTE[$name]:+ (${NOTE[$name]})}"
}

# --- steps ------------------------------------------------------------------
step_info() {
  echo "--- nvidia-smi"
  lim nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  local smi=$?
  echo "--- python"
  lim "$PY" - <<'EOF'
import importlib, platform, sys
print("python", platform.python_version(), sys.executable)
for m in ("numpy", "cupy", "torch", "nanobind", "scikit_build_core", "pytest"):
    try:
        print(m, getattr(importlib.import_module(m), "__version__", "?"))
    except Exception as e:
        print(m, "unavailable:", type(e).__name__, e)
EOF
  echo "--- nvcc"
  nvcc --version | tail -n 2
  echo "--- cmake / ninja"
  cmake --version | head -n 1
  echo "ninja $(ninja --version)"
  return $smi
}

step_configure() {
  if [ ! -f CMakeLists.txt ]; then
    echo "no CMakeLists.txt in $ROOT"
    return 1
  fi
  rm -rf build-gpu  # from scratch: a machine kept warm between calls keeps its build folders
  # CUARRAY_WERROR stays OFF here: the GPU machine's GCC 13 may warn where CI's GCC 12 does not, and a warning
  # must not cost a GPU run; CI (.ci/run) builds with it ON.
  local args=(-S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUARRAY_CUDA_ARCHITECTURES=90 -DCUARRAY_WERROR=OFF
    "-DPython_EXECUTABLE=$(command -v "$PY")")
  # shellcheck disable=SC2206  # word splitting intended: several arguments in one variable
  [ -n "${GPU_CHECK_CMAKE_ARGS:-}" ] && args+=(${GPU_CHECK_CMAKE_ARGS})
  if [ -d .deps/googletest ]; then
    args+=("-DCUARRAY_GTEST_SOURCE_DIR=$ROOT/.deps/googletest")
  else
    echo "(.deps/googletest absent: CUARRAY_GTEST_SOURCE_DIR not given)"
  fi
  echo "+ cmake ${args[*]}"
  lim cmake "${args[@]}"
}

step_build() {
  lim cmake --build build-gpu -j 16
}

step_ctest() {
  lim ctest --test-dir build-gpu --output-on-failure -j 8
}

step_install() {
  if [ "${GPU_CHECK_INSTALL:-pip}" = build ]; then
    # The package of the C++ build (build-gpu/python) instead of a second, identical build by pip: quicker,
    # for runs that need no packaging check.
    if [ ! -f build-gpu/python/cuarray/__init__.py ]; then
      echo "GPU_CHECK_INSTALL=build: build-gpu/python/cuarray is missing"
      return 1
    fi
    echo "GPU_CHECK_INSTALL=build: PYTHONPATH=$ROOT/build-gpu/python (no pip install)"
    return 0
  fi
  rm -rf build/cp3* build/py3*  # scikit-build-core's build-dir (pyproject.toml), also from scratch
  echo "+ CMAKE_ARGS=-DCUARRAY_CUDA_ARCHITECTURES=90 $PY -m pip install --no-build-isolation --no-deps --no-index -v ."
  lim env CMAKE_ARGS="-DCUARRAY_CUDA_ARCHITECTURES=90" CMAKE_BUILD_PARALLEL_LEVEL=16 \
    "$PY" -m pip install --no-build-isolation --no-deps --no-index -v .
}

step_selfcheck() {
  # From an empty folder, so that the installed package is the one imported.
  (cd "$TMPD" && lim "$PY" -m cuarray)
}

PYTEST_EXTRA=()
step_pytest() {
  if [ ! -d tests/python ]; then
    echo "no tests/python folder"
    return 1
  fi
  # shellcheck disable=SC2086 # GPU_CHECK_PYTEST_ARGS is a list of words (paths, --ignore=..., -k ...)
  lim "$PY" -m pytest ${GPU_CHECK_PYTEST_ARGS:-tests/python} -q -rfE -p no:cacheprovider ${PYTEST_EXTRA[@]+"${PYTEST_EXTRA[@]}"}
}

step_numba() {
  if [ ! -d .deps/numpy-old ]; then
    echo "numba: skipped (no .deps/numpy-old)"
    return 99
  fi
  if [ ! -f tests/python/test_interop.py ]; then
    echo "numba: skipped (no tests/python/test_interop.py)"
    return 99
  fi
  # Entry-point plugins stay off (the machine's jaxtyping plugin is not needed here, and with them off
  # pytest-timeout's --timeout would be an unknown option: the step has its own time limit).
  PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 PYTHONPATH="$ROOT/.deps/numpy-old${PYTHONPATH:+:$PYTHONPATH}" \
    lim "$PY" -m pytest tests/python/test_interop.py -q -rfE -p no:cacheprovider -k numba
  local rc=$?
  if [ $rc -eq 5 ]; then
    echo "numba: skipped (no test in test_interop.py matches -k numba)"
    return 99
  fi
  return $rc
}

# compute-sanitizer over tools/sanitizer/slice.py (memcheck with a cudaMalloc per array, then racecheck for the
# shared-memory kernels) and memcheck over the custom-kernel tests; 0 errors is the target (issue 14).
step_sanitizer() {
  local cs
  cs=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer \
    /usr/local/cuda/compute-sanitizer/compute-sanitizer 2>/dev/null | head -n 1)
  if [ -z "$cs" ]; then
    echo "sanitizer: skipped (no compute-sanitizer)"
    return 99
  fi
  local rc=0
  echo "--- memcheck: tools/sanitizer/slice.py --plain-malloc"
  (cd "$TMPD" && lim "$cs" --tool memcheck --print-limit 20 --error-exitcode 3 "$PY" "$ROOT/tools/sanitizer/slice.py" --plain-malloc) || rc=1
  echo "--- racecheck: tools/sanitizer/slice.py"
  (cd "$TMPD" && lim "$cs" --tool racecheck --print-limit 20 --error-exitcode 3 "$PY" "$ROOT/tools/sanitizer/slice.py") || rc=1
  echo "--- memcheck: custom-kernel tests"
  # The pool's per-test leak check is off here: under the sanitizer it saw arrays of finished tests still in the
  # pool (not in ordinary runs); memory errors are the sanitizer's to find in this step.
  CUARRAY_NO_LEAK_CHECK=1 lim "$cs" --tool memcheck --print-limit 20 --error-exitcode 3 "$PY" -m pytest tests/python/test_raw_kernels.py \
    tests/python/test_elementwise_kernel.py -q -p no:cacheprovider ${PYTEST_EXTRA[@]+"${PYTEST_EXTRA[@]}"} || rc=1
  return $rc
}

# The fuzz comparison with NumPy (tools/fuzz.py): GPU_CHECK_FUZZ_CASES cases (default 10000), seed 0.
step_fuzz() {
  if [ ! -f tools/fuzz.py ]; then
    echo "fuzz: skipped (no tools/fuzz.py)"
    return 99
  fi
  lim "$PY" tools/fuzz.py --cases "${GPU_CHECK_FUZZ_CASES:-10000}" --seed 0 --out "$LOGDIR/fuzz" \
    --time-limit $((STEP_LIMIT - 20))
}

step_bench() {
  rm -f "$BENCH_OUT/results.json" "$BENCH_OUT/results.md" # never summarise an earlier run's numbers
  # shellcheck disable=SC2086 # GPU_CHECK_BENCH_ARGS (e.g. "--only bench_manipulation") is a word list
  lim "$PY" benchmarks/run.py --quick --out "$BENCH_OUT" ${GPU_CHECK_BENCH_ARGS:-}
}

# --- summary ------------------------------------------------------------------
step_file() { cat "$TMPD/$1.txt" 2>/dev/null; }
pytest_line() { # the final "N passed, M failed in Xs" line of a pytest run
  step_file "$1" | grep -E '(passed|failed|error|errors|skipped|xfailed|xpassed|deselected|no tests ran).* in [0-9.]+s' |
    tail -n 1 | sed -E 's/^=+ *//; s/ *=+$//'
}

status_text() { # "not run (needs build)", "FAIL (exit 2)", ...
  local st=${STATUS[$1]:-not run}
  [ "$st" = skip ] && st="not run"
  echo "$st${NOTE[$1]:+ (${NOTE[$1]})}"
}

SUMMARY_DONE=0
print_summary() {
  [ "$SUMMARY_DONE" = 1 ] && return
  SUMMARY_DONE=1
  local gpu versions commit failed=() s name
  gpu=$(step_file info | sed -n '/^--- nvidia-smi/{n;p;q}')
  versions=$(step_file info | awk '/^--- python/{p=1;next} /^---/{p=0}
    p && $1=="python" {printf "python %s, ", $2}
    p && $1 ~ /^(numpy|cupy|torch)$/ && $2!="unavailable:" {printf "%s %s, ", $1, $2}')
  versions="$versions$(step_file info | grep -oE 'release [0-9.]+' | head -n 1 | sed 's/release /nvcc /')"
  commit=$(git rev-parse --short HEAD 2>/dev/null) || commit=""
  if [ -n "$commit" ] && [ -n "$(git status --porcelain 2>/dev/null | head -n 1)" ]; then commit="$commit+dirty"; fi
  if [ -z "$commit" ] && [ -f COMMIT ]; then commit=$(head -c 80 COMMIT | tr -d '\n'); fi
  [ -z "$commit" ] && commit=unknown
  for name in "${STEPS[@]}"; do
    case "${STATUS[$name]:-}" in FAIL | TIMEOUT | INTERRUPTED) failed+=("$name") ;; esac
  done

  local line i=0
  {
    echo "===== cuarray gpu_check summary ====="
    echo "GPU: ${gpu:-unknown (nvidia-smi failed)}"
    echo "commit: $commit | date: $(date -u +%FT%TZ) | total: $(fmt_dur $(($(now_ms) - START_MS)))"
    echo "versions: ${versions:-unknown}"
    line="steps:"
    for name in "${STEPS[@]}"; do
      s="${STATUS[$name]:-?}"
      [ "$s" != skip ] && s="$s $(fmt_dur "${DUR[$name]:-0}")"
      [ "${STATUS[$name]:-}" = skip ] && [ -n "${NOTE[$name]:-}" ] && s="skip (${NOTE[$name]})"
      line="$line $name $s |"
      i=$((i + 1))
      if [ $((i % 3)) -eq 0 ]; then echo "${line% |}"; line="      "; fi
    done
    [ -n "${line// /}" ] && echo "${line% |}"
    s=$(step_file ctest | grep -E '[0-9]+% tests passed|No tests were found' | tail -n 1)
    echo "ctest: ${s:-$(status_text ctest)}"
    s=$(pytest_line pytest)
    echo "pytest: ${s:-$(status_text pytest)}"
    s=$(step_file sanitizer | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|sanitizer slice:' | sed -E 's/^=+ *//' |
      tr '\n' ';' | sed 's/;$//')
    echo "sanitizer: ${s:-$(status_text sanitizer)}"
    s=$(step_file fuzz | grep -E '^fuzz: ' | tail -n 1 | cut -c1-300)
    echo "${s:-fuzz: $(status_text fuzz)}"
    s=$(step_file numba | grep -E '^numba: ' | tail -n 1)
    [ -z "$s" ] && s="numba: $(pytest_line numba)"
    [ "$s" = "numba: " ] && s="numba: $(status_text numba)"
    echo "$s"
    if [ -f "$BENCH_OUT/results.json" ]; then
      "$PY" benchmarks/run.py --summarize "$BENCH_OUT/results.json" 2>&1 | head -n 16
    else
      s=$(step_file bench | grep -m 1 '^benchmarks: ')
      echo "bench: ${s:-no results.json} [$(status_text bench)]"
    fi
    if [ ${#failed[@]} -eq 0 ]; then
      echo "result: PASS | log: $LOG"
    else
      echo "result: FAIL (${failed[*]}) | log: $LOG"
    fi
  } | tee -a "$LOG"
  [ ${#failed[@]} -eq 0 ]
}

on_signal() {
  trap '' TERM INT
  say "interrupted by a signal${CURRENT_STEP:+ during $CURRENT_STEP}"
  if [ -n "$STEP_PID" ]; then
    # The step's command runs under timeout(1), which leads its own process group: end that group.
    local pid
    pid=$(cat "$TMPD/lim.pid" 2>/dev/null)
    if [ -n "$pid" ]; then kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null; fi
    kill -TERM "$STEP_PID" 2>/dev/null
  fi
  if [ -n "$CURRENT_STEP" ]; then
    STATUS[$CURRENT_STEP]=INTERRUPTED DUR[$CURRENT_STEP]=$(($(now_ms) - STEP_T0))
  fi
  print_summary
  rm -rf "$TMPD"
  exit 1
}
trap on_signal TERM INT

# --- main -----------------------------------------------------------------------
[ "${GPU_CHECK_INSTALL:-pip}" = build ] && export PYTHONPATH="$ROOT/build-gpu/python${PYTHONPATH:+:$PYTHONPATH}"
say "log: $LOG; budget ${BUDGET_S}s"
[[ "${GPU_CHECK_PYTEST_ARGS:-}" == *--timeout* ]] || { "$PY" -c 'import pytest_timeout' >/dev/null 2>&1 && PYTEST_EXTRA=(--timeout=600); }

run_step info info 60 step_info
run_step configure cpp 180 step_configure
run_step build cpp 420 step_build configure
run_step ctest cpp 240 step_ctest build
run_step install python 480 step_install
run_step selfcheck python 60 step_selfcheck install
run_step pytest python "${GPU_CHECK_PYTEST_LIMIT_S:-420}" step_pytest install
run_step numba numba 180 step_numba install
run_step sanitizer sanitizer 240 step_sanitizer install
run_step fuzz fuzz 300 step_fuzz install
# The benchmark step may run as long as its reserve (at least 150 s), within the budget.
run_step bench bench "$((BENCH_RESERVE_S > 150 ? BENCH_RESERVE_S : 150))" step_bench

echo
print_summary
rc=$?
rm -rf "$TMPD"
exit $rc
