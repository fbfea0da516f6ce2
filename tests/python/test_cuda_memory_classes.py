"""CuPy's memory classes (Memory, ManagedMemory, UnownedMemory, MemoryPointer's copies and arithmetic,
malloc_managed, malloc_async), MemoryPool.free_all_free / n_free_blocks, and memory hooks on the pool."""
import ctypes
import io
import json

import numpy
import pytest

import cuarray as cp
from cuarray import cuda
from cuarray.cuda import memory_hooks

gpu = pytest.mark.gpu


# ---------------------------------------------------------------------------------------------------------
# CPU

def test_names():
    for name in ("Memory", "ManagedMemory", "UnownedMemory", "MemoryPointer", "MemoryPool", "MemoryHook",
                 "malloc_managed", "malloc_async", "is_memory_pinned"):
        assert hasattr(cuda, name), name
    assert issubclass(cuda.ManagedMemory, cuda.Memory)
    assert issubclass(cuda.UnownedMemory, cuda.Memory)
    for name in ("copy_from_device", "copy_from_device_async", "copy_from_host", "copy_from_host_async",
                 "copy_from", "copy_from_async", "copy_to_host", "copy_to_host_async", "memset", "memset_async",
                 "__add__", "__iadd__", "__sub__", "__isub__", "__radd__"):
        assert callable(getattr(cuda.MemoryPointer, name)), name
    assert callable(cuda.MemoryPool.free_all_free)
    assert callable(cuda.MemoryPool.n_free_blocks)


def test_memory_pointer_needs_memory():
    with pytest.raises(TypeError):
        cuda.MemoryPointer(object(), 0)


def test_unowned_memory_of_host_buffer_keeps_owner():
    # No device needed: the pointer is only recorded (with an explicit device id).
    owner = bytearray(64)
    m = cuda.UnownedMemory(ctypes.addressof(ctypes.c_char.from_buffer(owner)), 64, owner, device_id=0)
    assert m.size == 64 and m.device_id == 0
    p = cuda.MemoryPointer(m, 8)
    assert p.ptr == m.ptr + 8
    assert p.mem is m
    q = p + 8
    assert q.ptr == m.ptr + 16 and q.mem is m
    q -= 16
    assert q.ptr == m.ptr
    q += 4
    assert q.ptr == m.ptr + 4
    assert (4 + p).ptr == p.ptr + 4
    assert p.device_id == 0


def test_memory_hook_protocol_without_device():
    class Hook(cuda.MemoryHook):
        name = "test_hook"

    h = Hook()
    with h:
        assert cuda.memory_hook.get_memory_hooks()["test_hook"] is h
        with pytest.raises(KeyError):
            with Hook():
                pass
    assert "test_hook" not in cuda.memory_hook.get_memory_hooks()
    # Every callback exists and accepts CuPy's keyword arguments.
    h.alloc_preprocess(device_id=0, mem_size=512)
    h.malloc_postprocess(device_id=0, size=1, mem_size=512, mem_ptr=0, pmem_id=0)


def test_line_profile_report_format():
    hook = memory_hooks.LineProfileHook()
    hook.malloc_preprocess(device_id=0, size=100, mem_size=512)
    hook.alloc_preprocess(device_id=0, mem_size=2048)
    out = io.StringIO()
    hook.print_report(file=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "_root (512.00B, 2.00KB)"
    assert any("test_line_profile_report_format" in line for line in lines[1:])


def test_debug_print_format():
    out = io.StringIO()
    hook = memory_hooks.DebugPrintHook(file=out)
    hook.malloc_postprocess(device_id=0, size=1, mem_size=512, mem_ptr=4096, pmem_id=255)
    hook.free_postprocess(device_id=0, mem_size=512, mem_ptr=4096, pmem_id=255)
    hook.alloc_postprocess(device_id=0, mem_size=512, mem_ptr=4096)
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert records[0] == {"hook": "malloc", "device_id": 0, "size": 1, "mem_size": 512, "mem_ptr": 4096,
                          "pmem_id": "0xff"}
    assert records[1]["hook"] == "free" and records[2]["hook"] == "alloc"


# ---------------------------------------------------------------------------------------------------------
# GPU

@gpu
def test_memory_and_pointer_copies():
    n = 256
    host = numpy.arange(n, dtype=numpy.uint8)
    back = numpy.zeros(n, dtype=numpy.uint8)
    m = cuda.Memory(n)
    assert m.size == n and m.ptr != 0 and m.device_id == cuda.Device().id
    p = cuda.MemoryPointer(m, 0)
    p.copy_from_host(host.ctypes.data, n)
    p.copy_to_host(ctypes.c_void_p(back.ctypes.data), n)
    numpy.testing.assert_array_equal(back, host)
    q = cuda.MemoryPointer(cuda.Memory(n), 0)
    q.copy_from_device(p, n)
    q.memset(0, 16)
    q.copy_to_host(back.ctypes.data, n)
    expected = host.copy()
    expected[:16] = 0
    numpy.testing.assert_array_equal(back, expected)
    (q + 16).copy_from(p, 8)  # a MemoryPointer source: device to device
    q.copy_to_host(back.ctypes.data, n)
    expected[16:24] = host[:8]
    numpy.testing.assert_array_equal(back, expected)


@gpu
def test_async_copies_on_a_stream():
    n = 1024
    src = cp.empty_pinned((n,), dtype=numpy.uint8)
    src[...] = numpy.arange(n) % 251
    dst = cp.zeros_pinned((n,), dtype=numpy.uint8)
    s = cuda.Stream(non_blocking=True)
    p = cuda.alloc(n)
    p.copy_from_host_async(src.ctypes.data, n, s)
    p.memset_async(7, 4, s)
    q = cuda.alloc(n)
    q.copy_from_device_async(p, n, s)
    q.copy_to_host_async(dst.ctypes.data, n, s)
    s.synchronize()
    expected = src.copy()
    expected[:4] = 7
    numpy.testing.assert_array_equal(dst, expected)
    with s:
        q.copy_from_async(p + 8, 8)  # the current stream by default
        q.copy_to_host_async(dst.ctypes.data, n)
    s.synchronize()
    expected[:8] = src[8:16]
    numpy.testing.assert_array_equal(dst, expected)


@gpu
def test_managed_memory():
    p = cuda.malloc_managed(64)
    assert isinstance(p.mem, cuda.ManagedMemory)
    assert cuda.runtime.pointerGetMemoryType(p.ptr) == cuda.runtime.memoryTypeManaged
    m = cuda.ManagedMemory(128)
    assert m.size == 128
    m.prefetch(cuda.get_current_stream())
    m.advise(cuda.runtime.cudaMemAdviseSetReadMostly, cuda.Device())
    p = cuda.MemoryPointer(m, 0)
    p.memset(3, 128)
    back = numpy.zeros(128, dtype=numpy.uint8)
    p.copy_to_host(back.ctypes.data, 128)
    assert (back == 3).all()


@gpu
def test_malloc_async():
    if not cuda.runtime.deviceGetAttribute(cuda.runtime.cudaDevAttrMemoryPoolsSupported, cuda.Device().id):
        pytest.skip("no stream-ordered allocator on this device")
    p = cuda.malloc_async(1000)
    assert p.ptr != 0
    p.memset_async(1, 1000)
    back = numpy.zeros(1000, dtype=numpy.uint8)
    p.copy_to_host(back.ctypes.data, 1000)
    assert (back == 1).all()


@gpu
def test_unowned_memory_of_device_array():
    a = cp.arange(10, dtype=numpy.int64)
    m = cuda.UnownedMemory(a.data.ptr, a.nbytes, a)
    assert m.device_id == a.device.id
    p = cuda.MemoryPointer(m, 8)
    back = numpy.zeros(9, dtype=numpy.int64)
    p.copy_to_host(back.ctypes.data, back.nbytes)
    numpy.testing.assert_array_equal(back, numpy.arange(1, 10))


@gpu
def test_pool_free_all_free_and_n_free_blocks():
    pool = cuda.MemoryPool()
    with cuda.using_allocator(pool.malloc):
        a = cp.empty(1000, dtype=numpy.float32)
        b = cp.empty(3000, dtype=numpy.float32)
        del a, b
    assert pool.n_free_blocks() >= 1
    assert pool.free_bytes() > 0
    pool.free_all_free()
    assert pool.n_free_blocks() == 0
    assert pool.total_bytes() == 0


class _Recorder(cuda.MemoryHook):
    name = "recorder"

    def __init__(self):
        self.events = []

    def alloc_preprocess(self, **kw):
        self.events.append(("alloc_pre", kw))

    def alloc_postprocess(self, **kw):
        self.events.append(("alloc_post", kw))

    def malloc_preprocess(self, **kw):
        self.events.append(("malloc_pre", kw))

    def malloc_postprocess(self, **kw):
        self.events.append(("malloc_post", kw))

    def free_preprocess(self, **kw):
        self.events.append(("free_pre", kw))

    def free_postprocess(self, **kw):
        self.events.append(("free_post", kw))


@gpu
def test_hooks_see_pool_allocations_and_frees():
    pool = cuda.MemoryPool()
    rec = _Recorder()
    dev = cuda.Device().id
    with cuda.using_allocator(pool.malloc):
        with rec:
            a = cp.empty(1000, dtype=numpy.float32)  # 4000 bytes -> 4096, a new segment
            ptr = a.data.ptr
            del a
            b = cp.empty(1000, dtype=numpy.float32)  # the same block again: no cudaMalloc
            del b
    kinds = [k for k, _ in rec.events]
    assert kinds == ["malloc_pre", "alloc_pre", "alloc_post", "malloc_post", "free_pre", "free_post",
                     "malloc_pre", "malloc_post", "free_pre", "free_post"]
    ev = dict(rec.events[:4])
    assert ev["malloc_pre"] == {"device_id": dev, "size": 4000, "mem_size": 4096}
    assert ev["alloc_pre"]["mem_size"] >= 4096 and ev["alloc_post"]["mem_ptr"] != 0
    assert ev["malloc_post"]["mem_ptr"] == ptr and ev["malloc_post"]["pmem_id"] != 0
    free_pre = rec.events[4][1]
    assert free_pre["mem_ptr"] == ptr and free_pre["mem_size"] == 4096
    assert free_pre["pmem_id"] == ev["malloc_post"]["pmem_id"]
    # Outside the block nothing is reported.
    n = len(rec.events)
    with cuda.using_allocator(pool.malloc):
        c = cp.empty(10)
        del c
    assert len(rec.events) == n
    pool.free_all_blocks()


@gpu
def test_hook_on_default_pool_and_line_profile():
    hook = memory_hooks.LineProfileHook()
    with hook:
        a = cp.ones((256, 256), dtype=numpy.float64)
        del a
    out = io.StringIO()
    hook.print_report(file=out)
    text = out.getvalue()
    assert text.startswith("_root (512.00KB, ")
    assert "test_hook_on_default_pool_and_line_profile" in text


@gpu
def test_debug_print_hook_on_pool():
    out = io.StringIO()
    with memory_hooks.DebugPrintHook(file=out):
        a = cp.empty(10, dtype=numpy.float32)
        del a
    hooks = [json.loads(line)["hook"] for line in out.getvalue().splitlines()]
    assert "malloc" in hooks and "free" in hooks


@gpu
def test_hook_error_propagates_from_malloc():
    class Failing(cuda.MemoryHook):
        name = "failing"

        def malloc_preprocess(self, **kw):
            raise ValueError("refused")

    with Failing():
        with pytest.raises(ValueError, match="refused"):
            cp.empty(10)
    b = cp.empty(10)  # the hook is gone
    del b
