"""CuPy's memory hooks (cuarray.cuda.MemoryHook): callbacks on the memory pool's allocations and frees."""
import collections
import threading

from cuarray import _core

_local = threading.local()


def get_memory_hooks():
    """The hooks registered on the calling thread, by name (an OrderedDict)."""
    hooks = getattr(_local, "hooks", None)
    if hooks is None:
        hooks = _local.hooks = collections.OrderedDict()
    return hooks


def _has_memory_hooks():
    return bool(getattr(_local, "hooks", None))


def _dispatch(event, **kwargs):
    # Called by the pool (python/src/cuda_api.cpp) on threads with hooks; a copy, so that a hook may leave
    # its `with` block from inside a callback.
    for hook in list(get_memory_hooks().values()):
        getattr(hook, event)(**kwargs)


class MemoryHook:
    """Base class of memory hooks: override any of the six callbacks. ``with hook:`` registers the hook on
    the calling thread for the block.

    The memory pool (cuarray.cuda.MemoryPool, the default allocator of arrays) calls, for each request,
    malloc_preprocess, then alloc_preprocess and alloc_postprocess if the pool had to get a new segment from
    cudaMalloc, then malloc_postprocess; and free_preprocess and free_postprocess around returning a block
    to the pool. alloc_* of a new segment are reported once cudaMalloc has returned (cuarray allocates under
    the pool's lock, where Python cannot run)."""

    name = "MemoryHook"

    def __enter__(self):
        hooks = get_memory_hooks()
        if self.name in hooks:
            raise KeyError(f"memory hook {self.name} already exists")
        hooks[self.name] = self
        if len(hooks) == 1:
            _core._set_memory_hook_dispatch(_dispatch)
        return self

    def __exit__(self, *exc):
        hooks = get_memory_hooks()
        del hooks[self.name]
        if not hooks:
            _core._set_memory_hook_dispatch(None)

    def alloc_preprocess(self, **kwargs):
        """Before the pool gets memory from the device. Keyword args: device_id, mem_size."""

    def alloc_postprocess(self, **kwargs):
        """After the pool got memory from the device. Keyword args: device_id, mem_size, mem_ptr (0 on
        failure)."""

    def malloc_preprocess(self, **kwargs):
        """Before memory is taken from the pool. Keyword args: device_id, size, mem_size (rounded)."""

    def malloc_postprocess(self, **kwargs):
        """After memory was taken from the pool. Keyword args: device_id, size, mem_size, mem_ptr, pmem_id
        (both 0 on failure)."""

    def free_preprocess(self, **kwargs):
        """Before memory returns to the pool. Keyword args: device_id, mem_size, mem_ptr, pmem_id."""

    def free_postprocess(self, **kwargs):
        """After memory returned to the pool. Keyword args: device_id, mem_size, mem_ptr, pmem_id."""
