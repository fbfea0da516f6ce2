"""NumPy's warnings (ComplexWarning, all-NaN and empty-slice RuntimeWarnings, fft.config's DeprecationWarning), the
errstate family, cuarray.exceptions and cuarray.typing, against NumPy.
"""
import threading
import typing
import warnings

import numpy
import pytest

import cuarray as cp

gpu = pytest.mark.gpu
NAN = numpy.nan


def _warning_types(fn):
    """(result or exception, the warning categories raised) of fn()."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            result = fn()
        except Exception as e:  # noqa: BLE001 - compared with NumPy's
            result = e
    return result, [x.category for x in w]


# -- CPU: errstate -------------------------------------------------------------------------------------------------

def test_geterr_defaults_are_numpys():
    assert cp.geterr() == {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}


def test_seterr_returns_old_and_sets_like_numpy():
    old_np = numpy.geterr()
    try:
        old = cp.seterr(all="raise", under="ignore")
        assert old == {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}
        assert cp.geterr() == {"divide": "raise", "over": "raise", "under": "ignore", "invalid": "raise"}
        numpy.seterr(all="raise", under="ignore")
        assert cp.geterr() == numpy.geterr()
        assert cp.seterr(divide="log")["divide"] == "raise"
        assert cp.geterr()["divide"] == "log"
    finally:
        cp.seterr(**old)
        numpy.seterr(**old_np)
    assert cp.geterr() == old
    # cuarray's setting is its own: NumPy's is untouched.
    assert numpy.geterr() == old_np


def test_seterr_bad_values():
    before = cp.geterr()
    for kwargs in ({"divide": "explode"}, {"all": 1}, {"invalid": "Raise"}):
        with pytest.raises(ValueError):
            numpy.seterr(**kwargs)
        with pytest.raises(ValueError):
            cp.seterr(**kwargs)
    with pytest.raises(ValueError):
        cp.seterr(linalg="warn")
    assert cp.geterr() == before
    with pytest.raises(TypeError):
        cp.seterr(bogus="raise")


def test_errstate_restores_and_nests():
    before = cp.geterr()
    with cp.errstate(divide="ignore"):
        assert cp.geterr()["divide"] == "ignore"
        with cp.errstate(all="raise"):
            assert set(cp.geterr().values()) == {"raise"}
        assert cp.geterr()["divide"] == "ignore" and cp.geterr()["over"] == "warn"
    assert cp.geterr() == before
    with pytest.raises(ZeroDivisionError):
        with cp.errstate(over="ignore"):
            assert cp.geterr()["over"] == "ignore"
            raise ZeroDivisionError
    assert cp.geterr() == before
    with pytest.raises(ValueError):
        with cp.errstate(divide="nope"):
            pass
    assert cp.geterr() == before
    with pytest.raises(TypeError):
        cp.errstate("ignore")  # keyword-only, as NumPy's


def test_errstate_is_a_decorator_and_reusable():
    es = cp.errstate(invalid="ignore")

    @es
    def inner():
        return cp.geterr()["invalid"]

    assert inner() == "ignore" and inner() == "ignore"
    assert cp.geterr()["invalid"] == "warn"
    with es:
        with es:
            assert cp.geterr()["invalid"] == "ignore"
    assert cp.geterr()["invalid"] == "warn"


def test_errstate_linalg_key():
    with cp.errstate(linalg="ignore"):
        assert "linalg" not in cp.geterr()
    with pytest.raises(ValueError):
        with cp.errstate(linalg="print"):
            pass


def test_seterrcall_and_errstate_call():
    def handler(kind, flag):
        pass

    class Log:
        def write(self, msg):
            pass

    assert cp.geterrcall() is None
    try:
        assert cp.seterrcall(handler) is None
        assert cp.geterrcall() is handler
        log = Log()
        assert cp.seterrcall(log) is handler
        assert cp.geterrcall() is log
        with pytest.raises(TypeError):
            numpy.seterrcall(3)
        with pytest.raises(TypeError):
            cp.seterrcall(3)
        assert cp.geterrcall() is log
        with cp.errstate(call=handler, divide="call"):
            assert cp.geterrcall() is handler
        assert cp.geterrcall() is log
        with pytest.raises(TypeError):
            with cp.errstate(call=5):
                pass
        assert cp.geterrcall() is log
    finally:
        cp.seterrcall(None)


def test_errstate_is_per_thread():
    seen = {}

    def other():
        seen["other"] = cp.geterr()["divide"]

    with cp.errstate(divide="raise"):
        t = threading.Thread(target=other)
        t.start()
        t.join()
    assert seen["other"] == "warn"


# -- CPU: modules ---------------------------------------------------------------------------------------------------

def test_exceptions_are_numpys_classes():
    import numpy.exceptions as ne
    for name in ("AxisError", "ComplexWarning", "DTypePromotionError", "ModuleDeprecationWarning", "RankWarning",
                 "TooHardError", "VisibleDeprecationWarning"):
        assert getattr(cp.exceptions, name) is getattr(ne, name), name
    assert cp.exceptions.OutOfMemoryError is cp.cuda.memory.OutOfMemoryError
    assert cp.exceptions.CUDARuntimeError is cp.cuda.runtime.CUDARuntimeError
    assert cp.exceptions.CompileException is cp.cuda.compiler.CompileException
    assert issubclass(cp.exceptions.OutOfMemoryError, MemoryError)
    assert issubclass(cp.exceptions.CUDARuntimeError, RuntimeError)
    assert cp.ComplexWarning is ne.ComplexWarning and cp.AxisError is ne.AxisError
    assert set(cp.exceptions.__all__) <= set(dir(cp.exceptions))


def test_typing_aliases():
    from cuarray.typing import ArrayLike, DTypeLike, NDArray
    assert ArrayLike is numpy.typing.ArrayLike
    assert DTypeLike is numpy.typing.DTypeLike
    alias = NDArray[numpy.float32]
    assert typing.get_origin(alias) is cp.ndarray
    assert typing.get_args(alias)[1] == numpy.dtype[numpy.float32]

    def f(x: NDArray[numpy.float64]) -> NDArray[numpy.int64]:
        return x

    assert typing.get_type_hints(f)["x"] == NDArray[numpy.float64]
    assert cp.ndarray[typing.Any, numpy.dtype[numpy.int8]] == NDArray[numpy.int8]


def test_fft_enable_nd_planning_is_deprecated():
    cfg = cp.fft.config
    with pytest.warns(DeprecationWarning, match="enable_nd_planning"):
        assert cfg.enable_nd_planning is True
    try:
        with pytest.warns(DeprecationWarning, match="enable_nd_planning"):
            cfg.enable_nd_planning = False
        with pytest.warns(DeprecationWarning):
            assert cfg.enable_nd_planning is False
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            cfg.enable_nd_planning = True
    assert cfg.use_multi_gpus is False  # not deprecated: no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cfg.use_multi_gpus is False


# -- GPU: ComplexWarning ---------------------------------------------------------------------------------------------

_CASES = {
    "astype_int": lambda xp, c, r: c.astype(xp.int32),
    "astype_float": lambda xp, c, r: c.astype(xp.float32),
    "astype_bool": lambda xp, c, r: c.astype(xp.bool_),
    "astype_complex": lambda xp, c, r: c.astype(xp.complex64),
    "setitem_basic": lambda xp, c, r: r.__setitem__(Ellipsis, c),
    "setitem_slice": lambda xp, c, r: r.__setitem__(slice(0, 2), c[:2]),
    "setitem_advanced": lambda xp, c, r: r.__setitem__(xp.asarray([0, 1]), c[:2]),
    "setitem_bool_mask": lambda xp, c, r: r.__setitem__(r == r, c),
    "setitem_element_0d": lambda xp, c, r: r.__setitem__(0, c[1]),
    "setitem_numpy_scalar": lambda xp, c, r: r.__setitem__(Ellipsis, numpy.complex128(1 + 2j)),
    "setitem_numpy_scalar_adv": lambda xp, c, r: r.__setitem__(xp.asarray([1]), numpy.complex64(3j)),
    "setitem_host_complex": lambda xp, c, r: r.__setitem__(Ellipsis, numpy.array([1j, 2, 3 + 1j])),
    "copyto_unsafe": lambda xp, c, r: xp.copyto(r, c, casting="unsafe"),
    "copyto_same_kind": lambda xp, c, r: xp.copyto(r, c),
    "fill_numpy_complex": lambda xp, c, r: r.fill(numpy.complex128(2j)),
    "real_part": lambda xp, c, r: xp.real(c),
    "array_dtype": lambda xp, c, r: xp.array(c, dtype=xp.float64),
    "put": lambda xp, c, r: xp.put(r, [0, 2], c[:2]),
}


@gpu
@pytest.mark.parametrize("case", sorted(_CASES))
@pytest.mark.parametrize("target", ["float64", "int32", "bool"])
def test_complex_warning_matches_numpy(case, target):
    ch = numpy.array([1 + 1j, 2 - 1j, 3 + 0j])
    rh = numpy.zeros(3, dtype=target)
    cd, rd = cp.asarray(ch), cp.asarray(rh)
    expected, w_np = _warning_types(lambda: _CASES[case](numpy, ch, rh))
    got, w_cp = _warning_types(lambda: _CASES[case](cp, cd, rd))
    assert (numpy.exceptions.ComplexWarning in w_cp) == (numpy.exceptions.ComplexWarning in w_np), (w_cp, w_np)
    if isinstance(expected, Exception):
        assert isinstance(got, type(expected)) or isinstance(got, (TypeError, ValueError)), got
    else:
        assert not isinstance(got, Exception), got
        numpy.testing.assert_array_equal(rd.get(), rh)


@gpu
def test_complex_warning_can_be_an_error():
    c = cp.asarray([1 + 1j])
    with warnings.catch_warnings():
        warnings.simplefilter("error", numpy.exceptions.ComplexWarning)
        with pytest.raises(numpy.exceptions.ComplexWarning):
            c.astype(cp.float64)
        r = cp.zeros(1)
        with pytest.raises(numpy.exceptions.ComplexWarning):
            r[...] = c
        assert r.get()[0] == 0  # nothing was stored


# -- GPU: all-NaN and empty-slice RuntimeWarnings ---------------------------------------------------------------

@gpu
@pytest.mark.parametrize("name", ["nanmin", "nanmax"])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64"])
def test_nanmin_nanmax_all_nan_warns(name, dtype):
    h = numpy.array([[NAN, 1.0, NAN], [NAN, 2.0, 3.0]], dtype=dtype)
    d = cp.asarray(h)
    for axis in (None, 0, 1):
        expected, w_np = _warning_types(lambda: getattr(numpy, name)(h, axis=axis))
        got, w_cp = _warning_types(lambda: getattr(cp, name)(d, axis=axis))
        assert (RuntimeWarning in w_cp) == (RuntimeWarning in w_np), (axis, w_cp, w_np)
        numpy.testing.assert_array_equal(got.get(), expected)
    full_nan = cp.full((2, 2), NAN, dtype=dtype)
    with pytest.warns(RuntimeWarning, match="All-NaN slice encountered"):
        r = getattr(cp, name)(full_nan)
    assert numpy.isnan(r.get())


@gpu
@pytest.mark.parametrize("name", ["nanmin", "nanmax"])
def test_nanmin_nanmax_integer_and_keywords(name):
    h = numpy.arange(12).reshape(3, 4)
    d = cp.asarray(h)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        numpy.testing.assert_array_equal(getattr(cp, name)(d, axis=1, keepdims=True).get(),
                                         getattr(numpy, name)(h, axis=1, keepdims=True))
    out = cp.empty(4, dtype=h.dtype)
    assert getattr(cp, name)(d, 0, out) is out
    numpy.testing.assert_array_equal(out.get(), getattr(numpy, name)(h, 0))
    numpy.testing.assert_array_equal(getattr(numpy, name)(d, axis=0).get(), getattr(numpy, name)(h, axis=0))


@gpu
def test_nanargmin_all_nan_raises_like_numpy():
    # Row 0 is all NaN (axis=1 raises); every column has a number, so axis=0 is defined.
    h = numpy.array([[NAN, NAN, NAN], [1.0, NAN, 3.0], [2.0, 0.5, NAN]])
    d = cp.asarray(h)
    for fn in ("nanargmin", "nanargmax"):
        with pytest.raises(ValueError):
            getattr(numpy, fn)(h, axis=1)
        with pytest.raises(ValueError, match="All-NaN slice"):
            getattr(cp, fn)(d, axis=1)
        numpy.testing.assert_array_equal(getattr(cp, fn)(d, axis=0).get(), getattr(numpy, fn)(h, axis=0))


@gpu
@pytest.mark.parametrize("name,kwargs", [
    ("mean", {}), ("mean", {"axis": 0}), ("mean", {"axis": 1}), ("mean", {"axis": (0, 1)}),
    ("var", {}), ("var", {"ddof": 3}), ("var", {"ddof": 4}), ("var", {"axis": 0, "ddof": 2}), ("std", {"ddof": 1}),
    ("std", {"axis": 1, "ddof": 5}), ("nanmean", {}), ("nanvar", {"ddof": 4}), ("nanstd", {"axis": 0, "ddof": 2}),
    ("var", {"correction": 4})])
@pytest.mark.parametrize("shape", [(0,), (2, 0), (0, 3), (2, 2), (1, 4)])
def test_empty_slice_and_dof_warnings_match_numpy(name, kwargs, shape):
    h = numpy.arange(numpy.prod(shape), dtype=numpy.float64).reshape(shape)
    d = cp.asarray(h)
    if "axis" in kwargs and any(a >= len(shape) for a in numpy.atleast_1d(kwargs["axis"])):
        pytest.skip("axis beyond ndim")
    expected, w_np = _warning_types(lambda: getattr(numpy, name)(h, **kwargs))
    got, w_cp = _warning_types(lambda: getattr(cp, name)(d, **kwargs))
    assert (RuntimeWarning in w_cp) == (RuntimeWarning in w_np), (w_cp, w_np)
    if isinstance(expected, Exception):
        assert isinstance(got, type(expected))
    else:
        numpy.testing.assert_array_equal(got.get(), expected)
    # The method form warns alike.
    if name in ("mean", "var", "std"):
        _, w_m = _warning_types(lambda: getattr(d, name)(**kwargs))
        assert (RuntimeWarning in w_m) == (RuntimeWarning in w_np)


@gpu
def test_errstate_does_not_change_device_results():
    x = cp.asarray([1.0, -1.0, 0.0])
    with cp.errstate(all="raise"):
        r = x / 0.0
    numpy.testing.assert_array_equal(r.get(), [numpy.inf, -numpy.inf, NAN])


def test_performance_warning_is_cupys_runtime_warning():
    # CuPy's cupy._util.PerformanceWarning (operands read from another device) is a RuntimeWarning.
    assert cp.PerformanceWarning is cp.exceptions.PerformanceWarning
    assert issubclass(cp.PerformanceWarning, RuntimeWarning)
    assert "PerformanceWarning" in cp.exceptions.__all__
    with pytest.warns(RuntimeWarning):
        warnings.warn("slow", cp.PerformanceWarning)
