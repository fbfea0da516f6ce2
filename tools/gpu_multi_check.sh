#!/usr/bin/env bash
# The two-GPU run of issue 21 in one device call: the build, then the multi-GPU, NCCL and Dask tests alone (the
# whole suite with them does not fit one pytest step), then the Dask scaling benchmark. Results go under $OUT.
# Usage on the device machine (carry .deps/googletest and .deps/wheels): OUT=$OUT bash tools/gpu_multi_check.sh
# MULTI_SKIP=pytest skips the tests; MULTI_BENCH_ARGS=--diag adds task streams and nvidia-smi samples to the benchmark;
# MULTI_BENCH_GPUS (default 1,2) the GPU counts it runs Dask with.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:?set OUT}
site=/tmp/dask-site
bash tools/install_dask_wheels.sh "$site" >/dev/null
export PYTHONPATH=$site
GPU_CHECK_INSTALL=build GPU_CHECK_SKIP="numba bench sanitizer fuzz selfcheck ctest ${MULTI_SKIP:-}" GPU_CHECK_BUDGET_S=${MULTI_TEST_BUDGET_S:-330} \
  GPU_CHECK_BENCH_RESERVE_S=0 \
  GPU_CHECK_PYTEST_ARGS="tests/python/test_multi_gpu.py tests/python/test_nccl.py tests/python/test_dask.py ${MULTI_EXTRA_TESTS:-} -n 8 --dist loadfile -v --timeout=150 -p no:benchmark" \
  OUT=$OUT bash tools/gpu_check.sh >"$OUT/summary.txt" 2>&1
tail -15 "$OUT/summary.txt"
grep -oE "(FAILED|ERROR) tests/[^ ]+" "$OUT"/gpu_log.txt 2>/dev/null | sort -u
if [ "${MULTI_DASK_DIAG:-0}" = 1 ]; then  # a hang in test_dask.py: every thread's stack after 20 s (faulthandler)
  PYTHONPATH=$site:$PWD/build-gpu/python timeout 60 python3 -m pytest tests/python/test_dask.py -p no:xdist \
    -p no:cacheprovider -x -v -o faulthandler_timeout=20 --timeout=0 >"$OUT/dask_diag.txt" 2>&1
  echo "dask pytest rc=$?"; grep -E "PASSED|FAILED|ERROR|passed|failed" "$OUT/dask_diag.txt" | tail -25
  grep -A25 -E "^Thread|Current thread|Timeout" "$OUT/dask_diag.txt" | head -150
fi
if [ "${MULTI_BENCH:-1}" = 1 ]; then
  PYTHONPATH=$site:$PWD/build-gpu/python timeout "${MULTI_BENCH_S:-250}" python3 benchmarks/bench_dask_multi_gpu.py \
    --gpus "${MULTI_BENCH_GPUS:-1,2}" --out "$OUT/dask" --reps 3 --time-limit "$((${MULTI_BENCH_S:-250} - 10))" \
    ${MULTI_BENCH_ARGS:-} 2>&1 | tail -20
fi
