#!/usr/bin/env bash
# GPU-machine check (issue 22): run the self-check and the demo with the CUDA toolkit hidden, so that every CUDA
# library must come from NVIDIA's pip wheels (nvidia-*) installed in the image's site-packages.
# Usage: bash tools/gpu_hidden_toolkit.sh [PYTHONPATH of a built cuarray, default build-gpu/python]
# The toolkit directory is masked with an empty bind mount in a private mount namespace when `unshare` allows it
# (root); otherwise PATH/CUDA_PATH/LD_LIBRARY_PATH are cleared of it and CUARRAY_NO_SYSTEM_CUDA=1 stops the loader
# after the wheels. Prints the wheels found, the mode used, and the library files the process actually mapped.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
PP=$(realpath "${1:-build-gpu/python}")
echo "== nvidia-* distributions installed"
"$PY" -m pip list 2>/dev/null | grep -i -E '^nvidia-|^cuda-' || echo "(none)"
echo "== wheel library directories cuarray will search"
PYTHONPATH=$PP "$PY" -c "from cuarray import _libpaths; print('\n'.join(_libpaths.nvidia_lib_dirs()) or '(none)')" \
  2>&1 | tail -20
clean_path=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v -i cuda | paste -sd: -)
clean_ld=$(printf '%s' "${LD_LIBRARY_PATH:-}" | tr ':' '\n' | grep -v -i cuda | paste -sd: - || true)
cat > /tmp/hidden_probe.py <<'PYEOF'
import os, runpy, sys
import cuarray
print("toolkit visible:", os.path.exists("/usr/local/cuda/lib64"), "| nvcc on PATH:",
      any(os.path.exists(os.path.join(d, "nvcc")) for d in os.environ.get("PATH", "").split(":")))
cuarray.show_config() if hasattr(cuarray, "show_config") else None
try:  # the self-check ends with sys.exit(its status); the demo and the library calls below must still run
    runpy.run_module("cuarray", run_name="__main__")
except SystemExit as e:
    if e.code:
        raise
sys.argv = ["demo.py"]
runpy.run_path("examples/demo.py", run_name="__main__")
import cuarray.scipy.sparse as sp, numpy as np
a = sp.random(200, 200, density=0.05, format="csr", dtype=np.float64)
x = cuarray.ones(200)
print("spmv ok:", float((a @ x).sum()) > -1)
print("fft ok:", cuarray.fft.fft(cuarray.arange(8.0)).shape)
print("solve ok:", float(cuarray.linalg.solve(cuarray.eye(4) * 2, cuarray.ones(4))[0]))
maps = sorted({l.split()[-1] for l in open("/proc/self/maps") if ".so" in l and
               any(k in l for k in ("nvrtc", "cublas", "cusolver", "cufft", "cusparse", "cudart", "nvJitLink", "libcuda.so"))})
print("== CUDA libraries mapped:\n" + "\n".join(maps))
bad = [m for m in maps if m.startswith("/usr/local/cuda")]
print("FROM TOOLKIT:", bad if bad else "none")
sys.exit(1 if bad else 0)
PYEOF
run() {
  env -u CUDA_PATH -u CUDA_HOME -u CUARRAY_NVRTC_PATH -u CUARRAY_NVIDIA_LIB_DIRS PATH="$clean_path" \
    LD_LIBRARY_PATH="$clean_ld" CUARRAY_NO_SYSTEM_CUDA=1 PYTHONPATH="$PP" "$PY" /tmp/hidden_probe.py
}
if [ -d /usr/local/cuda ] && unshare -m true 2>/dev/null; then
  echo "== mode: /usr/local/cuda masked (private mount namespace)"
  export -f run; export clean_path clean_ld PP PY
  real=$(realpath /usr/local/cuda)
  unshare -m bash -c "mount -t tmpfs none /usr/local/cuda && mount -t tmpfs none '$real' 2>/dev/null; run"
else
  echo "== mode: environment only (unshare unavailable)"
  run
fi
