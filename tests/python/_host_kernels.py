"""Generated CUDA kernels compiled for the host (tests without a GPU): a shim for CUDA's built-ins, and the build.

Threads run one after another: a launcher sets blockIdx/threadIdx and calls the kernel for each thread, so barriers
are no-ops and only kernels whose threads do not wait on each other's shared-memory writes can be emulated.
"""
import ctypes
import pathlib
import shutil
import subprocess

import pytest

HEADERS = pathlib.Path(__file__).resolve().parents[2] / "src" / "engine" / "device"
SHIM = r"""
#define __global__
#define __device__
#define __forceinline__ inline
#define __restrict__ __restrict
#define __shared__ static
#define __launch_bounds__(n)
#define __align__(n) __attribute__((aligned(n)))
struct ca_dim3 { unsigned x, y, z; };
static ca_dim3 blockIdx, threadIdx, gridDim, blockDim;
struct uint4 { unsigned x, y, z, w; };
struct uint2 { unsigned x, y; };
static inline void __syncthreads() {}
static inline void __syncwarp() {}
#include "ca_ufuncs.cuh"
"""


def build(parts, directory):
    """Compile SHIM followed by `parts` (C++ texts) into a shared library in `directory`; skip without g++."""
    cxx = shutil.which("g++") or shutil.which("c++")
    if not cxx:
        pytest.skip("no host C++ compiler")
    src, lib = directory / "kernels.cpp", directory / "kernels.so"
    src.write_text("\n".join([SHIM] + list(parts)) + "\n")
    r = subprocess.run([cxx, "-std=c++17", "-O1", "-fPIC", "-shared", "-w", f"-I{HEADERS}", str(src), "-o", str(lib)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-6000:]
    return ctypes.CDLL(str(lib))
