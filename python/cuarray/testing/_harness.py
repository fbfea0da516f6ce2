"""NumPy-comparison test harness: run one test body with numpy and cuarray.

The decorators here follow ``cupy.testing``: a test body takes the array
module as a keyword argument (``xp`` by default), is called once with
``xp=numpy`` and once with ``xp=cuarray``, and the two results (or the two
exceptions) are compared.

``cuarray`` is imported lazily, inside functions, so that this module can be
imported while the package itself is still being initialised (no import
cycles), and ``pytest`` is imported only by the helpers that need it, so that
``import cuarray.testing`` works without pytest installed.
"""

import functools
import inspect
import traceback

import numpy

__all__ = [
    'numpy_cuarray_equal', 'numpy_cuarray_array_equal',
    'numpy_cuarray_allclose',
    'numpy_cupy_equal', 'numpy_cupy_array_equal', 'numpy_cupy_allclose',
    'for_dtypes', 'for_all_dtypes', 'for_float_dtypes', 'for_int_dtypes',
    'for_signed_dtypes', 'for_unsigned_dtypes', 'for_complex_dtypes',
    'for_dtypes_combination', 'for_all_dtypes_combination', 'for_orders',
    'assert_array_equal', 'assert_allclose', 'assert_array_almost_equal',
    'shaped_arange', 'shaped_random', 'shaped_reverse_arange',
    'ALL_DTYPES',
]


# --------------------------------------------------------------------------
# dtype lists
# --------------------------------------------------------------------------

_BOOL = (numpy.dtype(numpy.bool_),)
_SIGNED = tuple(numpy.dtype(t) for t in
                (numpy.int8, numpy.int16, numpy.int32, numpy.int64))
_UNSIGNED = tuple(numpy.dtype(t) for t in
                  (numpy.uint8, numpy.uint16, numpy.uint32, numpy.uint64))
_FLOAT = tuple(numpy.dtype(t) for t in
               (numpy.float16, numpy.float32, numpy.float64))
_COMPLEX = tuple(numpy.dtype(t) for t in (numpy.complex64, numpy.complex128))

#: The 14 dtypes cuarray supports, as ``numpy.dtype`` objects.
ALL_DTYPES = _BOOL + _SIGNED + _UNSIGNED + _FLOAT + _COMPLEX


def _default_modules():
    import cuarray
    return numpy, cuarray


# --------------------------------------------------------------------------
# Result comparison
# --------------------------------------------------------------------------

_PY_SCALARS = (bool, int, float, complex)


def _format_exc(exc):
    return ''.join(traceback.format_exception(type(exc), exc, exc.__traceback__))


def _is_device_array(x, module):
    """True if ``x`` is an array of ``module`` other than a NumPy ndarray."""
    nd = getattr(module, 'ndarray', None)
    return (isinstance(nd, type) and nd is not numpy.ndarray
            and isinstance(x, nd))


def _to_host(x, module):
    if _is_device_array(x, module):
        return x.get()
    return x


def _is_arraylike_leaf(x):
    return isinstance(x, (numpy.ndarray, numpy.generic) + _PY_SCALARS)


class _Comparer:
    """Recursively compares a NumPy result with a second-module result."""

    def __init__(self, second, check_values, type_check, strides_check,
                 contiguous_check):
        self.second = second
        self.check_values = check_values
        self.type_check = type_check
        self.strides_check = strides_check
        self.contiguous_check = contiguous_check
        nd = getattr(second, 'ndarray', None)
        self.second_is_device = (isinstance(nd, type)
                                 and nd is not numpy.ndarray)

    def compare(self, np_r, xp_r, where='result'):
        # Containers ------------------------------------------------------
        if isinstance(np_r, (tuple, list)):
            if not isinstance(xp_r, (tuple, list)):
                raise AssertionError(
                    '{}: numpy returned a {} but the other module returned '
                    '{!r}'.format(where, type(np_r).__name__, type(xp_r)))
            if isinstance(np_r, list) != isinstance(xp_r, list):
                raise AssertionError(
                    '{}: numpy returned a {} but the other module returned '
                    'a {}'.format(where, type(np_r).__name__,
                                  type(xp_r).__name__))
            if len(np_r) != len(xp_r):
                raise AssertionError(
                    '{}: lengths differ: numpy {} vs {}'.format(
                        where, len(np_r), len(xp_r)))
            for i, (a, b) in enumerate(zip(np_r, xp_r)):
                self.compare(a, b, '{}[{}]'.format(where, i))
            return
        if isinstance(np_r, dict):
            if not isinstance(xp_r, dict) or set(np_r) != set(xp_r):
                raise AssertionError(
                    '{}: dict keys differ: {!r} vs {!r}'.format(
                        where, np_r, xp_r))
            for k in np_r:
                self.compare(np_r[k], xp_r[k], '{}[{!r}]'.format(where, k))
            return
        if np_r is None or xp_r is None:
            if not (np_r is None and xp_r is None):
                raise AssertionError(
                    '{}: numpy returned {!r}, the other module {!r}'.format(
                        where, type(np_r), type(xp_r)))
            return

        # Non-numeric leaves (dtypes, strings, types, flags objects...) ---
        if not _is_arraylike_leaf(np_r):
            xp_host = _to_host(xp_r, self.second)
            try:
                if isinstance(np_r, numpy.dtype):
                    ok = (xp_host is not None
                          and numpy.dtype(xp_host) == np_r)
                else:
                    ok = bool(np_r == xp_host)
            except Exception:
                ok = False
            if not ok:
                raise AssertionError(
                    '{}: values differ:\n numpy: {!r}\n other: {!r}'.format(
                        where, np_r, xp_r))
            return

        # Arrays and scalars --------------------------------------------
        if (self.second_is_device and type(xp_r) is numpy.ndarray):
            raise AssertionError(
                '{}: the device module returned a numpy.ndarray (host '
                'memory) where numpy returned {}; device functions must '
                'return device arrays'.format(where, type(np_r).__name__))
        if (self.type_check and type(np_r) in _PY_SCALARS
                and type(xp_r) is not type(np_r)):
            raise AssertionError(
                '{}: numpy returned a Python {} but the other module '
                'returned {!r}'.format(where, type(np_r).__name__,
                                       type(xp_r)))

        xp_is_array = _is_device_array(xp_r, self.second) or isinstance(
            xp_r, numpy.ndarray)
        if self.strides_check and isinstance(np_r, numpy.ndarray) \
                and np_r.size > 0:
            if not xp_is_array:
                raise AssertionError(
                    '{}: numpy returned an array, the other module {!r}'
                    .format(where, type(xp_r)))
            if tuple(np_r.strides) != tuple(xp_r.strides):
                raise AssertionError(
                    '{}: strides differ: numpy {} vs {}'.format(
                        where, np_r.strides, tuple(xp_r.strides)))
        if self.contiguous_check and isinstance(np_r, numpy.ndarray):
            if not xp_is_array:
                raise AssertionError(
                    '{}: numpy returned an array, the other module {!r}'
                    .format(where, type(xp_r)))
            for flag in ('c_contiguous', 'f_contiguous'):
                if getattr(np_r.flags, flag) and not getattr(xp_r.flags,
                                                             flag):
                    raise AssertionError(
                        '{}: numpy result is {} but the other is not'.format(
                            where, flag))

        xp_host = _to_host(xp_r, self.second)
        try:
            np_a = numpy.asarray(np_r)
            xp_a = numpy.asarray(xp_host)
        except Exception as e:  # pragma: no cover - defensive
            raise AssertionError('{}: cannot compare {!r} with {!r}: {}'
                                 .format(where, type(np_r), type(xp_r), e))
        if np_a.shape != xp_a.shape:
            raise AssertionError(
                '{}: shapes differ: numpy {} vs {}'.format(
                    where, np_a.shape, xp_a.shape))
        if self.type_check and np_a.dtype != xp_a.dtype:
            raise AssertionError(
                '{}: dtypes differ: numpy {} vs {}'.format(
                    where, np_a.dtype, xp_a.dtype))
        self.check_values(xp_a, np_a, where)


def _check_errors(np_exc, xp_exc, accept_error, names):
    """Both sides were run; at least one raised. Decide pass/fail."""
    np_name, xp_name = names
    if np_exc is None:
        raise AssertionError(
            'Only {} raised an exception:\n\n{}'.format(
                xp_name, _format_exc(xp_exc))) from xp_exc
    if xp_exc is None:
        raise AssertionError(
            'Only {} raised an exception ({} returned normally):\n\n{}'
            .format(np_name, xp_name, _format_exc(np_exc))) from np_exc
    both = '\n\n{} traceback:\n{}\n{} traceback:\n{}'.format(
        np_name, _format_exc(np_exc), xp_name, _format_exc(xp_exc))

    if accept_error is not False and accept_error is not None:
        allowed = Exception if accept_error is True else accept_error
        if not (isinstance(np_exc, allowed) and isinstance(xp_exc, allowed)):
            raise AssertionError(
                'Both raised, but not both one of the accepted errors '
                '{!r}: {} vs {}{}'.format(
                    allowed, type(np_exc).__name__, type(xp_exc).__name__,
                    both))
        if accept_error is not True:
            return

    np_type = type(np_exc)
    if isinstance(xp_exc, np_type):
        return
    if isinstance(np_exc, numpy.exceptions.AxisError) and (
            type(xp_exc).__name__ == 'AxisError'
            or any(c.__name__ == 'AxisError' for c in type(xp_exc).__mro__)):
        return
    raise AssertionError(
        'Different exception types: {} raised {}, {} raised {}{}'.format(
            np_name, np_type.__name__, xp_name, type(xp_exc).__name__, both))


def _make_decorator(check_values, name, type_check, accept_error,
                    strides_check=False, contiguous_check=False,
                    _modules=None):
    def decorator(impl):
        sig = inspect.signature(impl)
        if name not in sig.parameters:
            raise TypeError(
                'test function {!r} has no parameter {!r} for the array '
                'module'.format(impl.__name__, name))

        @functools.wraps(impl)
        def test_func(*args, **kw):
            mods = _modules if _modules is not None else _default_modules()
            first, second = mods
            names = (getattr(first, '__name__', 'first'),
                     getattr(second, '__name__', 'second'))
            results = []
            errors = []
            for mod in (first, second):
                kw2 = dict(kw)
                kw2[name] = mod
                try:
                    results.append(impl(*args, **kw2))
                    errors.append(None)
                except Exception as e:  # pytest.skip etc. are BaseException
                    results.append(None)
                    errors.append(e)
            np_exc, xp_exc = errors
            # Drop our references so that no reference cycle (exception ->
            # traceback -> this frame -> exception) keeps device arrays of
            # the test body alive after the test.
            del errors[:]
            try:
                if np_exc is not None or xp_exc is not None:
                    _check_errors(np_exc, xp_exc, accept_error, names)
                    return
                comparer = _Comparer(second, check_values, type_check,
                                     strides_check, contiguous_check)
                comparer.compare(results[0], results[1])
            finally:
                del results[:]
                np_exc = xp_exc = None

        # pytest reads the signature to find fixtures/parameters: drop the
        # module argument, which we supply ourselves.
        params = [p for p in sig.parameters.values() if p.name != name]
        test_func.__signature__ = sig.replace(parameters=params)
        return test_func
    return decorator


def _equal_values(actual, desired, where):
    numpy.testing.assert_array_equal(
        actual, desired, err_msg='at {}'.format(where), verbose=True)


def numpy_cuarray_equal(name='xp', type_check=True, accept_error=False,
                        strides_check=False, *, _modules=None):
    """Run the test with ``name=numpy`` and ``name=cuarray``; compare exactly.

    The test may return arrays, scalars, None, or (nested) tuples, lists and
    dicts of them; it may also raise. Exceptions: if NumPy raises, cuarray
    must raise an instance of the same type (a NumPy ``AxisError`` also
    accepts any exception class named ``AxisError``). If ``accept_error`` is
    an exception type or tuple, both sides must raise one of them (they may
    differ); ``True`` accepts any exceptions of matching types.

    ``_modules`` (for testing the harness itself) replaces the pair
    ``(numpy, cuarray)``.
    """
    return _make_decorator(_equal_values, name, type_check, accept_error,
                           strides_check=strides_check, _modules=_modules)


def numpy_cuarray_allclose(rtol=1e-7, atol=0, name='xp', type_check=True,
                           accept_error=False, contiguous_check=False, *,
                           _modules=None):
    """Like :func:`numpy_cuarray_equal` but compares values with
    ``numpy.testing.assert_allclose`` (NaNs at equal places are equal)."""
    def check(actual, desired, where):
        if actual.dtype == numpy.bool_ or desired.dtype == numpy.bool_:
            numpy.testing.assert_array_equal(
                actual, desired, err_msg='at {}'.format(where))
            return
        numpy.testing.assert_allclose(
            actual, desired, rtol=rtol, atol=atol, equal_nan=True,
            err_msg='at {}'.format(where))
    return _make_decorator(check, name, type_check, accept_error,
                           contiguous_check=contiguous_check,
                           _modules=_modules)


#: Alias used by CuPy-style tests.
numpy_cuarray_array_equal = numpy_cuarray_equal
numpy_cupy_equal = numpy_cuarray_equal
numpy_cupy_array_equal = numpy_cuarray_equal
numpy_cupy_allclose = numpy_cuarray_allclose


# --------------------------------------------------------------------------
# Parametrisation helpers
# --------------------------------------------------------------------------

def _dtype_id(d):
    return numpy.dtype(d).name


def for_dtypes(dtypes, name='dtype'):
    """Parametrise the test over ``dtypes`` (converted to numpy.dtype)."""
    import pytest
    dts = [numpy.dtype(d) for d in dtypes]
    return pytest.mark.parametrize(name, dts, ids=[_dtype_id(d) for d in dts])


def _make_all(no_bool=False, no_float16=False, no_complex=False,
              no_float=False, no_int=False):
    out = []
    if not no_bool:
        out += _BOOL
    if not no_int:
        out += _SIGNED + _UNSIGNED
    if not no_float:
        out += tuple(d for d in _FLOAT
                     if not (no_float16 and d == numpy.float16))
    if not no_complex:
        out += _COMPLEX
    return out


def for_all_dtypes(name='dtype', no_bool=False, no_float16=False,
                   no_complex=False):
    """Parametrise over all 14 dtypes (minus the excluded groups)."""
    return for_dtypes(_make_all(no_bool, no_float16, no_complex), name)


def for_float_dtypes(name='dtype', no_float16=False):
    return for_dtypes([d for d in _FLOAT
                       if not (no_float16 and d == numpy.float16)], name)


def for_int_dtypes(name='dtype', no_bool=False):
    return for_dtypes((() if no_bool else _BOOL) + _SIGNED + _UNSIGNED, name)


def for_signed_dtypes(name='dtype'):
    return for_dtypes(_SIGNED, name)


def for_unsigned_dtypes(name='dtype'):
    return for_dtypes(_UNSIGNED, name)


def for_complex_dtypes(name='dtype'):
    return for_dtypes(_COMPLEX, name)


def for_dtypes_combination(types, names=('dtype',), full=True):
    """Parametrise over the cartesian product of ``types`` for ``names``."""
    import itertools
    import pytest
    dts = [numpy.dtype(d) for d in types]
    combos = list(itertools.product(dts, repeat=len(names)))
    if not full:
        # one combination per dtype position is enough for a smoke test
        combos = [tuple(dts[(i + j) % len(dts)] for j in range(len(names)))
                  for i in range(len(dts))]
    ids = ['-'.join(_dtype_id(d) for d in c) for c in combos]
    if len(names) == 1:
        return pytest.mark.parametrize(names[0], [c[0] for c in combos],
                                       ids=ids)
    return pytest.mark.parametrize(','.join(names), combos, ids=ids)


def for_all_dtypes_combination(names=('dtype',), no_bool=False,
                               no_float16=False, no_complex=False, full=True):
    return for_dtypes_combination(
        _make_all(no_bool, no_float16, no_complex), names, full)


def for_orders(orders, name='order'):
    """Parametrise the test over memory orders (e.g. ``'CFAK'``)."""
    import pytest
    orders = list(orders)
    return pytest.mark.parametrize(
        name, orders, ids=[str(o) for o in orders])


# --------------------------------------------------------------------------
# Assertions
# --------------------------------------------------------------------------

def _host(x):
    """Convert a cuarray array (anything with ``.get`` that is not NumPy's)
    to NumPy; leave everything else alone."""
    if isinstance(x, (numpy.ndarray, numpy.generic)):
        return x
    try:
        import cuarray
        nd = getattr(cuarray, 'ndarray', None)
    except ImportError:  # pragma: no cover - package not built
        nd = None
    if nd is not None and isinstance(x, nd):
        return x.get()
    if isinstance(x, (list, tuple)):
        return type(x)(_host(v) for v in x)
    return x


def assert_array_equal(x, y, err_msg='', verbose=True, strict=False):
    numpy.testing.assert_array_equal(_host(x), _host(y), err_msg=err_msg,
                                     verbose=verbose, strict=strict)


def assert_allclose(actual, desired, rtol=1e-7, atol=0, err_msg='',
                    verbose=True, equal_nan=True):
    numpy.testing.assert_allclose(_host(actual), _host(desired), rtol=rtol,
                                  atol=atol, equal_nan=equal_nan,
                                  err_msg=err_msg, verbose=verbose)


def assert_array_almost_equal(x, y, decimal=6, err_msg='', verbose=True):
    numpy.testing.assert_array_almost_equal(
        _host(x), _host(y), decimal=decimal, err_msg=err_msg,
        verbose=verbose)


# --------------------------------------------------------------------------
# Array factories (built with NumPy, then moved with xp.asarray / xp.array)
# --------------------------------------------------------------------------

def _resolve_xp(xp):
    if xp is None:
        import cuarray
        return cuarray
    return xp


def _finish(a, xp, order):
    xp = _resolve_xp(xp)
    a = numpy.array(a, order=order)
    if xp is numpy:
        return a
    return xp.array(a, order=order)


def _size(shape):
    if isinstance(shape, int):
        shape = (shape,)
    return shape, int(numpy.prod(shape, dtype=numpy.int64))


def shaped_arange(shape, xp=None, dtype=numpy.float32, order='C'):
    """Array of ``shape`` holding 1, 2, ..., n cast to ``dtype``.

    bool: ``value % 2 == 0``; complex: ``v + v*1j`` (as cupy.testing does,
    so that imaginary parts are exercised). ``xp`` defaults to cuarray.
    """
    dtype = numpy.dtype(dtype)
    shape, size = _size(shape)
    a = numpy.arange(1, size + 1, 1).reshape(shape)
    if dtype == numpy.bool_:
        a = a % 2 == 0
    elif dtype.kind == 'c':
        a = a + a * 1j
    return _finish(a.astype(dtype), xp, order)


def shaped_reverse_arange(shape, xp=None, dtype=numpy.float32, order='C'):
    """Array of ``shape`` holding n, n-1, ..., 1 cast to ``dtype``."""
    dtype = numpy.dtype(dtype)
    shape, size = _size(shape)
    a = numpy.arange(size, 0, -1).reshape(shape)
    if dtype == numpy.bool_:
        a = a % 2 == 0
    elif dtype.kind == 'c':
        a = a + a * 1j
    return _finish(a.astype(dtype), xp, order)


def shaped_random(shape, xp=None, dtype=numpy.float32, scale=10, seed=0,
                  order='C'):
    """Deterministic random array in [0, scale) (bool: 0/1)."""
    dtype = numpy.dtype(dtype)
    shape, _ = _size(shape)
    rs = numpy.random.RandomState(seed)
    if dtype == numpy.bool_:
        a = rs.randint(2, size=shape).astype(dtype)
    elif dtype.kind == 'c':
        a = (rs.rand(*shape) + 1j * rs.rand(*shape)) * scale
        a = a.astype(dtype)
    else:
        a = (rs.rand(*shape) * scale).astype(dtype)
    return _finish(a, xp, order)
