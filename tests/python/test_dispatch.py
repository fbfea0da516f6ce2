"""NumPy's dispatch protocols: numpy functions and ufunc methods called with cuarray arrays run cuarray's code."""

import warnings

import numpy
import pytest

import cuarray as cp
from cuarray import _dispatch

gpu = pytest.mark.gpu

_NAMESPACES = (('', numpy, cp), ('linalg', numpy.linalg, cp.linalg), ('fft', numpy.fft, cp.fft))


_UNINITIALISED = ('empty_like',)  # results whose values are whatever the memory held


def _dispatched_numpy_functions():
    """(path, numpy function, cuarray function or None) for every NumPy function that takes part in NEP 18."""
    out = []
    for prefix, np_mod, cp_mod in _NAMESPACES:
        for name in sorted(dir(np_mod)):
            f = getattr(np_mod, name)
            if not callable(f) or not hasattr(f, '_implementation') or f.__name__ != name:
                continue
            ours = getattr(cp_mod, name, None)
            if ours is f or not callable(ours):
                ours = None
            out.append(((prefix + '.' if prefix else '') + name, f, ours))
    return out


_FUNCTIONS = _dispatched_numpy_functions()
_SHARED = [(p, f, c) for p, f, c in _FUNCTIONS if c is not None]
_MISSING = [(p, f) for p, f, c in _FUNCTIONS if c is None]
# One-array functions cuarray may lack; the first one still missing stands for all of them.
_ONE_ARRAY = ('isneginf', 'isposinf', 'unwrap', 'real_if_close', 'vander', 'packbits', 'diag_indices_from')


def test_dispatch_table_maps_numpy_functions_to_cuarray_ones():
    # Most of NumPy's dispatched functions exist in cuarray; each maps to cuarray's function of the same path.
    assert len(_SHARED) > 200
    for path, f, ours in _SHARED:
        assert _dispatch.implementation(f) is ours, path
    for path, f in _MISSING:
        assert _dispatch.implementation(f) is None, path
    for path in ('concatenate', 'mean', 'sum', 'where', 'take', 'linalg.svd', 'linalg.solve', 'fft.fft',
                 'fft.rfft2', 'sort', 'unique', 'einsum', 'pad'):
        assert path in {p for p, _, _ in _SHARED}, path


def test_names_numpy_lends_cuarray_do_not_dispatch_back():
    # cuarray.min_scalar_type is numpy.min_scalar_type: dispatching to it would call NumPy again.
    assert _dispatch.implementation(numpy.min_scalar_type) is None
    # result_type is cuarray's own (it takes cuarray arrays), so NumPy's call on cuarray arrays reaches it.
    assert _dispatch.implementation(numpy.result_type) is cp.result_type
    assert _dispatch.implementation(len) is None
    assert _dispatch.implementation(lambda x: x) is None


def _outcome(fn, *args):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            return 'ok', fn(*args)
    except Exception as e:  # the type is what is compared
        return 'raise', type(e)


def _same(a, b):
    if isinstance(a, (tuple, list)):
        return isinstance(b, (tuple, list)) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, cp.ndarray):
        if not isinstance(b, cp.ndarray) or a.shape != b.shape or a.dtype != b.dtype:
            return False
        return bool(numpy.array_equal(a.get(), b.get(), equal_nan=a.dtype.kind in 'fc'))
    if isinstance(a, numpy.ndarray):
        return numpy.array_equal(a, numpy.asarray(b), equal_nan=a.dtype.kind in 'fc')
    try:
        return bool(a == b) or (a != a and b != b)
    except Exception:
        return type(a) is type(b)


@gpu
@pytest.mark.parametrize('path,np_func,cp_func', _SHARED, ids=[p for p, _, _ in _SHARED])
def test_numpy_call_runs_cuarray_function(path, np_func, cp_func):
    # Generated over NumPy's namespace: numpy.f(x) with a cuarray array must do exactly what cuarray.f(x) does
    # (same result, or the same exception type), and give cuarray arrays, never NumPy's implicit-conversion error.
    host = numpy.arange(1, 13, dtype=numpy.float64).reshape(3, 4) / 7
    if path.startswith('linalg.'):
        host = numpy.eye(3) * 2 + host[:, :3] / 10
    want = _outcome(cp_func, cp.asarray(host))
    got = _outcome(np_func, cp.asarray(host))
    assert got[0] == want[0], (path, got, want)
    if got[0] == 'raise':
        assert got[1] is want[1], (path, got, want)
    elif path in _UNINITIALISED:
        assert isinstance(got[1], cp.ndarray) and got[1].shape == want[1].shape and got[1].dtype == want[1].dtype
    else:
        assert _same(want[1], got[1]), (path, got[1], want[1])


@gpu
def test_numpy_calls_return_cuarray_arrays():
    x = cp.arange(12.0).reshape(3, 4)
    r = numpy.concatenate([x, x])
    assert isinstance(r, cp.ndarray) and r.shape == (6, 4)
    m = numpy.mean(x, axis=0)
    assert isinstance(m, cp.ndarray)
    numpy.testing.assert_allclose(m.get(), numpy.arange(12.0).reshape(3, 4).mean(axis=0))
    u, s, vh = numpy.linalg.svd(x)
    assert isinstance(s, cp.ndarray)
    numpy.testing.assert_allclose(s.get(), numpy.linalg.svd(x.get())[1], rtol=1e-12, atol=1e-12)  # rank 2
    f = numpy.fft.fft(x, axis=1)
    assert isinstance(f, cp.ndarray) and f.dtype == numpy.complex128
    assert isinstance(numpy.sum(x), cp.ndarray)  # cuarray's 0-d result


@gpu
def test_numpy_function_missing_in_cuarray_raises_numpys_type_error():
    missing = [(p, f) for p, f in _MISSING if p in _ONE_ARRAY]
    if not missing:
        pytest.skip('cuarray has each of the one-array candidates')
    path, f = missing[0]
    with pytest.raises(TypeError, match='no implementation found'):
        f(cp.arange(3.0))


@gpu
def test_foreign_array_types_make_numpy_raise():
    class Other:
        def __array_function__(self, func, types, args, kwargs):
            return NotImplemented

    with pytest.raises(TypeError):
        numpy.concatenate([cp.arange(3.0), Other()])


@gpu
def test_mixed_cuarray_and_numpy_arguments_behave_as_cuarray_function():
    x, h = cp.arange(3.0), numpy.arange(3.0)
    want = _outcome(cp.concatenate, [x, h])
    got = _outcome(numpy.concatenate, [x, h])
    assert got[0] == want[0]
    if got[0] == 'raise':
        assert got[1] is want[1]


@gpu
@pytest.mark.parametrize('dtype', [numpy.int32, numpy.float32, numpy.float64])
def test_numpy_ufunc_methods_run_on_the_device(dtype):
    h = numpy.arange(1, 25, dtype=dtype).reshape(4, 6)
    x = cp.asarray(h)
    cases = [
        (numpy.add.reduce, (x,), (h,), {}),
        (numpy.add.reduce, (x,), (h,), {'axis': 1, 'keepdims': True}),
        (numpy.multiply.reduce, (x,), (h,), {'axis': None}),
        (numpy.add.accumulate, (x,), (h,), {'axis': 1}),
        (numpy.add.reduceat, (x, cp.asarray([0, 2, 3])), (h, numpy.array([0, 2, 3])), {'axis': 1}),
        (numpy.multiply.outer, (x[0], x[:, 0]), (h[0], h[:, 0]), {}),
        (numpy.maximum, (x, x[::-1]), (h, h[::-1]), {}),
    ]
    for fn, gargs, hargs, kw in cases:
        r = fn(*gargs, **kw)
        assert isinstance(r, cp.ndarray), fn
        numpy.testing.assert_allclose(r.get(), fn(*hargs, **kw), rtol=1e-6)
    # ufunc.at works in place on the device array.
    y, hy = x.copy(), h.copy()
    numpy.add.at(y, cp.asarray([0, 0, 2]), 1)
    numpy.add.at(hy, [0, 0, 2], 1)
    numpy.testing.assert_array_equal(y.get(), hy)
    # out= as NumPy passes it (a tuple) lands in the cuarray array.
    out = cp.empty(6, dtype=dtype)
    r = numpy.add.reduce(x, axis=0, out=out)
    assert r is out
    numpy.testing.assert_allclose(out.get(), h.sum(axis=0), rtol=1e-6)


@gpu
@pytest.mark.parametrize('scalar', [numpy.complex64(1j), numpy.float32(2.5), numpy.int8(3)])
def test_numpy_scalar_on_the_left_runs_on_the_device(scalar):
    # numpy.float32(2.5) == gpu_a: NumPy passes its scalar as a 0-d host array to __array_ufunc__.
    h = numpy.arange(4, dtype=numpy.float32)
    x = cp.asarray(h)
    for op in (lambda a, b: a == b, lambda a, b: a + b, lambda a, b: a * b):
        r = op(scalar, x)
        assert isinstance(r, cp.ndarray)
        want = op(scalar, h)
        assert r.dtype == want.dtype
        numpy.testing.assert_allclose(r.get(), want)


@gpu
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64, numpy.int64, numpy.complex64])
def test_numpy_gufuncs_run_on_the_device(dtype):
    # numpy.matmul and numpy.vecdot are generalised ufuncs: their call reaches cuarray through __array_ufunc__
    # (dask.array's matmul calls numpy.matmul on its chunks).
    rng = numpy.random.default_rng(3)
    a = (rng.standard_normal((3, 4, 5)) * 4).astype(dtype)
    b = (rng.standard_normal((5, 2)) * 4).astype(dtype)
    da, db = cp.asarray(a), cp.asarray(b)
    got = numpy.matmul(da, db)
    assert isinstance(got, cp.ndarray)
    numpy.testing.assert_allclose(got.get(), numpy.matmul(a, b), rtol=1e-5, atol=1e-4)
    out = cp.empty((3, 4, 2), dtype=dtype)
    assert numpy.matmul(da, db, out=out) is out
    numpy.testing.assert_allclose(out.get(), numpy.matmul(a, b), rtol=1e-5, atol=1e-4)
    v = numpy.vecdot(da, da)
    assert isinstance(v, cp.ndarray)
    numpy.testing.assert_allclose(v.get(), numpy.vecdot(a, a), rtol=1e-5, atol=1e-3)
    with pytest.raises(ValueError):  # the shapes' core dimensions disagree, as NumPy says
        numpy.matmul(da, da)
    with pytest.raises(RuntimeError):  # NumPy refuses a gufunc's reduce before it dispatches
        numpy.matmul.reduce(da)
