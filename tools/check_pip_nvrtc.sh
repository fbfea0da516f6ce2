#!/usr/bin/env bash
# CI check: with the CUDA toolkit hidden, cuarray finds NVRTC in NVIDIA's pip wheel and compiles a kernel.
# Needs the build tree of tools/test.sh (build/python); no GPU. The toolkit in /usr/local/cuda cannot be
# removed on the CI machine, so PATH, CUDA_PATH and LD_LIBRARY_PATH are cleared of it and
# CUARRAY_NO_SYSTEM_CUDA=1 stops the loader after the wheels (Note [cuda library search order]).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=${PYTHON:-python3}
[ -f build/python/cuarray/__init__.py ] || { echo "check_pip_nvrtc: build/python missing; run tools/test.sh first" >&2; exit 1; }

# The NVRTC wheel of the toolkit's major version: CUDA 13's is `nvidia-cuda-nvrtc` (libraries under
# nvidia/cu13/lib), CUDA 12's `nvidia-cuda-nvrtc-cu12` (under nvidia/cuda_nvrtc/lib).
major=$(sed -n 's/^#define CUDA_VERSION \([0-9]*\)/\1/p' "$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")/../include/cuda.h" 2>/dev/null | head -1)
major=$(( ${major:-13000} / 1000 ))
if [ "$major" -ge 13 ]; then WHEEL="nvidia-cuda-nvrtc==$major.*"; else WHEEL="nvidia-cuda-nvrtc-cu$major"; fi

VENV=${CUARRAY_PIP_CHECK_VENV:-$ROOT/build/pip-nvrtc-venv}
if [ ! -x "$VENV/bin/python" ]; then
  # --system-site-packages for NumPy; the wheel goes into the venv's own site-packages, which is searched too.
  "$PY" -m venv --system-site-packages "$VENV"
fi
"$VENV/bin/python" -m pip install -q --disable-pip-version-check "$WHEEL"

# Hide the toolkit: no nvcc on PATH, no CUDA_PATH, no toolkit directory in LD_LIBRARY_PATH.
clean_path=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v -i cuda | paste -sd: -)
clean_ld=$(printf '%s' "${LD_LIBRARY_PATH:-}" | tr ':' '\n' | grep -v -i cuda | paste -sd: - || true)
env -u CUDA_PATH -u CUDA_HOME -u CUARRAY_NVRTC_PATH -u CUARRAY_NVIDIA_LIB_DIRS \
  PATH="$clean_path" LD_LIBRARY_PATH="$clean_ld" CUARRAY_NO_SYSTEM_CUDA=1 \
  PYTHONPATH="$ROOT/build/python" "$VENV/bin/python" - <<'EOF'
import os
import sys

import cuarray
from cuarray import _core, _libpaths

venv = os.path.realpath(sys.prefix)
dirs = _libpaths.nvidia_lib_dirs()
assert any(os.path.realpath(d).startswith(venv) for d in dirs), f"the wheel's directory was not found: {dirs}"
src = 'extern "C" __global__ void scale(float* x, float a, int n) {\n' \
      '  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) x[i] *= a;\n}\n'
size = _core.nvrtc_compile(src, "scale.cu", 80, [])  # an sm_80 cubin: NVRTC needs no GPU
path, major, minor = _core.nvrtc_info()
loaded = dict(_core.cuda_library_paths())
print(f"check_pip_nvrtc: NVRTC {major}.{minor} from {path}: {size}-byte cubin")
assert size > 0
assert os.path.realpath(path).startswith(venv), f"NVRTC came from {path}, not from the wheel in {venv}"
assert any(os.path.realpath(p).startswith(venv) for p in loaded.values()), loaded
# NVRTC opens its builtins library by bare name (Note [nvrtc builtins]): it must be the wheel's, not one the
# dynamic loader found through ld.so.cache in the toolkit this machine cannot hide.
builtins = {l.split()[-1] for l in open("/proc/self/maps") if "libnvrtc-builtins" in l}
print(f"check_pip_nvrtc: builtins from {sorted(builtins)}")
assert builtins and all(os.path.realpath(b).startswith(venv) for b in builtins), builtins
EOF
echo "check_pip_nvrtc: ok"
