"""CUDA graphs by stream capture: Stream.begin_capture / end_capture / is_capturing and cuarray.cuda.Graph."""
import numpy as np
import pytest

import cuarray
from cuarray.cuda import Graph, Stream, runtime

gpu = pytest.mark.gpu

CAPTURE_UNSUPPORTED = 900  # cudaErrorStreamCaptureUnsupported


# --------------------------------------------------------------------------------------------------------
# No GPU needed


def test_graph_names_exist():
    assert cuarray.cuda.Graph is Graph
    assert "Graph" in cuarray.cuda.__all__
    for name in ("begin_capture", "end_capture", "is_capturing"):
        assert callable(getattr(Stream, name))
    for name in ("launch", "upload", "debug_dot_str"):
        assert callable(getattr(Graph, name))


def test_graph_is_not_made_by_users():
    with pytest.raises(RuntimeError, match="end_capture"):
        Graph()


def test_capture_on_legacy_stream_raises_before_any_device_use():
    # CuPy's rule, checked before CUDA is asked: the legacy stream cannot capture.
    with pytest.raises(RuntimeError, match="legacy"):
        Stream.null.begin_capture()


# --------------------------------------------------------------------------------------------------------
# Helpers

_ADD_SQ = r'''
extern "C" __global__ void add_sq(const float* x, const float* y, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] * x[i] + y[i];
}
'''


def _kernels():
    raw = cuarray.RawKernel(_ADD_SQ, "add_sq")
    ew = cuarray.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = x > y ? x - y : y - x", "absdiff_graph")
    return raw, ew


def _mixed(x, w, raw, ew):
    """Elementwise, reduction, matmul, FFT, RawKernel and ElementwiseKernel work on x (n, n) and w (n, n)."""
    n = x.shape[0]
    e = cuarray.sin(x) * 2.0 + w  # new arrays: allocation during capture
    r = e.sum(axis=1)
    m = cuarray.matmul(x, w)
    f = cuarray.abs(cuarray.fft.fft(x, axis=1))
    k = cuarray.empty_like(x)
    raw(((n * n + 127) // 128,), (128,), (x, w, k, np.int32(n * n)))
    d = ew(x, w)
    mx = cuarray.max(m, axis=0)
    return e, r, m, f, k, d, mx


def _expected(xh, wh):
    e = np.sin(xh) * 2.0 + wh
    return (e, e.sum(axis=1), xh @ wh, np.abs(np.fft.fft(xh, axis=1)), xh * xh + wh, np.abs(xh - wh),
            (xh @ wh).max(axis=0))


def _check(outs, xh, wh):
    for got, want in zip(outs, _expected(xh, wh)):
        np.testing.assert_allclose(got.get(), want, rtol=2e-4, atol=2e-4)


def _rand(rng, n):
    return rng.standard_normal((n, n)).astype(np.float32)


# --------------------------------------------------------------------------------------------------------
# GPU


@gpu
def test_is_capturing_follows_the_capture():
    s = Stream(non_blocking=True)
    assert s.is_capturing() is False
    with s:
        x = cuarray.zeros(8, dtype=cuarray.int32)
        x += 1
        s.synchronize()
        s.begin_capture()
        try:
            assert s.is_capturing() is True
            x += 1
        finally:
            g = s.end_capture()
    assert s.is_capturing() is False
    assert isinstance(g, Graph)
    g.launch(s)
    g.launch(s)
    s.synchronize()
    np.testing.assert_array_equal(x.get(), np.full(8, 3, dtype=np.int32))


@gpu
def test_capture_on_legacy_stream_raises():
    with pytest.raises(RuntimeError, match="legacy"):
        Stream.null.begin_capture()
    assert Stream.null.is_capturing() is False


@gpu
def test_mixed_operations_replay_and_follow_new_inputs():
    rng = np.random.default_rng(0)
    n = 32
    raw, ew = _kernels()
    s = Stream(non_blocking=True)
    with s:
        xh, wh = _rand(rng, n), _rand(rng, n)
        x, w = cuarray.asarray(xh), cuarray.asarray(wh)
        _check(_mixed(x, w, raw, ew), xh, wh)  # eager: compiles kernels, makes the cuBLAS handle and FFT plan
        s.synchronize()
        s.begin_capture()
        try:
            outs = _mixed(x, w, raw, ew)
        finally:
            g = s.end_capture()
        # Captured work is recorded, not run: replaying it fills the outputs.
        g.launch()
        s.synchronize()
        _check(outs, xh, wh)
        for _ in range(3):  # new values in the captured input buffers: the results follow
            xh, wh = _rand(rng, n), _rand(rng, n)
            x.set(xh)
            w.set(wh)
            g.launch()
            s.synchronize()
            _check(outs, xh, wh)
    del outs, g
    s.synchronize()


@gpu
def test_graph_launches_on_another_stream_and_uploads():
    s1, s2 = Stream(non_blocking=True), Stream()
    with s1:
        x = cuarray.arange(1000, dtype=cuarray.float64)
        x + 1  # warm up the kernel
        s1.synchronize()
        s1.begin_capture()
        y = x * 3 + 1
        g = s1.end_capture()
    g.upload(s2)
    g.launch(stream=s2)
    s2.synchronize()
    np.testing.assert_array_equal(y.get(), np.arange(1000) * 3.0 + 1)
    dot = g.debug_dot_str()
    assert isinstance(dot, str) and dot.lstrip().startswith("digraph")
    assert g.graph != 0 and g.graphExec != 0


@gpu
def test_allocation_inside_capture_is_kept_from_later_eager_work():
    # Temporaries freed during the capture must not be handed to eager work afterwards: a replay writes
    # into them again.
    s = Stream(non_blocking=True)
    n = 4096
    with s:
        x = cuarray.asarray(np.linspace(0, 1, n, dtype=np.float32))
        (cuarray.exp(x) + x) * 2
        s.synchronize()
        s.begin_capture()
        try:
            t1 = cuarray.exp(x)          # freed during the capture
            t2 = t1 + x
            del t1
            t3 = cuarray.empty(n, dtype=cuarray.float32)  # may reuse t1's block inside the capture
            cuarray.multiply(t2, 2, out=t3)
            del t2
            const = cuarray.asarray(np.full(n, 0.25, dtype=np.float32))  # host data copied during capture
            out = t3 + const
            del t3, const
        finally:
            g = s.end_capture()
        # Eager work that would take the freed blocks from a shared pool, filled with garbage.
        junk = [cuarray.full(n, 1e30, dtype=cuarray.float32) for _ in range(8)]
        s.synchronize()
        for _ in range(2):
            g.launch()
            s.synchronize()
            xh = np.linspace(0, 1, n, dtype=np.float32)
            np.testing.assert_allclose(out.get(), (np.exp(xh) + xh) * 2 + 0.25, rtol=1e-5)
            # Every element, compared in float32: 1e30 is not a float32, so the stored value is float32(1e30).
            assert all((j.get() == np.float32(1e30)).all() for j in junk)
    del junk, out, g


@gpu
@pytest.mark.parametrize("what", ["bool", "get", "item", "float", "nonzero", "synchronize", "boolean_mask"])
def test_host_value_during_capture_raises_and_capture_stays_usable(what):
    s = Stream(non_blocking=True)
    with s:
        a = cuarray.arange(10, dtype=cuarray.float32)
        b = a + 1
        # Eager first, so that the capture fails at the host read itself and not on a first-use set-up.
        bool(a[3] > 0), float(a.sum()), a[2].item(), a[a > 3], cuarray.nonzero(a > 3), a * 2
        s.synchronize()
        s.begin_capture()
        try:
            b = a * 2  # captured before the failing call
            with pytest.raises(runtime.CUDARuntimeError, match="captur") as info:
                if what == "bool":
                    bool(a[3] > 0)
                elif what == "get":
                    a.get()
                elif what == "item":
                    a[2].item()
                elif what == "float":
                    float(a.sum())
                elif what == "nonzero":
                    cuarray.nonzero(a > 3)  # its size depends on the data
                elif what == "synchronize":
                    s.synchronize()
                else:
                    a[a > 3]
            assert info.value.status == CAPTURE_UNSUPPORTED
            assert s.is_capturing() is True  # nothing invalidated the capture
            c = b + 1  # capture goes on
        finally:
            g = s.end_capture()
        assert s.is_capturing() is False
        g.launch()
        s.synchronize()
        np.testing.assert_array_equal(c.get(), np.arange(10, dtype=np.float32) * 2 + 1)
        # The stream works eagerly again.
        np.testing.assert_array_equal((a + 5).get(), np.arange(10, dtype=np.float32) + 5)
    del a, b, c, g


@gpu
def test_device_synchronize_during_capture_raises():
    s = Stream(non_blocking=True)
    with s:
        s.begin_capture()
        try:
            with pytest.raises(runtime.CUDARuntimeError, match="captur"):
                cuarray.cuda.Device().synchronize()
            assert s.is_capturing() is True
        finally:
            s.end_capture()


@gpu
def test_end_capture_without_capture_raises():
    s = Stream(non_blocking=True)
    with pytest.raises(runtime.CUDARuntimeError):
        s.end_capture()
    # The stream still works.
    with s:
        np.testing.assert_array_equal((cuarray.arange(4) * 2).get(), np.arange(4) * 2)


@gpu
def test_graph_replay_matches_many_small_ops():
    # The benchmark's sequence (benchmarks/bench_graphs.py): 100 dependent in-place ops.
    s = Stream(non_blocking=True)
    with s:
        x = cuarray.asarray(np.linspace(-1, 1, 1024, dtype=np.float32))
        y = cuarray.empty_like(x)
        cuarray.multiply(x, 1.0001, out=y)
        s.synchronize()
        start = x.get()
        s.begin_capture()
        try:
            for _ in range(50):
                cuarray.multiply(x, 1.0001, out=y)
                cuarray.add(y, 0.5, out=x)
        finally:
            g = s.end_capture()
        want = start.copy()
        for _ in range(3):
            g.launch()
            for _ in range(50):
                want = (want * np.float32(1.0001)).astype(np.float32) + np.float32(0.5)
        s.synchronize()
        np.testing.assert_allclose(x.get(), want, rtol=1e-5)
