#!/usr/bin/env bash
# Issue 24's small-call diagnosis in one step on the GPU machine, after a build into build-gpu (configured with
# GPU_CHECK_CMAKE_ARGS=-DCMAKE_CXX_FLAGS=-g so that the profile resolves to lines): the paired timings against
# the launch floor (short loops: host time; long loops: what the benchmarks time), the dry loops (cuarray's and
# Python's own cost per call, no driver) with CPU profiles of a + b, a.sum(), ElementwiseKernel, ReductionKernel
# and RawKernel, each symbolised there when addr2line exists (into $OUT/profiles.txt, one file: few files come back). Usage: OUT=$OUT bash tools/diag/small_calls.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:?set OUT}
B=$PWD/build-gpu/python
export PYTHONPATH=$B${PYTHONPATH:+:$PYTHONPATH}
gcc -O2 -shared -fPIC -o /tmp/sampler.so tools/diag/sampler.c -lrt -lpthread || exit 1
P=/tmp/small_calls_profile  # raw samples stay on the machine; the symbolised profiles go to $OUT/profiles.txt
rm -rf "$P" && mkdir -p "$P"
(cd tools/diag && timeout 150 python3 paired.py) 2>&1 | tee "$OUT/paired.txt"
(cd tools/diag && timeout 200 python3 dry.py /tmp/sampler.so "$P") 2>&1 | tee "$OUT/dry.txt"
if command -v addr2line >/dev/null; then
  for f in "$P"/samples_*.txt; do
    python3 tools/diag/symbolize.py "$f" "libcuarray.so.0=$B/cuarray/libcuarray.so.0.1.0" \
      "libcuarray.so.0.1.0=$B/cuarray/libcuarray.so.0.1.0" \
      "_core.cpython-312-x86_64-linux-gnu.so=$B/cuarray/_core.cpython-312-x86_64-linux-gnu.so" \
      >"${f%.txt}.sym.txt" 2>&1
    { echo "######## $(basename "$f")"; cat "${f%.txt}.sym.txt"; } >>"$OUT/profiles.txt"
    echo "== $(basename "$f"): $(head -n 1 "${f%.txt}.sym.txt")"
  done
else
  echo "no addr2line here: the raw samples are in $P on the GPU machine"
fi
