"""Two-GPU tests (issue 21): every area on device 1, cross-device semantics, per-device pools/streams, NCCL."""

import warnings

import numpy
import pytest

import cuarray as cp
from cuarray.cuda import nccl


def _device_count():
    try:
        return cp.cuda.runtime.getDeviceCount()
    except Exception:
        return 0


gpu = pytest.mark.gpu
two_gpus = pytest.mark.skipif(_device_count() < 2, reason="needs two GPUs")
pytestmark = [gpu, two_gpus]

needs_nccl = pytest.mark.skipif(not nccl.available, reason="NCCL is not installed")

_rng = numpy.random.default_rng(21)


def _on1(a):
    with cp.cuda.Device(1):
        return cp.asarray(a)


# ---------------------------------------------------------------------------------------------------------
# Every area on device 1


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.int32, numpy.complex64])
def test_creation_and_ufuncs_on_device1(dtype):
    x = (_rng.standard_normal((33, 17)) * 10).astype(dtype)
    y = (_rng.standard_normal((33, 17)) * 10 + 1).astype(dtype)
    with cp.cuda.Device(1):
        a, b = cp.asarray(x), cp.asarray(y)
        assert a.device.id == 1
        z = cp.zeros((4, 5), dtype=dtype)
        r = cp.arange(10, dtype=dtype)
        s = a + b
        m = a * b
        ab = cp.abs(a)
        t = a[::2, ::-3] - b[::2, ::-3]
    for arr in (z, r, s, m, ab, t):
        assert arr.device.id == 1
    numpy.testing.assert_array_equal(z.get(), numpy.zeros((4, 5), dtype))
    numpy.testing.assert_array_equal(r.get(), numpy.arange(10, dtype=dtype))
    numpy.testing.assert_allclose(s.get(), x + y, rtol=1e-6)
    numpy.testing.assert_allclose(m.get(), x * y, rtol=1e-5)
    numpy.testing.assert_allclose(ab.get(), numpy.abs(x), rtol=1e-6)
    numpy.testing.assert_allclose(t.get(), x[::2, ::-3] - y[::2, ::-3], rtol=1e-6)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.int64])
def test_reductions_on_device1(dtype):
    x = (_rng.standard_normal((64, 129)) * 100).astype(dtype)
    with cp.cuda.Device(1):
        a = cp.asarray(x)
        s0 = a.sum(axis=0)
        s1 = a.max(axis=1)
        tot = a.sum()
        am = cp.argmin(a)
        mean = a.mean(axis=1)
    assert s0.device.id == 1 and tot.device.id == 1
    # float32 sums of values ~100 that cancel: the error is absolute (terms x eps), not relative to the result.
    atol = 1e-5 * float(numpy.abs(x).sum()) if dtype == numpy.float32 else 0
    numpy.testing.assert_allclose(s0.get(), x.sum(axis=0), rtol=1e-5, atol=atol)
    numpy.testing.assert_array_equal(s1.get(), x.max(axis=1))
    numpy.testing.assert_allclose(tot.get(), x.sum(), rtol=1e-5, atol=atol)
    assert int(am.get()) == int(numpy.argmin(x))
    numpy.testing.assert_allclose(mean.get(), x.mean(axis=1), rtol=1e-5, atol=atol)


def test_sort_on_device1():
    x = _rng.standard_normal(10007).astype(numpy.float32)
    x[::97] = numpy.nan
    with cp.cuda.Device(1):
        a = cp.asarray(x)
        s = cp.sort(a)
        i = cp.argsort(a[:100])
    assert s.device.id == 1
    numpy.testing.assert_array_equal(s.get(), numpy.sort(x))
    numpy.testing.assert_array_equal(x[:100][i.get()], numpy.sort(x[:100]))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_linalg_on_device1(dtype):
    x = _rng.standard_normal((65, 65)).astype(dtype) + 8 * numpy.eye(65, dtype=dtype)
    y = _rng.standard_normal((65, 3)).astype(dtype)
    with cp.cuda.Device(1):
        a, b = cp.asarray(x), cp.asarray(y)
        p = a @ b
        sol = cp.linalg.solve(a, b)
    assert p.device.id == 1 and sol.device.id == 1
    tol = 1e-4 if dtype == numpy.float32 else 1e-10
    numpy.testing.assert_allclose(p.get(), x @ y, rtol=tol, atol=tol)
    numpy.testing.assert_allclose(sol.get(), numpy.linalg.solve(x, y), rtol=tol * 10, atol=tol * 10)


def test_fft_on_device1():
    x = (_rng.standard_normal(1000) + 1j * _rng.standard_normal(1000)).astype(numpy.complex128)
    r = _rng.standard_normal((8, 64))
    with cp.cuda.Device(1):
        f = cp.fft.fft(cp.asarray(x))
        rf = cp.fft.rfft(cp.asarray(r), axis=1)
    assert f.device.id == 1 and rf.device.id == 1
    numpy.testing.assert_allclose(f.get(), numpy.fft.fft(x), rtol=1e-10, atol=1e-9)
    numpy.testing.assert_allclose(rf.get(), numpy.fft.rfft(r, axis=1), rtol=1e-10, atol=1e-9)


def test_random_on_device1():
    with cp.cuda.Device(1):
        rs = cp.random.RandomState(5)
        u = rs.random_sample((1000,))
        n = rs.standard_normal(20000, dtype=numpy.float32)
    assert u.device.id == 1 and n.device.id == 1
    uh = u.get()
    assert ((uh >= 0) & (uh < 1)).all()
    # same seed, same generator: device 0 and device 1 give the same stream
    u0 = cp.random.RandomState(5).random_sample((1000,))
    numpy.testing.assert_array_equal(u0.get(), uh)
    assert abs(float(n.get().mean())) < 0.05


def test_indexing_on_device1():
    x = _rng.standard_normal((20, 30))
    idx = numpy.array([3, 0, 19, 7, 7])
    with cp.cuda.Device(1):
        a = cp.asarray(x)
        fancy = a[cp.asarray(idx)]
        mask = a[a > 0]
        a[:, 5] = 0.5
        a[cp.asarray(idx), 1] = -1.0
    x = x.copy()
    numpy.testing.assert_array_equal(fancy.get(), x[idx])
    numpy.testing.assert_array_equal(mask.get(), x[x > 0])
    x[:, 5] = 0.5
    x[idx, 1] = -1.0
    numpy.testing.assert_array_equal(a.get(), x)
    assert fancy.device.id == 1 and mask.device.id == 1


# ---------------------------------------------------------------------------------------------------------
# Crossing devices


def test_asarray_and_get_across_devices():
    x = _rng.standard_normal(1000)
    a1 = _on1(x)
    with cp.cuda.Device(0):
        a0 = cp.asarray(a1)
        h = a1.get()
    assert a0.device.id == 0
    numpy.testing.assert_array_equal(a0.get(), x)
    numpy.testing.assert_array_equal(h, x)


def test_set_on_device1():
    x = _rng.standard_normal(100)
    a1 = _on1(numpy.zeros(100))
    with cp.cuda.Device(0):
        a1.set(x)
    numpy.testing.assert_array_equal(a1.get(), x)


@pytest.mark.parametrize("view", ["contiguous", "transposed"])
def test_large_get_and_set_across_devices(view):
    """Copies of 16 MiB go through the pinned staging ring (Note [staging rings]): under device 0, get() and set() of
    a device-1 array use device 1's ring and stream, also after device 0's ring is in use."""
    x = _rng.standard_normal((1024, 2048))
    warm = cp.asarray(x)  # device 0's ring is made and used first
    numpy.testing.assert_array_equal(warm.get(), x)
    a1 = _on1(x)
    v1 = a1 if view == "contiguous" else a1.T
    want = x if view == "contiguous" else x.T
    with cp.cuda.Device(0):
        numpy.testing.assert_array_equal(v1.get(), want)
        numpy.testing.assert_array_equal(cp.asnumpy(v1), want)
        a1.set(x[::-1].copy())
    numpy.testing.assert_array_equal(a1.get(), x[::-1])
    with cp.cuda.Device(1):
        numpy.testing.assert_array_equal(warm.get(), x)  # and the other way round


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("view", ["contiguous", "transposed", "strided", "empty"])
def test_copy_lands_on_current_device(order, view):
    x = _rng.standard_normal((50, 6))
    a1 = _on1(x)
    pick = {"contiguous": lambda v: v, "transposed": lambda v: v.T, "strided": lambda v: v[::-3, 1::2],
            "empty": lambda v: v[:0]}[view]
    with cp.cuda.Device(0):
        c = pick(a1).copy(order=order)
    assert c.device.id == 0
    if c.size:
        assert c.data.device_id == 0
    want = numpy.array(pick(x), order=order)
    numpy.testing.assert_array_equal(c.get(), want)
    if order == "C":
        assert c.flags.c_contiguous
    if order == "F":
        assert c.flags.f_contiguous
    assert a1.device.id == 1  # the source is untouched


def test_binary_op_with_peer_operand_runs_on_current_device():
    x = _rng.standard_normal(1000).astype(numpy.float32)
    y = _rng.standard_normal(1000).astype(numpy.float32)
    b1 = _on1(y)
    if not cp.cuda.runtime.deviceCanAccessPeer(0, 1):
        pytest.skip("no peer access between devices 0 and 1")
    with cp.cuda.Device(0):
        a0 = cp.asarray(x)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r = a0 + b1
            s = b1.sum()
    assert r.device.id == 0 and s.device.id == 0
    assert w, "a warning about peer access is expected"
    numpy.testing.assert_allclose(r.get(), x + y, rtol=1e-6)
    numpy.testing.assert_allclose(float(s.get()), y.sum(), rtol=1e-4)


def test_binary_op_without_peer_access_raises():
    if cp.cuda.runtime.deviceCanAccessPeer(0, 1):
        pytest.skip("devices 0 and 1 have peer access")
    b1 = _on1(numpy.ones(10))
    with cp.cuda.Device(0):
        a0 = cp.ones(10)
        with pytest.raises(ValueError, match=r"resides \(1\) is different from the current device \(0\)\. "
                                             r"Peer access is unavailable"):
            a0 + b1
        with pytest.raises(ValueError, match="Peer access is unavailable"):
            b1.sum()


def _needs_peer():
    if not cp.cuda.runtime.deviceCanAccessPeer(0, 1):
        pytest.skip("no peer access between devices 0 and 1")


_peer_message = r"The device where the array resides \(1\) is different from the current device \(0\)\. " \
                r"Peer access has been activated automatically\."


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.int64, numpy.complex128])
def test_peer_operands_of_ufuncs(dtype):
    _needs_peer()
    x = (_rng.standard_normal((40, 33)) * 10).astype(dtype)
    y = (_rng.standard_normal((40, 33)) * 10).astype(dtype)
    b1 = _on1(y)
    with cp.cuda.Device(0):
        a0 = cp.asarray(x)
        with pytest.warns(cp.PerformanceWarning, match=_peer_message):
            r = a0 + b1
        with pytest.warns(cp.PerformanceWarning, match=_peer_message):
            s = b1 + 0  # the first operand's device does not decide
        with pytest.warns(cp.PerformanceWarning):
            t = cp.multiply(b1[::2, ::-3], a0[:20, :11])  # strided views of both devices
        with pytest.warns(cp.PerformanceWarning):
            u = a0[:1] - b1  # broadcasting
        with pytest.warns(cp.PerformanceWarning):
            o = cp.empty_like(a0)
            cp.add(b1, b1, out=o)
    for arr in (r, s, t, u, o):
        assert arr.device.id == 0
    numpy.testing.assert_array_equal(r.get(), x + y)
    numpy.testing.assert_array_equal(s.get(), y + 0)
    numpy.testing.assert_array_equal(t.get(), y[::2, ::-3] * x[:20, :11])
    numpy.testing.assert_array_equal(u.get(), x[:1] - y)
    numpy.testing.assert_array_equal(o.get(), y + y)


def test_in_place_operator_on_an_array_of_another_device():
    """b1 += a0 under device 0: device 0 computes and writes b1 in place over peer access; b1 stays on device 1."""
    _needs_peer()
    x = _rng.standard_normal((24, 16))
    y = _rng.standard_normal((24, 16))
    b1 = _on1(y)
    ptr = b1.data.ptr
    with cp.cuda.Device(0):
        a0 = cp.asarray(x)
        with pytest.warns(cp.PerformanceWarning):
            b1 += a0
        with pytest.warns(cp.PerformanceWarning):
            b1[::2] *= 2.0
        cp.cuda.Device(0).synchronize()  # the writes ran on device 0's stream
    assert b1.device.id == 1 and b1.data.ptr == ptr
    want = x + y
    want[::2] *= 2.0
    numpy.testing.assert_allclose(b1.get(), want, rtol=1e-15, atol=0)


def test_peer_operand_warns_every_call_and_can_be_an_error():
    # CuPy warns on every call with an operand of another device, not only when peer access is first enabled.
    _needs_peer()
    b1 = _on1(numpy.arange(10.0))
    with cp.cuda.Device(0):
        for _ in range(2):
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                r = b1 * 2
            assert [type(x.message) for x in w] == [cp.PerformanceWarning]
        with warnings.catch_warnings():
            warnings.simplefilter("error", cp.PerformanceWarning)
            with pytest.raises(cp.PerformanceWarning):
                b1 * 2
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            same = cp.arange(10.0) * 2  # every operand on the current device: no warning
        assert not w
    numpy.testing.assert_array_equal(r.get(), numpy.arange(10.0) * 2)
    numpy.testing.assert_array_equal(same.get(), numpy.arange(10.0) * 2)


def test_peer_operands_of_reductions():
    _needs_peer()
    x = _rng.standard_normal((64, 129)).astype(numpy.float32)
    b1 = _on1(x)
    with cp.cuda.Device(0):
        with pytest.warns(cp.PerformanceWarning, match=_peer_message):
            total = b1.sum()
        with pytest.warns(cp.PerformanceWarning):
            rows = b1.max(axis=1)
        with pytest.warns(cp.PerformanceWarning):
            cols = cp.sum(b1[:, ::2], axis=0)
    for arr in (total, rows, cols):
        assert arr.device.id == 0
    numpy.testing.assert_allclose(float(total.get()), x.sum(dtype=numpy.float64), rtol=1e-4)
    numpy.testing.assert_array_equal(rows.get(), x.max(axis=1))
    numpy.testing.assert_allclose(cols.get(), x[:, ::2].sum(axis=0), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.int32])
def test_peer_operands_of_matmul(dtype):
    _needs_peer()
    x = (_rng.standard_normal((48, 40)) * 4).astype(dtype)
    y = (_rng.standard_normal((40, 24)) * 4).astype(dtype)
    b1 = _on1(y)
    with cp.cuda.Device(0):
        a0 = cp.asarray(x)
        with pytest.warns(cp.PerformanceWarning):
            c = cp.matmul(a0, b1)
        with pytest.warns(cp.PerformanceWarning):
            d = a0 @ b1.T.T
        with pytest.warns(cp.PerformanceWarning):
            e = cp.dot(b1.T, a0.T)
    for arr in (c, d, e):
        assert arr.device.id == 0
    tol = dict(rtol=1e-4, atol=1e-3) if dtype == numpy.float32 else dict(rtol=1e-10)
    numpy.testing.assert_allclose(c.get(), x @ y, **tol)
    numpy.testing.assert_allclose(d.get(), x @ y, **tol)
    numpy.testing.assert_allclose(e.get(), y.T @ x.T, **tol)


def test_matmul_into_out_of_another_device():
    """out= on device 1 under device 0: device 0's cuBLAS writes it in place over peer access (CuPy's rule)."""
    _needs_peer()
    x = _rng.standard_normal((32, 16))
    y = _rng.standard_normal((16, 8))
    o1 = _on1(numpy.zeros((32, 8)))
    with cp.cuda.Device(0):
        a0, b0 = cp.asarray(x), cp.asarray(y)
        with pytest.warns(cp.PerformanceWarning):
            r = cp.matmul(a0, b0, out=o1)
        cp.cuda.Device(0).synchronize()  # the write ran on device 0's stream
    assert r is o1 and r.device.id == 1
    numpy.testing.assert_allclose(o1.get(), x @ y, rtol=1e-12, atol=1e-12)


def test_elementwise_kernel_into_out_of_another_device():
    """ElementwiseKernel with an output on device 1 under device 0: device 0 runs it and writes over peer access."""
    _needs_peer()
    x = _rng.standard_normal((16, 12))
    o1 = _on1(numpy.zeros((16, 12)))
    ek = cp.ElementwiseKernel("T x, T y", "T z", "z = x * y + 1", "peer_out_fma")
    with cp.cuda.Device(0):
        a0 = cp.asarray(x)
        with pytest.warns(cp.PerformanceWarning):
            r = ek(a0, 2.0, o1)
        with pytest.warns(cp.PerformanceWarning):
            ek(o1[::2], 3.0, o1[::2])
        cp.cuda.Device(0).synchronize()  # both writes ran on device 0's stream, in order
    assert r is o1 and o1.device.id == 1
    want = x * 2.0 + 1
    want[::2] = want[::2] * 3.0 + 1
    numpy.testing.assert_allclose(o1.get(), want, rtol=1e-15, atol=0)


def _queue_busy_work(device):
    """Tens of milliseconds of matrix products queued on `device`'s current stream: an unordered write races them."""
    with cp.cuda.Device(device):
        m = cp.full((4096, 4096), 1.0 / 4096, dtype=numpy.float32)
        for _ in range(12):
            m = m @ m
    return m


_ASSIGN_FORMS = {
    "setitem": lambda dst, src: dst.__setitem__(Ellipsis, src),
    "setitem strided": lambda dst, src: dst.__setitem__((slice(None, None, 2),), src[::2]),
    "copyto": lambda dst, src: cp.copyto(dst, src),
    "copyto with a cast": lambda dst, src: cp.copyto(dst, src.astype(numpy.float32), casting="same_kind"),
}


def _assigned(form, y):
    want = numpy.zeros_like(y) if form == "setitem strided" else y.copy()
    if form == "setitem strided":
        want[::2] = y[::2]
    if form == "copyto with a cast":
        want = y.astype(numpy.float32).astype(numpy.float64)
    return want


@pytest.mark.parametrize("form", sorted(_ASSIGN_FORMS))
def test_assignment_into_another_device_is_ordered_on_the_current_stream(form):
    """Note [assignment across devices]: under device 0, an assignment into a device-1 array comes after the work
    queued on device 0's stream and before what is queued there next, as CuPy's copy kernel on device 0 would."""
    _needs_peer()
    x = _rng.standard_normal((512, 256))
    y = _rng.standard_normal((512, 256))
    c1 = _on1(y)
    # A write queued on device 0 before the assignment must not land after it.
    b1 = _on1(numpy.zeros_like(x))
    with cp.cuda.Device(0):
        a0 = cp.asarray(x)
        busy = _queue_busy_work(0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", cp.PerformanceWarning)
            b1 += a0  # runs on device 0, behind the busy work
        _ASSIGN_FORMS[form](b1, c1)
        cp.cuda.Device(0).synchronize()
    want = _assigned(form, y)
    if form == "setitem strided":
        want[1::2] = x[1::2]
    numpy.testing.assert_array_equal(b1.get(), want)
    # A read queued on device 0 after the assignment must see it, though device 1 is busy when it is queued.
    b1 = _on1(numpy.zeros_like(x))
    busy1 = _queue_busy_work(1)
    with cp.cuda.Device(0):
        _ASSIGN_FORMS[form](b1, c1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", cp.PerformanceWarning)
            r = b1 + 0  # device 0 reads b1 over peer access
        got = r.get()
    numpy.testing.assert_array_equal(got, _assigned(form, y))
    for m in (busy, busy1):  # the products are exact: 4096 terms of 2**-24
        assert float(m[0, 0].get()) == 1.0 / 4096


def test_peer_operands_of_sort_indexing_and_astype():
    _needs_peer()
    x = _rng.standard_normal((30, 20))
    x[3, ::4] = numpy.nan
    idx = numpy.array([4, 0, 29, 4, -1])
    b1 = _on1(x)
    with cp.cuda.Device(0):
        i0 = cp.asarray(idx)
        with pytest.warns(cp.PerformanceWarning):
            s = cp.sort(b1)
        with pytest.warns(cp.PerformanceWarning):
            a = cp.argsort(b1[0])
        with pytest.warns(cp.PerformanceWarning):
            g = b1[i0]
        with pytest.warns(cp.PerformanceWarning):
            t = cp.take(b1, i0 % 20, axis=1)
        with pytest.warns(cp.PerformanceWarning):
            f = b1.astype(numpy.float32)
        with pytest.warns(cp.PerformanceWarning):
            nz = cp.nonzero(b1 > 0)  # the comparison already lands on device 0
        with pytest.warns(cp.PerformanceWarning):
            aw = cp.argwhere(b1)
        with pytest.warns(cp.PerformanceWarning):
            m = b1[b1 > 0]
        view = b1[2:5]  # a view stays where its memory is
    for arr in (s, a, g, t, f, nz[0], nz[1], aw, m):
        assert arr.device.id == 0
    assert view.device.id == 1
    numpy.testing.assert_array_equal(s.get(), numpy.sort(x))
    numpy.testing.assert_array_equal(x[0][a.get()], numpy.sort(x[0]))
    numpy.testing.assert_array_equal(g.get(), x[idx])
    numpy.testing.assert_array_equal(t.get(), numpy.take(x, idx % 20, axis=1))
    numpy.testing.assert_array_equal(f.get(), x.astype(numpy.float32))
    for got, want in zip(nz, numpy.nonzero(x > 0)):
        numpy.testing.assert_array_equal(got.get(), want)
    numpy.testing.assert_array_equal(aw.get(), numpy.argwhere(x))
    numpy.testing.assert_array_equal(m.get(), x[x > 0])


@pytest.mark.parametrize(
    "name, func",
    [
        ("cumsum", lambda m, a: m.cumsum(a, axis=1)),
        ("cumprod0", lambda m, a: m.cumprod(a[:, :4], axis=0)),
        ("diff", lambda m, a: m.diff(a, axis=0)),
        ("ediff1d", lambda m, a: m.ediff1d(a[0])),
        ("gradient", lambda m, a: m.gradient(a, axis=1)),
        ("histogram", lambda m, a: m.histogram(a, bins=7)[0]),
        ("histogram2d", lambda m, a: m.histogram2d(a[0], a[1], bins=4)[0]),
        ("bincount", lambda m, a: m.bincount((abs(a[0]) * 3).astype(numpy.int64))),
        ("unique", lambda m, a: m.unique(m.round(a))),
        ("isin", lambda m, a: m.isin(m.round(a[0]), m.round(a[1]))),
        ("intersect1d", lambda m, a: m.intersect1d(m.round(a[0]), m.round(a[1]))),
        ("setxor1d", lambda m, a: m.setxor1d(m.round(a[0]), m.round(a[1]))),
        ("median", lambda m, a: m.median(a, axis=0)),
        ("percentile", lambda m, a: m.percentile(a, [10, 90], axis=1)),
        ("average", lambda m, a: m.average(a, axis=1)),
        ("cov", lambda m, a: m.cov(a)),
        ("corrcoef", lambda m, a: m.corrcoef(a)),
        ("correlate", lambda m, a: m.correlate(a[0], a[1], "full")),
        ("concatenate", lambda m, a: m.concatenate([a, a[::-1]], axis=1)),
        ("concatenate_none", lambda m, a: m.concatenate([a[:, ::2], a], axis=None)),
        ("stack", lambda m, a: m.stack([a, a])),
        ("pad", lambda m, a: m.pad(a, 2, mode="reflect")),
        ("tile", lambda m, a: m.tile(a, (2, 3))),
        ("repeat", lambda m, a: m.repeat(a, 3, axis=1)),
        ("delete", lambda m, a: m.delete(a, [0, 2], axis=0)),
        ("insert", lambda m, a: m.insert(a, 1, 5.0, axis=1)),
        ("add_accumulate", lambda m, a: m.add.accumulate(a, axis=1)),
        ("add_reduceat", lambda m, a: m.add.reduceat(a, [0, 2, 5], axis=1)),
        ("trapezoid", lambda m, a: m.trapezoid(a, axis=1)),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_peer_operands_of_composite_routines(name, func):
    """A routine made of several steps runs on the current device for an operand of another (CuPy's rule)."""
    _needs_peer()
    x = _rng.standard_normal((6, 9))
    b1 = _on1(x)
    with cp.cuda.Device(0):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", cp.PerformanceWarning)
            got = func(cp, b1)
    want = func(numpy, x)
    got = got if isinstance(got, (list, tuple)) else [got]
    want = want if isinstance(want, (list, tuple)) else [want]
    for g, w in zip(got, want):
        assert g.device.id == 0, name
        numpy.testing.assert_allclose(g.get(), w, rtol=1e-12, atol=1e-12)


def test_peer_runtime_functions():
    assert isinstance(cp.cuda.runtime.deviceCanAccessPeer(0, 1), int)
    x = _rng.standard_normal(4096).astype(numpy.float32)
    a0 = cp.asarray(x)
    with cp.cuda.Device(1):
        b1 = cp.empty(x.shape, x.dtype)
    cp.cuda.runtime.memcpyPeer(b1.data.ptr, 1, a0.data.ptr, 0, x.nbytes)
    numpy.testing.assert_array_equal(b1.get(), x)
    with cp.cuda.Device(1):
        c1 = cp.zeros(x.shape, x.dtype)
        s = cp.cuda.Stream()
        cp.cuda.runtime.memcpyPeerAsync(c1.data.ptr, 1, a0.data.ptr, 0, x.nbytes, s.ptr)
        s.synchronize()
    numpy.testing.assert_array_equal(c1.get(), x)


def test_dlpack_and_cai_device_ids():
    a1 = _on1(numpy.arange(12.0).reshape(3, 4))
    assert a1.__dlpack_device__() == (2, 1)  # kDLCUDA, device 1
    ptr = a1.__cuda_array_interface__["data"][0]
    assert ptr == a1.data.ptr
    assert cp.cuda.runtime.pointerGetAttributes(ptr).device == 1
    assert a1.data.device_id == 1
    with cp.cuda.Device(1):
        back = cp.from_dlpack(a1)
    assert back.device.id == 1
    numpy.testing.assert_array_equal(back.get(), numpy.arange(12.0).reshape(3, 4))


def test_pool_per_device():
    pool = cp.get_default_memory_pool()
    with cp.cuda.Device(1):
        before1 = pool.used_bytes()
    before0 = pool.used_bytes()
    with cp.cuda.Device(1):
        a = cp.empty(1 << 20, dtype=numpy.uint8)
        assert pool.used_bytes() >= before1 + (1 << 20)
    assert pool.used_bytes() == before0
    del a
    with cp.cuda.Device(1):
        assert pool.used_bytes() == before1


def test_streams_and_events_per_device():
    with cp.cuda.Device(1):
        s = cp.cuda.Stream(non_blocking=True)
        assert s.device_id == 1
        e0, e1 = cp.cuda.Event(), cp.cuda.Event()
        with s:
            e0.record()
            a = cp.arange(1 << 20, dtype=numpy.float32) * 2
            e1.record()
        e1.synchronize()
        assert cp.cuda.get_elapsed_time(e0, e1) >= 0
        assert cp.cuda.get_current_stream().device_id == 1
    assert cp.cuda.get_current_stream().device_id == 0
    numpy.testing.assert_array_equal(a.get(), numpy.arange(1 << 20, dtype=numpy.float32) * 2)


# ---------------------------------------------------------------------------------------------------------
# NCCL, one process over two GPUs


_NCCL_TYPES = {numpy.float32: nccl.NCCL_FLOAT32, numpy.float64: nccl.NCCL_FLOAT64, numpy.int32: nccl.NCCL_INT32}


@pytest.fixture
def comms():
    cs = nccl.NcclCommunicator.initAll([0, 1])
    yield cs
    for c in cs:
        c.destroy()


def _per_device(host_arrays):
    out = []
    for dev, h in enumerate(host_arrays):
        with cp.cuda.Device(dev):
            out.append(cp.asarray(h))
    return out


def _empty_per_device(shape, dtype):
    out = []
    for dev in range(2):
        with cp.cuda.Device(dev):
            out.append(cp.zeros(shape, dtype))
    return out


def _sync_all():
    for dev in range(2):
        with cp.cuda.Device(dev):
            cp.cuda.Device(dev).synchronize()


@needs_nccl
def test_nccl_communicator_properties(comms):
    assert [c.device_id() for c in comms] == [0, 1]
    assert [c.rank_id() for c in comms] == [0, 1]
    assert [c.size() for c in comms] == [2, 2]
    comms[0].check_async_error()


@needs_nccl
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.int32])
@pytest.mark.parametrize("op", ["sum", "max"])
def test_nccl_all_reduce(comms, dtype, op):
    hs = [(_rng.standard_normal(1001) * 100).astype(dtype) for _ in range(2)]
    send = _per_device(hs)
    recv = _empty_per_device(1001, dtype)
    code = nccl.NCCL_SUM if op == "sum" else nccl.NCCL_MAX
    nccl.groupStart()
    for dev, c in enumerate(comms):
        with cp.cuda.Device(dev):
            # raw pointers for rank 0, arrays and a Stream object for rank 1: both are accepted
            if dev == 0:
                c.allReduce(send[0].data.ptr, recv[0].data.ptr, 1001, _NCCL_TYPES[dtype], code,
                            cp.cuda.get_current_stream().ptr)
            else:
                c.allReduce(send[1], recv[1], 1001, _NCCL_TYPES[dtype], code, cp.cuda.get_current_stream())
    nccl.groupEnd()
    _sync_all()
    expect = hs[0] + hs[1] if op == "sum" else numpy.maximum(hs[0], hs[1])
    for r in recv:
        numpy.testing.assert_allclose(r.get(), expect, rtol=1e-6)


@needs_nccl
def test_nccl_broadcast_bcast_and_reduce(comms):
    hs = [_rng.standard_normal(500) for _ in range(2)]
    send = _per_device(hs)
    recv = _empty_per_device(500, numpy.float64)
    nccl.groupStart()
    for dev, c in enumerate(comms):
        with cp.cuda.Device(dev):
            c.broadcast(send[dev], recv[dev], 500, nccl.NCCL_FLOAT64, 1, 0)
    nccl.groupEnd()
    _sync_all()
    for r in recv:
        numpy.testing.assert_array_equal(r.get(), hs[1])

    buf = _per_device(hs)
    nccl.groupStart()
    for dev, c in enumerate(comms):
        with cp.cuda.Device(dev):
            c.bcast(buf[dev], 500, nccl.NCCL_FLOAT64, 0, 0)
    nccl.groupEnd()
    _sync_all()
    for b in buf:
        numpy.testing.assert_array_equal(b.get(), hs[0])

    out = _empty_per_device(500, numpy.float64)
    nccl.groupStart()
    for dev, c in enumerate(comms):
        with cp.cuda.Device(dev):
            c.reduce(send[dev], out[dev], 500, nccl.NCCL_FLOAT64, nccl.NCCL_SUM, 0, 0)
    nccl.groupEnd()
    _sync_all()
    numpy.testing.assert_allclose(out[0].get(), hs[0] + hs[1], rtol=1e-12)


@needs_nccl
def test_nccl_all_gather_and_reduce_scatter(comms):
    hs = [_rng.standard_normal(300).astype(numpy.float32) for _ in range(2)]
    send = _per_device(hs)
    gathered = _empty_per_device(600, numpy.float32)
    nccl.groupStart()
    for dev, c in enumerate(comms):
        with cp.cuda.Device(dev):
            c.allGather(send[dev], gathered[dev], 300, nccl.NCCL_FLOAT32, 0)
    nccl.groupEnd()
    _sync_all()
    for g in gathered:
        numpy.testing.assert_array_equal(g.get(), numpy.concatenate(hs))

    scattered = _empty_per_device(150, numpy.float32)
    nccl.groupStart()
    for dev, c in enumerate(comms):
        with cp.cuda.Device(dev):
            c.reduceScatter(send[dev], scattered[dev], 150, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, 0)
    nccl.groupEnd()
    _sync_all()
    total = hs[0] + hs[1]
    numpy.testing.assert_allclose(scattered[0].get(), total[:150], rtol=1e-6)
    numpy.testing.assert_allclose(scattered[1].get(), total[150:], rtol=1e-6)


@needs_nccl
def test_nccl_send_recv(comms):
    x = numpy.arange(777, dtype=numpy.int32)
    src = _per_device([x, numpy.zeros(1, numpy.int32)])[0]
    dst = _empty_per_device(777, numpy.int32)[1]
    nccl.groupStart()
    with cp.cuda.Device(0):
        comms[0].send(src, 777, nccl.NCCL_INT32, 1, 0)
    with cp.cuda.Device(1):
        comms[1].recv(dst, 777, nccl.NCCL_INT32, 0, 0)
    nccl.groupEnd()
    _sync_all()
    numpy.testing.assert_array_equal(dst.get(), x)


@needs_nccl
def test_nccl_destroyed_communicator_raises():
    c = nccl.NcclCommunicator.initAll([0])[0]
    c.destroy()
    with pytest.raises(RuntimeError):
        c.size()
    c.destroy()  # a second destroy is a no-op


@needs_nccl
def test_nccl_invalid_argument_raises_nccl_error(comms):
    a = _per_device([numpy.zeros(4, numpy.float32)])[0]
    with pytest.raises(nccl.NcclError) as e:
        comms[0].allReduce(a, a, 4, 123, nccl.NCCL_SUM, 0)  # no such datatype
    assert e.value.status == 4
    assert "ncclInvalidArgument" in str(e.value)
