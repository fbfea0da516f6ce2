"""CUDA graphs by stream capture: Stream.begin_capture / end_capture / is_capturing and cuarray.cuda.Graph."""
import os

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


# A chain in which every op reads the output of the op before it (and every fourth also the one before that),
# over three rotating buffers, so each kernel also overwrites what the kernel two back read: with programmatic
# dependent launch (Note [programmatic dependent launch] in src/engine/kernel.cpp) a kernel that touched memory
# before griddepcontrol.wait would read stale values or clobber live ones, and the result would differ.
_CHAIN_OPS = 200
_CHAIN_SIDE = 512  # 2**18 int32 elements: kernels long enough for a missing wait to show


def _chain(xp, bufs):
    """The chain over three square int32 buffers; its input is bufs[2] and it returns the buffer of the result."""
    for k in range(_CHAIN_OPS):
        cur, prev, out = bufs[(k - 1) % 3], bufs[(k - 2) % 3], bufs[k % 3]
        if k % 4 == 0:
            # Transposed input into a C-ordered output: the strided (non-flat) kernel.
            xp.remainder(cur.T, 1000003, out=out)
        elif k % 4 == 1:
            xp.add(cur, k, out=out)
        elif k % 4 == 2:
            xp.add(cur, prev, out=out)
        else:
            xp.multiply(cur, 3, out=out)
    return bufs[(_CHAIN_OPS - 1) % 3]


def _chain_numpy(start):
    bufs = [np.zeros_like(start), np.zeros_like(start), start.copy()]
    return _chain(np, bufs).copy()


def _chain_start(seed):
    return np.random.default_rng(seed).integers(0, 1000003, (_CHAIN_SIDE, _CHAIN_SIDE), dtype=np.int32)


def test_chain_reference_stays_in_int32():
    # The NumPy reference itself: values stay far from int32 overflow, so wrapping never hides a difference.
    start = _chain_start(0)
    bufs = [np.zeros_like(start, dtype=np.int64), np.zeros_like(start, dtype=np.int64), start.astype(np.int64)]
    wide = _chain(np, bufs)
    assert int(np.abs(wide).max()) < 2**31 // 4
    np.testing.assert_array_equal(_chain_numpy(start), wide)


@gpu
def test_graph_replay_of_a_dependent_chain_matches_eager_and_numpy():
    s = Stream(non_blocking=True)
    with s:
        bufs = [cuarray.zeros((_CHAIN_SIDE, _CHAIN_SIDE), dtype=np.int32) for _ in range(3)]
        # Eager first (no capture active: plain launches), which also compiles every kernel before the capture.
        start = _chain_start(1)
        bufs[2].set(start, stream=s)
        eager = _chain(cuarray, bufs).get(stream=s)
        np.testing.assert_array_equal(eager, _chain_numpy(start))
        s.synchronize()
        s.begin_capture()
        try:
            result = _chain(cuarray, bufs)
        finally:
            g = s.end_capture()
        # Replays from new inputs, several in a row, each equal to the eager chain on the same input.
        for seed in (2, 3, 4):
            start = _chain_start(seed)
            for b in bufs:
                b.fill(0)
            bufs[2].set(start, stream=s)
            g.launch(s)
            got_once = result.get(stream=s)
            g.launch(s)  # back to back: the second replay starts from the first one's buffers
            g.launch(s)
            got_thrice = result.get(stream=s)
            ref = [cuarray.zeros_like(b) for b in bufs]
            ref[2].set(start, stream=s)
            once = _chain(cuarray, ref).get(stream=s)
            _chain(cuarray, ref)
            thrice = _chain(cuarray, ref).get(stream=s)
            np.testing.assert_array_equal(once, _chain_numpy(start))
            np.testing.assert_array_equal(got_once, once)
            np.testing.assert_array_equal(got_thrice, thrice)
            assert not np.array_equal(thrice, once)  # the replays did move the state on
        s.synchronize()
    del g, bufs, result, ref


_EAGER_PDL_CHILD = r"""
import sys
import numpy as np
import cuarray
sys.path.insert(0, sys.argv[1])
from test_graphs import _chain, _chain_start
s = cuarray.cuda.Stream(non_blocking=True)
with s:
    bufs = [cuarray.zeros((512, 512), dtype=np.int32) for _ in range(3)]
    bufs[2].set(_chain_start(5), stream=s)
    np.save(sys.argv[2], _chain(cuarray, bufs).get(stream=s))
"""


@gpu
def test_eager_dependent_launches_match_numpy(tmp_path):
    # CUARRAY_PDL=1 sends every elementwise launch out with programmatic dependent launch (on compute
    # capability 9.0+ with a 12.3+ driver; elsewhere the launches are plain and the test still holds). It is read
    # once per process, hence the child.
    import os
    import subprocess
    import sys

    out = tmp_path / "chain.npy"
    env = dict(os.environ, CUARRAY_PDL="1")
    r = subprocess.run([sys.executable, "-c", _EAGER_PDL_CHILD, os.path.dirname(__file__), str(out)], env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    np.testing.assert_array_equal(np.load(out), _chain_numpy(_chain_start(5)))


_DEVICE_HEADERS = os.path.join(os.path.dirname(__file__), "..", "..", "src", "engine", "device")


@pytest.mark.parametrize("kinds,ndim,vectorized", [(["array", "scalar"], 0, True), (["array", "array"], 2, False)])
def test_elementwise_kernels_wait_for_their_predecessor_before_any_memory_access(kinds, ndim, vectorized):
    # Note [programmatic dependent launch]: the wait opens the kernel (before loop_prep), only from sm_90 on.
    src = cuarray._core.elementwise_source("probe_pdl", "out0 = in0 * in1;", "", "int probe_prep = 0;", "", False,
                                           ["float32", "float32"], kinds, ["float32"], [False], ndim, False,
                                           vectorized)
    body = src[src.index(") {"):]
    assert body.index("griddepcontrol.wait") < body.index("griddepcontrol.launch_dependents") < body.index("probe_prep")
    assert cuarray._core.nvrtc_compile(src, "probe_pdl.cu", 80, []) > 0
    assert cuarray._core.nvrtc_compile(src, "probe_pdl.cu", 90, []) > 0
    if not os.path.isdir(_DEVICE_HEADERS):
        pytest.skip("the device headers of the source tree are not beside the tests")
    for arch in (80, 90):
        ptx = cuarray._core._nvrtc_compile(src, "probe_pdl.cu", [f"-arch=compute_{arch}", f"-I{_DEVICE_HEADERS}"],
                                           [], True)[0].decode()
        if arch < 90:
            assert "griddepcontrol" not in ptx
        else:
            wait = ptx.index("griddepcontrol.wait")
            assert wait < ptx.index("griddepcontrol.launch_dependents")
            assert wait < ptx.index("ld.global") and wait < ptx.index("st.global")
