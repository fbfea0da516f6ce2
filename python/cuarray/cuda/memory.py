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


def get_default_memory_pool() -> MemoryPool:
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


# ---------------------------------------------------------------------------------------------------------
# CuPy's memory classes in full (issue 17): Memory(size), ManagedMemory, UnownedMemory, MemoryPointer(mem, offset)
# with its copy and memset methods, malloc_async.
ManagedMemory = _core.ManagedMemory
UnownedMemory = _core.UnownedMemory


def _host_address(mem):
    """A host pointer given as an int or a ctypes.c_void_p (CuPy accepts both)."""
    return mem if isinstance(mem, int) else (mem.value or 0)


def _stream_ptr(stream):
    if stream is None:
        return _core.get_current_stream_ptr()
    return stream.ptr


def _refuse_while_capturing(what):
    from cuarray.cuda import runtime
    ptr = _core.get_current_stream_ptr()
    if ptr not in (0, runtime.streamLegacy, runtime.streamPerThread) and runtime.streamIsCapturing(ptr):
        raise RuntimeError(f"the current stream is capturing, so {what} cannot be used")


def _copy_from_device(self, src, size):
    """Copy ``size`` bytes from device memory ``src`` (a MemoryPointer) here, on the legacy default stream."""
    from cuarray.cuda import runtime
    if size > 0:
        _refuse_while_capturing("synchronous API calls")
        if src.device_id != self.device_id:
            _enable_peer_access(src.device_id, self.device_id)
        runtime.memcpy(self.ptr, src.ptr, size, runtime.memcpyDefault)


def _copy_from_device_async(self, src, size, stream=None):
    """Copy ``size`` bytes from device memory ``src`` here, on ``stream`` (the current one by default)."""
    from cuarray.cuda import runtime
    if size > 0:
        if src.device_id != self.device_id:
            _enable_peer_access(src.device_id, self.device_id)
        runtime.memcpyAsync(self.ptr, src.ptr, size, runtime.memcpyDefault, _stream_ptr(stream))


def _copy_from_host(self, mem, size):
    """Copy ``size`` bytes from the host address ``mem`` (int or ctypes.c_void_p) here."""
    from cuarray.cuda import runtime
    if size > 0:
        _refuse_while_capturing("synchronous API calls")
        runtime.memcpy(self.ptr, _host_address(mem), size, runtime.memcpyHostToDevice)


def _copy_from_host_async(self, mem, size, stream=None):
    """Copy ``size`` bytes from pinned host memory at ``mem`` here, on ``stream``."""
    from cuarray.cuda import runtime
    if size > 0:
        runtime.memcpyAsync(self.ptr, _host_address(mem), size, runtime.memcpyHostToDevice, _stream_ptr(stream))


def _copy_from(self, mem, size):
    """Copy ``size`` bytes from ``mem``: a MemoryPointer (device) or a host address."""
    if isinstance(mem, MemoryPointer):
        self.copy_from_device(mem, size)
    else:
        self.copy_from_host(mem, size)


def _copy_from_async(self, mem, size, stream=None):
    if isinstance(mem, MemoryPointer):
        self.copy_from_device_async(mem, size, stream)
    else:
        self.copy_from_host_async(mem, size, stream)


def _copy_to_host(self, mem, size):
    """Copy ``size`` bytes from here to the host address ``mem``."""
    from cuarray.cuda import runtime
    if size > 0:
        _refuse_while_capturing("synchronous API calls")
        runtime.memcpy(_host_address(mem), self.ptr, size, runtime.memcpyDeviceToHost)


def _copy_to_host_async(self, mem, size, stream=None):
    """Copy ``size`` bytes from here to pinned host memory at ``mem``, on ``stream``."""
    from cuarray.cuda import runtime
    if size > 0:
        runtime.memcpyAsync(_host_address(mem), self.ptr, size, runtime.memcpyDeviceToHost, _stream_ptr(stream))


def _memset(self, value, size):
    """Set ``size`` bytes here to ``value`` (a byte)."""
    from cuarray.cuda import runtime
    if size > 0:
        _refuse_while_capturing("synchronous API calls")
        runtime.memset(self.ptr, value, size)


def _memset_async(self, value, size, stream=None):
    from cuarray.cuda import runtime
    if size > 0:
        runtime.memsetAsync(self.ptr, value, size, _stream_ptr(stream))


def _enable_peer_access(device, peer):
    from cuarray.cuda import runtime
    from cuarray.cuda.device import Device
    if device == peer:
        return
    if not runtime.deviceCanAccessPeer(device, peer):
        raise ValueError(f"device {device} cannot access device {peer}")
    with Device(device):
        runtime._deviceEnsurePeerAccess(peer)


def _device_property(self):
    from cuarray.cuda.device import Device
    return Device(self.device_id)


for _name, _f in (("copy_from_device", _copy_from_device), ("copy_from_device_async", _copy_from_device_async),
                  ("copy_from_host", _copy_from_host), ("copy_from_host_async", _copy_from_host_async),
                  ("copy_from", _copy_from), ("copy_from_async", _copy_from_async),
                  ("copy_to_host", _copy_to_host), ("copy_to_host_async", _copy_to_host_async),
                  ("memset", _memset), ("memset_async", _memset_async)):
    _f.__name__ = _f.__qualname__ = _name
    setattr(MemoryPointer, _name, _f)
MemoryPointer.device = property(_device_property)
Memory.device = property(_device_property)
del _name, _f


def _managed_prefetch(self, stream):
    """Prefetch this managed memory to its device, on ``stream``."""
    from cuarray.cuda import runtime
    runtime.memPrefetchAsync(self.ptr, self.size, self.device_id, stream.ptr)


def _managed_advise(self, advise, device):
    """cudaMemAdvise over this managed memory; ``device`` is a Device or a device id."""
    from cuarray.cuda import runtime
    runtime.memAdvise(self.ptr, self.size, advise, int(device))


ManagedMemory.prefetch = _managed_prefetch
ManagedMemory.advise = _managed_advise


def malloc_async(size):
    """Device memory of ``size`` bytes from the driver's stream-ordered allocator (cudaMallocAsync) on the
    current stream; it is freed in the order of the stream current when it is released."""
    return MemoryAsyncPool().malloc(size)
