"""Generated CUDA kernels compiled for the host (tests without a GPU): a shim for CUDA's built-ins, and the build.

Threads run one after another: a launcher sets blockIdx/threadIdx and calls the kernel for each thread, so barriers
are no-ops and only kernels whose threads do not wait on each other's shared-memory writes can be emulated. With
`threads=True` the threads of a block run as OS threads instead (ca_run_block), and __syncthreads is a barrier over
them, so kernels whose threads combine through shared memory run too; __syncwarp is the same block-wide barrier,
which is a valid (stronger) stand-in where every thread of the block reaches it, as in the generated reductions.
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
THREADED_SHIM = r"""
#include <barrier>
#include <thread>
#include <vector>
#define __global__
#define __device__
#define __forceinline__ inline
#define __restrict__ __restrict
#define __shared__ static
#define __launch_bounds__(n)
#define __align__(n) __attribute__((aligned(n)))
struct ca_dim3 { unsigned x, y, z; };
static thread_local ca_dim3 blockIdx, threadIdx;
static ca_dim3 gridDim, blockDim;
struct uint4 { unsigned x, y, z, w; };
struct uint2 { unsigned x, y; };
static std::barrier<>* ca_block_barrier;
static inline void __syncthreads() { ca_block_barrier->arrive_and_wait(); }
static inline void __syncwarp() { ca_block_barrier->arrive_and_wait(); }
// One block: `threads` OS threads, each with its own threadIdx, all running `kernel` (blocks run one at a time,
// so a kernel's static __shared__ arrays are the block's).
template <class F> static void ca_run_block(unsigned bx, unsigned by, unsigned threads, F&& kernel) {
  std::barrier<> bar(threads);
  ca_block_barrier = &bar;
  std::vector<std::thread> ts;
  for (unsigned t = 0; t < threads; ++t)
    ts.emplace_back([&, t] { blockIdx = {bx, by, 0}; threadIdx = {t, 0, 0}; kernel(); });
  for (auto& th : ts) th.join();
}
#include "ca_ufuncs.cuh"
"""


def build(parts, directory, threads=False):
    """Compile SHIM (THREADED_SHIM with `threads`) followed by `parts` (C++ texts) into a shared library in
    `directory`; skip without g++."""
    cxx = shutil.which("g++") or shutil.which("c++")
    if not cxx:
        pytest.skip("no host C++ compiler")
    src, lib = directory / "kernels.cpp", directory / "kernels.so"
    src.write_text("\n".join([THREADED_SHIM if threads else SHIM] + list(parts)) + "\n")
    std = ["-std=c++20", "-pthread"] if threads else ["-std=c++17"]
    r = subprocess.run([cxx, *std, "-O1", "-fPIC", "-shared", "-w", f"-I{HEADERS}", str(src), "-o", str(lib)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-6000:]
    return ctypes.CDLL(str(lib))
