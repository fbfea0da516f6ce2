"""The short call forms of the reductions (Note [reduction fast call] in python/src/reduction.cpp, and the call slot
of ReductionKernel in python/src/elementwise_kernel.cpp) against NumPy and against the same call spelled out with
its default keywords, which takes nanobind's full dispatch: every reduction bound both ways, bound-method objects,
empty, 0-d, F-ordered, strided and long inputs, and the errors and warnings of the long forms."""
import warnings

import numpy
import pytest

import cuarray as cp

gpu = pytest.mark.gpu

METHODS = ["sum", "prod", "max", "min", "any", "all", "mean"]
FUNCTIONS = METHODS + ["amax", "amin", "nansum", "nanprod", "nanmax", "nanmin", "nanmean"]
# Keywords of each reduction at NumPy's defaults: the same call through the full binding.
_DEFAULTS = {"sum": {"axis": None, "dtype": None, "out": None, "keepdims": False, "initial": None, "where": True},
             "mean": {"axis": None, "dtype": None, "out": None, "keepdims": False, "where": True},
             "max": {"axis": None, "out": None, "keepdims": False, "initial": None, "where": True},
             "any": {"axis": None, "out": None, "keepdims": False, "where": True}}
_FAMILY = {"sum": "sum", "prod": "sum", "nansum": "sum", "nanprod": "sum", "mean": "mean", "nanmean": "mean",
           "max": "max", "min": "max", "amax": "max", "amin": "max", "nanmax": "max", "nanmin": "max", "any": "any",
           "all": "any"}


def _inputs(dtype):
    rng = numpy.random.default_rng(7)
    base = rng.standard_normal(6000) * 3
    if numpy.dtype(dtype).kind in "iu":
        base = numpy.abs(base) if numpy.dtype(dtype).kind == "u" else base
    x = base.astype(dtype)
    return {
        "1-d": x[:1000],
        "0-d": x[3].reshape(()),
        "size 1": x[:1],
        "reversed": x[999::-1],
        "step 3": x[:3000:3],
        "2-d C": x[:1200].reshape(30, 40),
        "2-d F": numpy.asfortranarray(x[:1200].reshape(30, 40)),
        "long": x,  # past the one-launch limit: the general path
    }


def _same(got, exp, scale=0.0):
    """got (a cuarray result) equals exp (NumPy's) in shape and dtype, and in value: exactly for integers and bools,
    else within a few units of the result type's precision times `scale` (the sum of the inputs' magnitudes)."""
    exp = numpy.asarray(exp)
    assert got.shape == exp.shape and got.dtype == exp.dtype, (got.dtype, exp.dtype)
    if exp.dtype.kind in "fc":
        eps = numpy.finfo(exp.dtype).eps
        numpy.testing.assert_allclose(got.get(), exp, rtol=8 * eps, atol=32 * eps * scale + 1e-300)
    else:
        numpy.testing.assert_array_equal(got.get(), exp)


def _expected(name, x):
    """NumPy's result of `name` on x: its dtype, with sums, products and means taken in float64 and rounded once
    (NumPy folds float16 in float16 and pairs its sums differently from a GPU tree), and the magnitude for the
    tolerance."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        exp = numpy.asarray(getattr(numpy, name)(x))
        if x.dtype.kind in "fc" and _FAMILY[name] in ("sum", "mean"):  # prod and nanprod are of the sum family
            wide = x.astype(numpy.complex128 if x.dtype.kind == "c" else numpy.float64)
            exp = numpy.asarray(getattr(numpy, name)(wide)).astype(exp.dtype)
    scale = float(numpy.nansum(numpy.abs(x.astype(numpy.complex128)))) if x.dtype.kind in "fc" else 0.0
    if name in ("prod", "nanprod"):
        scale = abs(float(numpy.abs(exp)))
    if _FAMILY[name] == "mean":
        scale /= max(x.size, 1)
    return exp, scale


@gpu
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint32", "int64", "float16", "float32", "float64", "complex64"])
@pytest.mark.parametrize("name", FUNCTIONS)
def test_function_and_method_short_forms_match_numpy_and_the_full_call(name, dtype):
    fn = getattr(cp, name)
    for label, x in _inputs(dtype).items():
        if name in ("prod", "nanprod") and x.size > 40:  # a product of thousands of values overflows
            x = numpy.clip(x.reshape(-1)[:40], -2, 2)
        a = cp.asarray(x) if label != "2-d F" else cp.asfortranarray(cp.asarray(x))
        exp, scale = _expected(name, x)
        got = fn(a)
        _same(got, exp, scale)
        full = fn(a, **_DEFAULTS[_FAMILY[name]])
        assert got.dtype == full.dtype and got.shape == full.shape, label
        assert got.get().tobytes() == full.get().tobytes(), label  # the same kernel, the same bits
        if name in METHODS:
            _same(getattr(a, name)(), exp, scale)
            bound = getattr(a, name)
            _same(bound(), exp, scale)
            _same(getattr(cp.ndarray, name)(a), exp, scale)


@gpu
def test_short_forms_of_empty_inputs_raise_and_warn_as_numpy():
    e = cp.zeros((0,), dtype=cp.float32)
    assert e.sum().get() == 0 and e.prod().get() == 1
    assert not e.any().get() and e.all().get()
    for f in (e.max, e.min, lambda: cp.amax(e), lambda: cp.nanmin(e)):
        with pytest.raises(ValueError, match="zero-size array"):
            f()
    for f in (e.mean, lambda: cp.mean(e), lambda: cp.nanmean(e)):
        with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
            r = f()
        assert numpy.isnan(r.get())
    e2 = cp.zeros((3, 0), dtype=cp.int32)
    assert e2.sum().get() == 0 and e2.sum().dtype == numpy.int64


@gpu
def test_short_forms_keep_nan_semantics():
    x = numpy.array([1.0, numpy.nan, 3.0], dtype=numpy.float32)
    a = cp.asarray(x)
    assert numpy.isnan(a.sum().get()) and numpy.isnan(a.max().get()) and numpy.isnan(a.mean().get())
    assert cp.nansum(a).get() == 4.0 and cp.nanmax(a).get() == 3.0 and cp.nanmean(a).get() == 2.0
    allnan = cp.asarray(numpy.full(5, numpy.nan, numpy.float64))
    with pytest.warns(RuntimeWarning):
        assert numpy.isnan(numpy.nanmax(allnan.get()))
    assert numpy.isnan(cp.nanmax(allnan).get())


@gpu
def test_other_call_forms_still_take_the_full_binding():
    x = numpy.arange(12, dtype=numpy.float32).reshape(3, 4)
    a = cp.asarray(x)
    _same(a.sum(0), x.sum(0))
    _same(cp.sum(a, 1), x.sum(1))
    _same(a.max(axis=1, keepdims=True), x.max(axis=1, keepdims=True))
    _same(cp.mean(a, dtype=numpy.float64), numpy.mean(x, dtype=numpy.float64))
    with pytest.raises(TypeError):
        a.sum(bogus=1)
    with pytest.raises(TypeError):
        cp.sum()
    with pytest.raises(TypeError):
        cp.ndarray.sum()
    # Non-arrays go to the full binding: a Python scalar is taken as a 0-d array, a list is refused (as CuPy).
    _same(cp.sum(5), numpy.sum(5))
    _same(cp.max(2.5), numpy.max(2.5))
    with pytest.raises(TypeError, match="Unsupported type"):
        cp.sum([1, 2, 3])


@gpu
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_reduction_kernel_call_forms(dtype):
    k = cp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "fast_call_sumsq")
    x = numpy.arange(24, dtype=dtype).reshape(4, 6)
    a = cp.asarray(x)
    exp = (x.astype(numpy.float64) ** 2)
    _same(k(a), exp.sum().astype(dtype))
    _same(k(a, axis=1), exp.sum(axis=1).astype(dtype))
    _same(k(a, axis=(0,), keepdims=True), exp.sum(axis=0, keepdims=True).astype(dtype))
    _same(k(a, stream=None), exp.sum().astype(dtype))
    _same(k(a[:, ::-2]), exp[:, ::-2].sum().astype(dtype))
    _same(k(a[1, 2]), exp[1, 2].astype(dtype))  # a 0-d view
    out = cp.empty((), dtype=dtype)
    assert k(a, out=out) is out
    _same(out, exp.sum().astype(dtype))
    assert k(a, out) is out  # the output given positionally
    s = cp.cuda.Stream()
    _same(k(a, stream=s), exp.sum().astype(dtype))  # the Python path
    s.synchronize()
    _same(k(a, keepdims=1), exp.sum(keepdims=True).astype(dtype))  # a non-bool keepdims: bool() in Python
    with pytest.raises(TypeError, match="ReductionKernel.__call__"):
        k(a, bogus=1)
    with pytest.raises(TypeError):
        k()
    big = cp.arange(100000, dtype=cp.float64)
    numpy.testing.assert_allclose(k(big).get(), numpy.sum(numpy.arange(100000, dtype=numpy.float64) ** 2),
                                  rtol=1e-12)
    assert k.identity == "0" and k.nin == 1 and k.name == "fast_call_sumsq" and k._kernel is k


@gpu
def test_reduction_kernel_of_two_inputs_and_a_scalar():
    k = cp.ReductionKernel("T x, T w", "T y", "x * w", "a + b", "y = a", "0", "fast_call_dot")
    x = numpy.arange(10, dtype=numpy.float32)
    a = cp.asarray(x)
    _same(k(a, a), numpy.float32((x * x).sum()))
    _same(k(a, cp.float32(2)), numpy.float32(2 * x.sum()))
    _same(k(a, 2.0), numpy.float32(2 * x.sum()))
