"""cumsum/cumprod and their NaN and array-API variants, diff, ediff1d and gradient against NumPy."""
import os
import subprocess
import sys

import numpy
import pytest

import cuarray as cp
from cuarray import testing

gpu = pytest.mark.gpu

DTYPES = [numpy.dtype(t) for t in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                   "uint64", "float16", "float32", "float64", "complex64", "complex128")]
RTOL = {"e": 2e-2, "f": 2e-5, "d": 1e-12, "F": 2e-5, "D": 1e-12}


def _data(dtype, shape, seed=0, prod=False):
    """Values that keep products finite (near 1 for floats, small for integers) and sums well conditioned."""
    dt = numpy.dtype(dtype)
    rng = numpy.random.default_rng(seed)
    n = int(numpy.prod(shape))
    if dt.kind == "b":
        v = rng.integers(0, 2, n).astype(bool) if not prod else rng.random(n) < 0.95
    elif dt.kind in "iu":
        lo = 0 if dt.kind == "u" else (-2 if prod else -50)
        v = rng.integers(lo, 3 if prod else 50, n).astype(dt)
    elif dt.kind == "f":
        v = (rng.random(n) * 0.5 + 0.75 if prod else rng.random(n)).astype(dt)
    else:
        re = rng.random(n) * 0.5 + 0.75 if prod else rng.random(n)
        im = rng.random(n) * 0.2 - 0.1 if prod else rng.random(n)
        v = (re + 1j * im).astype(dt)
    return v.reshape(shape)


def _rtol(dtype):
    return RTOL.get(numpy.dtype(dtype).char, 0)


# -- CPU ------------------------------------------------------------------------------------------------------


def test_functions_are_exported():
    for name in ("cumsum", "cumprod", "nancumsum", "nancumprod", "cumulative_sum", "cumulative_prod", "diff",
                 "ediff1d", "gradient"):
        assert callable(getattr(cp, name)), name
    for name in ("cumsum", "cumprod"):
        assert callable(getattr(cp.ndarray, name)), name


@pytest.mark.parametrize("fn", ["cumsum", "cumprod", "nancumsum", "diff", "ediff1d", "gradient"])
def test_host_arrays_are_refused_with_type_error(fn):
    with pytest.raises(TypeError):
        getattr(cp, fn)(numpy.arange(4))


def test_cumulative_sum_takes_keywords_only():
    with pytest.raises(TypeError):
        cp.cumulative_sum(numpy.arange(3), 0)


# -- GPU: scans -------------------------------------------------------------------------------------------------


def _check_scan(fn, dtype, shape, axis, prod=False, **kw):
    a = _data(dtype, shape, prod=prod)
    want = getattr(numpy, fn)(a, axis=axis, **kw)
    got = getattr(cp, fn)(cp.asarray(a), axis=axis, **kw)
    assert got.dtype == want.dtype and got.shape == want.shape
    tol = _rtol(want.dtype)
    if tol:
        numpy.testing.assert_allclose(got.get(), want, rtol=tol, atol=tol)
    else:
        numpy.testing.assert_array_equal(got.get(), want)


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape,axis", [((0,), None), ((1,), None), ((37,), None), ((37,), 0), ((5, 6), None),
                                        ((5, 6), 0), ((5, 6), 1), ((5, 6), -1), ((2, 3, 4), 1), ((3, 0, 2), 2)])
def test_cumsum_matches_numpy(dtype, shape, axis):
    _check_scan("cumsum", dtype, shape, axis)


# Issue 14: the scans' axis is None or an integer: a bool, a tuple, a list or a float is a TypeError, as in
# NumPy (cumulative_sum/prod take a 1-tuple too, and refuse longer ones with ValueError); a 0-d array scans as
# 1-d for axis 0 or -1.
@gpu
@pytest.mark.parametrize("axis", [True, False, (0,), (0, 1), [0], 0.0, numpy.int64(1), numpy.array(1), 0, -1, 2],
                         ids=repr)
@pytest.mark.parametrize("func", ["cumsum", "cumprod", "nancumsum", "nancumprod", "a.cumsum", "a.cumprod",
                                  "cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("shape", [(2, 3), ()], ids=str)
@testing.numpy_cuarray_allclose(rtol=1e-12)
def test_scan_axis_types_match_numpy(xp, axis, func, shape):
    a = xp.asarray(numpy.arange(1.0, 1.0 + numpy.prod(shape, dtype=int)).reshape(shape))
    if func.startswith("a."):
        return getattr(a, func[2:])(axis=axis)
    return getattr(xp, func)(a, axis=axis)


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape,axis", [((1,), None), ((37,), None), ((5, 6), 0), ((5, 6), 1), ((2, 3, 4), 0)])
def test_cumprod_matches_numpy(dtype, shape, axis):
    _check_scan("cumprod", dtype, shape, axis, prod=True)


@gpu
@pytest.mark.parametrize("fn", ["cumsum", "cumprod"])
@pytest.mark.parametrize("dtype,rt", [("int64", "int8"), ("int16", "uint8"), ("int32", "bool"), ("float64", "int32"),
                                      ("float64", "float16"), ("float32", "float64"), ("int8", "complex64"),
                                      ("uint64", "int64"), ("bool", "bool")])
def test_scan_dtype_argument(fn, dtype, rt):
    # Wrapping integer results: NumPy casts the input to the result dtype, then wraps at each step.
    a = (numpy.arange(1, 41) * 7 % 23 - (0 if numpy.dtype(dtype).kind in "ub" else 5)).astype(dtype)
    if fn == "cumprod":
        a = (a % 3).astype(dtype)
    want = getattr(numpy, fn)(a, dtype=rt)
    got = getattr(cp, fn)(cp.asarray(a), dtype=rt)
    assert got.dtype == want.dtype
    if _rtol(rt):
        numpy.testing.assert_allclose(got.get(), want, rtol=_rtol(rt))
    else:
        numpy.testing.assert_array_equal(got.get(), want)


@gpu
def test_cumsum_of_large_arrays_and_many_rows():
    rng = numpy.random.default_rng(1)
    a = rng.integers(-100, 100, (1 << 20) + 3)
    numpy.testing.assert_array_equal(cp.cumsum(cp.asarray(a)).get(), numpy.cumsum(a))
    b = rng.integers(-100, 100, (1000, 377))
    for axis in (0, 1):
        numpy.testing.assert_array_equal(cp.cumsum(cp.asarray(b), axis=axis).get(), numpy.cumsum(b, axis=axis))
    f = rng.random(1 << 21).astype(numpy.float32)
    numpy.testing.assert_allclose(cp.cumsum(cp.asarray(f)).get(), numpy.cumsum(f, dtype=numpy.float64), rtol=1e-4)


# Tiles of the float32 sum policies (Note [scan policy] in src/kernels/scan_sum_f32_tuned.cu): 128 x 15,
# 128 x 24 and 256 x 24 items.
@gpu
@pytest.mark.parametrize("n", [1, 2, 1919, 1921, 3071, 3072, 3073, 6143, 6145, 3072 * 700 + 1, (1 << 22) + 5])
def test_cumsum_float32_around_scan_tiles(n):
    f = numpy.random.default_rng(n).random(n).astype(numpy.float32)
    got = cp.cumsum(cp.asarray(f)).get()
    assert got.dtype == numpy.float32
    numpy.testing.assert_allclose(got, numpy.cumsum(f, dtype=numpy.float64), rtol=1e-4)
    g = numpy.array([1.0, numpy.inf, 2.0, -numpy.inf, 3.0] * (n // 5 + 1), dtype=numpy.float32)[:n]
    numpy.testing.assert_array_equal(cp.cumsum(cp.asarray(g)).get(), numpy.cumsum(g))


@gpu
@pytest.mark.parametrize("policy", ["default", "tuned", "wide", "bogus"])
def test_scan_policy_environment_variable(policy):
    pkg_parent = os.path.dirname(os.path.dirname(os.path.abspath(cp.__file__)))
    env = dict(os.environ)
    env["CUARRAY_SCAN_POLICY"] = policy
    env["PYTHONPATH"] = os.pathsep.join([pkg_parent] + [p for p in [env.get("PYTHONPATH")] if p])
    code = ("import numpy, cuarray\n"
            "f = numpy.random.default_rng(0).random((1 << 20) + 3).astype(numpy.float32)\n"
            "g = cuarray.cumsum(cuarray.asarray(f)).get()\n"
            "assert numpy.allclose(g, numpy.cumsum(f, dtype=numpy.float64), rtol=1e-4)\n"
            "h = cuarray.cumsum(cuarray.asarray(f[:10].astype(numpy.float16))).get()\n"
            "assert numpy.allclose(h, numpy.cumsum(f[:10].astype(numpy.float16)), rtol=2e-2)\n")
    r = subprocess.run([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=300)
    if policy == "bogus":
        assert r.returncode != 0 and "CUARRAY_SCAN_POLICY" in r.stderr, r.stderr
    else:
        assert r.returncode == 0, r.stderr


@gpu
@testing.numpy_cuarray_allclose(rtol=1e-12)
def test_cumsum_of_noncontiguous_and_negative_strides(xp):
    a = xp.asarray(_data("float64", (6, 8)))
    return (xp.cumsum(a[::-1, ::2], axis=0), xp.cumsum(a.T, axis=1), xp.cumprod(a[:, ::-3]), xp.cumsum(a[::2].T))


@gpu
@testing.numpy_cuarray_equal()
def test_cumsum_of_0d_arrays(xp):
    a = xp.asarray(numpy.float32(3.5))
    return xp.cumsum(a), xp.cumsum(a, axis=0), xp.cumprod(a, axis=-1), xp.nancumsum(a)


@gpu
@pytest.mark.parametrize("axis", [2, -3])
@testing.numpy_cuarray_equal()
def test_cumsum_axis_out_of_range_raises_axis_error(xp, axis):
    return xp.cumsum(xp.ones((2, 3)), axis=axis)


@gpu
@testing.numpy_cuarray_equal()
def test_cumsum_axis_tuple_raises_type_error(xp):
    return xp.cumsum(xp.ones((2, 3)), axis=(0,))


@gpu
@pytest.mark.parametrize("out_dtype", ["int8", "float32", "int64"])
def test_cumsum_out(out_dtype):
    a = numpy.arange(12, dtype=numpy.int16).reshape(3, 4)
    out = cp.zeros((3, 4), dtype=out_dtype)
    r = cp.cumsum(cp.asarray(a), axis=1, out=out)
    assert r is out
    numpy.testing.assert_array_equal(out.get(), numpy.cumsum(a, axis=1, out=numpy.zeros((3, 4), out_dtype)))
    flat = cp.zeros(12, dtype=out_dtype)
    assert a.cumsum(out=numpy.zeros(12, out_dtype)).tolist() == cp.asarray(a).cumsum(out=flat).get().tolist()


@gpu
def test_cumsum_in_place_through_out():
    a = cp.arange(10, dtype=cp.float64)
    cp.cumsum(a, out=a)
    numpy.testing.assert_array_equal(a.get(), numpy.cumsum(numpy.arange(10.0)))


@gpu
@testing.numpy_cuarray_equal()
def test_cumsum_out_of_wrong_size_raises(xp):
    return xp.cumsum(xp.ones(3), out=xp.zeros(4))


@gpu
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128", "int32"])
@pytest.mark.parametrize("fn", ["nancumsum", "nancumprod"])
def test_nan_scans(fn, dtype):
    a = _data(dtype, (4, 7), prod=True)
    if numpy.dtype(dtype).kind in "fc":
        a.flat[[1, 5, 9, 20]] = numpy.nan
    if numpy.dtype(dtype).kind == "c":
        a.flat[11] = complex(1.0, numpy.nan)  # a NaN in either part makes the element the identity
    for axis in (None, 0, 1):
        want = getattr(numpy, fn)(a, axis=axis)
        got = getattr(cp, fn)(cp.asarray(a), axis=axis)
        assert got.dtype == want.dtype
        numpy.testing.assert_allclose(got.get(), want, rtol=_rtol(want.dtype) or 0)


@gpu
@pytest.mark.parametrize("fn", ["cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("include_initial", [False, True])
@testing.numpy_cuarray_allclose(rtol=1e-12)
def test_cumulative_functions(xp, fn, include_initial):
    f = getattr(xp, fn)
    a = xp.asarray(_data("float64", (3, 4), prod=True))
    i8 = xp.asarray(_data("int8", (5,), prod=True))
    return (f(a, axis=0, include_initial=include_initial), f(a, axis=-1, include_initial=include_initial),
            f(i8, include_initial=include_initial), f(i8, dtype=xp.int8, include_initial=include_initial),
            f(xp.asarray(numpy.float64(2.0)), include_initial=include_initial),
            f(xp.zeros((0, 3)), axis=0, include_initial=include_initial))


@gpu
@testing.numpy_cuarray_equal()
def test_cumulative_sum_needs_axis_beyond_one_dimension(xp):
    return xp.cumulative_sum(xp.ones((2, 3)))


@gpu
def test_cumulative_sum_out_with_initial():
    out = cp.zeros((2, 4))
    r = cp.cumulative_sum(cp.ones((2, 3)), axis=1, include_initial=True, out=out)
    assert r is out
    numpy.testing.assert_array_equal(out.get(), numpy.cumulative_sum(numpy.ones((2, 3)), axis=1, include_initial=True))
    with pytest.raises(ValueError):
        cp.cumulative_sum(cp.ones((2, 3)), axis=1, include_initial=True, out=cp.zeros((2, 3)))


@gpu
@testing.numpy_cuarray_allclose(rtol=1e-12)
def test_scan_methods(xp):
    a = xp.asarray(_data("float64", (3, 5), prod=True))
    return a.cumsum(), a.cumsum(axis=1), a.cumprod(0), a.cumsum(dtype=xp.float32)


# -- GPU: differences ---------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("n", [0, 1, 2, 5])
@testing.numpy_cuarray_equal()
def test_diff_matches_numpy(xp, dtype, n):
    a = xp.asarray(_data(dtype, (4, 6)))
    return xp.diff(a, n=n), xp.diff(a, n=n, axis=0), xp.diff(a[:, ::-1], n=n, axis=-1)


@gpu
@testing.numpy_cuarray_equal()
def test_diff_prepend_append(xp):
    a = xp.asarray(numpy.arange(12, dtype=numpy.int8).reshape(3, 4))
    col = xp.asarray(numpy.arange(3, dtype=numpy.float32).reshape(3, 1))
    return (xp.diff(a, prepend=0), xp.diff(a, append=7), xp.diff(a, axis=0, prepend=a[:1], append=a[-1:]),
            xp.diff(a, prepend=col, append=1.5), xp.diff(xp.asarray(numpy.array([1, 2, 4])), n=2, prepend=-1))


@gpu
@pytest.mark.parametrize("case", ["negative", "0d", "bad_axis", "mismatch"])
@testing.numpy_cuarray_equal()
def test_diff_errors(xp, case):
    a = xp.ones((2, 3))
    if case == "negative":
        return xp.diff(a, n=-1)
    if case == "0d":
        return xp.diff(xp.asarray(numpy.float64(1.0)))
    if case == "bad_axis":
        return xp.diff(a, axis=2)
    return xp.diff(a, prepend=xp.ones((2, 2)), axis=0)


@gpu
@testing.numpy_cuarray_equal()
def test_ediff1d(xp):
    a = xp.asarray(numpy.array([[1, 2, 4], [7, 11, 16]], dtype=numpy.int32))
    f = xp.asarray(numpy.array([1.5, 0.25, -3.0]))
    return (xp.ediff1d(a), xp.ediff1d(a, to_begin=-99), xp.ediff1d(a, to_end=xp.asarray(numpy.array([1, 2]))),
            xp.ediff1d(f, to_begin=xp.asarray(numpy.array([7.0, 8.0])), to_end=0.5), xp.ediff1d(xp.zeros(0)),
            xp.ediff1d(xp.zeros(1), to_end=3.0))


@gpu
@pytest.mark.parametrize("case", ["bool", "to_begin_kind"])
@testing.numpy_cuarray_equal()
def test_ediff1d_errors(xp, case):
    if case == "bool":
        return xp.ediff1d(xp.asarray(numpy.array([True, False])))
    return xp.ediff1d(xp.asarray(numpy.array([1, 2, 4])), to_begin=1.5)


@gpu
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", "float16", "float32", "float64", "complex64",
                                   "complex128"])
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_matches_numpy(dtype, edge_order):
    a = _data(dtype, (5, 7), seed=3) * (3 if numpy.dtype(dtype).kind != "u" else 1)
    a = a.astype(dtype)
    coords = numpy.array([0.0, 0.5, 1.5, 1.75, 3.0, 4.5, 5.0])
    cases = [((), {}), ((2.0,), {}), ((1.0, coords), {}), ((coords,), {"axis": 1}), ((), {"axis": 0}),
             ((0.5,), {"axis": (1, 0)}), ((numpy.arange(5.0) * 2.0,), {"axis": 0})]
    rtol = 1e-2 if dtype == "float16" else (1e-5 if dtype in ("float32", "complex64") else 1e-12)
    for args, kw in cases:
        want = numpy.gradient(a, *args, edge_order=edge_order, **kw)
        dargs = [cp.asarray(x) if isinstance(x, numpy.ndarray) else x for x in args]
        got = cp.gradient(cp.asarray(a), *dargs, edge_order=edge_order, **kw)
        if isinstance(want, numpy.ndarray):
            want, got = [want], [got]
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert g.dtype == w.dtype and g.shape == w.shape
            numpy.testing.assert_allclose(g.get(), w, rtol=rtol, atol=rtol)


@gpu
@pytest.mark.parametrize("case", ["edge3", "short", "spacing_len", "spacing_count", "repeated", "bool", "2d_coords"])
@testing.numpy_cuarray_equal()
def test_gradient_errors(xp, case):
    a = xp.asarray(numpy.arange(10.0).reshape(2, 5))
    if case == "edge3":
        return xp.gradient(a, edge_order=3)
    if case == "short":
        return xp.gradient(a, edge_order=2)
    if case == "spacing_len":
        return xp.gradient(a, xp.asarray(numpy.arange(3.0)), axis=1)
    if case == "spacing_count":
        return xp.gradient(a, 1.0, 2.0, 3.0)
    if case == "repeated":
        return xp.gradient(a, axis=(1, 1))
    if case == "bool":
        return xp.gradient(xp.asarray(numpy.array([True, False, True])))
    return xp.gradient(a, xp.ones((2, 5)), axis=1)


@gpu
def test_gradient_of_0d_is_an_empty_tuple():
    assert cp.gradient(cp.asarray(numpy.float64(3.0))) == ()


# -- GPU: diff's one-pass kernel (issue 23) -------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("n", [1, 2, 3, 16, 17, 33, 4099])
@testing.numpy_cuarray_equal()
def test_diff_kernel_of_1d_arrays_around_vector_boundaries(xp, dtype, n):
    # Lengths around the 16-byte vectors of every item size; views that begin off a vector boundary take the
    # kernel's scalar path, strided and reversed views the ufunc path.
    a = xp.asarray(_data(dtype, (n + 3,), seed=n))
    return (xp.diff(a[:n]), xp.diff(a[1:n + 1]), xp.diff(a[3:]), xp.diff(a[::2]), xp.diff(a[::-1]),
            xp.diff(a[:n], n=2), xp.diff(a, n=3))


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(7, 9, 5), (6, 8), (6, 3), (1, 9), (9, 1), (0, 4), (5, 0), (3, 16, 2)], ids=str)
@testing.numpy_cuarray_equal()
def test_diff_kernel_along_every_axis(xp, dtype, shape):
    # axis 0 is one flat pass with a stride of a whole row (inner extent a multiple of the vector or not); the
    # other axes run the row kernel, whose outputs wrap from one outer row to the next inside a vector.
    a = xp.asarray(_data(dtype, shape, seed=len(shape)))
    out = []
    for axis in range(-len(shape), len(shape)):
        out += [xp.diff(a, axis=axis), xp.diff(a, n=2, axis=axis)]
    out.append(xp.diff(a.T, axis=0))  # not C-contiguous: the ufunc path
    return tuple(out)


@gpu
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128"])
@testing.numpy_cuarray_equal()
def test_diff_kernel_of_nan_inf_and_signed_zeros(xp, dtype):
    v = numpy.array([0.0, -0.0, numpy.nan, 1.0, numpy.inf, numpy.inf, -numpy.inf, 3.0, -0.0, 0.0, 65504.0, -65504.0,
                     1e-7, 2.5, numpy.nan, numpy.nan, 7.0], dtype=dtype)
    if v.dtype.kind == "c":
        c = numpy.empty(v.shape, dtype)
        c.real, c.imag = v.real, v.real[::-1]
        v = c
    a = xp.asarray(v)
    with numpy.errstate(all="ignore"):  # inf - inf and float16 overflow warn in NumPy
        return (xp.diff(a), xp.diff(a[1:]), xp.diff(a.reshape(1, 17), axis=1),
                xp.diff(xp.asarray(numpy.tile(v, (3, 1)))))


@gpu
@testing.numpy_cuarray_equal()
def test_diff_kernel_wraps_integers_rounds_halves_and_compares_bools(xp):
    rng = numpy.random.default_rng(8)
    i8 = numpy.array([-128, 127, -128, 0, 127, -1] * 7, numpy.int8)
    u8 = numpy.array([0, 255, 1, 254, 0] * 7, numpy.uint8)
    u64 = numpy.array([0, 2**64 - 1, 1, 2**63] * 9, numpy.uint64)
    half = (rng.standard_normal(1000) * 1000).astype(numpy.float16)
    b = rng.integers(0, 2, (5, 37)).astype(bool)
    return (xp.diff(xp.asarray(i8)), xp.diff(xp.asarray(u8)), xp.diff(xp.asarray(u64)), xp.diff(xp.asarray(half)),
            xp.diff(xp.asarray(half), n=2), xp.diff(xp.asarray(b)), xp.diff(xp.asarray(b), axis=0),
            xp.diff(xp.asarray(b), n=3), xp.ediff1d(xp.asarray(u8)), xp.ediff1d(xp.asarray(half)[::-2]),
            xp.ediff1d(xp.asarray(i8.reshape(6, 7))[1:]))


@gpu
@testing.numpy_cuarray_equal()
def test_diff_kernel_of_large_arrays_and_edges(xp):
    rng = numpy.random.default_rng(9)
    f = xp.asarray(rng.random((1 << 20) + 3).astype(numpy.float32))
    i = xp.asarray(rng.integers(-1000, 1000, (513, 1031)))
    return (xp.diff(f), xp.diff(f[1:]), xp.diff(i, axis=1), xp.diff(i, axis=0), xp.diff(f, prepend=0.5, append=2),
            xp.diff(i, axis=0, prepend=i[-1:], append=7))


# -- GPU: row scans with one block per row (issue 23, Note [row scan]) ----------------------------------------------


def _check_long_rows(fn, dtype, shape, axis):
    a = _data(dtype, shape, seed=shape[-1], prod=fn == "cumprod")
    got = getattr(cp, fn)(cp.asarray(a), axis=axis)
    want = getattr(numpy, fn)(a, axis=axis)
    assert got.dtype == want.dtype and got.shape == want.shape
    if want.dtype.kind in "fc":
        # A tree of partial sums/products against NumPy's running one: compare both with the float64 result.
        wide = "complex128" if want.dtype.kind == "c" else "float64"
        exact = getattr(numpy, fn)(a.astype(wide), axis=axis)
        tol = 1e-4 if want.dtype.itemsize <= 8 and want.dtype != numpy.float64 else 1e-10
        numpy.testing.assert_allclose(got.get(), exact, rtol=tol)
    else:
        numpy.testing.assert_array_equal(got.get(), want)


@gpu
@pytest.mark.parametrize("dtype", [d for d in DTYPES if d.char != "e"], ids=str)
@pytest.mark.parametrize("shape,axis", [((600, 1024), 1), ((512, 3001), 1), ((513, 2053), -1), ((1100, 600), 0),
                                        ((2, 256, 1030), 2), ((520, 1024), 0), ((700, 4100), 1)], ids=str)
def test_cumsum_of_many_long_rows(dtype, shape, axis):
    # 512 rows or more of at least one sub-chunk: one block per row, vector loads where the rows are 16-byte
    # multiples, element loads with a padded last sub-chunk where not; axis 0 scans the transposed copy's rows.
    _check_long_rows("cumsum", dtype, shape, axis)


@gpu
@pytest.mark.parametrize("dtype", [d for d in DTYPES if d.char != "e"], ids=str)
@pytest.mark.parametrize("shape,axis", [((600, 1024), 1), ((512, 1031), 1), ((1100, 600), 0)], ids=str)
def test_cumprod_of_many_long_rows(dtype, shape, axis):
    _check_long_rows("cumprod", dtype, shape, axis)


@gpu
def test_long_row_scans_keep_first_elements_and_propagate_nan():
    a = numpy.random.default_rng(3).random((600, 2048)).astype(numpy.float32)
    a[:, 0] = -0.0
    a[5, 700] = numpy.nan
    a[9, 100], a[9, 1500] = numpy.inf, -numpy.inf
    got = cp.cumsum(cp.asarray(a), axis=1).get()
    assert numpy.signbit(got[:, 0]).all()  # -0.0 is not added to an identity 0.0
    assert numpy.isnan(got[5, 700:]).all() and not numpy.isnan(got[5, :700]).any()
    assert numpy.isposinf(got[9, 100:1500]).all() and numpy.isnan(got[9, 1500:]).all()
    numpy.testing.assert_allclose(got[:5], numpy.cumsum(a[:5].astype(numpy.float64), axis=1), rtol=1e-4)
    c = numpy.ones((512, 1024), numpy.complex64)
    c[:, 0] = complex(0.0, numpy.inf)
    gc = cp.cumprod(cp.asarray(c), axis=1).get()
    numpy.testing.assert_array_equal(gc[:, 0], c[:, 0])  # not (1 + 0j) * (inf j), which has a NaN part
    assert numpy.isnan(gc[:, 1:]).all()  # as NumPy's: (0 + inf j) * 1 has a NaN real part, which spreads
