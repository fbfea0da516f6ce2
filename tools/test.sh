#!/usr/bin/env bash
# The test command: builds the library, C++ tests and Python module in build/, then runs ctest and pytest.
# Without a GPU everything builds (kernels for sm_80 only, to save time) and device tests skip themselves.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
ARCHS=${CUARRAY_CUDA_ARCHITECTURES:-}
# CUARRAY_WERROR=ON (CI sets it in .ci/run): warnings in cuarray's own sources fail the build. Off by default,
# as another compiler version than CI's may warn where CI's does not. Passed every time, so a build folder
# configured once with it does not keep it.
WERROR=${CUARRAY_WERROR:-OFF}
if [ -z "$ARCHS" ]; then
  if nvidia-smi >/dev/null 2>&1; then ARCHS=native; else ARCHS=80-real; fi
fi
GEN=()
command -v ninja >/dev/null 2>&1 && GEN=(-G Ninja)
GTEST=()
for d in "$PWD/.deps/googletest" /usr/src/googletest; do
  if [ -f "$d/CMakeLists.txt" ]; then GTEST=(-DCUARRAY_GTEST_SOURCE_DIR="$d"); break; fi
done

cmake -S . -B build "${GEN[@]}" -DCUARRAY_CUDA_ARCHITECTURES="$ARCHS" -DCUARRAY_WERROR="$WERROR" -DPython_EXECUTABLE="$(command -v "$PY")" "${GTEST[@]}"
cmake --build build -j "$(nproc)"
ctest --test-dir build --output-on-failure
PYTHONPATH="$PWD/build/python${PYTHONPATH:+:$PYTHONPATH}" "$PY" -m pytest tests/python -q -rfE "$@"
