"""Shared cases of the ufunc tests: every NumPy loop cuarray implements, test values and tolerances.

Used by the GPU comparison (tests/python/test_ufuncs.py) and by the host-compiled check of the same
device functions (tests/python/test_ufunc_host.py), so both judge the same inputs the same way.
"""
import pathlib
import re
import warnings

import numpy

SUPPORTED = set("?bhilqBHILQefdFD")

# Functions whose results may differ from NumPy's by a few ulp (the device's libm is not glibc).
TRANSCENDENTAL = {"exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "logaddexp", "logaddexp2", "sqrt",
                  "cbrt", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
                  "arccosh", "arctanh", "arctan2", "hypot", "power", "float_power", "deg2rad", "rad2deg",
                  "degrees", "radians", "reciprocal", "divide", "true_divide", "absolute", "sign", "square",
                  "multiply"}

TABLE = pathlib.Path(__file__).resolve().parents[3] / "src" / "engine" / "ufunc_table.inc"


def table_loops(path=TABLE):
    """(name, types, body) of every loop in the generated table, in order."""
    text = pathlib.Path(path).read_text()
    out = []
    for block in re.finditer(r"CUARRAY_UFUNC\((\w+), \d+, \d+, \"[^\"]*\", UFUNC_LOOPS\((.*?)\)\)\n", text, re.S):
        for m in re.finditer(r'\{"([^"]+)", "((?:[^"\\]|\\.)*)"\}', block.group(2)):
            # The generator writes "?\?" for "??" (no trigraphs in the C++ source).
            out.append((block.group(1), m.group(1).replace("\\?", "?"), m.group(2)))
    return out


def values(char, n, seed, name):
    """Random and special test values of type `char` for ufunc `name` (the first ones are edge cases)."""
    rng = numpy.random.default_rng(seed)
    dt = numpy.dtype(char)
    if dt.kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    if dt.kind in "iu":
        info = numpy.iinfo(dt)
        if name in ("left_shift", "right_shift"):
            v = rng.integers(0, dt.itemsize * 8 + 2, n, endpoint=True).astype(dt)
            if dt.kind == "i" and seed == 2:
                v[:3] = [-1, 0, dt.itemsize * 8]
            return v
        if name in ("power",):
            return rng.integers(0, 6, n).astype(dt)
        lo, hi = max(info.min, -100), min(info.max, 100)
        v = rng.integers(lo, hi, n, endpoint=True).astype(dt)
        if n >= 4:
            v[:4] = [info.min, info.max, 0, 1]
        return v
    real = rng.standard_normal(n) * 3
    if name in ("arccosh",):
        real = numpy.abs(real) + 1
    if name in ("arcsin", "arccos", "arctanh"):
        real = numpy.clip(real / 4, -0.99, 0.99)
    special = numpy.array([0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, 1.0, -1.0, 0.5])
    # Each input's specials sit at other positions, so that a NaN or inf meets ordinary values of the other
    # operand (maximum(x, nan) and maximum(nan, x) are different code paths).
    special = numpy.roll(special, 3 * (seed - 1))
    if dt.kind == "c":
        v = real + 1j * rng.standard_normal(n)
    else:
        v = real
    v[: len(special)] = special[: min(n, len(special))]
    return v.astype(dt)


def expected(name, inputs):
    """NumPy's result (a tuple of arrays), warnings silenced."""
    with warnings.catch_warnings(), numpy.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        r = getattr(numpy, name)(*inputs)
    return r if isinstance(r, tuple) else (r,)


def tolerance(dt, name):
    dt = numpy.dtype(dt)
    if dt.kind in "biu":
        return 0, 0
    eps = numpy.finfo(dt).eps
    factor = 8 if name in TRANSCENDENTAL else 2
    if dt.kind == "c" and name in ("power", "float_power"):
        factor = 64  # exp(w log z): the error grows with |w log z| in NumPy's libm and ours alike
    tiny = numpy.finfo(dt).tiny
    return factor * eps, factor * tiny


def compare(name, got, want):
    """Assert `got` (a NumPy array) equals NumPy's `want` within the loop's tolerance; same dtype and shape."""
    assert got.dtype == want.dtype, (name, got.dtype, want.dtype)
    assert got.shape == want.shape, (name, got.shape, want.shape)
    rtol, atol = tolerance(want.dtype, name)
    if want.dtype.kind in "biu":
        numpy.testing.assert_array_equal(got, want, err_msg=name)
    elif want.dtype.kind == "c":
        _compare_complex(name, got, want, rtol, atol)
    else:
        with numpy.errstate(all="ignore"):
            numpy.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True, err_msg=name)


def _compare_complex(name, got, want, rtol, atol):
    """Complex results: NaN where NumPy has NaN (in either part), infinities equal per part, finite parts
    within rtol of the result's magnitude (an error relative to |z|, as ulp errors of complex functions are)."""
    got, want = got.ravel(), want.ravel()
    nan_g, nan_w = numpy.isnan(got), numpy.isnan(want)
    bad = nan_g != nan_w
    with numpy.errstate(all="ignore"):
        mag = numpy.abs(want.astype(numpy.complex128))
        for part in ("real", "imag"):
            g = getattr(got, part).astype(numpy.float64)
            w = getattr(want, part).astype(numpy.float64)
            inf = numpy.isinf(g) | numpy.isinf(w)
            bad |= ~nan_w & inf & (g != w)
            fin = ~nan_w & ~inf
            scale = numpy.where(numpy.isfinite(mag), mag, numpy.abs(w))  # the other part infinite
            bad |= fin & ~(numpy.abs(g - w) <= rtol * scale + atol)
    if bad.any():
        idx = numpy.flatnonzero(bad)[:8]
        raise AssertionError(f"{name}: {bad.sum()} of {bad.size} complex results differ from NumPy's; "
                             f"at {idx.tolist()}: got {got[idx].tolist()}, want {want[idx].tolist()}")
