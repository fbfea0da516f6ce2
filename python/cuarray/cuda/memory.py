"""Device memory (cuarray.cuda.memory): pools, pointers, and the allocator new arrays use."""
import contextlib
import threading

from cuarray import _core

MemoryPool = _core.MemoryPool
MemoryAsyncPool = _core.MemoryAsyncPool
MemoryPointer = _core.MemoryPointer
Memory = _core.Memory
OutOfMemoryError = _core.OutOfMemoryError

_default_pool = None
_allocator = None  # the function set with set_allocator; None until set (the default pool's malloc)
_local = threading.local()


def get_default_memory_pool():
    global _default_pool
    if _default_pool is None:
        _default_pool = _core.get_default_memory_pool()
    return _default_pool


def _install(allocator, thread_only):
    """Route allocations to `allocator`: our pools directly (no Python per allocation), else the callable."""
    if allocator is None:
        _core.set_allocator_plain(thread_only)
        return
    owner = getattr(allocator, "__self__", None)
    name = getattr(allocator, "__name__", None)
    if isinstance(owner, MemoryPool) and name == "malloc":
        _core.set_allocator_pool(owner, thread_only)
    elif isinstance(owner, MemoryAsyncPool) and name == "malloc":
        _core.set_allocator_async_pool(owner, thread_only)
    elif callable(allocator):
        _core.set_allocator_python(allocator, thread_only)
    else:
        raise TypeError(f"allocator must be callable or None, not {type(allocator).__name__}")


def set_allocator(allocator=None):
    """Set the allocator of new device memory: ``pool.malloc``, a function ``f(size) -> MemoryPointer``,
    or None for plain cudaMalloc without pooling."""
    global _allocator
    _install(allocator, False)
    _allocator = allocator if allocator is not None else _plain_malloc


def _plain_malloc(size):
    with using_allocator(None):
        return _core.alloc(size)


def get_allocator():
    """The function that allocates device memory now."""
    stack = getattr(_local, "stack", None)
    if stack:
        return stack[-1]
    return _allocator if _allocator is not None else get_default_memory_pool().malloc


@contextlib.contextmanager
def using_allocator(allocator=None):
    """Use `allocator` for the calling thread inside the block (None: plain cudaMalloc)."""
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    stack.append(allocator if allocator is not None else _plain_malloc)
    _install(allocator, True)
    try:
        yield
    finally:
        stack.pop()
        if stack:
            top = stack[-1]
            _install(None if top is _plain_malloc else top, True)
        else:
            _core.reset_allocator(True)


def alloc(size):
    """Allocate `size` bytes with the current allocator on the current device and stream."""
    return _core.alloc(size)


def malloc_managed(size):
    """Managed (unified) memory of `size` bytes."""
    return _core.malloc_managed(size)
