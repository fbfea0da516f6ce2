"""Reductions against NumPy: sum/prod/min/max/any/all/mean/var/std, the nan- forms, argmax/argmin,
count_nonzero and ptp over dtypes, axes, layouts, keepdims, out=, initial=, where=, empty and NaN cases."""
import re
import warnings

import numpy
import pytest

import cuarray as cp
from cuarray import testing

gpu = pytest.mark.gpu

DTYPES = [numpy.dtype(t) for t in ("bool", "int8", "uint8", "int16", "int32", "int64", "uint32", "uint64", "float16",
                                   "float32", "float64", "complex64", "complex128")]
REAL = [d for d in DTYPES if d.kind != "c"]
INEXACT = [d for d in DTYPES if d.kind in "fc"]

AXES = [None, 0, 1, -1, (0, 2), (1, 2), (0, 1, 2), ()]


def _data(dtype, shape=(3, 4, 5), seed=0, nan=False):
    rng = numpy.random.default_rng(seed)
    dt = numpy.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        lo = 0 if dt.kind == "u" else -5
        return rng.integers(lo, 6, shape).astype(dt)
    x = rng.standard_normal(shape)
    if dt.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    x = x.astype(dt)
    if nan and x.size > 3:
        flat = x.reshape(-1)
        flat[[1, x.size // 2]] = numpy.nan
    return x


def _tol(dtype, n=60):
    k = numpy.dtype(dtype).kind
    if numpy.dtype(dtype) == numpy.float16:
        return dict(rtol=2e-2, atol=2e-2)
    if numpy.dtype(dtype) in (numpy.float32, numpy.complex64):
        return dict(rtol=1e-5, atol=1e-5)
    if k in "fc":
        return dict(rtol=1e-12, atol=1e-12)
    return dict(rtol=1e-12, atol=0)


def _check(actual, expected, dtype=None, **tol):
    assert isinstance(actual, cp.ndarray), type(actual)
    got = actual.get()
    exp = numpy.asarray(expected)
    assert got.shape == exp.shape, (got.shape, exp.shape)
    assert got.dtype == exp.dtype, (got.dtype, exp.dtype)
    if exp.dtype.kind in "fc":
        numpy.testing.assert_allclose(got, exp, equal_nan=True, **(tol or _tol(exp.dtype)))
    else:
        numpy.testing.assert_array_equal(got, exp)


def _np(fn, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "any", "all"])
@pytest.mark.parametrize("axis", AXES, ids=str)
def test_basic_reductions_match_numpy(dtype, name, axis):
    x = _data(dtype, nan=True)
    if name == "prod" and dtype.kind in "iu":
        x = (x % 3).astype(dtype)  # keep products in range
    expected = _np(getattr(numpy, name), x, axis=axis)
    actual = getattr(cp, name)(cp.asarray(x), axis=axis)
    _check(actual, expected)
    # the ndarray method is the same function
    _check(getattr(cp.asarray(x), name)(axis=axis), expected)


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2)], ids=str)
@pytest.mark.parametrize("name", ["mean", "var", "std"])
def test_mean_var_std_match_numpy(dtype, axis, name):
    x = _data(dtype)
    expected = _np(getattr(numpy, name), x, axis=axis)
    actual = getattr(cp, name)(cp.asarray(x), axis=axis)
    _check(actual, expected, **_tol(expected.dtype if hasattr(expected, "dtype") else dtype))


@gpu
@pytest.mark.parametrize("ddof", [0, 1, 2.5, 60])
def test_var_ddof(ddof):
    x = _data(numpy.float64)
    for axis in (None, 1):
        _check(cp.var(cp.asarray(x), axis=axis, ddof=ddof), _np(numpy.var, x, axis=axis, ddof=ddof))
        _check(cp.std(cp.asarray(x), axis=axis, ddof=ddof), _np(numpy.std, x, axis=axis, ddof=ddof))


@gpu
@pytest.mark.parametrize("dtype", INEXACT + [numpy.dtype(numpy.int32)], ids=str)
@pytest.mark.parametrize("name", ["nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd"])
@pytest.mark.parametrize("axis", [None, 0, -1, (1, 2)], ids=str)
def test_nan_reductions_match_numpy(dtype, name, axis):
    if name in ("nanmax", "nanmin") and dtype.kind == "c":
        pytest.skip("NumPy's nanmax of complex is defined through fmax; checked in test_nanmax_complex")
    x = _data(dtype, nan=True)
    expected = _np(getattr(numpy, name), x, axis=axis)
    _check(getattr(cp, name)(cp.asarray(x), axis=axis), expected)


@gpu
def test_nanmax_all_nan_slice_is_nan():
    x = numpy.array([[numpy.nan, numpy.nan], [1.0, numpy.nan]])
    _check(cp.nanmax(cp.asarray(x), axis=1), _np(numpy.nanmax, x, axis=1))
    _check(cp.nanmean(cp.asarray(x), axis=1), _np(numpy.nanmean, x, axis=1))


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("axis", [None, 0, 1, 2, -1], ids=str)
def test_argmax_argmin_match_numpy(dtype, name, axis):
    x = _data(dtype, nan=True)
    if dtype.kind in "iu" or dtype.kind == "b":
        x[0, 0, 0] = x.max() if name == "argmax" else x.min()  # ties: the first index wins
    expected = getattr(numpy, name)(x, axis=axis)
    _check(getattr(cp, name)(cp.asarray(x), axis=axis), expected)
    _check(getattr(cp.asarray(x), name)(axis=axis, keepdims=True), getattr(numpy, name)(x, axis=axis, keepdims=True))


@gpu
@pytest.mark.parametrize("name", ["nanargmax", "nanargmin"])
def test_nanargmax(name):
    x = _data(numpy.float32, nan=True)
    for axis in (None, 0, 2):
        _check(getattr(cp, name)(cp.asarray(x), axis=axis), getattr(numpy, name)(x, axis=axis))
    with pytest.raises(ValueError):
        getattr(cp, name)(cp.asarray(numpy.array([numpy.nan, numpy.nan])))


@gpu
def test_argmax_empty_raises():
    with pytest.raises(ValueError):
        cp.argmax(cp.zeros(0))
    with pytest.raises(ValueError):
        cp.max(cp.zeros((3, 0)), axis=1)
    _check(cp.max(cp.zeros((0, 3)), axis=1), numpy.max(numpy.zeros((0, 3)), axis=1))
    _check(cp.max(cp.zeros((3, 0)), axis=1, initial=-1.0), numpy.max(numpy.zeros((3, 0)), axis=1, initial=-1.0))


@gpu
def test_empty_reductions_give_numpy_identities():
    for name in ("sum", "prod", "any", "all", "mean"):
        for shape, axis in (((0,), None), ((3, 0), 1), ((0, 3), 0), ((0, 3), 1)):
            x = numpy.zeros(shape, numpy.float32)
            _check(getattr(cp, name)(cp.asarray(x), axis=axis), _np(getattr(numpy, name), x, axis=axis))


@gpu
@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "mean", "var", "any", "all"])
def test_keepdims_out_dtype(name):
    x = _data(numpy.float32)
    _check(getattr(cp, name)(cp.asarray(x), axis=(0, 2), keepdims=True),
           _np(getattr(numpy, name), x, axis=(0, 2), keepdims=True))
    out = cp.empty((4,), dtype=numpy.float64)
    r = getattr(cp, name)(cp.asarray(x), axis=(0, 2), out=out)
    assert r is out
    _check(out, _np(getattr(numpy, name), x, axis=(0, 2)).astype(numpy.float64), rtol=1e-5, atol=1e-5)
    if name in ("sum", "prod", "mean"):
        _check(getattr(cp, name)(cp.asarray(x), axis=1, dtype=numpy.float64),
               _np(getattr(numpy, name), x, axis=1, dtype=numpy.float64), rtol=1e-6, atol=1e-6)


@gpu
@pytest.mark.parametrize("name", ["sum", "prod", "nansum", "max", "min", "nanmax", "any", "all", "mean", "var", "std"])
@pytest.mark.parametrize("axis,keepdims", [(None, False), (None, True), (1, False), ((0, 2), True), (-1, False)])
def test_out_of_the_result_type_is_written_in_place(name, axis, keepdims):
    # Note [reduction into out]: out= of the result's dtype, shape and layout receives the kernel's output
    # directly; other outs (a cast, a strided view, an alias of the input) still get NumPy's result.
    for shape in [(3, 4, 5), (6, 40, 1000)]:  # one launch, and the split two-pass route of the long axis
        x = _data(numpy.float32, shape=shape, nan=name.startswith("nan"))
        ref = _np(getattr(numpy, name), x, axis=axis, keepdims=keepdims)
        a = cp.asarray(x)
        out = cp.full(ref.shape, 7, dtype=ref.dtype)
        r = getattr(cp, name)(a, axis=axis, keepdims=keepdims, out=out)
        assert r is out
        _check(out, ref, rtol=1e-4, atol=1e-4)
        # a strided view of a larger array: written through the copy, the rest untouched
        big = cp.full(ref.shape + (2,), 7, dtype=ref.dtype)
        view = big[..., 0]
        assert getattr(cp, name)(a, axis=axis, keepdims=keepdims, out=view) is view
        _check(view, ref, rtol=1e-4, atol=1e-4)
        assert (big[..., 1].get() == numpy.array(7).astype(ref.dtype)).all()
        # another dtype: the 'unsafe' cast into out
        if ref.dtype != bool:
            o64 = cp.empty(ref.shape, dtype=numpy.float64)
            getattr(cp, name)(a, axis=axis, keepdims=keepdims, out=o64)
            _check(o64, ref.astype(numpy.float64), rtol=1e-4, atol=1e-4)


@gpu
@pytest.mark.parametrize("name", ["sum", "max", "any", "mean", "var", "std"])
@pytest.mark.parametrize("axis,keepdims", [(None, False), (None, True), (1, False), ((0, 2), True)])
def test_out_of_the_result_type_allocates_no_result(name, axis, keepdims):
    # Note [reduction into out]: the kernel writes out= itself, so the call asks the allocator for one block
    # fewer than the same call without out= (its result; partials of a two-pass route, as any's over (0, 2)
    # here, are still taken). A float64 out for float32 data: sum and max fold in float64 (Note [loop dtype
    # from out]) and write it directly too; mean, var and std cast through a temporary result.
    x = _data(numpy.float32, shape=(3, 4, 5))
    a = cp.asarray(x)
    fn = getattr(cp, name)
    ref = _np(getattr(numpy, name), x, axis=axis, keepdims=keepdims)
    out = cp.full(ref.shape, 7, dtype=ref.dtype)
    cast = cp.empty(ref.shape, dtype=numpy.float64)
    fn(a, axis=axis, keepdims=keepdims, out=out)  # compiled and warm
    pool = cp.get_default_memory_pool()
    sizes = []

    def counting(n):
        sizes.append(n)
        return pool.malloc(n)

    with cp.cuda.using_allocator(counting):
        plain = fn(a, axis=axis, keepdims=keepdims)
        n_plain = len(sizes)
        r = fn(a, axis=axis, keepdims=keepdims, out=out)
        n_out = len(sizes) - n_plain
        if name != "any":
            fn(a, axis=axis, keepdims=keepdims, out=cast)
        n_cast = len(sizes) - n_plain - n_out
    assert r is out
    assert n_plain >= 1 and n_out == n_plain - 1, (n_plain, n_out, sizes)
    _check(plain, ref, rtol=1e-5, atol=1e-5)
    _check(out, ref, rtol=1e-5, atol=1e-5)
    if name in ("sum", "max"):
        assert n_cast == n_plain - 1, (n_plain, n_cast, sizes)
    elif name != "any":
        assert n_cast >= n_plain, (n_plain, n_cast, sizes)
    if name != "any":
        _check(cast, ref.astype(numpy.float64), rtol=1e-5, atol=1e-5)


@gpu
@pytest.mark.parametrize("name", ["sum", "max", "min", "mean", "var", "std"])
def test_out_aliasing_the_input(name):
    # out= inside the input: NumPy's result as if the reduction finished before the write (no kernel may write
    # an output while other blocks still read the input).
    x = _data(numpy.float32, shape=(64, 3000))
    want = _np(getattr(numpy, name), x.copy(), axis=0)
    a = cp.asarray(x)
    getattr(cp, name)(a, axis=0, out=a[0])
    _check(a[0], want)
    b = cp.asarray(x)
    getattr(cp, name)(b[:, :1], axis=None, out=b[5, 0])  # a 0-d out inside the reduced column
    assert numpy.isclose(float(b[5, 0].get()), _np(getattr(numpy, name), x[:, :1]), rtol=1e-5)
    _check(b[6:], x[6:])


@gpu
def test_sum_dtypes_follow_numpy():
    for dt in ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "float16"):
        x = numpy.ones((4, 3), dt)
        _check(cp.sum(cp.asarray(x)), numpy.sum(x))
        _check(cp.prod(cp.asarray(x), axis=0), numpy.prod(x, axis=0))
        _check(cp.mean(cp.asarray(x), axis=0), numpy.mean(x, axis=0))
    # integer overflow wraps as NumPy's does
    x = numpy.full(10, 2**62, numpy.int64)
    _check(cp.sum(cp.asarray(x)), numpy.sum(x))


@gpu
def test_initial_and_where():
    x = _data(numpy.float64)
    w = _data(bool, seed=3)
    _check(cp.sum(cp.asarray(x), initial=10.0), numpy.sum(x, initial=10.0))
    _check(cp.max(cp.asarray(x), axis=1, initial=5.0), numpy.max(x, axis=1, initial=5.0))
    _check(cp.sum(cp.asarray(x), axis=1, where=cp.asarray(w)), numpy.sum(x, axis=1, where=w))
    _check(cp.max(cp.asarray(x), axis=1, where=cp.asarray(w), initial=-10.0),
           numpy.max(x, axis=1, where=w, initial=-10.0))
    _check(cp.mean(cp.asarray(x), axis=1, where=cp.asarray(w)), _np(numpy.mean, x, axis=1, where=w))
    _check(cp.var(cp.asarray(x), axis=(0, 2), where=cp.asarray(w)), _np(numpy.var, x, axis=(0, 2), where=w))
    # a mask broadcast along an axis
    w1 = numpy.array([True, False, True, True, False])
    _check(cp.sum(cp.asarray(x), axis=0, where=cp.asarray(w1)), numpy.sum(x, axis=0, where=w1))
    with pytest.raises(ValueError):
        cp.max(cp.asarray(x), where=cp.asarray(w))


@gpu
@pytest.mark.parametrize("layout", ["F", "transposed", "negative", "sliced", "broadcast"])
@pytest.mark.parametrize("name", ["sum", "max", "argmax", "mean", "var"])
def test_layouts(layout, name):
    base = _data(numpy.float32, shape=(6, 7, 8), seed=5)
    if layout == "F":
        x = numpy.asfortranarray(base)
    elif layout == "transposed":
        x = base.transpose(2, 0, 1)
    elif layout == "negative":
        x = base[::-1, :, ::-2]
    elif layout == "sliced":
        x = base[1:5, ::2, 3:]
    else:
        x = numpy.broadcast_to(base[:, :1, :], (6, 7, 8))
    d = cp.asarray(base)
    dx = {"F": cp.asfortranarray(d), "transposed": d.transpose(2, 0, 1), "negative": d[::-1, :, ::-2],
          "sliced": d[1:5, ::2, 3:], "broadcast": cp.broadcast_to(d[:, :1, :], (6, 7, 8))
          if hasattr(cp, "broadcast_to") else None}[layout]
    if dx is None:
        pytest.skip("broadcast_to missing")
    for axis in ([None, 0, 1, 2, -1] if name == "argmax" else [None, 0, 1, 2, (0, 2), (1, 2)]):
        _check(getattr(cp, name)(dx, axis=axis), _np(getattr(numpy, name), x, axis=axis))


@gpu
@pytest.mark.parametrize("shape,axis", [
    ((1 << 20) + 3, None), ((3, 1 << 18), 1), ((1 << 18, 3), 0), ((1 << 14, 64), 0), ((64, 1 << 14), 1),
    ((2, 1 << 19), 0), ((1 << 19, 2), 1), ((17, 33, 129), (0, 2))], ids=str)
def test_large_and_split_reductions(shape, axis):
    """Shapes that take the split (two-pass) paths of both thread mappings."""
    rng = numpy.random.default_rng(1)
    x = rng.random(shape, dtype=numpy.float32)
    d = cp.asarray(x)
    _check(cp.sum(d, axis=axis), numpy.sum(x.astype(numpy.float64), axis=axis).astype(numpy.float32),
           rtol=1e-5, atol=1e-3)
    _check(cp.max(d, axis=axis), numpy.max(x, axis=axis))
    _check(cp.argmin(d, axis=None if axis is None or isinstance(axis, tuple) else axis),
           numpy.argmin(x, axis=None if axis is None or isinstance(axis, tuple) else axis))
    xi = rng.integers(-3, 4, shape).astype(numpy.int32)
    _check(cp.sum(cp.asarray(xi), axis=axis), numpy.sum(xi, axis=axis))


@gpu
def test_results_are_deterministic():
    x = cp.asarray(numpy.random.default_rng(2).random(1 << 22, dtype=numpy.float32))
    a = cp.sum(x).get()
    for _ in range(3):
        assert cp.sum(x).get().tobytes() == a.tobytes()


@gpu
def test_count_nonzero_and_ptp():
    x = _data(numpy.int32)
    for axis in (None, 0, (1, 2)):
        _check(cp.count_nonzero(cp.asarray(x), axis=axis), numpy.asarray(numpy.count_nonzero(x, axis=axis)))
        _check(cp.ptp(cp.asarray(x), axis=axis), numpy.ptp(x, axis=axis))


@gpu
def test_zero_d_and_size_one():
    x = numpy.array(3.5)
    for name in ("sum", "max", "mean", "argmax", "any"):
        _check(getattr(cp, name)(cp.asarray(x)), _np(getattr(numpy, name), x))
    y = numpy.array([[2.0]])
    _check(cp.sum(cp.asarray(y), axis=1), numpy.sum(y, axis=1))


@gpu
def test_axis_errors():
    x = cp.zeros((2, 3))
    with pytest.raises(numpy.exceptions.AxisError):
        cp.sum(x, axis=2)
    with pytest.raises(ValueError):
        cp.sum(x, axis=(0, 0))
    with pytest.raises(TypeError):
        cp.sum(x, axis=1.5)
    with pytest.raises(ValueError):
        cp.sum(x, axis=1, out=cp.zeros(3))


# Issue 14: the axis of a reduction is None, an integer or a tuple of integers, as NumPy's ufunc.reduce
# takes it: a list, a bool, a float, a string are TypeErrors; numpy integers and 0-d integer arrays work.
_REDUCING_FUNCTIONS = ("sum", "prod", "max", "min", "amax", "amin", "argmax", "argmin", "mean", "var", "std", "any",
                       "all", "nansum", "nanprod", "nanmax", "nanmin", "nanargmax", "nanargmin", "nanmean", "nanvar",
                       "nanstd", "count_nonzero", "ptp")
_REDUCING_METHODS = ("sum", "prod", "max", "min", "argmax", "argmin", "mean", "var", "std", "any", "all")
_REDUCTIONS = {
    **{n: (lambda xp, a, ax, n=n: getattr(xp, n)(a, axis=ax)) for n in _REDUCING_FUNCTIONS},
    **{"a." + n: (lambda xp, a, ax, n=n: getattr(a, n)(axis=ax)) for n in _REDUCING_METHODS},
    **{u + ".reduce": (lambda xp, a, ax, u=u: getattr(xp, u).reduce(a, axis=ax)) for u in ("add", "maximum")},
}


@gpu
@pytest.mark.parametrize("name", list(_REDUCTIONS))
@pytest.mark.parametrize("axis", [[0], [0, 1], True, False, 0.0, "0", numpy.array([0]), (True,), (0.0,), (0, 0),
                                  numpy.int64(1), numpy.array(1), (numpy.int64(1),), (0,), -1, 2],
                         ids=lambda a: type(a).__name__ + ":" + repr(a))
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_reduction_axis_types_match_numpy(xp, name, axis):
    a = xp.asarray(_data(numpy.float64, shape=(2, 3)))
    return _REDUCTIONS[name](xp, a, axis)


# Issue 14: NumPy's C reductions take a 0-d array as 1-d for a single integer axis (0 or -1 reduce over
# nothing; a tuple is an AxisError); mean/var/std (and the nan forms for non-float input) raise AxisError.
@gpu
@pytest.mark.parametrize("name", list(_REDUCTIONS))
@pytest.mark.parametrize("axis", [0, -1, 1, -2, (0,), ()], ids=repr)
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.int64, numpy.complex128, numpy.bool_], ids=str)
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_reduction_of_zero_d_with_axis_matches_numpy(xp, name, axis, dtype):
    a = xp.asarray(numpy.array(3, dtype=dtype))
    return _REDUCTIONS[name](xp, a, axis)


@gpu
@pytest.mark.parametrize("name", ["sum", "max", "argmax", "nanmax", "nanmean", "count_nonzero", "ptp", "add.reduce"])
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_reduction_of_zero_d_keepdims_matches_numpy(xp, name):
    a = xp.asarray(numpy.array(2.5))
    f = {"sum": xp.sum, "max": xp.max, "argmax": xp.argmax, "nanmax": xp.nanmax, "nanmean": xp.nanmean,
         "count_nonzero": xp.count_nonzero, "ptp": xp.ptp, "add.reduce": xp.add.reduce}[name]
    return f(a, axis=0, keepdims=True), f(a, axis=-1, keepdims=True)


@gpu
@pytest.mark.parametrize("axis", [0, -1, (0,), (0, 1), (), None, True, [0], 1.0, 1], ids=repr)
@pytest.mark.parametrize("method", ["accumulate", "reduceat"])
@testing.numpy_cuarray_allclose(rtol=1e-12)
def test_ufunc_accumulate_reduceat_axis_types_match_numpy(xp, axis, method):
    a = xp.asarray(_data(numpy.float64, shape=(2, 3)))
    if method == "accumulate":
        return xp.add.accumulate(a, axis=axis)
    return xp.add.reduceat(a, xp.asarray(numpy.array([0, 1])), axis=axis)


@gpu
def test_64bit_index_sum():
    n = (1 << 31) + 5
    x = cp.ones(n, dtype=numpy.int8)
    assert int(cp.sum(x).get()) == n
    assert int(cp.argmax(x).get()) == 0


@gpu
def test_pool_returns_to_baseline_after_split_reductions():
    pool = cp.get_default_memory_pool()
    x = cp.ones((4, 1 << 18), dtype=numpy.float32)
    before = pool.used_bytes()
    r = cp.sum(x, axis=1)
    del r
    cp.cuda.Device().synchronize()
    assert pool.used_bytes() == before


# --- ufunc methods -------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "fmax", "logical_and", "logical_or",
                                  "bitwise_xor", "subtract", "true_divide", "power"])
@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float64, numpy.int8, numpy.bool_], ids=str)
@pytest.mark.parametrize("axis", [0, 1, None, (0, 2)], ids=str)
def test_ufunc_reduce_matches_numpy(name, dtype, axis):
    x = _data(dtype, seed=4)
    if name in ("multiply", "power") and numpy.dtype(dtype).kind in "iu":
        x = (x % 3).astype(dtype)
    uf_np = getattr(numpy, name)
    try:
        with warnings.catch_warnings(), numpy.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            expected = uf_np.reduce(x, axis=axis)
    except (TypeError, ValueError) as e:
        with pytest.raises(type(e)):
            getattr(cp, name).reduce(cp.asarray(x), axis=axis)
        return
    _check(getattr(cp, name).reduce(cp.asarray(x), axis=axis), expected, rtol=1e-6, atol=1e-6)


@gpu
def test_ufunc_reduce_keywords():
    x = _data(numpy.float32)
    _check(cp.add.reduce(cp.asarray(x), axis=1, keepdims=True), numpy.add.reduce(x, axis=1, keepdims=True))
    _check(cp.add.reduce(cp.asarray(x), axis=1, initial=2.0), numpy.add.reduce(x, axis=1, initial=2.0))
    _check(cp.multiply.reduce(cp.asarray(x), dtype=numpy.float64), numpy.multiply.reduce(x, dtype=numpy.float64),
           rtol=1e-6, atol=1e-6)
    with pytest.raises(ValueError):
        cp.maximum.reduce(cp.zeros((0, 3)), axis=0)
    with pytest.raises(ValueError):
        cp.sin.reduce(cp.zeros(3))


@gpu
@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "subtract", "logical_or"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_ufunc_accumulate_matches_numpy(name, axis):
    x = _data(numpy.float64, shape=(4, 6, 3), seed=7)
    expected = getattr(numpy, name).accumulate(x, axis=axis)
    _check(getattr(cp, name).accumulate(cp.asarray(x), axis=axis), expected)
    xi = _data(numpy.int16, shape=(5, 7), seed=8)
    _check(getattr(cp, name).accumulate(cp.asarray(xi), axis=0), getattr(numpy, name).accumulate(xi, axis=0))


@gpu
def test_ufunc_reduceat_matches_numpy():
    x = numpy.arange(8.0) ** 2
    for idx in ([0, 4, 1, 5], [0, 3, 3, 7], [5]):
        _check(cp.add.reduceat(cp.asarray(x), cp.asarray(numpy.array(idx))), numpy.add.reduceat(x, idx))
        _check(cp.maximum.reduceat(cp.asarray(x), idx), numpy.maximum.reduceat(x, idx))
    m = numpy.arange(24.0).reshape(4, 6)
    _check(cp.add.reduceat(cp.asarray(m), [0, 2], axis=1), numpy.add.reduceat(m, [0, 2], axis=1))
    with pytest.raises(IndexError):
        cp.add.reduceat(cp.asarray(x), [0, 8])


@gpu
def test_ufunc_at_matches_numpy():
    a = numpy.arange(10.0)
    idx = numpy.array([0, 1, 1, 3, -1, 3, 3])
    b = numpy.arange(7.0)
    expected = a.copy()
    numpy.add.at(expected, idx, b)
    d = cp.asarray(a)
    cp.add.at(d, cp.asarray(idx), cp.asarray(b))
    _check(d, expected)
    expected = a.copy()
    numpy.maximum.at(expected, idx, 4.5)
    d = cp.asarray(a)
    cp.maximum.at(d, idx, 4.5)
    _check(d, expected)
    e2 = numpy.arange(12).reshape(4, 3)
    numpy.negative.at(e2, [0, 2])
    d2 = cp.asarray(numpy.arange(12).reshape(4, 3))
    cp.negative.at(d2, [0, 2])
    _check(d2, e2)
    with pytest.raises(IndexError):
        cp.add.at(cp.asarray(a), [10], 1.0)


# --- ReductionKernel ---------------------------------------------------------------------------------------


@gpu
def test_reduction_kernel_l2norm():
    k = cp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
    x = _data(numpy.float32, shape=(6, 40))
    _check(k(cp.asarray(x)), numpy.sqrt(numpy.sum(x * x)), rtol=1e-5, atol=1e-5)
    _check(k(cp.asarray(x), axis=1), numpy.sqrt(numpy.sum(x * x, axis=1)), rtol=1e-5, atol=1e-5)
    _check(k(cp.asarray(x), axis=1, keepdims=True), numpy.sqrt(numpy.sum(x * x, axis=1, keepdims=True)),
           rtol=1e-5, atol=1e-5)
    out = cp.empty((6,), numpy.float32)
    assert k(cp.asarray(x), axis=1, out=out) is out
    _check(out, numpy.sqrt(numpy.sum(x * x, axis=1)), rtol=1e-5, atol=1e-5)


@gpu
def test_reduction_kernel_two_inputs_reduce_type_and_names():
    dot = cp.ReductionKernel("T x, T m", "float64 y", "x * m", "a + b", "y = a", "0", "dot", reduce_type="float64")
    x = _data(numpy.int32, shape=(5, 9), seed=1)
    w = _data(numpy.int32, shape=(5, 9), seed=2)
    _check(dot(cp.asarray(x), cp.asarray(w), axis=0), numpy.sum(x.astype(numpy.float64) * w, axis=0))
    # broadcasting and a Python scalar input
    _check(dot(cp.asarray(x), 2, axis=1), numpy.sum(x * 2.0, axis=1))
    # no identity: folded in order (max of |x|)
    k = cp.ReductionKernel("T x", "T y", "abs(x)", "a > b ? a : b", "y = a", None, "absmax")
    xf = _data(numpy.float64, shape=(3, 50), seed=3)
    _check(k(cp.asarray(xf), axis=1), numpy.max(numpy.abs(xf), axis=1))


# Note [huge axes]: an axis beyond C int is an AxisError (that is also an OverflowError), never truncated to a
# valid one or a RuntimeError; a float axis is a TypeError, as in CuPy.
@gpu
@pytest.mark.parametrize("axis", [2 ** 32, 2 ** 32 + 1, -2 ** 31 - 1, 2 ** 64, (0, 2 ** 40), 2, -3])
def test_reduction_kernel_axis_out_of_range_raises_axis_error(axis):
    k = cp.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "total")
    with pytest.raises(numpy.exceptions.AxisError):
        k(cp.zeros((2, 3), numpy.float32), axis=axis)
    with pytest.raises(TypeError):
        k(cp.zeros((2, 3), numpy.float32), axis=1.0)


def test_reduction_kernel_argument_errors():
    with pytest.raises(ValueError):
        cp.ReductionKernel("T x", "T y, T z", "x", "a + b", "y = a", "0")
    with pytest.raises(ValueError):
        cp.ReductionKernel("raw T x", "T y", "x", "a + b", "y = a", "0")
    k = cp.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0")
    with pytest.raises(TypeError):
        k(numpy.zeros(3))


# Fuzz run 1 (reduction family): out=/dtype= checks and results NumPy gives.
@gpu
@pytest.mark.parametrize("fn", ["argmax", "argmin", "nanargmax", "nanargmin"])
@pytest.mark.parametrize("out_dtype", ["float64", "complex128", "uint64", "int32", "int64", "bool"])
@testing.numpy_cuarray_equal()
def test_arg_reduction_out_must_cast_safely_to_int64(xp, fn, out_dtype):
    a = xp.asarray(_data("int8", shape=(5, 1)))
    out = xp.zeros((1,), out_dtype)
    getattr(xp, fn)(a, axis=0, out=out)
    return out


@gpu
@pytest.mark.parametrize("fn", ["nanmean", "nanvar", "nanstd"])
@pytest.mark.parametrize("kw", [{"dtype": "int64"}, {"dtype": "bool"}, {"out": "int64"}, {"out": "bool"}])
@testing.numpy_cuarray_equal(accept_error=TypeError)
def test_nan_statistics_of_inexact_refuse_exact_dtype_or_out(xp, fn, kw):
    a = xp.asarray(_data("float32", shape=(2, 3)))
    kw = dict(kw)
    if "out" in kw:
        kw["out"] = xp.zeros((7,), kw["out"])  # a wrong shape too: the dtype check comes first
    return getattr(xp, fn)(a, **kw)


@gpu
@pytest.mark.parametrize("call", [
    lambda xp, a: xp.ptp(a.astype("uint32"), axis=0, keepdims=True, out=xp.zeros((1, 4, 5), bool)),
    lambda xp, a: xp.ptp(a.astype("float64"), axis=0, out=xp.zeros((4, 5), "int64")),
    lambda xp, a: xp.ptp(a.astype(bool), out=xp.zeros((2, 3), "complex128")),
    lambda xp, a: xp.nanstd(a.astype("int64"), axis=(0,), out=xp.zeros((4, 5), bool)),
    lambda xp, a: xp.std(a.astype("float16"), axis=0, dtype=bool),
    lambda xp, a: xp.std(a.astype("int64"), axis=0, dtype="int64"),
    lambda xp, a: xp.std(a, axis=0, out=xp.zeros((4, 5), "int32"))])
@testing.numpy_cuarray_equal(accept_error=(TypeError, ValueError))
def test_reduction_output_cast_errors(xp, call):
    return call(xp, xp.asarray(_data("int8")))


@gpu
@pytest.mark.parametrize("call", [
    lambda xp, a: (xp.ptp(a.astype("uint32"), axis=0, out=xp.zeros((4, 5), "float32")),),
    lambda xp, a: (xp.ptp(a.astype(bool), out=xp.zeros((), "complex128")),),
    lambda xp, a: xp.var(a.astype("int64"), axis=0, out=xp.zeros((4, 5), bool))])
@testing.numpy_cuarray_allclose(rtol=1e-5)
def test_reduction_output_casts_numpy_allows(xp, call):
    return call(xp, xp.asarray(_data("int8")))


@gpu
@pytest.mark.parametrize("value", [False, True])
@testing.numpy_cuarray_equal()
def test_sum_initial_is_cast_to_the_result_dtype(xp, value):
    a = xp.asarray(numpy.array(value))
    return xp.sum(a, axis=(), initial=2.5), xp.sum(xp.asarray(numpy.array([value, True])), initial=2.5)


# Note [integer var dtype]
@gpu
@pytest.mark.parametrize("src,dt,kw", [
    ("int32", "uint32", {"axis": -1}), ("bool", "int16", {"ddof": -1}), ("complex64", "int64", {}),
    ("float64", "int64", {"ddof": 5}), ("int8", "int8", {}), ("float64", "int64", {"axis": 1})])
@pytest.mark.parametrize("fn", ["var", "std"])
@testing.numpy_cuarray_equal(accept_error=TypeError)
def test_var_std_with_integer_dtype_as_numpy(xp, fn, src, dt, kw):
    a = xp.asarray(_data(src, shape=(2, 6)))
    if kw.get("ddof") == 5:
        a = a[0, :1].reshape(())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(xp, fn)(a, dtype=dt, **kw)


@gpu
@pytest.mark.parametrize("fn", ["var", "std", "nanvar", "nanstd"])
@pytest.mark.parametrize("src", ["int64", "float64", "complex64"])
@testing.numpy_cuarray_allclose(rtol=1e-5)
def test_var_std_complex_dtype_gives_complex(xp, fn, src):
    a = xp.asarray(_data(src, shape=(6,)))
    return getattr(xp, fn)(a, keepdims=True, dtype="c8"), getattr(xp, fn)(a, dtype="c16")


# Note [huge axes]: args::to_axis raises AxisOverflowError (an OverflowError, as NumPy's) for an axis beyond C int.
@gpu
@pytest.mark.parametrize("axis", [2 ** 31, 2 ** 32, -2 ** 31 - 1])
@pytest.mark.parametrize("fn", ["nanstd", "nanmean", "median"])
@testing.numpy_cuarray_equal(accept_error=(OverflowError, ValueError))
def test_statistics_axis_beyond_c_int(xp, fn, axis):
    return getattr(xp, fn)(xp.asarray(_data("int8", shape=(2, 3))), axis=axis)


@pytest.mark.parametrize("axis", [None, 0, -1, (2, 0), [1], (0, -3), (0, 0, 5), (5,), (-4,), (1, 1)])
def test_reduction_axes_normaliser_matches_numpy_reduce(axis):
    # The one C++ normaliser behind sum/ReductionKernel/fuse: NumPy's exception types and messages, axes ascending.
    a = numpy.zeros((1, 2, 3))
    try:
        numpy.add.reduce(a, axis=tuple(axis) if isinstance(axis, list) else axis)
    except (numpy.exceptions.AxisError, ValueError) as e:
        with pytest.raises(type(e), match=re.escape(str(e))):
            cp._core._reduction_axes(axis, 3)
        return
    expected = [0, 1, 2] if axis is None else sorted(numpy.lib.array_utils.normalize_axis_tuple(axis, 3))
    assert cp._core._reduction_axes(axis, 3) == expected


@gpu
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)], ids=str)
def test_var_std_one_pass_large_mean(dtype, axis):
    # A large common offset: the one-pass (count, mean, M2) merge must not cancel as a naive sum of squares would.
    rng = numpy.random.default_rng(7)
    x = (1e4 + rng.standard_normal((257, 1031))).astype(dtype)
    if numpy.dtype(dtype).kind == "c":
        x = x + 1j * (3e3 + 2 * rng.standard_normal(x.shape)).astype(x.real.dtype)
    rtol = 1e-3 if dtype in ("float32", "complex64") else 1e-10
    for fn in ("var", "std"):
        want = getattr(numpy, fn)(x.astype(numpy.complex128 if x.dtype.kind == "c" else numpy.float64), axis=axis)
        got = getattr(cp, fn)(cp.asarray(x), axis=axis)
        assert got.dtype == getattr(numpy, fn)(x, axis=axis).dtype
        numpy.testing.assert_allclose(got.get(), want, rtol=rtol)
    # non-contiguous and reversed views read in place
    v = x[::-2, 1::3]
    numpy.testing.assert_allclose(cp.var(cp.asarray(x)[::-2, 1::3], axis=axis, ddof=1).get(),
                                  numpy.var(v.astype(numpy.complex128 if v.dtype.kind == "c" else numpy.float64),
                                            axis=axis, ddof=1), rtol=rtol)


@gpu
def test_var_one_pass_non_finite_and_empty():
    x = numpy.array([[numpy.inf, 1.0, 2.0], [numpy.nan, 1.0, 1.0], [1.0, 2.0, 4.0], [-numpy.inf, numpy.inf, 0]])
    for axis in (None, 0, 1, ()):
        for dt in ("float32", "float64", "complex128"):
            _check(cp.var(cp.asarray(x.astype(dt)), axis=axis), _np(numpy.var, x.astype(dt), axis=axis))
    e = numpy.zeros((0, 3), "float32")
    for axis in (None, 0, 1):
        _check(cp.std(cp.asarray(e), axis=axis), _np(numpy.std, e, axis=axis))
    # ddof at or beyond the count: inf (or NaN for a zero M2), as the division by max(n - ddof, 0)
    y = numpy.array([[1.0, 3.0], [2.0, 2.0]])
    _check(cp.var(cp.asarray(y), axis=1, ddof=2), _np(numpy.var, y, axis=1, ddof=2))


# A ReductionKernel takes axes as NumPy's reductions do: a single integer axis of 0-d operands may be 0 or -1
# (it reduces over nothing), a tuple or any other axis is an AxisError.
@pytest.mark.gpu
@pytest.mark.parametrize("axis", [0, -1, (0,), (-1,), 1, -2, None, ()], ids=repr)
@pytest.mark.parametrize("keepdims", [False, True])
def test_reduction_kernel_axis_of_0d(axis, keepdims):
    k = cp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "sumsq0d")
    host = numpy.complex64(3 + 4j)
    try:
        want = numpy.sum(numpy.asarray(host) ** 2, axis=axis, keepdims=keepdims)
    except numpy.exceptions.AxisError:
        with pytest.raises(numpy.exceptions.AxisError):
            k(cp.asarray(host), axis=axis, keepdims=keepdims)
        return
    got = k(cp.asarray(host), axis=axis, keepdims=keepdims)
    assert got.shape == numpy.shape(want) and got.dtype == numpy.complex64
    numpy.testing.assert_allclose(got.get(), want, rtol=1e-6)


# Note [loop dtype from out]: without dtype=, NumPy's ufunc reductions and accumulations fold in the promotion
# of out's dtype and the input's, so a float out keeps an int64 product from wrapping, a complex out keeps
# initial=2.5, and an int64 out takes nanmin's initial=-5 over uint64 input.
@pytest.mark.gpu
@pytest.mark.parametrize("case", ["prod-i64-f64", "sum-i64-f64", "sum-bool-i8", "min-u16-c128", "max-f64-i32",
                                  "nanmin-u64-i64", "nansum-i64-f64", "sum-f64-f32", "cumsum-f64-i8",
                                  "cumsum-i64-bool", "cumprod-i64-f64", "sum-u32-i32-axis"])
@testing.numpy_cuarray_allclose(rtol=1e-12)
def test_reduction_loop_dtype_follows_out(xp, case):
    big = xp.asarray(numpy.array([2 ** 40, 2 ** 40, -(2 ** 41)], numpy.int64))
    if case == "prod-i64-f64":
        out = xp.zeros((1,), numpy.float64)
        xp.prod(big[::-1], keepdims=True, initial=1, out=out)
        return out
    if case == "sum-i64-f64":
        out = xp.zeros((), numpy.float64)
        xp.sum(xp.asarray(numpy.array([2 ** 62, 2 ** 62, 5])), out=out)
        return out
    if case == "sum-bool-i8":
        out = xp.zeros((), numpy.int8)
        xp.sum(xp.ones(200, dtype=bool), out=out)
        return out
    if case == "min-u16-c128":
        out = xp.zeros((2,), numpy.complex128)
        xp.min(xp.asarray(numpy.array([[3, 2], [4, 9]], numpy.uint16)), axis=0, initial=2.5, out=out)
        return out
    if case == "max-f64-i32":
        out = xp.zeros((), numpy.int32)
        xp.max(xp.asarray(numpy.array([1.5, 2.75])), out=out)
        return out
    if case == "nanmin-u64-i64":
        out = xp.zeros((1,), numpy.int64)
        xp.nanmin(xp.asarray(numpy.array([[3, 4]], numpy.uint64)), axis=1, initial=-5, out=out)
        return out
    if case == "nansum-i64-f64":
        out = xp.zeros((), numpy.float64)
        xp.nansum(xp.asarray(numpy.array([2 ** 62, 2 ** 62])), out=out)
        return out
    if case == "sum-f64-f32":
        out = xp.zeros((), numpy.float32)
        xp.sum(xp.asarray(numpy.array([1e30, 1e30, -1e30])), out=out)
        return out
    if case == "cumsum-f64-i8":
        out = xp.zeros((3,), numpy.int8)
        xp.cumsum(xp.asarray(numpy.array([1.5, 2.5, 0.75])), out=out)
        return out
    if case == "cumsum-i64-bool":
        out = xp.zeros((3,), bool)
        xp.cumsum(xp.asarray(numpy.array([1, -1, 0])), out=out)
        return out
    if case == "cumprod-i64-f64":
        out = xp.zeros((3,), numpy.float64)
        xp.cumprod(big, out=out)
        return out
    out = xp.zeros((2,), numpy.int32)
    xp.sum(xp.asarray(numpy.array([[2 ** 31, 7], [2 ** 31, 9]], numpy.uint32)), axis=1, out=out)
    return out


# NumPy divides a complex mean by the count as a complex number: an infinite part makes the other part NaN.
@pytest.mark.gpu
@pytest.mark.parametrize("axis", [None, 0])
@testing.numpy_cuarray_allclose(rtol=1e-12)
def test_complex_mean_with_infinite_parts(xp, axis):
    a = xp.asarray(numpy.array([[35.22 - 4.25j], [7 - numpy.inf * 1j], [-60.03 + 3.75j]]))
    with numpy.errstate(invalid="ignore"):
        return xp.mean(a, axis=axis)



# Note [loop dtype from out] for the ufunc methods: an out= of another dtype runs the loop of the promotion
# where the ufunc has one (add.reduce of int64 into float64 does not wrap); logical_or into a float out keeps
# its bool loop and casts.
@pytest.mark.gpu
@pytest.mark.parametrize("case", ["add-i64-f64", "multiply-i64-f64", "maximum-u16-c128-initial", "logical_or-f64",
                                  "bitwise_or-u8-i64", "accumulate-f64-i8", "reduceat-i64-f64", "add-i8-i16",
                                  "add-f64-i32", "minimum-u64-i64-initial", "add-bool-bool"])
@testing.numpy_cuarray_allclose(rtol=1e-12)
def test_ufunc_methods_loop_dtype_follows_out(xp, case):
    big = xp.asarray(numpy.array([2 ** 62, 2 ** 62, 5]))
    if case == "add-i64-f64":
        out = xp.zeros((), numpy.float64)
        xp.add.reduce(big, out=out)
    elif case == "multiply-i64-f64":
        out = xp.zeros((), numpy.float64)
        xp.multiply.reduce(xp.asarray(numpy.array([2 ** 40, 2 ** 40])), out=out)
    elif case == "maximum-u16-c128-initial":
        out = xp.zeros((), numpy.complex128)
        xp.maximum.reduce(xp.asarray(numpy.array([3, 4], numpy.uint16)), initial=5.5, out=out)
    elif case == "logical_or-f64":
        out = xp.zeros((), numpy.float64)
        xp.logical_or.reduce(xp.asarray(numpy.array([0, 2])), out=out)
    elif case == "bitwise_or-u8-i64":
        out = xp.zeros((), numpy.int64)
        xp.bitwise_or.reduce(xp.asarray(numpy.array([1, 2], numpy.uint8)), out=out)
    elif case == "accumulate-f64-i8":
        out = xp.zeros((3,), numpy.int8)
        xp.add.accumulate(xp.asarray(numpy.array([1.5, 2.5, 0.75])), out=out)
    elif case == "reduceat-i64-f64":
        out = xp.zeros((2,), numpy.float64)
        xp.add.reduceat(big, xp.asarray(numpy.array([0, 2])), out=out)
    elif case == "add-i8-i16":
        out = xp.zeros((), numpy.int16)
        xp.add.reduce(xp.asarray(numpy.array([100, 100, 100], numpy.int8)), out=out)
    elif case == "add-f64-i32":
        out = xp.zeros((), numpy.int32)
        xp.add.reduce(xp.asarray(numpy.array([1.5, 2.5])), out=out)
    elif case == "minimum-u64-i64-initial":
        out = xp.zeros((), numpy.int64)
        xp.minimum.reduce(xp.asarray(numpy.array([3, 4], numpy.uint64)), initial=-5, out=out)
    else:
        out = xp.zeros((), bool)
        xp.add.reduce(xp.asarray(numpy.array([True, True])), out=out)
    return out


# Note [mean into out]: NumPy's mean sums into out= and divides there, so an out= of another type than the
# mean's own (an integer dtype= into a float out) divides the cast sum in out's type, not in the accumulator;
# an integer dtype= divides as true_divide (float64) and casts, so an empty slice is a cast NaN, not a
# division by zero. Also nanmean (whose integer form is mean) and the where= form.
@pytest.mark.gpu
@pytest.mark.parametrize("case", ["i16-into-f64", "i16-into-f64-axis", "i16-0d", "i16-axis", "empty-u16",
                                  "empty-u16-into-u32", "f64-into-i64", "c128-into-f32", "f32-f64-into-f16",
                                  "nanmean-u32-i16-into-f64", "nanmean-f64-f32-into-f64", "where-i16-into-f32"])
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_mean_divides_in_out_as_numpy(xp, case):
    ints = xp.asarray(numpy.arange(1, 7, dtype=numpy.uint32).reshape(3, 2) * 3 + 1)
    with warnings.catch_warnings(), numpy.errstate(invalid="ignore", divide="ignore"):
        warnings.simplefilter("ignore")
        if case == "i16-into-f64":
            out = xp.zeros((), numpy.float64)
            xp.mean(ints, dtype=numpy.int16, out=out)
            return out
        if case == "i16-into-f64-axis":
            out = xp.zeros((2,), numpy.float64)
            xp.mean(ints, axis=0, dtype=numpy.int16, out=out)
            return out
        if case == "i16-0d":
            return xp.mean(ints, dtype=numpy.int16)
        if case == "i16-axis":
            return xp.mean(ints, axis=0, dtype=numpy.int16)
        if case == "empty-u16":
            return xp.mean(xp.zeros((0, 2), numpy.uint32), axis=0, dtype=numpy.uint16)
        if case == "empty-u16-into-u32":
            out = xp.ones((2,), numpy.uint32)
            xp.mean(xp.zeros((0, 2), numpy.uint32), axis=0, dtype=numpy.uint16, out=out)
            return out
        if case == "f64-into-i64":
            out = xp.zeros((2,), numpy.int64)
            xp.mean(xp.asarray(numpy.array([[1.9, 2.5], [1.9, 3.75], [1.9, -4.0]])), axis=0, out=out)
            return out
        if case == "c128-into-f32":
            out = xp.zeros((), numpy.float32)
            xp.mean(xp.asarray(numpy.array([1 + 1j, 2.5 - 3j])), out=out)
            return out
        if case == "f32-f64-into-f16":
            out = xp.zeros((), numpy.float16)
            xp.mean(xp.asarray(numpy.array([1.5, 2.25], numpy.float32)), dtype=numpy.float64, out=out)
            return out
        if case == "nanmean-u32-i16-into-f64":
            out = xp.zeros((), numpy.float64)
            xp.nanmean(ints, dtype=numpy.int16, out=out)
            return out
        if case == "nanmean-f64-f32-into-f64":
            out = xp.zeros((), numpy.float64)
            xp.nanmean(xp.asarray(numpy.array([1.5, numpy.nan, 2.25])), dtype=numpy.float32, out=out)
            return out
        out = xp.zeros((2,), numpy.float32)
        w = xp.asarray(numpy.array([[True, False], [True, True], [False, True]]))
        xp.mean(ints, axis=0, dtype=numpy.int16, out=out, where=w)
        return out


# NumPy checks the axes of a reduction before it casts initial=: an AxisError or repeated-axis ValueError
# wins over initial's OverflowError.
@pytest.mark.gpu
@pytest.mark.parametrize("axis", [3, (0, 0), -2])
@pytest.mark.parametrize("fn", ["min", "max", "sum", "nanmax"])
@testing.numpy_cuarray_equal(accept_error=True)
def test_reduction_axis_checked_before_initial(xp, fn, axis):
    a = xp.asarray(numpy.array([3, 4], numpy.uint8))
    return getattr(xp, fn)(a if axis != 3 else a[0], axis=axis, initial=-5)
