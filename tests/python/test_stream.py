"""Tests of CUDA streams, events, stream ordering and cuarray.profiler.benchmark."""

import threading

import numpy
import pytest

import cuarray as cp

pytestmark = pytest.mark.gpu

Stream = cp.cuda.Stream
Event = cp.cuda.Event
CUDARuntimeError = cp.cuda.runtime.CUDARuntimeError


def current_ptr():
    return cp.cuda.get_current_stream().ptr


# --------------------------------------------------------------------------
# Stream objects
# --------------------------------------------------------------------------

def test_new_stream_has_nonnull_ptr():
    s = Stream()
    assert isinstance(s.ptr, int) and s.ptr not in (0, 1, 2)
    assert s.device_id in (0, -1)


def test_null_and_per_thread_streams():
    assert Stream.null.ptr == 0
    assert Stream.ptds.ptr == 2


def test_distinct_streams_have_distinct_ptrs():
    s1, s2 = Stream(), Stream()
    assert s1.ptr != s2.ptr
    assert s1 != s2
    assert s1 == s1


def test_default_current_stream_is_null_stream():
    assert current_ptr() == 0


def test_with_stream_sets_and_restores_current():
    s = Stream()
    before = current_ptr()
    with s as entered:
        assert entered is s
        assert current_ptr() == s.ptr
    assert current_ptr() == before


def test_nested_with_streams():
    s1, s2 = Stream(), Stream()
    with s1:
        assert current_ptr() == s1.ptr
        with s2:
            assert current_ptr() == s2.ptr
            with Stream.null:
                assert current_ptr() == 0
            assert current_ptr() == s2.ptr
        assert current_ptr() == s1.ptr
    assert current_ptr() == 0


def test_with_stream_restores_after_exception():
    s = Stream()
    with pytest.raises(KeyError):
        with s:
            raise KeyError('x')
    assert current_ptr() == 0


def test_use_makes_stream_current():
    s = Stream()
    try:
        ret = s.use()
        assert ret is s
        assert current_ptr() == s.ptr
    finally:
        Stream.null.use()
    assert current_ptr() == 0


def test_current_stream_is_per_thread():
    s = Stream()
    seen = {}

    def worker():
        try:
            seen['ptr'] = current_ptr()
            with Stream() as t:
                seen['inner'] = (current_ptr(), t.ptr)
        except BaseException as e:
            seen['error'] = e

    with s:
        th = threading.Thread(target=worker)
        th.start()
        th.join()
        assert current_ptr() == s.ptr
    assert 'error' not in seen, seen.get('error')
    assert seen['ptr'] == 0
    assert seen['inner'][0] == seen['inner'][1]


def test_stream_synchronize_query_done():
    s = Stream()
    with s:
        a = cp.arange(1 << 20, dtype=cp.float32)
        b = cp.empty_like(a)
        b[...] = a[::-1]
    s.synchronize()
    assert s.query() is True
    assert s.done is True
    assert float(b[10]) == (1 << 20) - 11


def test_non_blocking_and_priority_streams():
    s = Stream(non_blocking=True)
    assert s.is_non_blocking is True
    assert Stream().is_non_blocking is False
    p = Stream(priority=-1)
    assert isinstance(p.priority, int)
    assert p.priority <= 0
    for st in (s, p):
        with st:
            a = cp.arange(100, dtype=cp.int32)
            b = cp.empty_like(a)
            b[...] = a[::-1]
        st.synchronize()
        assert b.get().tolist() == list(range(99, -1, -1))


def test_work_on_stream_is_correct():
    s = Stream(non_blocking=True)
    x = numpy.arange(12, dtype=numpy.float64).reshape(3, 4)
    with s:
        a = cp.asarray(x)
        b = a.T.astype(numpy.float32)
        out = b.get()
    numpy.testing.assert_array_equal(out, x.T.astype(numpy.float32))


def test_record_returns_event_and_wait_event():
    s1, s2 = Stream(), Stream()
    ev = s1.record()
    assert isinstance(ev, Event)
    s2.wait_event(ev)
    ev2 = Event()
    assert s1.record(ev2) is ev2
    s2.synchronize()
    ev.synchronize()
    assert ev.done


def test_external_stream_wraps_pointer():
    s = Stream()
    ext = cp.cuda.ExternalStream(s.ptr)
    assert ext.ptr == s.ptr
    with ext:
        assert current_ptr() == s.ptr
        a = cp.full(1000, 3, dtype=cp.int64)
        b = cp.empty((2, 1000), dtype=cp.int64)
        b[...] = a
    ext.synchronize()
    assert b.get().sum() == 6000
    del ext      # must not destroy the underlying stream
    s.synchronize()
    with s:
        c = cp.ones(3)
    s.synchronize()
    assert c.get().tolist() == [1.0, 1.0, 1.0]


def test_cross_stream_ordering_with_event():
    n = 1 << 23                      # 32 MiB of float32
    steps = 49
    x = numpy.arange(n, dtype=numpy.float32)
    a = cp.asarray(x)
    tmp = cp.zeros(n, dtype=cp.float32)
    cp.cuda.Device().synchronize()
    sa = Stream(non_blocking=True)
    sb = Stream(non_blocking=True)
    with sa:
        # Rotate a right by one element, steps times: large copies that each
        # read the previous one's result keep stream A busy for a while, and
        # every intermediate state differs from the final one.
        for _ in range(steps):
            tmp[1:] = a[:-1]
            tmp[0] = a[-1]
            a[...] = tmp
        done = sa.record()
    sb.wait_event(done)
    with sb:
        b = a.copy()
        ends = cp.empty(2, dtype=cp.float32)
        ends[0] = b[0]
        ends[1] = b[-1]
    sb.synchronize()
    out = b.get()
    expected = numpy.roll(x, steps)
    numpy.testing.assert_array_equal(out, expected)
    assert ends.get().tolist() == [expected[0], expected[-1]]
    sa.synchronize()


def test_get_on_stream_sees_stream_work():
    s = Stream(non_blocking=True)
    with s:
        a = cp.arange(1 << 20, dtype=cp.int32)
        b = cp.empty_like(a)
        b[...] = a[::-1]
        out = b.get()
    numpy.testing.assert_array_equal(
        out, numpy.arange(1 << 20, dtype=numpy.int32)[::-1])


# --------------------------------------------------------------------------
# Events
# --------------------------------------------------------------------------

@pytest.mark.parametrize('kwargs', [
    {}, {'block': True}, {'disable_timing': True},
    {'block': True, 'disable_timing': True},
])
def test_event_record_synchronize_query_done(kwargs):
    e = Event(**kwargs)
    assert isinstance(e.ptr, int) and e.ptr != 0
    e.record()
    e.synchronize()
    assert e.query() is True
    assert e.done is True
    s = Stream()
    e.record(s)
    s.synchronize()
    assert e.done


def test_unrecorded_event_is_done():
    e = Event()
    assert e.done is True
    assert e.query() is True


def test_elapsed_time_is_nonnegative_float():
    start, end = Event(), Event()
    start.record()
    a = cp.ones(1 << 20, dtype=cp.float32)
    a.fill(3)
    end.record()
    end.synchronize()
    t = cp.cuda.get_elapsed_time(start, end)
    assert isinstance(t, float) and t >= 0.0


def test_elapsed_time_on_stream():
    s = Stream()
    start = s.record(Event())
    with s:
        a = cp.ones(1 << 16)
        a.fill(2)
    end = s.record(Event())
    end.synchronize()
    assert cp.cuda.get_elapsed_time(start, end) >= 0.0


def test_elapsed_time_of_disable_timing_events_raises():
    start = Event(disable_timing=True)
    end = Event(disable_timing=True)
    start.record()
    end.record()
    end.synchronize()
    with pytest.raises(CUDARuntimeError):
        cp.cuda.get_elapsed_time(start, end)


def test_interprocess_event_requires_disable_timing():
    with pytest.raises(ValueError):
        Event(interprocess=True)


# --------------------------------------------------------------------------
# profiler.benchmark
# --------------------------------------------------------------------------

def test_benchmark_result():
    def f(x):
        return x.copy()

    a = cp.arange(1000, dtype=cp.float32)
    res = cp.profiler.benchmark(f, args=(a,), n_repeat=20)
    text = str(res)
    assert 'CPU:' in text and 'GPU-0:' in text
    assert isinstance(res.cpu_times, numpy.ndarray)
    assert isinstance(res.gpu_times, numpy.ndarray)
    assert res.cpu_times.shape == (20,)
    assert res.gpu_times.shape == (1, 20)
    assert (res.cpu_times >= 0).all() and (res.gpu_times >= 0).all()


def test_benchmark_name_and_warmup():
    calls = []

    def g(x):
        calls.append(1)
        return x.copy()

    a = cp.ones(10)
    res = cp.profiler.benchmark(g, args=(a,), n_repeat=5, n_warmup=3,
                                name='my_case')
    assert len(calls) == 8
    assert 'my_case' in str(res)
