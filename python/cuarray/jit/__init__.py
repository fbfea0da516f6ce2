"""cuarray.jit: CUDA kernels written in Python (CuPy's cupyx.jit spelling), compiled through NVRTC."""
from cuarray.jit._interface import rawkernel  # noqa: F401
from cuarray.jit._builtins import (  # noqa: F401
    threadIdx, blockIdx, blockDim, gridDim, warpsize, grid, gridsize, laneid, range, syncthreads, syncwarp,
    shared_memory, shfl_sync, shfl_up_sync, shfl_down_sync, shfl_xor_sync, atomic_add, atomic_sub, atomic_exch,
    atomic_min, atomic_max, atomic_inc, atomic_dec, atomic_cas, atomic_and, atomic_or, atomic_xor,
)
from cuarray.jit import cg  # noqa: F401

__all__ = [
    "rawkernel", "threadIdx", "blockIdx", "blockDim", "gridDim", "warpsize", "grid", "gridsize", "laneid", "range",
    "syncthreads", "syncwarp", "shared_memory", "shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync",
    "atomic_add", "atomic_sub", "atomic_exch", "atomic_min", "atomic_max", "atomic_inc", "atomic_dec",
    "atomic_cas", "atomic_and", "atomic_or", "atomic_xor", "cg",
]
