"""The GPU runtime: devices, streams, events, memory (CuPy's cupy.cuda API)."""
from cuarray import _core
from cuarray.cuda import compiler, memory, pinned_memory, runtime
from cuarray.cuda.device import Device, get_device_id
from cuarray.cuda.memory import (
    Memory, MemoryAsyncPool, MemoryPointer, MemoryPool, OutOfMemoryError, alloc, get_allocator,
    get_default_memory_pool, malloc_managed, set_allocator, using_allocator)
from cuarray.cuda.pinned_memory import (
    PinnedMemoryPointer, PinnedMemoryPool, alloc_pinned_memory, get_default_pinned_memory_pool,
    set_pinned_memory_allocator)
from cuarray.cuda.stream import Event, ExternalStream, Stream, get_current_stream, get_elapsed_time


def is_available():
    """Whether a CUDA device can be used."""
    return _core.is_available()


def get_local_runtime_version():
    return _core.runtime_version()


__all__ = [
    "Device", "Event", "ExternalStream", "Memory", "MemoryAsyncPool", "MemoryPointer", "MemoryPool",
    "OutOfMemoryError", "PinnedMemoryPointer", "PinnedMemoryPool", "Stream", "alloc", "alloc_pinned_memory",
    "get_allocator", "get_current_stream", "get_default_memory_pool", "get_default_pinned_memory_pool", "get_device_id", "get_elapsed_time", "is_available",
    "malloc_managed", "memory", "pinned_memory", "runtime", "set_allocator", "set_pinned_memory_allocator",
    "using_allocator",
]

# CuPy's runtime and driver modules, memory classes and hooks, NVTX and the profiler (issue 17).
from cuarray.cuda import driver, memory_hook, memory_hooks, nvtx, profiler  # noqa: E402,F401
from cuarray.cuda.memory import ManagedMemory, UnownedMemory, malloc_async  # noqa: E402,F401
from cuarray.cuda.memory_hook import MemoryHook  # noqa: E402,F401
from cuarray.cuda.pinned_memory import is_memory_pinned  # noqa: E402,F401

__all__ += ["ManagedMemory", "MemoryHook", "UnownedMemory", "driver", "is_memory_pinned", "malloc_async",
            "memory_hook", "memory_hooks", "nvtx", "profiler"]

# Texture and surface objects, explicit cuFFT plans (issue 17 item 6).
from cuarray.cuda import cufft, texture  # noqa: E402,F401

__all__ += ["cufft", "texture"]
from cuarray.cuda._environment import get_cuda_path, get_nvcc_path  # noqa: E402,F401

__all__ += ["get_cuda_path", "get_nvcc_path"]

# CUDA graphs by stream capture (issue 17 item 4).
from cuarray.cuda.graph import Graph  # noqa: E402,F401

__all__ += ["Graph"]


# NCCL (issue 21): imported on first access, as loading libnccl is costly and most programs use one GPU.
def __getattr__(name):
    if name == "nccl":
        import importlib
        return importlib.import_module("cuarray.cuda.nccl")
    raise AttributeError(f"module 'cuarray.cuda' has no attribute {name!r}")
