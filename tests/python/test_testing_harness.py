"""Tests of the NumPy-comparison harness in cuarray.testing (no GPU needed)."""

import importlib.util
import inspect
import os
import types

import numpy
import pytest

try:
    from cuarray.testing import _harness as harness
except Exception:  # package not built: load the harness file on its own
    _path = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir,
                         'python', 'cuarray', 'testing', '_harness.py')
    _spec = importlib.util.spec_from_file_location('_cuarray_harness', _path)
    harness = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(harness)


NP2 = (numpy, numpy)


# --------------------------------------------------------------------------
# A fake "device" module: arrays live behind .get(), like cuarray's.
# --------------------------------------------------------------------------

class FakeArray:
    def __init__(self, a):
        self._a = numpy.asarray(a)

    def get(self):
        return self._a.copy()

    shape = property(lambda self: self._a.shape)
    dtype = property(lambda self: self._a.dtype)
    strides = property(lambda self: self._a.strides)
    flags = property(lambda self: self._a.flags)


def _fake_module(transform=lambda a: a, leak_host=False):
    def wrap(f):
        def g(*args, **kw):
            r = transform(f(*args, **kw))
            return r if leak_host else FakeArray(r)
        return g
    return types.SimpleNamespace(
        __name__='fakearray', ndarray=FakeArray,
        arange=wrap(numpy.arange), zeros=wrap(numpy.zeros),
        ones=wrap(numpy.ones), asarray=wrap(numpy.asarray),
        float32=numpy.float32)


def _run(decorated, **kw):
    return decorated(**kw)


# --------------------------------------------------------------------------
# numpy_cuarray_equal
# --------------------------------------------------------------------------

@pytest.mark.parametrize('value', [
    numpy.arange(6).reshape(2, 3),
    numpy.float32(1.5),
    3,
    2.5,
    True,
    None,
    (numpy.arange(3), 4, [numpy.zeros(2), None]),
    {'a': numpy.ones(2), 'b': 1},
    numpy.dtype('f4'),
    'some text',
    numpy.array([numpy.nan, 1.0]),
    numpy.array([complex(numpy.nan, 1), 2j]),
    numpy.zeros((0, 3), numpy.int8),
])
def test_equal_results_pass(value):
    @harness.numpy_cuarray_equal(_modules=NP2)
    def f(xp):
        return value
    f()


def test_module_is_passed_under_the_given_name():
    seen = []

    @harness.numpy_cuarray_equal(name='mod', _modules=NP2)
    def f(mod):
        seen.append(mod)
        return mod.arange(3)
    f()
    assert seen == [numpy, numpy]


def test_different_values_fail():
    calls = []

    @harness.numpy_cuarray_equal(_modules=NP2)
    def f(xp):
        calls.append(1)
        return xp.arange(3) + (len(calls) - 1)
    with pytest.raises(AssertionError):
        f()


def test_different_dtypes_fail_unless_type_check_is_off():
    def body(xp, state):
        state.append(1)
        dt = numpy.float32 if len(state) == 1 else numpy.float64
        return xp.arange(3, dtype=dt)

    strict = harness.numpy_cuarray_equal(_modules=NP2)(body)
    with pytest.raises(AssertionError, match='dtype'):
        strict(state=[])
    lax = harness.numpy_cuarray_equal(type_check=False, _modules=NP2)(body)
    lax(state=[])


def test_different_shapes_fail():
    state = []

    @harness.numpy_cuarray_equal(_modules=NP2)
    def f(xp):
        state.append(1)
        return xp.zeros((2, 3)) if len(state) == 1 else xp.zeros((3, 2))
    with pytest.raises(AssertionError, match='shape'):
        f()


def test_python_scalar_vs_numpy_scalar_fails_with_type_check():
    state = []

    @harness.numpy_cuarray_equal(_modules=NP2)
    def f(xp):
        state.append(1)
        return 1.5 if len(state) == 1 else numpy.float64(1.5)
    with pytest.raises(AssertionError, match='Python float'):
        f()


def test_tuple_vs_list_fails():
    state = []

    @harness.numpy_cuarray_equal(_modules=NP2)
    def f(xp):
        state.append(1)
        return [1, 2] if len(state) == 1 else (1, 2)
    with pytest.raises(AssertionError):
        f()


def test_length_mismatch_fails():
    state = []

    @harness.numpy_cuarray_equal(_modules=NP2)
    def f(xp):
        state.append(1)
        return (1, 2) if len(state) == 1 else (1, 2, 3)
    with pytest.raises(AssertionError, match='length'):
        f()


def test_none_vs_array_fails():
    state = []

    @harness.numpy_cuarray_equal(_modules=NP2)
    def f(xp):
        state.append(1)
        return None if len(state) == 1 else xp.zeros(1)
    with pytest.raises(AssertionError):
        f()


def test_nan_equals_nan():
    @harness.numpy_cuarray_equal(_modules=NP2)
    def f(xp):
        return xp.array([numpy.nan, numpy.inf, -numpy.inf])
    f()


# --------------------------------------------------------------------------
# Exceptions
# --------------------------------------------------------------------------

def test_both_raise_same_type_passes():
    @harness.numpy_cuarray_equal(_modules=NP2)
    def f(xp):
        raise ValueError('boom')
    f()


def test_subclass_of_numpy_exception_is_accepted():
    state = []

    @harness.numpy_cuarray_equal(_modules=NP2)
    def f(xp):
        state.append(1)
        if len(state) == 1:
            raise LookupError('numpy')
        raise IndexError('other')   # IndexError is a LookupError
    f()


def test_exception_type_mismatch_fails():
    state = []

    @harness.numpy_cuarray_equal(_modules=NP2)
    def f(xp):
        state.append(1)
        raise (ValueError if len(state) == 1 else TypeError)('boom')
    with pytest.raises(AssertionError, match='Different exception types'):
        f()


def test_only_numpy_raises_fails_with_traceback():
    state = []

    @harness.numpy_cuarray_equal(_modules=NP2)
    def f(xp):
        state.append(1)
        if len(state) == 1:
            raise ValueError('only-first-side')
        return 1
    with pytest.raises(AssertionError) as ei:
        f()
    msg = str(ei.value)
    assert 'Traceback' in msg and 'only-first-side' in msg


def test_only_second_module_raises_fails_with_traceback():
    state = []

    @harness.numpy_cuarray_equal(_modules=NP2)
    def f(xp):
        state.append(1)
        if len(state) == 2:
            raise KeyError('only-second-side')
        return 1
    with pytest.raises(AssertionError) as ei:
        f()
    msg = str(ei.value)
    assert 'Traceback' in msg and 'only-second-side' in msg


def test_axis_error_accepts_exception_named_axiserror():
    class AxisError(ValueError, IndexError):
        pass

    state = []

    @harness.numpy_cuarray_equal(_modules=NP2)
    def f(xp):
        state.append(1)
        if len(state) == 1:
            raise numpy.exceptions.AxisError(5, 2)
        raise AxisError('axis 5 is out of bounds')
    f()


def test_accept_error_tuple_allows_different_types():
    state = []

    @harness.numpy_cuarray_equal(accept_error=(ValueError, TypeError),
                                 _modules=NP2)
    def f(xp):
        state.append(1)
        raise (ValueError if len(state) == 1 else TypeError)('boom')
    f()


def test_accept_error_rejects_other_types():
    @harness.numpy_cuarray_equal(accept_error=ValueError, _modules=NP2)
    def f(xp):
        raise KeyError('boom')
    with pytest.raises(AssertionError, match='accepted'):
        f()


def test_skip_inside_body_propagates():
    @harness.numpy_cuarray_equal(_modules=NP2)
    def f(xp):
        pytest.skip('not here')
    with pytest.raises(pytest.skip.Exception):
        f()


# --------------------------------------------------------------------------
# allclose, strides and contiguity
# --------------------------------------------------------------------------

def test_allclose_tolerates_small_differences_only():
    def body(xp, state, eps):
        state.append(1)
        return xp.ones(4) * (1 + (eps if len(state) == 2 else 0))

    ok = harness.numpy_cuarray_allclose(rtol=1e-5, _modules=NP2)(body)
    ok(state=[], eps=1e-7)
    with pytest.raises(AssertionError):
        ok(state=[], eps=1e-3)


def test_allclose_nan_and_bool():
    @harness.numpy_cuarray_allclose(_modules=NP2)
    def f(xp):
        return xp.array([numpy.nan, 1.0]), xp.array([True, False])
    f()


def test_allclose_checks_dtype():
    state = []

    @harness.numpy_cuarray_allclose(_modules=NP2)
    def f(xp):
        state.append(1)
        return xp.ones(3, numpy.float32 if len(state) == 1 else numpy.float64)
    with pytest.raises(AssertionError, match='dtype'):
        f()


def test_strides_check_detects_layout_difference():
    state = []

    @harness.numpy_cuarray_equal(strides_check=True, _modules=NP2)
    def f(xp):
        state.append(1)
        return xp.zeros((2, 3), order='C' if len(state) == 1 else 'F')
    with pytest.raises(AssertionError, match='strides'):
        f()

    @harness.numpy_cuarray_equal(strides_check=False, _modules=NP2)
    def g(xp):
        state.append(1)
        return xp.zeros((2, 3), order='C' if len(state) % 2 else 'F')
    g()


def test_contiguous_check_detects_layout_difference():
    state = []

    @harness.numpy_cuarray_allclose(contiguous_check=True, _modules=NP2)
    def f(xp):
        state.append(1)
        if len(state) == 1:
            return xp.zeros((4, 6))
        return xp.zeros((4, 12))[:, ::2]     # same values, not contiguous
    with pytest.raises(AssertionError, match='contiguous'):
        f()


# --------------------------------------------------------------------------
# A device-like second module
# --------------------------------------------------------------------------

def test_device_arrays_are_fetched_with_get():
    fake = _fake_module()

    @harness.numpy_cuarray_equal(_modules=(numpy, fake))
    def f(xp):
        return xp.arange(5), (xp.zeros((2, 2)), 3)
    f()


def test_device_values_are_compared():
    fake = _fake_module(transform=lambda a: a + 1)

    @harness.numpy_cuarray_equal(_modules=(numpy, fake))
    def f(xp):
        return xp.arange(5)
    with pytest.raises(AssertionError):
        f()


def test_host_array_from_device_module_fails():
    fake = _fake_module(leak_host=True)

    @harness.numpy_cuarray_equal(_modules=(numpy, fake))
    def f(xp):
        return xp.arange(5)
    with pytest.raises(AssertionError, match='numpy.ndarray'):
        f()


def test_device_strides_are_checked():
    fake = _fake_module(transform=lambda a: numpy.asfortranarray(a))

    @harness.numpy_cuarray_equal(strides_check=True, _modules=(numpy, fake))
    def f(xp):
        return xp.zeros((2, 3))
    with pytest.raises(AssertionError, match='strides'):
        f()


# --------------------------------------------------------------------------
# Signatures, pytest integration, parametrisation
# --------------------------------------------------------------------------

def test_wrapper_signature_drops_module_argument():
    def body(self_like, xp, dtype, tmp_path, order='C'):
        pass
    wrapped = harness.numpy_cuarray_equal(_modules=NP2)(body)
    assert list(inspect.signature(wrapped).parameters) == [
        'self_like', 'dtype', 'tmp_path', 'order']
    assert wrapped.__name__ == 'body'


def test_decorating_function_without_module_argument_is_an_error():
    with pytest.raises(TypeError):
        harness.numpy_cuarray_equal(_modules=NP2)(lambda dtype: None)


@harness.for_all_dtypes()
@harness.for_orders('CF')
@harness.numpy_cuarray_equal(strides_check=True, _modules=NP2)
def test_stacked_parametrize_keeps_fixtures(xp, dtype, order, tmp_path):
    assert tmp_path.is_dir()
    assert isinstance(dtype, numpy.dtype)
    return xp.zeros((2, 3), dtype=dtype, order=order)


@harness.numpy_cuarray_allclose(_modules=NP2)
@harness.for_float_dtypes(name='dt')
def test_parametrize_below_harness_decorator_also_works(xp, dt,
                                                        request):
    assert request.node is not None
    return xp.linspace(0, 1, 5, dtype=dt)


class TestHarnessInClass:
    @harness.for_dtypes([numpy.int8, 'f4'])
    @harness.numpy_cuarray_equal(_modules=NP2)
    def test_method(self, xp, dtype):
        assert isinstance(self, TestHarnessInClass)
        return xp.ones(3, dtype)


def _mark_values(mark):
    assert mark.name == 'parametrize'
    return list(mark.args[1])


def test_dtype_lists():
    all14 = _mark_values(harness.for_all_dtypes().mark)
    assert len(all14) == 14
    assert all(isinstance(d, numpy.dtype) for d in all14)
    assert set(all14) == {numpy.dtype(c) for c in '?bhilqBHILQefdFD'}
    assert numpy.dtype(bool) not in _mark_values(
        harness.for_all_dtypes(no_bool=True).mark)
    assert numpy.dtype('e') not in _mark_values(
        harness.for_all_dtypes(no_float16=True).mark)
    assert not any(d.kind == 'c' for d in _mark_values(
        harness.for_all_dtypes(no_complex=True).mark))
    assert _mark_values(harness.for_float_dtypes().mark) == [
        numpy.dtype('e'), numpy.dtype('f'), numpy.dtype('d')]
    assert {d.kind for d in _mark_values(harness.for_int_dtypes().mark)} == {
        'b', 'i', 'u'}
    assert {d.kind for d in _mark_values(
        harness.for_int_dtypes(no_bool=True).mark)} == {'i', 'u'}
    assert {d.kind for d in _mark_values(
        harness.for_signed_dtypes().mark)} == {'i'}
    assert {d.kind for d in _mark_values(
        harness.for_unsigned_dtypes().mark)} == {'u'}
    assert _mark_values(harness.for_complex_dtypes().mark) == [
        numpy.dtype('F'), numpy.dtype('D')]
    m = harness.for_dtypes([numpy.float32], name='t').mark
    assert m.args[0] == 't' and m.kwargs['ids'] == ['float32']


def test_dtypes_combination():
    m = harness.for_all_dtypes_combination(names=('a', 'b')).mark
    assert m.args[0] == 'a,b' and len(m.args[1]) == 14 * 14


@harness.for_all_dtypes_combination(names=('src', 'dst'), full=False)
def test_combination_parametrises(src, dst):
    assert isinstance(src, numpy.dtype) and isinstance(dst, numpy.dtype)


# --------------------------------------------------------------------------
# Factories and assertions
# --------------------------------------------------------------------------

@harness.for_all_dtypes()
def test_shaped_arange(dtype):
    a = harness.shaped_arange((2, 3), numpy, dtype)
    assert a.shape == (2, 3) and a.dtype == dtype
    expected = numpy.arange(1, 7).reshape(2, 3)
    if dtype == numpy.bool_:
        expected = expected % 2 == 0
    elif dtype.kind == 'c':
        expected = expected + 1j * expected
    numpy.testing.assert_array_equal(a, expected.astype(dtype))


def test_shaped_arange_order_and_scalar_shape():
    a = harness.shaped_arange((3, 4), numpy, numpy.int32, order='F')
    assert a.flags.f_contiguous and not a.flags.c_contiguous
    assert harness.shaped_arange(4, numpy).tolist() == [1, 2, 3, 4]
    assert harness.shaped_arange((), numpy).shape == ()
    assert harness.shaped_arange((0, 2), numpy).shape == (0, 2)


@harness.for_all_dtypes()
def test_shaped_reverse_arange_and_random(dtype):
    r = harness.shaped_reverse_arange((5,), numpy, dtype)
    assert r.dtype == dtype and r.shape == (5,)
    if dtype != numpy.bool_:
        assert r[0] == (5 + 5j if dtype.kind == 'c' else 5)
    x = harness.shaped_random((4, 5), numpy, dtype, seed=1)
    y = harness.shaped_random((4, 5), numpy, dtype, seed=1)
    assert x.dtype == dtype and x.shape == (4, 5)
    numpy.testing.assert_array_equal(x, y)
    if dtype.kind == 'f':
        assert (x >= 0).all() and (x <= 10).all()


def test_shaped_factories_use_given_module():
    fake = types.SimpleNamespace(
        array=lambda a, order='C': ('fake', a.copy(order=order)))
    tag, arr = harness.shaped_arange((2,), fake)
    assert tag == 'fake' and arr.tolist() == [1, 2]


def test_assertions_accept_numpy():
    harness.assert_array_equal(numpy.arange(3), numpy.arange(3))
    harness.assert_allclose(numpy.ones(3), numpy.ones(3) + 1e-9, rtol=1e-6)
    harness.assert_array_almost_equal(numpy.ones(3), numpy.ones(3) + 1e-8)
    with pytest.raises(AssertionError):
        harness.assert_array_equal(numpy.arange(3), numpy.arange(1, 4))
    with pytest.raises(AssertionError):
        harness.assert_array_equal(numpy.arange(3, dtype='i4'),
                                   numpy.arange(3), strict=True)
    with pytest.raises(AssertionError):
        harness.assert_allclose(numpy.ones(3), numpy.ones(3) * 1.1)
