"""clip, real/imag, angle, iscomplex/isreal, nan_to_num, round, fix, sinc, i0, where and copyto against NumPy.

CPU tests compile every kernel variant with NVRTC and run the kernels' device functions on the host (g++)
against NumPy; GPU tests compare the functions themselves over dtypes, layouts, scalars and errors.
"""
import ctypes
import pathlib
import shutil
import subprocess
import warnings

import numpy
import pytest

import cuarray as cp
from cuarray import testing

gpu = pytest.mark.gpu

ROOT = pathlib.Path(__file__).resolve().parents[2]
HEADERS = ROOT / "src" / "engine" / "device"
INF, NAN = numpy.inf, numpy.nan

# The dtypes of the tests (all fourteen where cheap; int16/uint16/uint32 behave as their neighbours).
DTYPES = [numpy.dtype(t) for t in ("bool", "int8", "uint8", "int32", "int64", "uint64", "float16", "float32",
                                   "float64", "complex64", "complex128")]
REAL_DTYPES = [d for d in DTYPES if d.kind != "c"]
FLOATS = [numpy.dtype(t) for t in ("float16", "float32", "float64")]
INEXACT = FLOATS + [numpy.dtype(numpy.complex64), numpy.dtype(numpy.complex128)]
INTS = [d for d in DTYPES if d.kind in "iu"]
CTYPE = {"?": "bool", "b": "signed char", "h": "short", "i": "int", "l": "long long", "q": "long long",
         "B": "unsigned char", "H": "unsigned short", "I": "unsigned int", "L": "unsigned long long",
         "Q": "unsigned long long", "e": "ca_half", "f": "float", "d": "double", "F": "ca_complex64",
         "D": "ca_complex128"}
REAL_PART = {"F": "f", "D": "d"}


def _values(dtype, n=24, seed=0):
    """Random values of `dtype` with the edge cases first (extremes; 0, -0, inf, nan and halves for floats)."""
    dt = numpy.dtype(dtype)
    rng = numpy.random.default_rng(seed)
    if dt.kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    if dt.kind in "iu":
        info = numpy.iinfo(dt)
        v = rng.integers(max(info.min, -50), min(info.max, 50), n, endpoint=True).astype(dt)
        v[:2] = [info.min, info.max]
        return v
    special = numpy.array([0.0, -0.0, INF, -INF, NAN, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, -1.0])
    re = rng.standard_normal(n) * 4
    re[: len(special)] = special[:n]
    if dt.kind == "c":
        im = rng.standard_normal(n) * 4
        im[: len(special)] = numpy.roll(special, 3)[:n]
        v = numpy.empty(n, dtype=dt)  # built by parts: 1j * inf would be nan + inf j
        v.real, v.imag = re, im
        return v
    return re.astype(dt)


def _finite(dtype, n=24, seed=0, scale=4.0):
    """Random finite values of `dtype` (integers well inside the dtype's range)."""
    dt = numpy.dtype(dtype)
    rng = numpy.random.default_rng(seed)
    if dt.kind == "b":
        return _values(dt, n, seed)
    if dt.kind in "iu":
        top = min(int(scale) * 10, 100)
        return rng.integers(0 if dt.kind == "u" else -top, top, n, endpoint=True).astype(dt)
    v = rng.standard_normal(n) * scale
    if dt.kind == "c":
        v = v + 1j * (rng.standard_normal(n) * scale)
    return v.astype(dt)


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings(), numpy.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


# -- CPU: every kernel variant compiles with NVRTC ---------------------------------------------------------

_ALL = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
        "float64", "complex64", "complex128"]
_REAL_OF = {"complex64": "float32", "complex128": "float64"}


def _variants():
    """(name, body, preamble, input types, input kinds, output types) of each kernel and dtype cuarray emits."""
    out = []
    for name, types, body, pre in cp._core._elementwise_funcs_kernels():
        if name in ("clip", "clip_array_bounds"):
            t = numpy.dtype(types[0]).name
            out.append((name, body, pre, [t] * 3, ["array"] * 3, [t]))
            if name == "clip":
                out.append((name, body, pre, [t] * 3, ["array", "scalar", "scalar"], [t]))
        elif name in ("around", "nan_to_num"):
            nscal = 1 if name == "around" else 3
            for t in ["float16", "float32", "float64", "complex64", "complex128"]:
                r = _REAL_OF.get(t, t)
                out.append((name, body, pre, [t] + [r] * nscal, ["array"] + ["scalar"] * nscal, [t]))
        elif name == "sinc":
            for t in ["float16", "float32", "float64", "complex64", "complex128"]:
                out.append((name, body, pre, [t], ["array"], [t]))
        elif name == "i0":
            out.append((name, body, pre, ["float64"], ["array"], ["float64"]))
        elif name == "where":
            for t in _ALL:
                out.append((name, body, pre, ["bool", t, t], ["array", "array", "array"], [t]))
                out.append((name, body, pre, ["bool", t, t], ["scalar", "array", "scalar"], [t]))
        elif name == "copyto":
            for t in _ALL:
                out.append((name, body, pre, [t], ["array"], [t]))
                out.append((name, body, pre, [t], ["scalar"], [t]))
        else:
            raise AssertionError("a kernel this test does not know: " + name)
    return out


VARIANTS = _variants()


@pytest.fixture(scope="module")
def nvrtc():
    src = cp._core.elementwise_source("probe", "out0 = in0;", "", "", "", False, ["float32"], ["array"],
                                      ["float32"], [False], 0, False, True)
    try:
        cp._core.nvrtc_compile(src, "probe.cu", 90, [])
    except Exception as e:  # no NVRTC library here: nothing to compile with
        if type(e).__name__ == "CompileException":
            raise
        pytest.skip("NVRTC unavailable: {}".format(e))


@pytest.mark.parametrize("k", range(len(VARIANTS)),
                         ids=["{}-{}-{}".format(v[0], "-".join(v[3]), "".join(x[0] for x in v[4])) for v in VARIANTS])
def test_kernel_variant_compiles(nvrtc, k):
    name, body, pre, in_types, in_kinds, out_types = VARIANTS[k]
    # The flat vectorised loop and a strided 2-D loop (64-bit indexing for where, whose masks can be large).
    for ndim, index64, vec in [(0, False, "array" in in_kinds), (2, name == "where", False)]:
        src = cp._core.elementwise_source(name, body, pre, "", "", False, in_types, in_kinds, out_types,
                                          [False] * len(out_types), ndim, index64, vec)
        assert cp._core.nvrtc_compile(src, name + ".cu", 90, []) > 0


# -- CPU: the kernels' device functions on the host, against NumPy ------------------------------------------

_KERNELS = cp._core._elementwise_funcs_kernels()
_PREAMBLE = [p for n, t, b, p in _KERNELS if n == "sinc"][0]


def _host_function(fname, body, in_ops, out_op):
    """C++ source of extern "C" fname(inputs..., output, n): loads, the body, the store, as the engine does.

    in_ops: (storage char, compute char, "array" | "scalar"); out_op: (storage char, compute char).
    """
    params, loads = [], []
    for j, (st, ct, kind) in enumerate(in_ops):
        params.append("const void* p{}".format(j))
        if kind == "scalar":
            loads.append("{c} in{j} = ca_load<{c}>(p{j});".format(c=CTYPE[ct], j=j))
        else:
            loads.append("{c} in{j} = ca_cast<{c}>(ca_load<{s}>((const char*)p{j} + i * sizeof({s})));".format(
                c=CTYPE[ct], s=CTYPE[st], j=j))
    st, ct = out_op
    return ('extern "C" void {f}({params}, void* po, long long n) {{ for (long long i = 0; i < n; ++i) {{ '
            '{loads} {c} out0; {{ {body} }} ca_store<{s}>((char*)po + i * sizeof({s}), ca_cast<{s}>(out0)); }} }}'
            ).format(f=fname, params=", ".join(params), loads=" ".join(loads), c=CTYPE[ct], s=CTYPE[st], body=body)


# Host functions: name -> (kernel key, inputs, output).
_HOST = {}
for _c in "efdFD":
    for _dir in ("up", "down"):
        _HOST["round_{}_{}".format(_dir, _c)] = (("around", "round_" + _dir), [(_c, _c, "array"),
                                                 (REAL_PART.get(_c, _c), REAL_PART.get(_c, _c), "scalar")], (_c, _c))
    _HOST["sinc_" + _c] = (("sinc", ""), [(_c, _c, "array")], (_c, _c))
    _r = REAL_PART.get(_c, _c)
    _HOST["nan_to_num_" + _c] = (("nan_to_num", ""), [(_c, _c, "array")] + [(_r, _r, "scalar")] * 3, (_c, _c))
for _c in "bBilL":
    _HOST["round_down_" + _c] = (("around", "round_down"), [(_c, "d", "array"), ("d", "d", "scalar")], (_c, "d"))
for _c in "bBiLefd":
    _HOST["i0_" + _c] = (("i0", ""), [(_c, "d", "array")], ("d" if _c in "bBiL" else _c, "d"))
for _c in "?bBilLefdFD":
    _n = numpy.dtype(_c).name
    _HOST["clip_array_bounds_" + _n] = (("clip_array_bounds", _c * 3 + "->" + _c), [(_c, _c, "array")] * 3, (_c, _c))
    _HOST["clip_" + _n] = (("clip", _c * 3 + "->" + _c), [(_c, _c, "array")] + [(_c, _c, "scalar")] * 2, (_c, _c))


def _kernel_body(key):
    name, tag = key
    for n, t, b, p in _KERNELS:
        if n == name and (t == tag if name.startswith("clip") else (not tag or ("ca_ewf_" + tag + "(") in b)):
            return b
    raise AssertionError("no kernel {}".format(key))


@pytest.fixture(scope="module")
def host_lib(tmp_path_factory):
    cxx = shutil.which("g++") or shutil.which("c++")
    if not cxx:
        pytest.skip("no host C++ compiler")
    lines = ['#include "ca_ufuncs.cuh"', _PREAMBLE]
    for fname, (key, ins, out) in _HOST.items():
        body = _kernel_body(key)
        lines.append(_host_function(fname, body, ins, out))
    d = tmp_path_factory.mktemp("ewf_host")
    src, lib = d / "ewf.cpp", d / "ewf.so"
    src.write_text("\n".join(lines) + "\n")
    r = subprocess.run([cxx, "-std=c++17", "-O1", "-fPIC", "-shared", "-fno-fast-math", "-ffp-contract=off",
                        "-I{}".format(HEADERS), str(src), "-o", str(lib)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-5000:]
    return ctypes.CDLL(str(lib))


def _run_host(lib, fname, out_dtype, *operands):
    """Call a host function on contiguous NumPy arrays and 0-d scalars (passed by address)."""
    ops = [numpy.ascontiguousarray(o) for o in operands]
    n = max(o.size for o in ops)
    out = numpy.empty(n, dtype=out_dtype)
    getattr(lib, fname)(*[ctypes.c_void_p(o.ctypes.data) for o in ops], ctypes.c_void_p(out.ctypes.data),
                        ctypes.c_longlong(n))
    return out


@pytest.mark.parametrize("decimals", [-3, -1, 1, 2, 3, 5, 30])
@pytest.mark.parametrize("dtype", INEXACT, ids=str)
def test_host_round_matches_numpy_exactly(host_lib, dtype, decimals):
    x = numpy.concatenate([_values(dtype, 64), (_finite(dtype, 64, 1) * 10.0 ** -decimals).astype(dtype),
                           numpy.array([0.125, 0.375, 2.675, 1.005, -0.045, 12345.5], dtype=dtype)])
    rt = x.real.dtype
    p = 1.0
    for _ in range(abs(decimals)):  # as the C++ side builds 10^decimals
        p *= 10.0
    f = _quiet(numpy.array(p).astype, rt)
    direction = "up" if decimals >= 0 else "down"
    got = _run_host(host_lib, "round_{}_{}".format(direction, dtype.char), dtype, x, f)
    want = _quiet(numpy.round, x, decimals)
    numpy.testing.assert_array_equal(got, want)
    numpy.testing.assert_array_equal(numpy.signbit(got.real), numpy.signbit(want.real))


@pytest.mark.parametrize("decimals", [-1, -2, -4])
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "int64", "uint64"])
def test_host_round_of_integers_matches_numpy(host_lib, dtype, decimals):
    dt = numpy.dtype(dtype)
    x = numpy.concatenate([_values(dt, 64), numpy.array([5, 15, 25, 35, 45, 55, 125, 105, 0, 1], dtype=dt)])
    if dt.itemsize >= 4:
        x = numpy.concatenate([x, numpy.array([12345, 99950, 250, 150050, 2 ** 31 - 1], dtype=dt)])
    f = numpy.array(10.0 ** -decimals)
    got = _run_host(host_lib, "round_down_" + dt.char, dt, x, f)
    numpy.testing.assert_array_equal(got, _quiet(numpy.round, x, decimals))


@pytest.mark.parametrize("dtype", INEXACT, ids=str)
def test_host_sinc_matches_numpy(host_lib, dtype):
    x = numpy.concatenate([_values(dtype, 64), _finite(dtype, 64, 2, scale=0.3),
                           numpy.array([1, 2, -3, 0.25, 1e-30], dtype=dtype)])
    if dtype.kind == "c":
        x = x[numpy.isfinite(x)]  # complex sin of infinite parts is C99's business, not sinc's
    got = _run_host(host_lib, "sinc_" + dtype.char, dtype, x)
    want = _quiet(numpy.sinc, x)
    eps = numpy.finfo(dtype).eps
    numpy.testing.assert_allclose(got, want, rtol=8 * eps, atol=8 * eps, equal_nan=True)


@pytest.mark.parametrize("dtype", ["float64", "int32", "uint64", "int8", "float32", "float16"])
def test_host_i0_matches_numpy(host_lib, dtype):
    dt = numpy.dtype(dtype)
    rng = numpy.random.default_rng(3)
    if dt.kind == "f":
        top = {"e": 10, "f": 85, "d": 700}[dt.char]  # where NumPy's float16/float32 exp does not overflow yet
        x = numpy.concatenate([[0.0, -0.0, NAN, INF, -INF, 1e-300, 8.0, 20.0, -20.0, 20.000000000000004],
                               rng.uniform(-top, top, 300), rng.uniform(-min(top, 25), min(top, 25), 300)]).astype(dt)
    else:
        x = _values(dt, 64)
    got = _run_host(host_lib, "i0_" + dt.char, dt if dt.kind == "f" else numpy.float64, x)
    want = _quiet(numpy.i0, x)
    rtol = {"e": 5e-3, "f": 2e-6}.get(dt.char, 1e-14)
    numpy.testing.assert_allclose(got, want, rtol=rtol, equal_nan=True)


def test_host_i0_is_within_two_ulp(host_lib):
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 40
    x = numpy.concatenate([numpy.linspace(0, 40, 161), numpy.linspace(40, 700, 67), [1e-8, 0.3, 19.99, 20.01]])
    got = _run_host(host_lib, "i0_d", numpy.float64, x)
    for xi, g in zip(x, got):
        ref = mpmath.besseli(0, mpmath.mpf(float(xi)))
        ulps = abs(mpmath.mpf(float(g)) - ref) / numpy.spacing(float(ref))
        assert ulps <= 2, (xi, float(g), ulps)


@pytest.mark.parametrize("dtype", INEXACT, ids=str)
def test_host_nan_to_num_matches_numpy(host_lib, dtype):
    x = _values(dtype, 64)
    rt = x.real.dtype
    for nan, posinf, neginf in [(0.0, None, None), (-7.5, 1e5, -3.0), (1.0, 1e300, -1e300)]:
        big = numpy.finfo(rt).max
        vals = [_quiet(numpy.array(v, dtype=numpy.float64).astype, rt)
                for v in (nan, big if posinf is None else posinf, -big if neginf is None else neginf)]
        got = _run_host(host_lib, "nan_to_num_" + dtype.char, dtype, x, *vals)
        want = _quiet(numpy.nan_to_num, x, nan=nan, posinf=posinf, neginf=neginf)
        numpy.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", [d for d in DTYPES], ids=str)
def test_host_clip_matches_numpy(host_lib, dtype):
    x = _values(dtype, 97)
    lo = numpy.roll(_values(dtype, 97, 1), 5)
    hi = numpy.roll(_values(dtype, 97, 2), 11)
    if dtype.kind in "fc":
        lo[:6] = numpy.array([0.0, -0.0, NAN, 1.0, -INF, 2.0]).astype(dtype)
        hi[:6] = numpy.array([0.0, 0.0, 1.0, NAN, INF, -2.0]).astype(dtype)
    got = _run_host(host_lib, "clip_array_bounds_" + dtype.name, dtype, x, lo, hi)
    want = _quiet(numpy.clip, x, lo, hi)
    if dtype.kind == "c":  # which NaN of a complex operand NumPy keeps is not specified: compare the others
        keep = ~(numpy.isnan(x) | numpy.isnan(lo) | numpy.isnan(hi))
        got, want = got[keep], want[keep]
    numpy.testing.assert_array_equal(got, want)
    if dtype.kind == "f":
        numpy.testing.assert_array_equal(numpy.signbit(got), numpy.signbit(want))


@pytest.mark.parametrize("dtype", [d for d in DTYPES], ids=str)
def test_host_clip_with_scalar_bounds_matches_numpy(host_lib, dtype):
    x = _values(dtype, 97)
    specials = [(0.0, 1.0), (-0.0, 0.0), (0.0, -0.0), (-1.0, -0.0), (NAN, 1.0), (0.0, NAN), (2.0, -2.0)]
    for lo, hi in (specials if dtype.kind in "fc" else [(2, 5), (5, 2), (0, 1)]):
        lo_a, hi_a = numpy.array(lo).astype(dtype), numpy.array(hi).astype(dtype)
        got = _run_host(host_lib, "clip_" + dtype.name, dtype, x, lo_a, hi_a)
        want = _quiet(numpy.clip, x, lo_a[()], hi_a[()])
        if dtype.kind == "c":
            keep = ~numpy.isnan(want)
            got, want = got[keep], want[keep]
        numpy.testing.assert_array_equal(got, want)
        if dtype.kind == "f":
            numpy.testing.assert_array_equal(numpy.signbit(got), numpy.signbit(want), err_msg=str((lo, hi)))


# -- CPU: bindings that need no device ------------------------------------------------------------------------


@pytest.mark.parametrize("obj,want", [(3, False), (1j, True), ([1, 2j], True), (numpy.complex64(1), True),
                                      (numpy.zeros(2), False), (numpy.zeros(2, numpy.complex128), True)])
def test_iscomplexobj_of_host_objects(obj, want):
    assert cp.iscomplexobj(obj) is want
    assert cp.isrealobj(obj) is (not want)


def test_clip_missing_bound_raises_type_error():
    with pytest.raises(TypeError):
        cp.clip(1.0, 0.0)
    with pytest.raises(TypeError):
        cp.clip(1.0, a_max=2.0)
    with pytest.raises(ValueError):
        cp.clip(1.0, 0.0, 2.0, min=1.0)


def test_where_with_two_arguments_raises_value_error():
    with pytest.raises(ValueError):
        cp.where(True, 1)


def test_functions_are_exported():
    for name in ("clip", "real", "imag", "angle", "iscomplex", "isreal", "iscomplexobj", "isrealobj", "nan_to_num",
                 "around", "round", "fix", "sinc", "i0", "where", "copyto"):
        assert callable(getattr(cp, name)), name
    for name in ("clip", "round", "conj", "conjugate"):
        assert callable(getattr(cp.ndarray, name)), name
    assert isinstance(cp.ndarray.real, property) and isinstance(cp.ndarray.imag, property)


# -- GPU: clip -------------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@testing.numpy_cuarray_equal()
def test_clip_with_python_scalar_bounds(xp, dtype):
    a = xp.asarray(_values(dtype, 40))
    return xp.clip(a, 2, 5), xp.clip(a, -3, 3), xp.clip(a, 5, 2)


@gpu
@pytest.mark.parametrize("dtype", [d for d in DTYPES if d.kind != "b"], ids=str)
@testing.numpy_cuarray_equal()
def test_clip_with_array_bounds_broadcasts(xp, dtype):
    a = xp.asarray(_values(dtype, 24).reshape(4, 6))
    lo = xp.asarray(_values(dtype, 6, 1))
    hi = xp.asarray(_values(dtype, 4, 2).reshape(4, 1))
    r = xp.clip(a, lo, hi)
    if dtype.kind == "c":  # which NaN a complex clip keeps is not NumPy-specified
        r = xp.where(xp.isnan(r), 0, r)
    return r


@gpu
@pytest.mark.parametrize("dtype", FLOATS, ids=str)
@testing.numpy_cuarray_equal()
def test_clip_propagates_nan_and_keeps_signed_zero(xp, dtype):
    a = xp.asarray(numpy.array([NAN, -0.0, 0.0, 1.0, -INF, INF, 3.0], dtype=dtype))
    r1 = xp.clip(a, 0.0, 1.0)
    r2 = xp.clip(a, -1.0, -0.0)
    return r1, xp.signbit(r1), xp.signbit(r2), xp.clip(a, NAN, 2.0), xp.clip(a, 0.0, NAN)


@gpu
@pytest.mark.parametrize("lo,hi", [(None, 3), (2, None), (None, None), (1.5, 3), (numpy.int64(-1), 3),
                                   (numpy.float32(1), numpy.float32(2)), (-1000, 1000), (-300, 2.5), (True, 5),
                                   (numpy.float64(0.5), 2), (1, numpy.int8(3))])
@pytest.mark.parametrize("dtype", ["int8", "uint8", "float32", "int64"])
@testing.numpy_cuarray_equal()
def test_clip_bound_types_follow_nep50(xp, dtype, lo, hi):
    a = xp.asarray(_values(dtype, 16))
    return xp.clip(a, lo, hi)


@gpu
@pytest.mark.parametrize("lo,hi", [(0, 2 ** 70), (-(2 ** 70), 3), (-(2 ** 70), 2 ** 70)])
@pytest.mark.parametrize("dtype", ["int8", "uint64", "int64"])
@testing.numpy_cuarray_equal()
def test_clip_drops_python_int_bounds_of_any_size(xp, dtype, lo, hi):
    a = xp.asarray(_values(dtype, 16))
    return xp.clip(a, lo, hi)


@gpu
@testing.numpy_cuarray_equal(accept_error=(OverflowError, TypeError))
def test_clip_python_int_out_of_range_lower_bound_raises(xp):
    return xp.clip(xp.asarray(numpy.arange(5, dtype=numpy.int8)), 300, 400)


@gpu
@testing.numpy_cuarray_equal(accept_error=TypeError)
def test_clip_of_bool_without_bounds_raises(xp):
    return xp.clip(xp.asarray(numpy.array([True, False])), None, None)


@gpu
@pytest.mark.parametrize("shape", [(), (0,), (1,), (3, 0, 2), (5, 7)])
@testing.numpy_cuarray_equal()
def test_clip_shapes(xp, shape):
    a = xp.asarray(testing.shaped_arange(shape, numpy, numpy.float64) - 3)
    return xp.clip(a, -1.5, 2.5)


@gpu
@testing.numpy_cuarray_equal()
def test_clip_noncontiguous_and_negative_strides(xp):
    a = xp.asarray(testing.shaped_arange((6, 8), numpy, numpy.int32))
    return xp.clip(a[::2, ::-3], 5, 30), xp.clip(a.T, 10, 20)


@gpu
@testing.numpy_cuarray_equal()
def test_clip_out_and_method(xp):
    a = xp.asarray(testing.shaped_arange((3, 4), numpy, numpy.float64))
    out = xp.zeros((3, 4), dtype=numpy.float32)
    r = xp.clip(a, 2, 9, out=out)
    assert r is out
    b = xp.asarray(numpy.arange(6, dtype=numpy.int16))
    return out, a.clip(3, 7), a.clip(max=4), a.clip(min=5), b.clip(), b.clip(2)


@gpu
@testing.numpy_cuarray_equal(accept_error=TypeError)
def test_clip_out_with_unsafe_cast_raises(xp):
    a = xp.asarray(numpy.arange(5.0))
    return xp.clip(a, 1, 2, out=xp.zeros(5, dtype=numpy.int64))


@gpu
@testing.numpy_cuarray_equal(accept_error=ValueError)
def test_clip_out_of_wrong_shape_raises(xp):
    a = xp.asarray(numpy.arange(5.0))
    return xp.clip(a, 1, 2, out=xp.zeros(4))


@gpu
def test_clip_in_place_through_out():
    a = cp.asarray(numpy.arange(10, dtype=numpy.int32))
    cp.clip(a, 2, 6, out=a)
    numpy.testing.assert_array_equal(a.get(), numpy.clip(numpy.arange(10), 2, 6))


# -- GPU: real, imag, conj ------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@testing.numpy_cuarray_equal(strides_check=True)
def test_real_and_imag_values_and_strides(xp, dtype):
    a = xp.asarray(_values(dtype, 24).reshape(4, 6))
    return a.real, a.imag, xp.real(a), xp.imag(a), a[::2, ::-3].real, a[::2, ::-3].imag, a.T.imag


@gpu
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@testing.numpy_cuarray_equal()
def test_real_and_imag_of_complex_are_writable_views(xp, dtype):
    a = xp.asarray(_finite(dtype, 12).reshape(3, 4))
    r, i = a.real, a.imag
    r[0] = 7
    i[:, 1] = -2
    a.real[2, ::2] = xp.asarray(numpy.array([1.5, 2.5]))
    a.imag[...] = a.imag * 2
    b = xp.asarray(_finite(dtype, 12, 1).reshape(3, 4))
    b.real = 3
    b.imag = xp.asarray(numpy.arange(4.0))
    return a, b, r, i


@gpu
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "bool"])
@testing.numpy_cuarray_equal()
def test_real_of_real_array_is_the_array(xp, dtype):
    a = xp.asarray(_values(dtype, 6))
    same = a.real is a and xp.real(a) is a
    a.real = 1
    return same, a, a.imag


@gpu
@testing.numpy_cuarray_equal(accept_error=TypeError)
def test_setting_imag_of_real_array_raises(xp):
    a = xp.asarray(numpy.arange(3.0))
    a.imag = 1.0


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@testing.numpy_cuarray_equal()
def test_conj_and_conjugate_methods(xp, dtype):
    a = xp.asarray(_values(dtype, 12))
    same = a.conj() is a
    return a.conj(), a.conjugate(), same, a.conjugate() is a


@gpu
@testing.numpy_cuarray_equal()
def test_real_imag_of_zero_d_and_empty(xp):
    z = xp.asarray(numpy.array(3 - 4j))
    e = xp.asarray(numpy.zeros((0, 3), numpy.complex64))
    return z.real, z.imag, e.real, e.imag, xp.real(xp.asarray(numpy.float16(2)))


# -- GPU: angle, iscomplex, isreal ----------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("deg", [False, True])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_angle(dtype, deg):
    x = _values(dtype, 40)
    want = _quiet(numpy.angle, x, deg=deg)
    got = cp.angle(cp.asarray(x), deg=deg)
    assert got.dtype == want.dtype
    rtol = {numpy.float16: 2e-3, numpy.float32: 1e-6}.get(want.dtype.type, 1e-14)
    numpy.testing.assert_allclose(got.get(), want, rtol=rtol, atol=rtol, equal_nan=True)


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@testing.numpy_cuarray_equal()
def test_iscomplex_and_isreal(xp, dtype):
    x = _values(dtype, 24)
    if x.dtype.kind == "c":
        x[::3] = x[::3].real  # some complex values with zero imaginary parts
    a = xp.asarray(x.reshape(4, 6))
    return xp.iscomplex(a), xp.isreal(a), xp.iscomplex(a[::-1, ::2]), xp.isreal(a.T)


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@testing.numpy_cuarray_equal()
def test_iscomplexobj_and_isrealobj(xp, dtype):
    a = xp.asarray(_values(dtype, 3))
    return xp.iscomplexobj(a), xp.isrealobj(a)


@gpu
@testing.numpy_cuarray_equal()
def test_iscomplex_of_zero_d(xp):
    return xp.iscomplex(xp.asarray(numpy.array(1 + 1j))), xp.isreal(xp.asarray(numpy.array(2.0)))


# -- GPU: nan_to_num ----------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("kwargs", [{}, {"nan": -1.5}, {"nan": 7, "posinf": 1e4, "neginf": -1e4},
                                    {"posinf": 1e300, "neginf": numpy.float64(-2)}, {"nan": True}])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@testing.numpy_cuarray_equal()
def test_nan_to_num(xp, dtype, kwargs):
    a = xp.asarray(_values(dtype, 30).reshape(5, 6))
    return _quiet(xp.nan_to_num, a, **kwargs), _quiet(xp.nan_to_num, a[::-2, 1::2], **kwargs)


@gpu
@pytest.mark.parametrize("dtype", ["float32", "complex128", "int32"])
@testing.numpy_cuarray_equal()
def test_nan_to_num_in_place(xp, dtype):
    a = xp.asarray(_values(dtype, 12))
    r = xp.nan_to_num(a, copy=False)
    c = xp.asarray(_values(dtype, 12))
    r2 = xp.nan_to_num(c)
    return r is a, a, r2 is c, c


@gpu
@testing.numpy_cuarray_equal(accept_error=TypeError)
def test_nan_to_num_complex_replacement_raises(xp):
    return xp.nan_to_num(xp.asarray(numpy.array([NAN])), nan=1j)


@gpu
@testing.numpy_cuarray_equal()
def test_nan_to_num_zero_d_and_empty(xp):
    return xp.nan_to_num(xp.asarray(numpy.array(-INF))), xp.nan_to_num(xp.asarray(numpy.zeros((2, 0))))


# -- GPU: round, around, fix ------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("decimals", [-2, -1, 0, 1, 2, 3])
@pytest.mark.parametrize("dtype", [d for d in DTYPES if d.kind != "b"], ids=str)
@testing.numpy_cuarray_equal()
def test_round_values_and_ties_to_even(xp, dtype, decimals):
    x = _values(dtype, 48)
    if dtype.kind in "fc":
        x[-8:] = numpy.array([0.125, 0.375, 2.675, -0.045, 12.5, 25.0, 150.0, -250.0], dtype=dtype)
    a = xp.asarray(x)
    r = _quiet(xp.round, a, decimals)
    if dtype.kind == "f":
        return r, xp.signbit(r)
    return r


@gpu
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int32", "complex64"])
@testing.numpy_cuarray_equal()
def test_round_aliases_method_and_layouts(xp, dtype):
    a = xp.asarray(_finite(dtype, 48, scale=100).reshape(6, 8))
    return (xp.around(a, 1), a.round(-1), a.round(), xp.round(a[::-2, 1::3], 2), xp.round(a.T, -1),
            xp.round(xp.asarray(_finite(dtype, 1)).reshape(()), 1))


@gpu
@pytest.mark.parametrize("decimals", [0, 1])
@testing.numpy_cuarray_equal(accept_error=TypeError)
def test_round_of_bool(xp, decimals):
    return xp.round(xp.asarray(numpy.array([True, False])), decimals)


@gpu
@pytest.mark.parametrize("src,dst,decimals", [("float32", "float64", 1), ("float64", "float32", 2),
                                              ("float64", "float64", 0),
                                              ("int32", "float32", -1), ("int32", "int8", 0), ("int16", "float64", 2),
                                              ("float16", "float32", 2), ("complex64", "complex128", 1),
                                              ("float32", "complex64", 1), ("float64", "int64", 0),
                                              ("float64", "int64", 1), ("int32", "bool", 0), ("int32", "int8", -1),
                                              ("complex128", "float64", 1)])
@testing.numpy_cuarray_equal(accept_error=TypeError)
def test_round_out(xp, src, dst, decimals):
    a = xp.asarray(_finite(src, 12, scale=50).reshape(3, 4))
    out = xp.zeros((3, 4), dtype=dst)
    r = xp.round(a, decimals, out=out)
    assert r is out
    return out


@gpu
@testing.numpy_cuarray_equal(accept_error=ValueError)
def test_round_out_of_wrong_size_raises(xp):
    return xp.round(xp.asarray(numpy.arange(4.0)), 1, out=xp.zeros(5))


@gpu
@pytest.mark.parametrize("dtype", [d for d in DTYPES], ids=str)
@testing.numpy_cuarray_equal(accept_error=TypeError)
def test_fix(xp, dtype):
    a = xp.asarray(_values(dtype, 24).reshape(4, 6))
    r = _quiet(xp.fix, a)  # NumPy 2.5 deprecates fix in favour of trunc
    out = xp.zeros((4, 6), dtype=numpy.float64)
    _quiet(xp.fix, a[:, ::-1], out=out)
    if dtype.kind == "f":
        return r, xp.signbit(r), out
    return r, out


# -- GPU: sinc, i0 --------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_sinc(dtype):
    x = numpy.concatenate([_values(dtype, 32), _finite(dtype, 32, 1, scale=2)])
    if dtype.kind == "c":
        x = x[numpy.isfinite(x)]  # complex sin of infinite parts follows C99, not checked here
    want = _quiet(numpy.sinc, x)
    got = cp.sinc(cp.asarray(x))
    assert got.dtype == want.dtype and got.shape == want.shape
    tol = {"e": 2e-3, "f": 2e-6, "F": 1e-5}.get(want.dtype.char, 1e-13)
    numpy.testing.assert_allclose(got.get(), want, rtol=tol, atol=tol, equal_nan=True)


@gpu
@testing.numpy_cuarray_allclose(rtol=1e-13, atol=1e-15)
def test_sinc_at_zero_is_one_and_keeps_layout(xp):
    a = xp.asarray(numpy.array([[0.0, -0.0, 0.5], [1.0, -2.0, 1e-300]]))
    return xp.sinc(a), xp.sinc(a.T[::-1]), xp.sinc(xp.asarray(numpy.array(0.0)))


@gpu
@pytest.mark.parametrize("dtype", [d for d in DTYPES if d.kind != "c"], ids=str)
def test_i0(dtype):
    rng = numpy.random.default_rng(5)
    if dtype.kind == "f":
        # float16 and float32 stop short of where NumPy's own float16/float32 exp overflows before I0 does.
        top = {"e": 10, "f": 80, "d": 700}[dtype.char]
        x = numpy.concatenate([[0.0, -0.0, NAN, INF, -INF, 8.0, 20.0, -20.0, 1e-300],
                               rng.uniform(-top, top, 200), rng.uniform(-min(top, 25), min(top, 25), 200)])
        x = x.astype(dtype)
    else:
        x = _values(dtype, 40)
    want = _quiet(numpy.i0, x)
    got = cp.i0(cp.asarray(x))
    assert got.dtype == want.dtype
    rtol = {"e": 5e-3, "f": 2e-6}.get(want.dtype.char, 1e-14)
    numpy.testing.assert_allclose(got.get(), want, rtol=rtol, equal_nan=True)


@gpu
@testing.numpy_cuarray_allclose(rtol=1e-14)
def test_i0_layouts(xp):
    a = xp.asarray(numpy.linspace(-30, 30, 24).reshape(4, 6))
    return xp.i0(a[::-1, ::2]), xp.i0(a.T), xp.i0(xp.asarray(numpy.array(1.5))), xp.i0(xp.asarray(numpy.zeros(0)))


@gpu
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@testing.numpy_cuarray_equal(accept_error=TypeError)
def test_i0_of_complex_raises(xp, dtype):
    return xp.i0(xp.asarray(numpy.ones(3, dtype=dtype)))


# -- GPU: where ----------------------------------------------------------------------------------------------


@gpu
@testing.for_dtypes_combination(DTYPES, names=("xdtype", "ydtype"), full=False)
@testing.numpy_cuarray_equal()
def test_where_dtype_combinations(xp, xdtype, ydtype):
    c = xp.asarray(numpy.array([True, False, True, True, False, False]))
    x = xp.asarray(_finite(xdtype, 6, 1))
    y = xp.asarray(_finite(ydtype, 6, 2))
    return xp.where(c, x, y)


@gpu
@pytest.mark.parametrize("x,y", [(1, 2), (1, 2.5), ("i8", 100), ("f32", 1.0), (True, 1), (True, False), (1j, "f32"),
                                 (numpy.float64(1), "f32"), ("i8", "u8"), ("u8", 3), ("f16", 2), ("c64", 1.5),
                                 ("i8", 2.5), (numpy.int16(3), "i8"), (numpy.complex128(1j), "f32")])
@testing.numpy_cuarray_equal()
def test_where_with_scalars_follows_nep50(xp, x, y):
    arrays = {"i8": numpy.array([1, -2, 3], numpy.int8), "u8": numpy.array([1, 2, 3], numpy.uint8),
              "f32": numpy.array([0.5, 1.5, -2.5], numpy.float32), "f16": numpy.array([1, 2, 3], numpy.float16),
              "c64": numpy.array([1j, 2, 3 - 1j], numpy.complex64)}
    x = xp.asarray(arrays[x]) if isinstance(x, str) else x
    y = xp.asarray(arrays[y]) if isinstance(y, str) else y
    c = xp.asarray(numpy.array([True, False, True]))
    return xp.where(c, x, y)


# Note [where's Python ints]: NumPy 2.5's where converts a Python int to the result dtype as its ufuncs do
# (numpy#30803; 2.0 to 2.4 wrapped it), and one beyond 64 bits needs an inexact result. Stated here rather than
# compared, so that the test does not depend on the NumPy version installed.
@gpu
@pytest.mark.parametrize("x,y,want", [
    ("u8", 1000, OverflowError), (1000, "u8", OverflowError), ("u16", -1, OverflowError),
    (-(2 ** 63), "u32", OverflowError), (2 ** 64, 3, OverflowError), (2 ** 64, "i8", OverflowError),
    (2 ** 64, "u64", OverflowError), ("u8", 255, numpy.uint8), ("i8", -128, numpy.int8),
    (2 ** 64, float("inf"), numpy.float64), ("f32", 2 ** 64, numpy.float32), (-(2 ** 70), 1.5, numpy.float64),
    ("u64", 2 ** 64 - 1, numpy.uint64), (2 ** 63, 1, OverflowError), (300, 1.5, numpy.float64)], ids=str)
def test_where_python_ints_are_checked_against_the_result_dtype(x, y, want):
    arrays = {"u8": numpy.array([1, 2], numpy.uint8), "u16": numpy.array([1, 2], numpy.uint16),
              "u32": numpy.array([1, 2], numpy.uint32), "u64": numpy.array([1, 2], numpy.uint64),
              "i8": numpy.array([1, -2], numpy.int8), "f32": numpy.array([0.5, 1.5], numpy.float32)}
    host = {k: arrays[k] for k in (x, y) if isinstance(k, str)}
    xd = cp.asarray(host[x]) if isinstance(x, str) else x
    yd = cp.asarray(host[y]) if isinstance(y, str) else y
    c = cp.asarray(numpy.array([True, False]))
    if isinstance(want, type) and issubclass(want, Exception):
        with pytest.raises(want):
            cp.where(c, xd, yd)
        return
    got = cp.where(c, xd, yd)
    assert got.dtype == want
    xv = host[x] if isinstance(x, str) else numpy.full(2, x, dtype=want)
    yv = host[y] if isinstance(y, str) else numpy.full(2, y, dtype=want)
    numpy.testing.assert_array_equal(got.get(), numpy.where([True, False], xv, yv).astype(want))


@gpu
@pytest.mark.parametrize("cdtype", ["bool", "int8", "float64", "complex64", "float16"])
@testing.numpy_cuarray_equal()
def test_where_condition_truthiness(xp, cdtype):
    c = numpy.array([0, 1, -0.0, NAN, 2, 0] if cdtype != "complex64" else [0, 1j, 1, 0, complex(0, -0.0), NAN],
                    dtype=cdtype) if cdtype not in ("bool", "int8") else numpy.array([0, 1, 0, 3, 1, 0], dtype=cdtype)
    cond = xp.asarray(c)
    return xp.where(cond, 1.0, -1.0), xp.where(cond[::-1], xp.asarray(numpy.arange(6)), 7)


@gpu
@testing.numpy_cuarray_equal()
def test_where_broadcasting_layouts_and_shapes(xp):
    c = xp.asarray(numpy.array([[True], [False], [True]]))
    x = xp.asarray(numpy.arange(4.0))
    y = xp.asarray(numpy.arange(12.0).reshape(3, 4))
    z = xp.asarray(numpy.arange(24).reshape(4, 6))
    return (xp.where(c, x, y), xp.where(c, x, -1), xp.where(True, x, 0), xp.where(False, 1, 2),
            xp.where(z[:, ::2] > 10, z.T.T[::-1, ::2], z[:, ::2]),
            xp.where(xp.asarray(numpy.zeros((0, 3), bool)), 1, 2),
            xp.where(z[:, :3].T > 5, 1.5, z[:, :3].T))


@gpu
@testing.numpy_cuarray_equal(accept_error=ValueError)
def test_where_shapes_that_do_not_broadcast_raise(xp):
    return xp.where(xp.asarray(numpy.ones(3, bool)), xp.asarray(numpy.ones(2)), 1)


@gpu
def test_where_with_one_argument():
    c = cp.asarray(numpy.array([0, 1, 2]))
    if hasattr(cp, "nonzero"):
        got = cp.where(c)
        want = numpy.where(numpy.array([0, 1, 2]))
        assert len(got) == len(want)
        for g, w in zip(got, want):
            numpy.testing.assert_array_equal(g.get(), w)
    else:
        with pytest.raises(TypeError, match="nonzero"):
            cp.where(c)


# -- GPU: copyto ---------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
@testing.for_dtypes_combination(DTYPES, names=("src_dtype", "dst_dtype"), full=False)
@testing.numpy_cuarray_equal(accept_error=TypeError)
def test_copyto_casting_rules(xp, src_dtype, dst_dtype, casting):
    dst = xp.asarray(numpy.zeros((2, 3), dtype=dst_dtype))
    src = xp.asarray(_finite(src_dtype, 3, 1))
    _quiet(xp.copyto, dst, src, casting=casting)
    return dst


@gpu
@pytest.mark.parametrize("value", [100, 1000, -1, 1.5, 1e300, 1j, True, numpy.float64(1.5), numpy.int64(1000),
                                   numpy.int64(5), 2.5 + 0j, numpy.bool_(True)])
@pytest.mark.parametrize("dtype", ["int8", "uint8", "bool", "float16", "float32", "complex64"])
@testing.numpy_cuarray_equal(accept_error=(TypeError, OverflowError))
def test_copyto_python_and_numpy_scalars(xp, dtype, value):
    dst = xp.asarray(numpy.zeros(3, dtype=dtype))
    _quiet(xp.copyto, dst, value)
    return dst


# A Python int beyond 64 bits converts into a floating or complex destination as NumPy's copyto of a weak
# int does (beyond float64's range: int-to-float's OverflowError); into an integer or bool one it is NumPy's
# OverflowError.
@gpu
@pytest.mark.parametrize("value", [2 ** 70, -2 ** 70, 2 ** 64, 2 ** 200, 2 ** 1100],
                         ids=["2**70", "-2**70", "2**64", "2**200", "2**1100"])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128", "int64", "uint64",
                                   "bool"])
@pytest.mark.parametrize("casting", ["same_kind", "no", "unsafe"])
@testing.numpy_cuarray_equal(accept_error=OverflowError)
def test_copyto_python_int_beyond_64_bits(xp, dtype, value, casting):
    dst = xp.asarray(numpy.zeros(3, dtype=dtype))
    _quiet(xp.copyto, dst, value, casting=casting)
    return dst


@gpu
@pytest.mark.parametrize("value", ["x", "", "12", " 7 ", "300", "-1", "1.5", "1+2j", "nan", "1e60", b"0", b"",
                                   b"2.5", numpy.str_("3")])
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int64", "float16", "float32", "complex64"])
@testing.numpy_cuarray_equal(accept_error=True)
def test_copyto_str_and_bytes_sources(xp, dtype, value):
    # NumPy casts the text on the host: parsed into numbers (ValueError, OverflowError when it cannot), a
    # non-empty string is True.
    dst = xp.asarray(numpy.zeros(3, dtype=dtype))
    _quiet(xp.copyto, dst, value, casting="unsafe")
    return dst


@gpu
@pytest.mark.parametrize("case", range(6))
@testing.numpy_cuarray_equal(accept_error=True)
def test_copyto_str_source_checks_in_numpy_order(xp, case):
    dst = xp.asarray(numpy.zeros(3, dtype=numpy.int32))
    int_mask = xp.asarray(numpy.array([1, 0, 1]))
    short_mask = xp.asarray(numpy.array([True, False]))
    mask = xp.asarray(numpy.array([True, False, True]))
    calls = [lambda: xp.copyto(dst, "1", casting="same_kind"),            # TypeError: the casting rule
             lambda: xp.copyto(dst, "x", casting="safe", where=int_mask),  # TypeError: the mask's dtype first
             lambda: xp.copyto(dst, "x", casting="unsafe", where=short_mask),  # ValueError: parsed before the shape
             lambda: xp.copyto(dst, "x", casting="unsafe", where=False),   # ValueError with nothing to write
             lambda: xp.copyto(dst, "12", casting="unsafe", where=short_mask),  # ValueError: the mask's shape
             lambda: xp.copyto(dst, "12", casting="unsafe", where=mask)]
    calls[case]()
    return dst


@gpu
@pytest.mark.parametrize("casting", ["no", "safe"])
@testing.numpy_cuarray_equal(accept_error=TypeError)
def test_copyto_scalar_casting_rules(xp, casting):
    dst = xp.asarray(numpy.zeros(3, dtype=numpy.int8))
    xp.copyto(dst, 5, casting=casting)
    xp.copyto(dst, numpy.int8(3), casting=casting)
    return dst


@gpu
@testing.numpy_cuarray_equal()
def test_copyto_with_where_mask(xp):
    dst = xp.asarray(numpy.zeros((3, 4)))
    src = xp.asarray(numpy.arange(4.0) + 1)
    xp.copyto(dst, src, where=xp.asarray(numpy.array([[True], [False], [True]])))
    d2 = xp.asarray(numpy.zeros((3, 4), numpy.int32))
    xp.copyto(d2, 7, where=xp.asarray(numpy.array([True, False, True, False])))
    d3 = xp.asarray(numpy.ones((2, 3), numpy.float32))
    xp.copyto(d3, xp.asarray(numpy.arange(6).reshape(2, 3)), where=False)
    xp.copyto(d3[:, ::-1], xp.asarray(numpy.arange(6.0).reshape(2, 3)), where=xp.asarray(numpy.eye(2, 3, dtype=bool)))
    return dst, d2, d3


@gpu
@testing.numpy_cuarray_equal()
def test_copyto_broadcasting_layouts_and_overlap(xp):
    dst = xp.asarray(numpy.zeros((2, 3)))
    xp.copyto(dst, xp.asarray(numpy.ones((1, 2, 3)) * 4))
    a = xp.asarray(numpy.arange(10.0))
    xp.copyto(a[1:], a[:-1])
    b = xp.asarray(numpy.arange(10))
    xp.copyto(b[2:], b[:-2], where=xp.asarray(numpy.arange(8) % 2 == 0))
    c = xp.asarray(numpy.zeros((4, 5), numpy.float16))
    xp.copyto(c.T, xp.asarray(numpy.arange(4.0)))
    d = xp.asarray(numpy.array(1.0))
    xp.copyto(d, 5)
    e = xp.asarray(numpy.zeros((0, 3)))
    xp.copyto(e, 1.0)
    return dst, a, b, c, d, e


@gpu
@pytest.mark.parametrize("case", ["src_shape", "mask_shape", "mask_dtype", "casting_name"])
@testing.numpy_cuarray_equal(accept_error=(ValueError, TypeError))
def test_copyto_errors(xp, case):
    dst = xp.asarray(numpy.zeros(3))
    if case == "src_shape":
        xp.copyto(dst, xp.asarray(numpy.ones(2)))
    elif case == "mask_shape":
        xp.copyto(dst, 1.0, where=xp.asarray(numpy.ones(2, bool)))
    elif case == "mask_dtype":
        xp.copyto(dst, 1.0, where=xp.asarray(numpy.ones(3, numpy.int64)))
    else:
        xp.copyto(dst, 1.0, casting="bad")
    return dst
