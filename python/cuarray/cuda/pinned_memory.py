"""Pinned host memory (cuarray.cuda.pinned_memory): a pool and the allocator of pinned buffers."""
from cuarray import _core

PinnedMemoryPool = _core.PinnedMemoryPool
PinnedMemoryPointer = _core.PinnedMemoryPointer

_default_pool = None
_allocator = None


def get_default_pinned_memory_pool():
    global _default_pool
    if _default_pool is None:
        _default_pool = _core.get_default_pinned_memory_pool()
    return _default_pool


def set_pinned_memory_allocator(allocator=None):
    """Set the allocator of pinned memory: ``pool.malloc``, a function, or None for no pooling."""
    global _allocator
    _allocator = allocator if allocator is not None else _core.alloc_pinned_memory_unpooled


def alloc_pinned_memory(size):
    """Pinned host memory of `size` bytes; usable with numpy.frombuffer."""
    if _allocator is None:
        return get_default_pinned_memory_pool().malloc(size)
    return _allocator(size)


def is_memory_pinned(data):
    """Whether the host address ``data`` (an int) lies in page-locked memory known to CUDA."""
    from cuarray.cuda import runtime
    return runtime.pointerGetMemoryType(data) == runtime.memoryTypeHost
