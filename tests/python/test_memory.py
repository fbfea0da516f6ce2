"""Tests of the device memory pool, limits, out-of-memory errors, pinned and async pools."""

import gc
import os
import subprocess
import sys

import numpy
import pytest

import cuarray as cp

pytestmark = pytest.mark.gpu

OutOfMemoryError = cp.cuda.memory.OutOfMemoryError
MiB = 1 << 20


def _digits(text):
    """The message with thousands separators removed, for number lookups."""
    return text.replace(',', '').replace('_', '')


@pytest.fixture
def pool():
    """A fresh pool, made current for the test, emptied afterwards."""
    p = cp.cuda.MemoryPool()
    with cp.cuda.using_allocator(p.malloc):
        yield p
    gc.collect()
    cp.cuda.Device().synchronize()
    p.free_all_blocks()


def _check_consistent(p):
    assert p.total_bytes() == p.used_bytes() + p.free_bytes()
    assert p.used_bytes() >= 0 and p.free_bytes() >= 0
    assert p.n_free_blocks() >= 0


# --------------------------------------------------------------------------
# Default pool and statistics
# --------------------------------------------------------------------------

def test_default_pool_statistics_are_ints():
    p = cp.get_default_memory_pool()
    for v in (p.used_bytes(), p.total_bytes(), p.free_bytes(),
              p.n_free_blocks()):
        assert isinstance(v, int) and v >= 0
    _check_consistent(p)


def test_default_pool_tracks_allocation():
    p = cp.get_default_memory_pool()
    gc.collect()
    before = p.used_bytes()
    a = cp.empty(1000, dtype=cp.float32)     # 4000 bytes -> 4096
    assert p.used_bytes() == before + 4096
    del a
    assert p.used_bytes() == before
    _check_consistent(p)


def test_default_pool_free_all_blocks():
    # free_all_blocks releases only segments that are entirely free (as in
    # CuPy): free chunks split off a segment that still holds a live
    # allocation (from an earlier test, say) stay in the pool.  So check
    # that the freed 3 MiB is returned, not that the pool is empty.
    p = cp.get_default_memory_pool()
    gc.collect()
    cp.cuda.Device().synchronize()
    p.free_all_blocks()
    # Free chunks left in partly used segments: a request larger than all of
    # them cannot be carved from one and gets a segment of its own.
    nbytes = 3 * MiB + p.free_bytes()
    a = cp.empty(nbytes, dtype=cp.uint8)
    del a
    assert p.free_bytes() >= nbytes
    total = p.total_bytes()
    p.free_all_blocks()
    assert p.free_bytes() < nbytes          # the freed block is gone...
    assert p.total_bytes() <= total - nbytes  # ...and returned to the device
    _check_consistent(p)


def test_default_pool_reuses_a_small_freed_block_on_its_stream():
    # A thread's last freed small block of the default pool goes to its next
    # allocation of that size on the same stream (Note [freed-block stash]),
    # never to another stream's, and the statistics count it free at once.
    p = cp.get_default_memory_pool()
    gc.collect()
    before = p.used_bytes()
    s1, s2 = cp.cuda.Stream(), cp.cuda.Stream()
    with s1:
        a = cp.empty(100, dtype=cp.float32)
    ptr = a.data.ptr
    del a
    with s2:
        b = cp.empty(100, dtype=cp.float32)      # same size, other stream
    assert b.data.ptr != ptr
    with s1:
        c = cp.empty(100, dtype=cp.float32)      # same size and stream
    assert c.data.ptr == ptr
    assert p.used_bytes() == before + 2 * 512
    del c
    assert p.used_bytes() == before + 512
    with s1:
        c = cp.arange(100, dtype=cp.float32)
        b[...] = 7
    numpy.testing.assert_array_equal(c.get(), numpy.arange(100, dtype=numpy.float32))
    numpy.testing.assert_array_equal(b.get(), numpy.full(100, 7, numpy.float32))
    del b, c
    assert p.used_bytes() == before
    _check_consistent(p)


def test_default_pool_counts_other_threads_frees():
    # A block another thread freed and kept for its next allocation (Note
    # [freed-block stash]) counts as free in every query, from any thread,
    # even before that thread has exited.
    import threading
    p = cp.get_default_memory_pool()
    gc.collect()
    cp.cuda.Device().synchronize()
    before = p.used_bytes()
    kept = []

    def work():
        for n in (10, 100, 10):
            x = cp.arange(n, dtype=cp.float64) * 2
            kept.append(float(x.sum()))
            del x

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert kept == [90.0, 9900.0, 90.0]
    assert p.used_bytes() == before
    _check_consistent(p)

    go, done = threading.Event(), threading.Event()
    seen = []

    def idle_worker():
        x = cp.ones(64, dtype=cp.int32)
        del x
        seen.append(p.used_bytes())     # the worker sees its own free
        done.set()
        go.wait(30)

    t = threading.Thread(target=idle_worker)
    t.start()
    assert done.wait(30)
    assert p.used_bytes() == before      # the worker's block is still free
    go.set()
    t.join()
    assert seen == [before]
    assert p.used_bytes() == before


def test_default_pool_statistics_while_threads_allocate():
    # Threads allocate and free small blocks (each keeping its last one
    # aside) while the main thread queries and empties the pool, which takes
    # those blocks back: no block is lost or given out twice.
    import threading
    p = cp.get_default_memory_pool()
    gc.collect()
    cp.cuda.Device().synchronize()
    before = p.used_bytes()
    stop = threading.Event()
    errors = []

    def churn(seed):
        try:
            s = cp.cuda.Stream()
            rng = numpy.random.RandomState(seed)
            while not stop.is_set():
                n = int(rng.choice([1, 100, 1000, 5000]))
                with s:
                    x = cp.arange(n, dtype=cp.int32)
                    y = x + 1
                    total = int(y.sum())
                if total != n * (n + 1) // 2:
                    errors.append((n, total))
                del x, y
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=churn, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for i in range(300):
        used, total = p.used_bytes(), p.total_bytes()
        assert before <= used <= total
        if i % 50 == 0:
            p.free_all_blocks()
    stop.set()
    for t in threads:
        t.join()
    assert errors == []
    gc.collect()
    cp.cuda.Device().synchronize()
    assert p.used_bytes() == before
    _check_consistent(p)


def test_get_default_memory_pool_is_singleton():
    assert cp.get_default_memory_pool() is cp.get_default_memory_pool()
    assert cp.cuda.get_default_memory_pool() is cp.get_default_memory_pool()
    assert (cp.get_default_pinned_memory_pool()
            is cp.cuda.get_default_pinned_memory_pool())


# --------------------------------------------------------------------------
# A fresh pool through using_allocator
# --------------------------------------------------------------------------

def test_fresh_pool_starts_empty():
    p = cp.cuda.MemoryPool()
    assert p.used_bytes() == p.total_bytes() == p.free_bytes() == 0
    assert p.n_free_blocks() == 0


def test_using_allocator_routes_allocations(pool):
    default = cp.get_default_memory_pool()
    gc.collect()
    d_before = default.used_bytes()
    a = cp.empty(1000, dtype=cp.float32)
    assert pool.used_bytes() == 4096
    assert default.used_bytes() == d_before
    del a


def test_using_allocator_restores_previous_allocator():
    p = cp.cuda.MemoryPool()
    default = cp.get_default_memory_pool()
    with cp.cuda.using_allocator(p.malloc):
        a = cp.empty(10)
    gc.collect()
    b_before = default.used_bytes()
    b = cp.empty(10)
    assert default.used_bytes() == b_before + 512
    assert p.used_bytes() == 512
    del a, b
    assert p.used_bytes() == 0
    p.free_all_blocks()


@pytest.mark.parametrize('nbytes,rounded', [
    (1, 512), (511, 512), (512, 512), (513, 1024), (4000, 4096),
    (10 * 512, 10 * 512), (MiB + 1, MiB + 512),
])
def test_sizes_round_to_512(pool, nbytes, rounded):
    a = cp.empty(nbytes, dtype=cp.uint8)
    assert pool.used_bytes() == rounded
    assert pool.total_bytes() >= rounded
    del a
    assert pool.used_bytes() == 0


def test_freed_block_is_reused(pool):
    a = cp.empty(1000, dtype=cp.float32)
    ptr = a.data.ptr
    total = pool.total_bytes()
    assert total >= 4096
    del a
    assert pool.used_bytes() == 0
    assert pool.free_bytes() == total
    assert pool.n_free_blocks() >= 1
    b = cp.empty(1000, dtype=cp.float32)
    assert b.data.ptr == ptr
    assert pool.total_bytes() == total      # reused, nothing new allocated
    assert pool.used_bytes() == 4096
    _check_consistent(pool)
    del b


def test_smaller_request_reuses_larger_free_block(pool):
    a = cp.empty(MiB, dtype=cp.uint8)
    del a
    total = pool.total_bytes()
    b = cp.empty(1000, dtype=cp.uint8)
    assert pool.total_bytes() == total      # split, not a new cudaMalloc
    assert pool.used_bytes() == 1024
    _check_consistent(pool)
    del b
    assert pool.used_bytes() == 0


def test_free_all_blocks_returns_memory(pool):
    arrays = [cp.empty(n, dtype=cp.uint8) for n in (100, 5000, MiB)]
    assert pool.used_bytes() == 512 + 5120 + MiB
    del arrays
    assert pool.used_bytes() == 0
    assert pool.total_bytes() > 0
    pool.free_all_blocks()
    assert pool.total_bytes() == 0
    assert pool.free_bytes() == 0
    assert pool.n_free_blocks() == 0


def test_free_all_blocks_keeps_blocks_in_use(pool):
    a = cp.ones(1000, dtype=cp.float64)
    b = cp.empty(1000, dtype=cp.float64)
    del b
    pool.free_all_blocks()
    assert pool.used_bytes() == 8192
    assert pool.total_bytes() >= 8192
    _check_consistent(pool)
    assert a.get().sum() == 1000
    del a


def test_view_keeps_memory_alive(pool):
    a = cp.arange(1000, dtype=cp.float32)
    v = a[10:20]
    del a
    gc.collect()
    assert pool.used_bytes() == 4096
    assert v.get().tolist() == list(range(10, 20))
    del v
    gc.collect()
    assert pool.used_bytes() == 0


def test_zero_size_arrays(pool):
    a = cp.empty(0, dtype=cp.float32)
    b = cp.zeros((3, 0))
    assert a.size == 0 and b.size == 0
    assert pool.used_bytes() in (0, 512, 1024)
    del a, b
    assert pool.used_bytes() == 0


# --------------------------------------------------------------------------
# MemoryPointer
# --------------------------------------------------------------------------

def test_malloc_returns_memory_pointer(pool):
    mp = pool.malloc(1000)
    assert isinstance(mp, cp.cuda.MemoryPointer)
    assert isinstance(mp.ptr, int) and mp.ptr != 0
    assert mp.size >= 1000
    assert mp.device_id == 0
    assert mp.mem is not None
    assert pool.used_bytes() == 1024
    del mp
    assert pool.used_bytes() == 0


def test_memory_pointer_backs_an_array(pool):
    mp = pool.malloc(40)
    a = cp.ndarray((10,), dtype=cp.float32, memptr=mp)
    assert a.data.ptr == mp.ptr
    a.fill(7)
    assert a.get().tolist() == [7.0] * 10
    del a, mp
    assert pool.used_bytes() == 0


def test_memory_pointer_offset_arithmetic(pool):
    mp = pool.malloc(1024)
    mp2 = mp + 256
    assert mp2.ptr == mp.ptr + 256
    a = cp.ndarray((4,), dtype=cp.int32, memptr=mp2)
    a.fill(3)
    assert a.get().tolist() == [3, 3, 3, 3]
    del a, mp2, mp


def test_get_allocator_returns_callable_allocator():
    alloc = cp.cuda.get_allocator()
    assert callable(alloc)
    mp = alloc(512)
    assert mp.ptr != 0
    del mp


# --------------------------------------------------------------------------
# Limits and out of memory
# --------------------------------------------------------------------------

def test_set_limit_size_and_get_limit():
    p = cp.cuda.MemoryPool()
    assert p.get_limit() == 0
    p.set_limit(size=10 * MiB)
    assert p.get_limit() == 10 * MiB
    p.set_limit(size=0)
    assert p.get_limit() == 0


def test_set_limit_fraction():
    p = cp.cuda.MemoryPool()
    _, total = cp.cuda.Device().mem_info
    p.set_limit(fraction=0.5)
    assert abs(p.get_limit() - total // 2) <= MiB
    p.set_limit(fraction=0)
    assert p.get_limit() == 0


@pytest.mark.parametrize('kwargs', [
    {'fraction': 1.5}, {'fraction': -0.1}, {'size': -1},
    {'size': 10, 'fraction': 0.5},
])
def test_set_limit_rejects_bad_values(kwargs):
    p = cp.cuda.MemoryPool()
    with pytest.raises(ValueError):
        p.set_limit(**kwargs)


def test_allocation_over_limit_raises_clear_error(pool):
    pool.set_limit(size=MiB)
    keep = cp.empty(256 * 1024, dtype=cp.uint8)      # 256 KiB in use
    with pytest.raises(OutOfMemoryError) as ei:
        cp.empty(2 * MiB, dtype=cp.uint8)
    msg = _digits(str(ei.value))
    assert str(2 * MiB) in msg, msg
    assert str(MiB) in msg, msg
    assert isinstance(ei.value, MemoryError)
    # the pool is intact and usable
    assert pool.used_bytes() == 256 * 1024
    _check_consistent(pool)
    assert pool.total_bytes() <= MiB
    small = cp.ones(512 * 1024 // 8, dtype=cp.float64)   # fits: 768 KiB used
    assert pool.used_bytes() == 768 * 1024
    assert float(small.get().sum()) == 512 * 1024 // 8
    del keep, small
    assert pool.used_bytes() == 0


def test_malloc_over_limit_raises(pool):
    pool.set_limit(size=MiB)
    with pytest.raises(OutOfMemoryError):
        pool.malloc(MiB + 1)
    mp = pool.malloc(MiB)
    assert pool.used_bytes() == MiB
    with pytest.raises(OutOfMemoryError):
        pool.malloc(512)
    del mp
    mp = pool.malloc(512)
    del mp
    assert pool.used_bytes() == 0


def test_limit_frees_cached_blocks_before_failing(pool):
    pool.set_limit(size=4 * MiB)
    a = cp.empty(3 * MiB, dtype=cp.uint8)
    del a                      # 3 MiB cached but free
    # 3.5 MiB does not fit in the cached chunk and 3 + 3.5 MiB exceeds the
    # limit: the pool must release its cached chunk and retry.
    c = cp.empty(7 * MiB // 2, dtype=cp.uint8)
    assert pool.used_bytes() == 7 * MiB // 2
    assert pool.total_bytes() <= 4 * MiB
    del c


def test_huge_request_raises_out_of_memory():
    p = cp.get_default_memory_pool()
    gc.collect()
    before_used = p.used_bytes()
    with pytest.raises(OutOfMemoryError) as ei:
        cp.empty(1 << 50, dtype=cp.uint8)
    assert str(1 << 50) in _digits(str(ei.value))
    assert p.used_bytes() == before_used
    with pytest.raises(OutOfMemoryError):
        p.malloc(1 << 50)
    a = cp.arange(10)
    assert a.get().sum() == 45


def test_huge_shape_does_not_crash():
    # 2**40 float64 elements: 8 TiB
    with pytest.raises((OutOfMemoryError, ValueError)):
        cp.zeros((1 << 20, 1 << 20), dtype=cp.float64)


@pytest.mark.parametrize('value,check', [
    ('1000000', lambda limit, total: limit == 1000000),
    ('50%', lambda limit, total: abs(limit - total // 2) <= MiB),
])
def test_memory_limit_environment_variable(value, check):
    pkg_parent = os.path.dirname(os.path.dirname(os.path.abspath(
        cp.__file__)))
    env = dict(os.environ)
    env['CUARRAY_GPU_MEMORY_LIMIT'] = value
    env['PYTHONPATH'] = os.pathsep.join(
        [pkg_parent] + [p for p in [env.get('PYTHONPATH')] if p])
    code = ('import cuarray; '
            'print(cuarray.get_default_memory_pool().get_limit())')
    r = subprocess.run([sys.executable, '-c', code], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    limit = int(r.stdout.strip().splitlines()[-1])
    _, total = cp.cuda.Device().mem_info
    assert check(limit, total), (value, limit, total)


# --------------------------------------------------------------------------
# A varied workload returns to baseline
# --------------------------------------------------------------------------

def test_varied_workload_returns_to_baseline():
    p = cp.get_default_memory_pool()
    gc.collect()
    cp.cuda.Device().synchronize()
    baseline = p.used_bytes()
    rng = numpy.random.RandomState(0)
    dtypes = [numpy.float32, numpy.float64, numpy.int8, numpy.int64,
              numpy.complex64, numpy.bool_, numpy.uint16]
    kept = []
    s = cp.cuda.Stream()
    for i in range(300):
        n = int(rng.randint(0, 20000))
        dt = dtypes[i % len(dtypes)]
        host = (rng.rand(n) * 100).astype(dt)
        a = cp.asarray(host)
        kind = i % 6
        if kind == 0:
            b = a.copy()
        elif kind == 1:
            b = a[::3]
        elif kind == 2:
            b = a.astype(numpy.complex128 if dt == numpy.complex64
                         else numpy.float64)
        elif kind == 3:
            b = cp.empty_like(a)
            b[...] = a
        elif kind == 4:
            with s:
                b = cp.empty((2, n), dtype=dt)
                b[...] = a[::-1]
        else:
            b = cp.zeros((n, 2), dtype=dt)[:, 1]
        if i % 10 == 0:
            numpy.testing.assert_array_equal(a.get(), host)
        if i % 7 == 0:
            kept.append(b)
        del a, b
        if i % 50 == 0:
            kept = kept[len(kept) // 2:]
    s.synchronize()
    del kept
    gc.collect()
    cp.cuda.Device().synchronize()
    assert p.used_bytes() == baseline
    _check_consistent(p)


# --------------------------------------------------------------------------
# Pinned memory
# --------------------------------------------------------------------------

def test_alloc_pinned_memory():
    n = 4096
    mem = cp.cuda.alloc_pinned_memory(n)
    assert isinstance(mem.ptr, int) and mem.ptr != 0
    assert mem.size() >= n
    buf = numpy.frombuffer(mem, numpy.float32, n // 4)
    buf[:] = numpy.arange(n // 4)
    assert buf[-1] == n // 4 - 1
    a = cp.asarray(buf)
    numpy.testing.assert_array_equal(a.get(), numpy.arange(n // 4,
                                                            dtype=numpy.float32))
    del a, buf, mem


def test_pinned_pool_reuses_released_memory():
    gc.collect()
    pinned = cp.get_default_pinned_memory_pool()
    mem = cp.cuda.alloc_pinned_memory(123457)
    held = pinned.n_free_blocks()
    del mem
    gc.collect()
    assert pinned.n_free_blocks() > held
    cp.cuda.Device().synchronize()
    pinned.free_all_blocks()
    assert pinned.n_free_blocks() == 0


def test_pinned_memory_pool_object():
    p = cp.cuda.PinnedMemoryPool()
    mem = p.malloc(1000)
    assert mem.ptr != 0 and mem.size() >= 1000
    assert p.n_free_blocks() == 0
    del mem
    gc.collect()
    assert p.n_free_blocks() == 1
    p.free_all_blocks()
    assert p.n_free_blocks() == 0


def test_copy_through_pinned_buffer_on_stream():
    s = cp.cuda.Stream(non_blocking=True)
    x = numpy.arange(10000, dtype=numpy.float64)
    mem = cp.cuda.alloc_pinned_memory(x.nbytes)
    host = numpy.frombuffer(mem, x.dtype, x.size)
    host[...] = x
    with s:
        a = cp.asarray(host)
        b = cp.empty_like(a)
        b[...] = a[::-1]          # device work on s that reads the upload
        out_mem = cp.cuda.alloc_pinned_memory(x.nbytes)
        out = numpy.frombuffer(out_mem, x.dtype, x.size)
        b.get(out=out, stream=s, blocking=False)
    s.synchronize()
    numpy.testing.assert_array_equal(out, x[::-1])
    del a, b, host, out, mem, out_mem


# --------------------------------------------------------------------------
# Other allocators
# --------------------------------------------------------------------------

def test_memory_async_pool():
    default = cp.get_default_memory_pool()
    gc.collect()
    before = default.used_bytes()
    async_pool = cp.cuda.MemoryAsyncPool()
    cp.cuda.set_allocator(async_pool.malloc)
    try:
        a = cp.arange(100000, dtype=cp.float32)
        b = cp.empty_like(a)
        b[...] = a[::-1]
        assert default.used_bytes() == before
        numpy.testing.assert_array_equal(
            b.get(), numpy.arange(100000, dtype=numpy.float32)[::-1])
        assert async_pool.used_bytes() >= 2 * 400000
        del a, b
        cp.cuda.Device().synchronize()
    finally:
        cp.cuda.set_allocator(cp.get_default_memory_pool().malloc)
    async_pool.free_all_blocks()
    c = cp.empty(10)
    assert default.used_bytes() == before + 512
    del c


def test_malloc_managed():
    mp = cp.cuda.malloc_managed(4096)
    assert isinstance(mp, cp.cuda.MemoryPointer)
    assert mp.ptr != 0
    a = cp.ndarray((1024,), dtype=cp.float32, memptr=mp)
    a.fill(1.5)
    assert float(a.get().sum()) == 1536.0
    del a, mp


def test_set_allocator_none_uses_plain_cudamalloc():
    default = cp.get_default_memory_pool()
    gc.collect()
    before = default.used_bytes()
    total_before = default.total_bytes()
    cp.cuda.set_allocator(None)
    try:
        a = cp.arange(1000, dtype=cp.int64)
        b = cp.empty_like(a)
        b[...] = a[::-1]
        assert default.used_bytes() == before
        assert default.total_bytes() == total_before
        assert b.get()[0] == 999 and b.get()[-1] == 0
        del a, b
    finally:
        cp.cuda.set_allocator(cp.get_default_memory_pool().malloc)


def test_set_allocator_custom_pool():
    p = cp.cuda.MemoryPool()
    cp.cuda.set_allocator(p.malloc)
    try:
        a = cp.zeros(1000, dtype=cp.float32)
        assert p.used_bytes() == 4096
        del a
        assert p.used_bytes() == 0
    finally:
        cp.cuda.set_allocator(cp.get_default_memory_pool().malloc)
    p.free_all_blocks()
    assert p.total_bytes() == 0


def test_custom_python_allocator_is_called():
    calls = []
    inner = cp.cuda.MemoryPool()

    def alloc(size):
        calls.append(size)
        return inner.malloc(size)

    with cp.cuda.using_allocator(alloc):
        a = cp.empty(100, dtype=cp.float64)
    assert calls and calls[0] >= 800
    assert a.data.ptr != 0
    del a
    inner.free_all_blocks()
