"""The device functions behind every ufunc loop, compiled for the host and compared with NumPy (no GPU needed).

The headers of run-time compiled kernels are written to compile with a host C++ compiler too, so CI checks
the arithmetic of all ~700 loops (NaN rules, integer wrap-around, floor division, float16, complex) on the
same inputs and tolerances as the GPU test; the GPU run then checks the device's own math library.
"""
import ctypes
import pathlib
import shutil
import subprocess

import numpy
import pytest

from cuarray.testing import _ufunc_cases as cases

ROOT = pathlib.Path(__file__).resolve().parents[2]
HEADERS = ROOT / "src" / "engine" / "device"
CTYPE = {"?": "bool", "b": "signed char", "h": "short", "i": "int", "l": "long long", "B": "unsigned char",
         "H": "unsigned short", "I": "unsigned int", "L": "unsigned long long", "e": "ca_half", "f": "float",
         "d": "double", "F": "ca_complex64", "D": "ca_complex128"}
N = 97

LOOPS = [(n, t, b) for n, t, b in cases.table_loops() if hasattr(numpy, n)] if cases.TABLE.exists() else []


@pytest.fixture(scope="module")
def host_library(tmp_path_factory):
    cxx = shutil.which("g++") or shutil.which("c++")
    if not cxx or not LOOPS:
        pytest.skip("no host C++ compiler or no ufunc table")
    lines = ['#include "ca_ufuncs.cuh"']
    for k, (name, types, body) in enumerate(LOOPS):
        ins, outs = types.split("->")
        params = ", ".join(f"void* p{j}" for j in range(len(ins + outs)))
        loads = " ".join(f"{CTYPE[c]} in{j} = ca_load<{CTYPE[c]}>((char*)p{j} + i * sizeof({CTYPE[c]}));"
                         for j, c in enumerate(ins))
        decls = " ".join(f"{CTYPE[c]} out{j};" for j, c in enumerate(outs))
        stores = " ".join(f"ca_store<{CTYPE[c]}>((char*)p{len(ins) + j} + i * sizeof({CTYPE[c]}), out{j});"
                          for j, c in enumerate(outs))
        lines.append(f'extern "C" void loop{k}({params}, long long n) {{ for (long long i = 0; i < n; ++i) '
                     f'{{ {loads} {decls} {{ {body} }} {stores} }} }}')
    d = tmp_path_factory.mktemp("ufunc_host")
    src, lib = d / "loops.cpp", d / "loops.so"
    src.write_text("\n".join(lines) + "\n")
    r = subprocess.run([cxx, "-std=c++17", "-O1", "-fPIC", "-shared", "-fno-fast-math", f"-I{HEADERS}", str(src),
                        "-o", str(lib)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-5000:]
    return ctypes.CDLL(str(lib))


@pytest.mark.parametrize("k", range(len(LOOPS)), ids=[f"{n}-{t}" for n, t, _ in LOOPS])
def test_loop_matches_numpy_on_host(host_library, k):
    name, types, _ = LOOPS[k]
    ins, outs = types.split("->")
    inputs = [numpy.ascontiguousarray(cases.values(c, N, j + 1, name)) for j, c in enumerate(ins)]
    want = cases.expected(name, inputs)
    got = [numpy.empty(N, dtype=c) for c in outs]
    fn = getattr(host_library, f"loop{k}")
    fn(*[ctypes.c_void_p(a.ctypes.data) for a in inputs + got], ctypes.c_longlong(N))
    # NumPy picks this loop for these dtypes unless another one fits first (ldexp's 'fl' loop, say): compare
    # against NumPy's result cast to the loop's output types.
    for g, w in zip(got, want):
        cases.compare(name, g, numpy.asarray(w).astype(g.dtype) if w.dtype != g.dtype else w)
