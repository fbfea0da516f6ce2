"""matmul / @, dot, vdot, inner, outer, vecdot, tensordot, kron, cross, trace and linalg's products against NumPy.

GPU tests compare values, dtypes and shapes over dtypes, batch broadcasting, 1-D promotion, empty dimensions,
non-contiguous and negative-stride layouts, out= and errors. CPU tests check the TF32 switch and the argument
handling that needs no device.
"""
import numpy
import pytest

import cuarray as cp

from _arrays import small_random as _rand

gpu = pytest.mark.gpu

DTYPES = [numpy.dtype(t) for t in ("bool", "int8", "uint8", "int16", "int32", "int64", "uint64", "float16",
                                   "float32", "float64", "complex64", "complex128")]
FLOATS = [numpy.dtype(t) for t in ("float16", "float32", "float64", "complex64", "complex128")]


def _tol(dt, k=16):
    dt = numpy.dtype(dt)
    if dt.kind in "biu":
        return 0, 0
    eps = {2: 1e-3, 4: 2e-6, 8: 1e-14, 16: 1e-14}[dt.itemsize if dt.kind == "f" else dt.itemsize // 2]
    return 8 * eps * max(k, 1) ** 0.5, 8 * eps * max(k, 1)


def _check(got, expected, k=16, computed_in=None):
    """Same dtype and shape as NumPy's result, and values within the rounding for a length-k sum in the dtype
    the product is computed in (`computed_in`, by default the result's: a wider out= only receives a cast)."""
    expected = numpy.asarray(expected)
    assert isinstance(got, cp.ndarray), type(got)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    rtol, atol = _tol(expected.dtype if computed_in is None else computed_in, k)
    g = cp.asnumpy(got)
    if expected.dtype.kind in "biu":
        numpy.testing.assert_array_equal(g, expected)
    else:
        numpy.testing.assert_allclose(g.astype(numpy.complex128), expected.astype(numpy.complex128), rtol=rtol,
                                      atol=atol)


def _both(fn, *arrays):
    """fn over NumPy arrays and over their cuarray copies."""
    return fn(numpy, *arrays), fn(cp, *[cp.asarray(a) for a in arrays])


def _exc(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        return type(e), str(e)
    return None, None


# ---- matmul ------------------------------------------------------------------------------------------------

MATMUL_SHAPES = [
    ((3, 4), (4, 5)),
    ((4,), (4, 5)),
    ((3, 4), (4,)),
    ((4,), (4,)),
    ((1, 1), (1, 1)),
    ((2, 3, 4), (4, 5)),
    ((3, 4), (2, 4, 5)),
    ((2, 1, 3, 4), (3, 4, 2)),
    ((5, 3, 4), (5, 4, 2)),
    ((2, 3, 4), (4,)),
    ((4,), (2, 4, 3)),
    ((0, 4), (4, 5)),
    ((3, 0), (0, 5)),
    ((2, 0, 3, 4), (4, 5)),
    ((3, 4), (4, 0)),
]


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shapes", MATMUL_SHAPES, ids=str)
def test_matmul_matches_numpy(dtype, shapes):
    a, b = _rand(shapes[0], dtype, 1), _rand(shapes[1], dtype, 2)
    _check(cp.matmul(cp.asarray(a), cp.asarray(b)), numpy.matmul(a, b), a.shape[-1])
    _check(cp.asarray(a) @ cp.asarray(b), a @ b, a.shape[-1])


@gpu
@pytest.mark.parametrize("pair", [("int8", "float32"), ("bool", "int16"), ("uint64", "int64"), ("float16", "int8"),
                                  ("complex64", "float64"), ("uint8", "int8")], ids=str)
def test_matmul_mixed_dtypes_promote(pair):
    a, b = _rand((3, 5), pair[0], 3), _rand((5, 2), pair[1], 4)
    _check(cp.matmul(cp.asarray(a), cp.asarray(b)), numpy.matmul(a, b), 5)


LAYOUTS = {
    "C": lambda xp, x: x,
    "T": lambda xp, x: xp.swapaxes(xp.ascontiguousarray(xp.swapaxes(x, -1, -2)), -1, -2),  # column-major matrices
    "rowstep": lambda xp, x: x[:, ::2, :],
    "negcol": lambda xp, x: x[:, :, ::-1],
    "negbatch": lambda xp, x: x[::-1],
    "F": lambda xp, x: xp.asfortranarray(x),
}


@gpu
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int32", "bool", "float16"])
@pytest.mark.parametrize("la", list(LAYOUTS))
def test_matmul_strided_layouts(dtype, la):
    base_a, base_b = _rand((6, 8, 10), dtype, 5), _rand((6, 10, 4), dtype, 6)
    for lb, fb in LAYOUTS.items():
        fa = LAYOUTS[la]
        a, b = fa(numpy, base_a), fb(numpy, base_b)
        if a.shape[-1] != b.shape[-2]:
            continue
        ca, cb = fa(cp, cp.asarray(base_a)), fb(cp, cp.asarray(base_b))
        _check(cp.matmul(ca, cb), numpy.matmul(a, b), a.shape[-1])


@gpu
def test_matmul_device_views_transposed_and_sliced():
    a, b = _rand((7, 9), "float32", 7), _rand((9, 11), "float32", 8)
    ca, cb = cp.asarray(a), cp.asarray(b)
    _check(ca.T.T @ cb, a @ b, 9)
    _check(cp.asarray(a.T.copy()).T @ cb, a @ b, 9)
    _check(ca @ cp.asarray(b.T.copy()).T, a @ b, 9)
    _check(ca[::2] @ cb[:, ::3], a[::2] @ b[:, ::3], 9)
    _check(ca[::-1, ::-1] @ cb[::-1], a[::-1, ::-1] @ b[::-1], 9)
    # A broadcast (stride 0) operand.
    v = _rand((9,), "float32", 9)
    bb = numpy.broadcast_to(v[:, None], (9, 4))
    _check(ca @ cp.broadcast_to(cp.asarray(v)[:, None], (9, 4)), a @ bb, 9)


@gpu
@pytest.mark.parametrize("dtype", ["float32", "int64", "complex64", "bool"])
def test_matmul_out(dtype):
    a, b = _rand((2, 3, 4), dtype, 1), _rand((4, 5), dtype, 2)
    out = cp.empty((2, 3, 5), dtype=dtype)
    r = cp.matmul(cp.asarray(a), cp.asarray(b), out=out)
    assert r is out
    _check(out, a @ b, 4)
    # A non-contiguous out and an out of a wider dtype.
    big = cp.zeros((2, 3, 10), dtype=dtype)
    r = cp.matmul(cp.asarray(a), cp.asarray(b), out=big[:, :, ::2])
    _check(big[:, :, ::2], a @ b, 4)
    if dtype != "complex64":
        wide = cp.empty((2, 3, 5), dtype="complex128")
        cp.matmul(cp.asarray(a), cp.asarray(b), out=wide)
        # NumPy computes in the inputs' dtype and casts into out: float32's rounding, not complex128's.
        _check(wide, (a @ b).astype("complex128"), 4, computed_in=dtype)
    # out broadcasting the inputs' batch.
    o2 = cp.empty((3, 2, 3, 5), dtype=dtype)
    cp.matmul(cp.asarray(a), cp.asarray(b), out=o2)
    _check(o2, numpy.broadcast_to(a @ b, (3, 2, 3, 5)), 4)


@gpu
def test_matmul_out_overlapping_input_and_imatmul():
    a, b = _rand((4, 4), "float64", 1), _rand((4, 4), "float64", 2)
    ca, cb = cp.asarray(a.copy()), cp.asarray(b.copy())
    cp.matmul(ca, cb, out=ca)
    _check(ca, a @ b)
    c = cp.asarray(a.copy())
    c @= cb
    _check(c, a @ b)
    x = numpy.array(a)
    x @= b
    _check(c, x)


@gpu
def test_matmul_dtype_and_casting():
    a, b = _rand((3, 4), "int32", 1), _rand((4, 2), "int32", 2)
    _check(cp.matmul(cp.asarray(a), cp.asarray(b), dtype="float64"), numpy.matmul(a, b, dtype="float64"), 4)
    f = _rand((3, 4), "float64", 3)
    e_np = _exc(lambda: numpy.matmul(f, f.T, dtype="int32"))
    e_cp = _exc(lambda: cp.matmul(cp.asarray(f), cp.asarray(f.T), dtype="int32"))
    assert issubclass(e_cp[0], TypeError) and e_cp[1] == e_np[1]
    e_np = _exc(lambda: numpy.matmul(f, f.T, out=numpy.empty((3, 3), "int64")))
    e_cp = _exc(lambda: cp.matmul(cp.asarray(f), cp.asarray(f.T), out=cp.empty((3, 3), "int64")))
    assert issubclass(e_cp[0], TypeError) and e_cp[1] == e_np[1]
    _check(cp.matmul(cp.asarray(f), cp.asarray(f.T), dtype="float32", casting="unsafe"),
           numpy.matmul(f, f.T, dtype="float32", casting="unsafe"), 4)


@gpu
@pytest.mark.parametrize("shapes", [((2, 3), (4, 5)), ((3,), (4,)), ((2, 2, 3), (3, 3, 4)), ((3,), (2, 4, 5)),
                                    ((), (3,)), ((3,), ())], ids=str)
def test_matmul_errors_match_numpy(shapes):
    a, b = numpy.ones(shapes[0]), numpy.ones(shapes[1])
    e_np = _exc(lambda: numpy.matmul(a, b))
    e_cp = _exc(lambda: cp.matmul(cp.asarray(a), cp.asarray(b)))
    assert e_np[0] is ValueError
    assert e_cp == e_np


@gpu
def test_matmul_out_errors():
    a, b = numpy.ones((2, 3)), numpy.ones((3, 2))
    for bad in [(2, 3), (3,), (4, 2, 3)]:
        e_np = _exc(lambda: numpy.matmul(a, b, out=numpy.empty(bad)))
        e_cp = _exc(lambda: cp.matmul(cp.asarray(a), cp.asarray(b), out=cp.empty(bad)))
        assert e_np[0] is ValueError and e_cp[0] is ValueError, (bad, e_np, e_cp)


@gpu
def test_matmul_operator_with_scalar_raises_and_rmatmul():
    a = cp.asarray(numpy.ones((2, 2)))
    with pytest.raises(ValueError):
        a @ 2
    with pytest.raises(ValueError):
        2 @ a
    x = _rand((3, 2), "float32", 4)
    # __rmatmul__ with another cuarray array works through the reflected path too.
    _check(cp.asarray(x).__rmatmul__(cp.asarray(x.T)), x.T @ x)


@gpu
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128"])
def test_matmul_large_float(dtype):
    a, b = _rand((257, 300), dtype, 1), _rand((300, 129), dtype, 2)
    expected = (a.astype(numpy.complex128) @ b.astype(numpy.complex128))
    if numpy.dtype(dtype).kind == "f":
        expected = expected.real
    got = cp.asnumpy(cp.asarray(a) @ cp.asarray(b))
    assert got.dtype == numpy.dtype(dtype)
    rtol, atol = _tol(dtype, 300)
    numpy.testing.assert_allclose(got.astype(numpy.complex128), expected, rtol=rtol * 4, atol=atol * 4)


@gpu
def test_float32_is_full_precision_and_tf32_is_opt_in():
    # Values with more than TF32's 10 mantissa bits: full float32 keeps them.
    rng = numpy.random.default_rng(0)
    a = (1 + rng.integers(0, 2 ** 20, (64, 256)) * 2.0 ** -20).astype(numpy.float32)
    b = (1 + rng.integers(0, 2 ** 20, (256, 64)) * 2.0 ** -20).astype(numpy.float32)
    exact = a.astype(numpy.float64) @ b.astype(numpy.float64)
    ca, cb = cp.asarray(a), cp.asarray(b)
    full = cp.asnumpy(ca @ cb)
    assert numpy.max(numpy.abs(full - exact) / exact) < 1e-5
    with cp.tf32():
        assert cp.tf32_enabled()
        fast = cp.asnumpy(ca @ cb)
    assert not cp.tf32_enabled()
    assert numpy.max(numpy.abs(fast - exact) / exact) < 5e-3


# ---- dot, vdot, inner, outer, vecdot ---------------------------------------------------------------------

DOT_SHAPES = [((), (3,)), ((3,), ()), ((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 2)), ((3, 4), (4, 2)),
              ((2, 3, 4), (4,)), ((2, 3, 4), (4, 5)), ((2, 3, 4), (3, 4, 5)), ((3, 4), (2, 4, 5)), ((0, 3), (3, 2)),
              ((3, 0), (0, 2))]


@gpu
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float16", "float32", "float64", "complex64"])
@pytest.mark.parametrize("shapes", DOT_SHAPES, ids=str)
def test_dot_matches_numpy(dtype, shapes):
    a, b = _rand(shapes[0], dtype, 1), _rand(shapes[1], dtype, 2)
    e, g = _both(lambda xp, x, y: xp.dot(x, y), a, b)
    _check(g, e, 4)
    _check(cp.asarray(a).dot(cp.asarray(b)) if a.ndim else cp.dot(cp.asarray(a), cp.asarray(b)), e, 4)


@gpu
def test_dot_out_and_errors():
    a, b = _rand((3, 4), "float64", 1), _rand((4, 2), "float64", 2)
    out = cp.empty((3, 2))
    assert cp.dot(cp.asarray(a), cp.asarray(b), out=out) is out
    _check(out, a @ b)
    for bad in [cp.empty((3, 2), dtype="float32"), cp.empty((2, 3)), cp.empty((3, 4))[:, ::2]]:
        with pytest.raises(ValueError, match="output array"):
            cp.dot(cp.asarray(a), cp.asarray(b), out=bad)
    x, y = numpy.ones((2, 3)), numpy.ones((4, 5))
    assert _exc(lambda: cp.dot(cp.asarray(x), cp.asarray(y))) == _exc(lambda: numpy.dot(x, y))
    x, y = numpy.ones((2, 3, 4)), numpy.ones((5, 6))
    assert _exc(lambda: cp.dot(cp.asarray(x), cp.asarray(y))) == _exc(lambda: numpy.dot(x, y))


@gpu
@pytest.mark.parametrize("dtype", ["bool", "int16", "float32", "complex64", "complex128"])
def test_vdot_conjugates_first(dtype):
    a, b = _rand((3, 4), dtype, 1), _rand((4, 3), dtype, 2)
    e, g = _both(lambda xp, x, y: xp.vdot(x, y), a, b)
    _check(g, e, 12)
    e, g = _both(lambda xp, x, y: xp.vdot(x[:, ::-1], y.T), a, b)
    _check(g, e, 12)
    with pytest.raises(ValueError):
        cp.vdot(cp.ones(3), cp.ones(4))


@gpu
@pytest.mark.parametrize("dtype", ["bool", "int8", "float32", "complex128"])
@pytest.mark.parametrize("shapes", [((), (3,)), ((4,), (4,)), ((2, 4), (3, 4)), ((2, 3, 4), (5, 4)),
                                    ((2, 0), (3, 0))], ids=str)
def test_inner_matches_numpy(dtype, shapes):
    a, b = _rand(shapes[0], dtype, 1), _rand(shapes[1], dtype, 2)
    e, g = _both(lambda xp, x, y: xp.inner(x, y), a, b)
    _check(g, e, 4)


@gpu
def test_inner_error_matches_numpy():
    x, y = numpy.ones((2, 3)), numpy.ones((4, 5))
    assert _exc(lambda: cp.inner(cp.asarray(x), cp.asarray(y))) == _exc(lambda: numpy.inner(x, y))


@gpu
@pytest.mark.parametrize("dtype", ["bool", "uint8", "float16", "complex64"])
def test_outer_matches_numpy(dtype):
    a, b = _rand((2, 3), dtype, 1), _rand((4,), dtype, 2)
    e, g = _both(lambda xp, x, y: xp.outer(x, y), a, b)
    _check(g, e)
    out = cp.empty((6, 4), dtype=dtype)
    assert cp.outer(cp.asarray(a), cp.asarray(b), out=out) is out
    _check(out, e)


@gpu
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float16", "float64", "complex64"])
def test_vecdot_matches_numpy(dtype):
    a, b = _rand((2, 3, 4), dtype, 1), _rand((3, 4), dtype, 2)
    for axis in (-1,):
        e, g = _both(lambda xp, x, y: xp.vecdot(x, y, axis=axis), a, b)
        _check(g, e, 4)
    c = _rand((4, 3), dtype, 3)
    e, g = _both(lambda xp, x, y: xp.vecdot(x, y, axis=0), c, c)
    _check(g, e, 4)
    e, g = _both(lambda xp, x, y: xp.linalg.vecdot(x, y, axis=0), c, c)
    _check(g, e, 4)
    x, y = numpy.ones(3), numpy.ones(4)
    assert _exc(lambda: cp.vecdot(cp.asarray(x), cp.asarray(y))) == _exc(lambda: numpy.vecdot(x, y))


# ---- tensordot, kron, cross, trace -----------------------------------------------------------------------

@gpu
@pytest.mark.parametrize("dtype", ["bool", "int32", "float16", "float32", "complex64"])
@pytest.mark.parametrize("case", [
    ((3, 4, 5), (4, 5, 2), 2), ((3, 4), (4, 5), 1), ((3, 4), (5, 2), 0), ((2, 3), (3, 2), -1),
    ((3, 4, 5), (5, 3, 2), ([0, 2], [1, 0])), ((3, 4, 5), (4, 3), ((1, 0), (0, 1))), ((3, 4), (4, 3), (1, 0)),
    ((2, 3, 4), (4, 3, 2), ([-1, -2], [0, 1])), ((0, 4), (4, 3), 1),
], ids=str)
def test_tensordot_matches_numpy(dtype, case):
    sa, sb, axes = case
    a, b = _rand(sa, dtype, 1), _rand(sb, dtype, 2)
    e, g = _both(lambda xp, x, y: xp.tensordot(x, y, axes=axes), a, b)
    _check(g, e, 20)
    e, g = _both(lambda xp, x, y: xp.linalg.tensordot(x, y, axes=axes), a, b)
    _check(g, e, 20)


@gpu
def test_tensordot_errors():
    a, b = numpy.ones((3, 4)), numpy.ones((5, 2))
    for axes in [1, ([0], [0, 1]), ([0, 0], [0, 1])]:
        assert _exc(lambda: numpy.tensordot(a, b, axes))[0] is ValueError
        assert _exc(lambda: cp.tensordot(cp.asarray(a), cp.asarray(b), axes))[0] is ValueError


@gpu
@pytest.mark.parametrize("dtype", ["bool", "int8", "float32", "complex128"])
@pytest.mark.parametrize("shapes", [((2,), (3,)), ((2, 3), (4, 5)), ((2, 3), (4,)), ((3,), (2, 2)),
                                    ((2, 1, 3), (3, 2)), ((), (3,)), ((2, 0), (3, 4))], ids=str)
def test_kron_matches_numpy(dtype, shapes):
    a, b = _rand(shapes[0], dtype, 1), _rand(shapes[1], dtype, 2)
    e, g = _both(lambda xp, x, y: xp.kron(x, y), a, b)
    _check(g, e)


# NumPy 2.5 removed the 2-element vectors of cross (deprecated in 2.0); cuarray follows 2.5 whatever NumPy runs.
NUMPY_2_5 = numpy.lib.NumpyVersion(numpy.__version__) >= "2.5.0"


def _cross_error(la, lb):
    return ValueError, (f"Both input arrays must be (arrays of) 3-dimensional vectors, but they are {la} and {lb} "
                        "dimensional instead.")


@gpu
@pytest.mark.parametrize("dtype", ["int16", "float32", "float64", "complex64"])
@pytest.mark.parametrize("case", [((3,), (3,), {}), ((4, 3), (3,), {}), ((2, 4, 3), (4, 3), {}),
                                  ((3, 4), (3, 4), {"axis": 0}), ((3, 2), (2, 3), {"axisa": 0}),
                                  ((2, 3), (3, 2), {"axisb": 0, "axisc": 0}), ((0, 3), (3,), {})], ids=str)
def test_cross_matches_numpy(dtype, case):
    sa, sb, kw = case
    a, b = _rand(sa, dtype, 1), _rand(sb, dtype, 2)
    e, g = _both(lambda xp, x, y: xp.cross(x, y, **kw), a, b)
    _check(g, e)


@gpu
@pytest.mark.parametrize("case", [((2,), (2,), {}), ((5, 2), (5, 3), {}), ((5, 3), (2,), {}),
                                  ((2, 3), (3, 3), {"axisa": 0}), ((4, 4), (4, 4), {})], ids=str)
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_cross_needs_3_vectors(case):
    sa, sb, kw = case
    a, b = _rand(sa, "float64", 1), _rand(sb, "float64", 2)
    got = _exc(lambda: cp.cross(cp.asarray(a), cp.asarray(b), **kw))
    ax_a = kw.get("axisa", -1)
    assert got == _cross_error(sa[ax_a], sb[-1])
    if NUMPY_2_5:
        assert got == _exc(lambda: numpy.cross(a, b, **kw))


@gpu
def test_cross_errors_and_linalg_cross():
    assert _exc(lambda: cp.cross(cp.ones(3), cp.ones(3), axisa=2))[0] is numpy.exceptions.AxisError
    x, y = _rand((4, 3), "float64", 1), _rand((4, 3), "float64", 2)
    e, g = _both(lambda xp, p, q: xp.linalg.cross(p, q), x, y)
    _check(g, e)
    z = numpy.ones((4, 2))
    assert _exc(lambda: cp.linalg.cross(cp.asarray(z), cp.asarray(z))) == _exc(lambda: numpy.linalg.cross(z, z))


@gpu
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint32", "float16", "float32", "complex64"])
@pytest.mark.parametrize("case", [((4, 4), {}), ((3, 5), {"offset": 1}), ((3, 5), {"offset": -2}),
                                  ((3, 5), {"offset": 7}), ((2, 3, 4), {"axis1": 1, "axis2": 2}),
                                  ((2, 3, 4), {"axis1": -1, "axis2": 0, "offset": 1}),
                                  ((4, 4), {"dtype": "float64"})], ids=str)
def test_trace_matches_numpy(dtype, case):
    shape, kw = case
    a = _rand(shape, dtype, 1)
    e, g = _both(lambda xp, x: xp.trace(x, **kw), a)
    _check(g, e)
    _check(cp.asarray(a).trace(**kw), e)


@gpu
def test_trace_out_and_errors():
    a = _rand((2, 3, 3), "float32", 1)
    out = cp.empty(3, dtype="float32")
    assert cp.trace(cp.asarray(a), axis1=0, axis2=1, out=out) is out
    _check(out, numpy.trace(a, axis1=0, axis2=1))
    assert _exc(lambda: cp.trace(cp.ones(3)))[0] is ValueError
    assert _exc(lambda: cp.trace(cp.ones((2, 2)), axis1=1, axis2=1))[0] is ValueError
    assert _exc(lambda: cp.trace(cp.ones((2, 2)), axis1=2))[0] is numpy.exceptions.AxisError


# ---- linalg ---------------------------------------------------------------------------------------------------

@gpu
@pytest.mark.parametrize("dtype", ["int64", "float32", "complex128", "bool"])
@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 8])
def test_matrix_power_matches_numpy(dtype, n):
    a = _rand((2, 3, 3), dtype, 1)
    if numpy.dtype(dtype).kind == "f":
        a = a / 2
    e, g = _both(lambda xp, x: xp.linalg.matrix_power(x, n), a)
    _check(g, e, 9)


@gpu
def test_matrix_power_errors():
    for shape in [(3,), (2, 3)]:
        e_np = _exc(lambda: numpy.linalg.matrix_power(numpy.ones(shape), 2))
        e_cp = _exc(lambda: cp.linalg.matrix_power(cp.ones(shape), 2))
        assert e_cp == e_np and issubclass(e_cp[0], numpy.linalg.LinAlgError)
    with pytest.raises(TypeError):
        cp.linalg.matrix_power(cp.ones((2, 2)), 1.5)


@gpu
def test_matrix_power_negative_uses_inverse():
    if not hasattr(cp.linalg, "inv"):
        pytest.skip("cuarray.linalg.inv is not available yet")
    a = numpy.array([[2.0, 1.0], [1.0, 3.0]])
    _check(cp.linalg.matrix_power(cp.asarray(a), -3), numpy.linalg.matrix_power(a, -3))


@gpu
@pytest.mark.parametrize("shapes", [[(3, 4), (4, 5)], [(3, 4), (4, 5), (5, 2)], [(10, 2), (2, 30), (30, 3)],
                                    [(4,), (4, 5), (5, 6), (6,)], [(4,), (4, 5), (5, 2), (2, 7)],
                                    [(3, 4), (4, 5), (5, 6), (6, 2), (2,)], [(2, 3), (3, 1), (1, 4), (4, 5), (5, 6)]],
                         ids=str)
def test_multi_dot_matches_numpy(shapes):
    arrays = [_rand(s, "float64", i) for i, s in enumerate(shapes)]
    e = numpy.linalg.multi_dot(arrays)
    g = cp.linalg.multi_dot([cp.asarray(x) for x in arrays])
    _check(g, e, 30)


@gpu
def test_multi_dot_errors():
    with pytest.raises(ValueError):
        cp.linalg.multi_dot([cp.ones((2, 2))])
    e_np = _exc(lambda: numpy.linalg.multi_dot([numpy.ones((2, 2)), numpy.ones((2, 2, 2)), numpy.ones((2, 2))]))
    e_cp = _exc(lambda: cp.linalg.multi_dot([cp.ones((2, 2)), cp.ones((2, 2, 2)), cp.ones((2, 2))]))
    assert e_cp == e_np


@gpu
def test_linalg_wrappers():
    a, b = _rand((2, 3, 4), "float32", 1), _rand((2, 4, 3), "float32", 2)
    for name, args, kw in [("matmul", (a, b), {}), ("outer", (a[0, 0], b[0, 0]), {}), ("diagonal", (a,), {}),
                           ("diagonal", (a,), {"offset": 1}), ("trace", (a,), {}), ("trace", (b,), {"offset": -1}),
                           ("trace", (a,), {"dtype": "float64"})]:
        e = getattr(numpy.linalg, name)(*args, **kw)
        g = getattr(cp.linalg, name)(*[cp.asarray(x) for x in args], **kw)
        _check(g, e, 4)
    e_np = _exc(lambda: numpy.linalg.outer(a, b))
    assert _exc(lambda: cp.linalg.outer(cp.asarray(a), cp.asarray(b))) == e_np
    # linalg.diagonal is a view.
    x = cp.zeros((3, 3))
    d = cp.linalg.diagonal(x)
    d[...] = 1
    assert float(x.sum()) == 3.0


# ---- CPU: no device needed ------------------------------------------------------------------------------------

def test_tf32_switch_and_context():
    previous = cp.set_tf32_enabled(False)
    try:
        assert cp.tf32_enabled() is False
        with cp.tf32() as on:
            assert on is True and cp.tf32_enabled() is True
            with cp.tf32(False):
                assert cp.tf32_enabled() is False
            assert cp.tf32_enabled() is True
        assert cp.tf32_enabled() is False
        assert cp.set_tf32_enabled(True) is False
        assert cp.set_tf32_enabled(False) is True
    finally:
        cp.set_tf32_enabled(previous)


def test_tf32_default_comes_from_environment():
    import os
    import subprocess
    import sys
    code = "import cuarray; print(cuarray.tf32_enabled())"
    env = dict(os.environ, CUARRAY_TF32="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
    env["CUARRAY_TF32"] = "0"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_functions_are_exported():
    for name in ["matmul", "dot", "vdot", "inner", "outer", "vecdot", "tensordot", "kron", "cross", "trace",
                 "einsum", "einsum_path"]:
        assert callable(getattr(cp, name)), name
    import cuarray.linalg as la
    for name in ["matrix_power", "multi_dot", "matmul", "outer", "tensordot", "vecdot", "cross", "diagonal", "trace"]:
        assert callable(getattr(la, name)), name
    assert hasattr(cp.ndarray, "__matmul__") and hasattr(cp.ndarray, "__rmatmul__")
    assert hasattr(cp.ndarray, "dot") and hasattr(cp.ndarray, "trace")


# ---- issue 14: matmul's faults in NumPy's order ------------------------------------------------------------
# A gufunc resolves its loop and the casts of its inputs and output (TypeError) before it looks at the
# operands' dimensions, core sizes and batch broadcast (ValueError); dtype=, out= and casting= are read in
# that order first. Each case: (body, the builtin type NumPy raises).

def _mz(xp, shape, dtype=numpy.float64):
    return xp.zeros(shape, dtype=dtype)


def _imatmul_cast_and_shape(xp):
    a = _mz(xp, (2, 3), numpy.int64)
    a @= _mz(xp, (3, 4))


_MATMUL_FAULTS = {
    "0d_and_dtype_cast": (lambda xp: xp.matmul(_mz(xp, ()), _mz(xp, (2, 3)), dtype=numpy.int64), TypeError),
    "0d_and_out_cast": (lambda xp: xp.matmul(_mz(xp, ()), _mz(xp, (2, 3)), out=_mz(xp, 5, numpy.int64)), TypeError),
    "0d_second_and_casting_no": (lambda xp: xp.matmul(_mz(xp, (2, 3)), _mz(xp, (), numpy.float32), casting="no"),
                                 TypeError),
    "0d_and_bad_casting": (lambda xp: xp.matmul(_mz(xp, ()), _mz(xp, (2, 3)), casting="bad"), ValueError),
    "0d_alone": (lambda xp: xp.matmul(_mz(xp, (2, 3)), _mz(xp, ())), ValueError),
    "0d_python_scalar": (lambda xp: xp.matmul(_mz(xp, (2, 3)), 2.0), ValueError),
    "0d_operator": (lambda xp: _mz(xp, ()) @ _mz(xp, (2, 3), bool), ValueError),
    "core_and_out_cast": (lambda xp: xp.matmul(_mz(xp, (2, 3)), _mz(xp, (2, 3)), out=_mz(xp, (2, 2), numpy.int64)),
                          TypeError),
    "core_and_casting_no": (lambda xp: xp.matmul(_mz(xp, (2, 3)), _mz(xp, (4, 4), numpy.float32), casting="no"),
                            TypeError),
    "batch_and_out_cast": (lambda xp: xp.matmul(_mz(xp, (2, 2, 3)), _mz(xp, (3, 3, 4)),
                                                out=_mz(xp, (2, 3), numpy.int64)), TypeError),
    "batch_and_dtype_cast": (lambda xp: xp.matmul(_mz(xp, (2, 2, 3)), _mz(xp, (3, 3, 4)), dtype=numpy.int64),
                             TypeError),
    "batch_and_core": (lambda xp: xp.matmul(_mz(xp, (2, 2, 3)), _mz(xp, (3, 4, 4))), ValueError),
    "out_core_and_batch": (lambda xp: xp.matmul(_mz(xp, (2, 2, 3)), _mz(xp, (3, 3, 4)), out=_mz(xp, (2, 2, 5))),
                           ValueError),
    "bool_out_of_int_product": (lambda xp: xp.matmul(_mz(xp, (2, 3), numpy.int64), _mz(xp, (3, 4), bool),
                                                     out=_mz(xp, (2, 4), bool)), TypeError),
    "bad_dtype_and_bad_out": (lambda xp: xp.matmul(_mz(xp, (2, 3)), _mz(xp, (3, 4)), dtype="foo", out=5), TypeError),
    "bad_out_and_bad_casting": (lambda xp: xp.matmul(_mz(xp, (2, 3)), _mz(xp, (3, 4)), out=5, casting="bad"),
                                TypeError),
    "imatmul_cast_and_shape": (_imatmul_cast_and_shape, TypeError),
}


@gpu
@pytest.mark.parametrize("case", list(_MATMUL_FAULTS))
def test_matmul_faults_raise_numpys_error_in_numpys_order(case):
    from cuarray import testing
    body, error = _MATMUL_FAULTS[case]
    testing.numpy_cuarray_equal(accept_error=error)(body)()
