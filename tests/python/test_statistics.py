"""median, quantile/percentile (13 methods, nan- forms, weights), average, trapezoid, cov, corrcoef, correlate and
convolve against NumPy.

CPU tests compile every statistics kernel with NVRTC and run the kernels' device functions on the host (g++)
against NumPy, exactly (every method, input dtype, q dtype, weak and strong q, NaN rows); GPU tests compare the
functions themselves over dtypes, axes, keepdims, out=, empty inputs and errors.
"""
import ctypes
import itertools
import pathlib
import shutil
import subprocess
import warnings

import numpy
import pytest

import cuarray as cp

gpu = pytest.mark.gpu

ROOT = pathlib.Path(__file__).resolve().parents[2]
HEADERS = ROOT / "src" / "engine" / "device"
METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint", "nearest"]
FLOAT_CONSTANTS = {"closest_observation", "hazen", "median_unbiased", "normal_unbiased", "midpoint"}
TAKES = {"inverted_cdf", "closest_observation", "lower", "higher", "nearest"}
REAL = [numpy.dtype(c) for c in "?bBhlLefd"]
ALL = REAL + [numpy.dtype("F"), numpy.dtype("D")]
# C types of raw kernel operands (a raw bool operand is unsigned char) and of results.
CTYPE = {"?": "unsigned char", "b": "signed char", "h": "short", "i": "int", "l": "long long", "B": "unsigned char",
         "H": "unsigned short", "I": "unsigned int", "L": "unsigned long long", "e": "ca_half", "f": "float",
         "d": "double", "F": "ca_complex<float>", "D": "ca_complex<double>"}
RTYPE = dict(CTYPE, **{"?": "bool"})


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings(), numpy.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def _data(dtype, shape, seed=0, nan=True):
    """Random values of `dtype` with repeats; NaN in about a tenth of the floats when `nan`."""
    dt = numpy.dtype(dtype)
    rng = numpy.random.default_rng(seed)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        lo = 0 if dt.kind == "u" else -20
        return rng.integers(lo, 20, shape).astype(dt)
    v = numpy.round(rng.standard_normal(shape) * 4, 1)
    if dt.kind == "c":
        v = v + 1j * numpy.round(rng.standard_normal(shape) * 4, 1)
    v = v.astype(dt)
    if nan and v.size:
        v.reshape(-1)[rng.random(v.size) < 0.1] = numpy.nan
    return v


# -- CPU: the kernels compile with NVRTC -------------------------------------------------------------------

_KERNELS = {name: (body, pre) for name, body, pre in cp._core._statistics_kernels()}
_PREAMBLE = _KERNELS["median"][1]


def _variants():
    """(kernel, input types, input kinds, output types, output raw flags) of representative dtype choices."""
    out = []
    for a in ALL:
        r = a if a.kind in "fc" else numpy.dtype("d")
        out.append(("median", [a, "int64", "int64"], ["raw", "scalar", "scalar"], [r], [False]))
    for a, t in itertools.product(REAL, ["float16", "float32", "float64", "int64"]):
        r = numpy.result_type(a, t) if a.kind != "b" else numpy.dtype(t)
        out.append(("quantile", [a, t] + ["int64"] * 4, ["raw", "raw"] + ["scalar"] * 4, [r], [False]))
    for a in REAL:
        out.append(("weighted_quantile", [a, "int64", "float64", "float64"] + ["int64"] * 3,
                    ["raw"] * 4 + ["scalar"] * 3, [a, "uint8"], [False, True]))
    for r in ["float16", "float32", "float64", "complex64", "complex128"]:
        out.append(("cov", [r, "float64", "int64", "int64", "int64", "float64"], ["raw", "raw"] + ["scalar"] * 4,
                    [r], [False]))
    for r in ALL:
        out.append(("correlate", [r, r] + ["int64"] * 5, ["raw", "raw"] + ["scalar"] * 5, [r], [False]))
    return out


VARIANTS = _variants()


@pytest.fixture(scope="module")
def nvrtc():
    src = cp._core.elementwise_source("probe", "out0 = in0;", "", "", "", False, ["float32"], ["array"],
                                      ["float32"], [False], 0, False, True)
    try:
        cp._core.nvrtc_compile(src, "probe.cu", 80, [])
    except Exception as e:  # no NVRTC library here: nothing to compile with
        if type(e).__name__ == "CompileException":
            raise
        pytest.skip("NVRTC unavailable: {}".format(e))


@pytest.mark.parametrize("k", range(len(VARIANTS)),
                         ids=["{}-{}-{}".format(v[0], numpy.dtype(v[1][0]).name, numpy.dtype(v[3][0]).name)
                              for v in VARIANTS])
def test_kernel_variant_compiles(nvrtc, k):
    name, in_types, in_kinds, out_types, out_raw = VARIANTS[k]
    body, pre = _KERNELS[name]
    for ndim, index64 in [(0, False), (2, True)]:
        src = cp._core.elementwise_source(name, body, pre, "", "", True, [numpy.dtype(t) for t in in_types], in_kinds,
                                          [numpy.dtype(t) for t in out_types], out_raw, ndim, index64, False)
        assert cp._core.nvrtc_compile(src, name + ".cu", 80, []) > 0


# -- CPU: the device functions on the host, against NumPy --------------------------------------------------

SHIM = r"""
#include <math.h>
// The device intrinsics as plain IEEE operations (compiled with -ffp-contract=off, so nothing fuses).
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dsub_rn(double a, double b) { return a - b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }
#include "ca_ufuncs.cuh"
"""


def _fn(prefix, *chars):
    """A host function's name from type characters ('?' is not an identifier character)."""
    return prefix + "".join("x" if c == "?" else c for c in chars)


def _index_type(q, method):
    """NumPy's virtual-index dtype: q's float dtype; int64 for integer q unless the method's constants are floats."""
    qd = numpy.asarray(q).dtype
    if qd.kind in "biu":
        return numpy.dtype("d") if method in FLOAT_CONSTANTS else numpy.dtype("l")
    return qd


# Quantile cases: (input dtype, method, q spec); q specs are weak Python numbers or strong arrays.
Q_SPECS = [("weak", 0.3), ("weak", 0.5), ("weak", 1.0), ("weak", 1), ("f8", [0.0, 0.1, 0.25, 1 / 3, 0.5, 0.7, 1.0]),
           ("f4", [0.0, 0.15, 0.5, 0.9, 1.0]), ("f2", [0.0, 0.3, 0.5, 0.99, 1.0]), ("i8", [0, 1])]
def _bool_ok(method, spec):
    """bool input works where NumPy takes elements (no `b - a`): discrete methods, linear with integer q."""
    kind, v = Q_SPECS[spec]
    return method in TAKES or (method == "linear" and (kind == "i8" or type(v) is int))


Q_CASES = [(a, m, s) for a, m, s in itertools.product(REAL, METHODS, range(len(Q_SPECS)))
           if a.kind != "b" or _bool_ok(m, s)]


def _q_value(spec):
    kind, v = Q_SPECS[spec]
    return v if kind == "weak" else numpy.array(v, dtype=kind)


def _combo(a, method, spec):
    q = _q_value(spec)
    t = _index_type(q, method)
    r = _quiet(numpy.quantile, numpy.arange(5).astype(a), q, method=method).dtype
    return a.char, t.char, numpy.dtype(r).char


@pytest.fixture(scope="module")
def host_lib(tmp_path_factory):
    cxx = shutil.which("g++") or shutil.which("c++")
    if not cxx:
        pytest.skip("no host C++ compiler")
    lines = [SHIM, _PREAMBLE]
    combos = {_combo(a, m, s) for a, m, s in Q_CASES}
    for A, T, R in sorted(combos):
        lines.append(
            'extern "C" void {f}(const void* rows, long long nrows, long long n, const void* qs, long long nq, '
            "int method, int flags, void* out) {{ for (long long j = 0; j < nq; ++j) for (long long i = 0; i < nrows; "
            "++i) (({R}*)out)[j * nrows + i] = ca_st_quantile<{R}>((const {A}*)rows + i * n, n, ((const {T}*)qs)[j], "
            "method, flags); }}".format(f=_fn("q_", A, T, R), A=CTYPE[A], T=CTYPE[T], R=RTYPE[R]))
    for a in ALL:
        r = a if a.kind in "fc" else numpy.dtype("d")
        lines.append('extern "C" void {f}(const void* rows, long long nrows, long long n, int flags, void* out) {{ '
                     "for (long long i = 0; i < nrows; ++i) (({R}*)out)[i] = ca_st_median<{R}>((const {A}*)rows + "
                     "i * n, n, flags); }}".format(f=_fn("m_", a.char), A=CTYPE[a.char], R=RTYPE[r.char]))
    for a in REAL:
        for t in "fdl":
            lines.append(
                'extern "C" void {f}(const void* x, const long long* order, const double* w, long long nrows, '
                "long long n, const void* qs, long long nq, int flags, unsigned char* bad, void* out) {{ "
                "for (long long j = 0; j < nq; ++j) for (long long i = 0; i < nrows; ++i) (({A}*)out)[j * nrows + i] "
                "= ca_st_weighted<{R}>((const {A}*)x + i * n, order + i * n, w + i * n, n, ((const {T}*)qs)[j], flags, "
                "bad + i); }}".format(f=_fn("w_", a.char, t), A=CTYPE[a.char], R=RTYPE[a.char], T=CTYPE[t]))
    for r in ALL:
        lines.append(
            'extern "C" void {f}(const void* L, long long n, const void* S, long long m, long long n_left, '
            "long long len, int flags, void* out) {{ for (long long k = 0; k < len; ++k) (({R}*)out)[k] = "
            "ca_st_correlate<{R}>((const {E}*)L, n, (const {E}*)S, m, n_left, len, flags, k); }}".format(
                f=_fn("c_", r.char), R=RTYPE[r.char], E=CTYPE[r.char]))
    d = tmp_path_factory.mktemp("stats_host")
    src, lib = d / "stats.cpp", d / "stats.so"
    src.write_text("\n".join(lines) + "\n")
    r = subprocess.run([cxx, "-std=c++17", "-O1", "-fPIC", "-shared", "-fno-fast-math", "-ffp-contract=off", "-w",
                        "-I{}".format(HEADERS), str(src), "-o", str(lib)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-5000:]
    return ctypes.CDLL(str(lib))


def _ptr(a):
    return ctypes.c_void_p(a.ctypes.data)


def _host_quantile(lib, rows, q, method, weak, skip_nan, combo):
    A, T, R = combo
    rows = numpy.ascontiguousarray(numpy.sort(rows, axis=-1))
    qa = numpy.ascontiguousarray(numpy.asarray(q).astype(T).reshape(-1))
    out = numpy.zeros((qa.size, rows.shape[0]), dtype=R)
    flags = (1 if skip_nan else 0) | (2 if weak else 0) | (4 if rows.dtype.kind in "fc" else 0)
    getattr(lib, _fn("q_", A, T, R))(_ptr(rows), ctypes.c_longlong(rows.shape[0]),
                                             ctypes.c_longlong(rows.shape[1]), _ptr(qa), ctypes.c_longlong(qa.size),
                                             ctypes.c_int(METHODS.index(method)), ctypes.c_int(flags), _ptr(out))
    return out


@pytest.mark.parametrize("skip_nan", [False, True], ids=["quantile", "nanquantile"])
@pytest.mark.parametrize("case", range(len(Q_CASES)),
                         ids=["{}-{}-{}".format(a.name, m, Q_SPECS[s][0] + str(Q_SPECS[s][1])[:6]) for a, m, s in Q_CASES])
def test_host_quantile_matches_numpy_exactly(host_lib, case, skip_nan):
    a, method, spec = Q_CASES[case]
    q = _q_value(spec)
    weak = Q_SPECS[spec][0] == "weak"
    combo = _combo(a, method, spec)
    fn = numpy.nanquantile if skip_nan else numpy.quantile
    for n in [1, 2, 3, 4, 7, 10]:
        rows = _data(a, (5, n), seed=case * 7 + n)
        if a.kind == "f":
            rows[0] = numpy.nan  # an all-NaN row
        if a == numpy.dtype("b") and n >= 2:
            rows[1, :2] = [-100, 100]  # b - a wraps in int8, as NumPy's subtract
        got = _host_quantile(host_lib, rows, q, method, weak, skip_nan, combo)
        for i in range(rows.shape[0]):
            want = numpy.asarray(_quiet(fn, rows[i], q, method=method)).reshape(-1)
            numpy.testing.assert_array_equal(got[:, i], want.astype(combo[2]),
                                             err_msg="row {} n {}: {}".format(i, n, rows[i]))


@pytest.mark.parametrize("skip_nan", [False, True], ids=["median", "nanmedian"])
@pytest.mark.parametrize("dtype", ALL, ids=str)
def test_host_median_matches_numpy_exactly(host_lib, dtype, skip_nan):
    r = dtype if dtype.kind in "fc" else numpy.dtype("d")
    fn = numpy.nanmedian if skip_nan else numpy.median
    for n in [1, 2, 3, 6, 9]:
        rows = numpy.sort(_data(dtype, (6, n), seed=n), axis=-1)
        if dtype.kind == "f":
            rows[0] = numpy.nan
            rows = numpy.sort(rows, axis=-1)
        out = numpy.zeros(rows.shape[0], dtype=r)
        getattr(host_lib, _fn("m_", dtype.char))(_ptr(rows), ctypes.c_longlong(rows.shape[0]),
                                             ctypes.c_longlong(n), ctypes.c_int(1 if skip_nan else 0), _ptr(out))
        for i in range(rows.shape[0]):
            want = numpy.asarray(_quiet(fn, rows[i])).astype(r)
            if numpy.isnan(want):
                assert numpy.isnan(out[i])
            else:
                assert out[i] == want, (rows[i], out[i], want)


@pytest.mark.parametrize("skip_nan", [False, True])
@pytest.mark.parametrize("qkind", ["weak", "f4", "i8"])
@pytest.mark.parametrize("dtype", REAL, ids=str)
def test_host_weighted_inverted_cdf_matches_numpy(host_lib, dtype, qkind, skip_nan):
    rng = numpy.random.default_rng(3)
    qs = {"weak": 0.3, "f4": numpy.array([0.0, 0.2, 0.5, 0.8, 1.0], dtype="f4"), "i8": numpy.array([0, 1])}[qkind]
    t = {"weak": "d", "f4": "f", "i8": "l"}[qkind]
    fn = numpy.nanquantile if skip_nan else numpy.quantile
    for n in [1, 3, 8]:
        x = _data(dtype, (4, n), seed=n)
        w = rng.integers(1, 5, (4, n)).astype("f8")
        order = numpy.ascontiguousarray(numpy.argsort(x, axis=-1, kind="stable").astype("i8"))
        qa = numpy.ascontiguousarray(numpy.asarray(qs).astype(t).reshape(-1))
        out = numpy.zeros((qa.size, 4), dtype=dtype)
        bad = numpy.zeros(4, dtype="u1")
        flags = (1 if skip_nan else 0) | (4 if dtype.kind == "f" else 0)
        getattr(host_lib, _fn("w_", dtype.char, t))(_ptr(x), order.ctypes.data_as(ctypes.POINTER(ctypes.c_longlong)),
                                                        w.ctypes.data_as(ctypes.POINTER(ctypes.c_double)),
                                                        ctypes.c_longlong(4), ctypes.c_longlong(n), _ptr(qa),
                                                        ctypes.c_longlong(qa.size), ctypes.c_int(flags),
                                                        bad.ctypes.data_as(ctypes.POINTER(ctypes.c_ubyte)), _ptr(out))
        for i in range(4):
            if skip_nan and dtype.kind == "f" and numpy.isnan(x[i]).all():
                assert numpy.isnan(out[:, i]).all()
                continue
            want = numpy.asarray(_quiet(fn, x[i], qs, method="inverted_cdf", weights=w[i])).reshape(-1)
            numpy.testing.assert_array_equal(out[:, i], want, err_msg=str((x[i], w[i])))
        assert not bad.any()


def _correlate_flags(na, nv, mode, conj, convolve):
    """correlate_impl's launch parameters (mirrored from statistics.cpp): (swap, n_left, len, flags)."""
    inverted = na < nv
    n1, n2 = (nv, na) if inverted else (na, nv)
    flags = (4 | (1 if conj else 0)) if inverted else (2 if conj else 0)
    if convolve:
        flags |= 8
    n_left, length = {0: (0, n1 - n2 + 1), 1: (n2 // 2, n1), 2: (n2 - 1, n1 + n2 - 1)}[mode]
    return inverted, n1, n2, n_left, length, flags


@pytest.mark.parametrize("mode", [0, 1, 2], ids=["valid", "same", "full"])
@pytest.mark.parametrize("dtype", ALL, ids=str)
def test_host_correlate_and_convolve_match_numpy(host_lib, dtype, mode):
    for na, nv in [(5, 3), (3, 5), (4, 4), (1, 6), (6, 1), (7, 2)]:
        a = _data(dtype, na, seed=na, nan=False)
        v = _data(dtype, nv, seed=nv + 10, nan=False)
        for convolve in (False, True):
            x, y = (a, v)
            if convolve and nv > na:
                x, y = v, a
            inverted, n1, n2, n_left, length, flags = _correlate_flags(len(x), len(y), mode, dtype.kind == "c"
                                                                       and not convolve, convolve)
            L, S = (y, x) if inverted else (x, y)
            L, S = numpy.ascontiguousarray(L), numpy.ascontiguousarray(S)
            out = numpy.zeros(length, dtype=dtype)
            getattr(host_lib, _fn("c_", dtype.char))(_ptr(L), ctypes.c_longlong(n1), _ptr(S), ctypes.c_longlong(n2),
                                                 ctypes.c_longlong(n_left), ctypes.c_longlong(length),
                                                 ctypes.c_int(flags), _ptr(out))
            want = _quiet(numpy.convolve if convolve else numpy.correlate, a, v, mode)
            if dtype.kind in "fc":
                numpy.testing.assert_allclose(out, want, rtol={"e": 2e-3, "f": 1e-5, "F": 1e-5}.get(dtype.char, 1e-12))
            else:
                numpy.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("method", METHODS)
def test_quantile_result_dtypes_match_numpy(method):
    """The dtype rule of the C++ side (NumPy's virtual-index dtype and _lerp promotion) against NumPy itself."""
    qs = [(0.3, True), (1, True), (numpy.float32(0.25), False), (numpy.array([0.5]), False),
          (numpy.array([0.5], "f2"), False), (numpy.array([0, 1]), False), (numpy.True_, False)]
    for a in REAL:
        for q, weak in qs:
            for fn, scale in [(numpy.quantile, 1), (numpy.percentile, 100)]:
                qq = q * scale if scale != 1 and not isinstance(q, (bool, numpy.bool_)) else q
                try:
                    want = numpy.asarray(_quiet(fn, numpy.arange(5).astype(a), qq, method=method)).dtype
                except TypeError:
                    want = None
                qd = numpy.asarray(qq).dtype if scale == 1 else numpy.true_divide(numpy.asarray(qq), 100).dtype
                if want is None:
                    with pytest.raises(TypeError):
                        cp._core._quantile_types(a, qd, weak, method)
                else:
                    assert cp._core._quantile_types(a, qd, weak, method)[1] == want, (a, q, fn.__name__)


# -- CPU: arguments refused before any device use ------------------------------------------------------------

@pytest.mark.parametrize("fn", ["median", "nanmedian", "average", "cov", "corrcoef"])
def test_host_list_input_is_refused(fn):
    with pytest.raises(TypeError, match="Unsupported type list"):
        getattr(cp, fn)([1.0, 2.0, 3.0])


def test_functions_are_exported():
    for name in ["median", "nanmedian", "percentile", "nanpercentile", "quantile", "nanquantile", "average",
                 "trapezoid", "cov", "corrcoef", "correlate", "convolve"]:
        assert callable(getattr(cp, name))


# -- GPU: the functions against NumPy ------------------------------------------------------------------------

def _check(got, want, rtol=None, exact=False):
    want = numpy.asarray(want)
    assert isinstance(got, cp.ndarray)
    g = got.get()
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    assert g.shape == want.shape, (g.shape, want.shape)
    if exact:
        numpy.testing.assert_array_equal(g, want)
    else:
        if rtol is None:
            rtol = {"e": 2e-3, "f": 2e-5, "F": 2e-5}.get(want.dtype.char, 1e-11)
        numpy.testing.assert_allclose(g, want, rtol=rtol, atol=rtol, equal_nan=True)


AXES = [None, 0, 1, -1, (0, 2), (2, 0, 1), (1,)]


@gpu
@pytest.mark.parametrize("skip_nan", [False, True])
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", AXES, ids=str)
@pytest.mark.parametrize("dtype", ALL, ids=str)
def test_median(dtype, axis, keepdims, skip_nan):
    x = _data(dtype, (4, 5, 6), seed=1)
    fn = "nanmedian" if skip_nan else "median"
    want = _quiet(getattr(numpy, fn), x, axis=axis, keepdims=keepdims)
    _check(getattr(cp, fn)(cp.asarray(x), axis=axis, keepdims=keepdims), want, exact=True)


@gpu
@pytest.mark.parametrize("fn", ["median", "nanmedian"])
def test_median_layouts_and_edges(fn):
    npf, cpf = getattr(numpy, fn), getattr(cp, fn)
    x = _data("f8", (7, 8), seed=2)
    for view in [x[::-1, ::2], x.T, x[:, 3], x[2:3, 1:2]]:
        for axis in [None, 0, -1]:
            _check(cpf(cp.asarray(view), axis=axis), _quiet(npf, view, axis=axis), exact=True)
    # negative strides on the device
    d = cp.asarray(x)[::-1, ::-2]
    _check(cpf(d, axis=1), _quiet(npf, x[::-1, ::-2], axis=1), exact=True)
    _check(cpf(cp.asarray(numpy.float32(3.5))), _quiet(npf, numpy.float32(3.5)))
    for shape, axis in [((0,), None), ((0, 3), 0), ((3, 0), 0), ((3, 0), 1), ((0, 3), None)]:
        for dt in ["f8", "f4", "i4"]:
            e = numpy.zeros(shape, dtype=dt)
            _check(cpf(cp.asarray(e), axis=axis), _quiet(npf, e, axis=axis), exact=True)
    out = cp.zeros(7)
    r = cpf(cp.asarray(x), axis=1, out=out)
    assert r is out
    _check(out, _quiet(npf, x, axis=1), exact=True)
    with pytest.raises(numpy.exceptions.AxisError):
        cpf(cp.asarray(x), axis=2)
    with pytest.raises(ValueError, match="repeated axis"):
        cpf(cp.asarray(x), axis=(0, 0))
    with pytest.raises(numpy.exceptions.AxisError):
        cpf(cp.asarray(numpy.float64(1.0)), axis=0)


@gpu
@pytest.mark.parametrize("skip_nan", [False, True])
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dtype", REAL, ids=str)
def test_quantile_methods_and_dtypes(dtype, method, skip_nan):
    x = _data(dtype, (6, 9), seed=3)
    name = "nanquantile" if skip_nan else "quantile"
    for q in [0.3, 1, numpy.float32(0.25), numpy.array([0.0, 0.5, 1.0]), numpy.array([[0.1, 0.9], [0.5, 0.6]], "f4"),
              numpy.array([0.5], "f2"), [0.2, 0.7]]:
        for axis in [None, 1, 0]:
            try:
                want = _quiet(getattr(numpy, name), x, q, axis=axis, method=method)
            except TypeError:  # bool input with interpolation
                with pytest.raises(TypeError):
                    getattr(cp, name)(cp.asarray(x), q, axis=axis, method=method)
                continue
            qq = cp.asarray(q) if isinstance(q, numpy.ndarray) else q
            got = getattr(cp, name)(cp.asarray(x), qq, axis=axis, method=method)
            if numpy.ndim(want) == 0 and skip_nan is False and numpy.isnan(want):
                want = numpy.asarray(want).astype(got.dtype)  # NumPy returns the input's NaN for 0-d results
            _check(got, want, exact=True)


@gpu
@pytest.mark.parametrize("name", ["percentile", "nanpercentile", "quantile", "nanquantile"])
def test_percentile_axes_keepdims_out_and_errors(name):
    scale = 100 if "percentile" in name else 1
    npf, cpf = getattr(numpy, name), getattr(cp, name)
    x = _data("f4", (3, 4, 5), seed=4)
    d = cp.asarray(x)
    q = numpy.array([0.1, 0.5, 0.75]) * scale
    for axis in AXES:
        for keepdims in (False, True):
            _check(cpf(d, cp.asarray(q), axis=axis, keepdims=keepdims),
                   _quiet(npf, x, q, axis=axis, keepdims=keepdims), exact=True)
    out = cp.zeros((3, 3, 5), dtype="f8")
    assert cpf(d, cp.asarray(q), axis=1, out=out) is out
    _check(out, _quiet(npf, x, q, axis=1), exact=True)
    for bad in [-0.1 * scale, 1.5 * scale, numpy.nan, [0.5 * scale, 2 * scale]]:
        with pytest.raises(ValueError, match="must be in the range"):
            cpf(d, bad)
    with pytest.raises(ValueError, match="is not a valid method"):
        cpf(d, 0.5 * scale, method="bogus")
    with pytest.raises(ValueError, match="q must be a scalar or 1d"):
        cpf(d, cp.full((1, 1, 1), 0.5 * scale))
    with pytest.raises(TypeError, match="real numbers"):
        cpf(cp.asarray(x.astype("c8")), 0.5 * scale)
    with pytest.raises(ValueError, match="Only method 'inverted_cdf' supports weights"):
        cpf(d, 0.5 * scale, weights=cp.ones_like(d))
    with pytest.raises(numpy.exceptions.AxisError):
        cpf(d, 0.5 * scale, axis=3)


@gpu
def test_quantile_empty_inputs():
    for shape, axis in [((3, 0), 0), ((0, 3), None)]:
        e = numpy.zeros(shape)
        _check(cp.nanquantile(cp.asarray(e), [0.2, 0.5], axis=axis), _quiet(numpy.nanquantile, e, [0.2, 0.5], axis=axis))
    _check(cp.quantile(cp.zeros((3, 0)), 0.5, axis=0), numpy.quantile(numpy.zeros((3, 0)), 0.5, axis=0))
    with pytest.raises(IndexError):
        cp.quantile(cp.zeros((0, 3)), 0.5, axis=0)


@gpu
@pytest.mark.parametrize("skip_nan", [False, True])
@pytest.mark.parametrize("dtype", ["f8", "f4", "i4", "u1"])
def test_weighted_inverted_cdf(dtype, skip_nan):
    name = "nanpercentile" if skip_nan else "percentile"
    x = _data(dtype, (4, 7), seed=5)
    w = numpy.random.default_rng(1).integers(1, 5, (4, 7)).astype("f8")
    for q in [30.0, numpy.array([0.0, 25.0, 50.0, 100.0])]:
        qq = cp.asarray(q) if isinstance(q, numpy.ndarray) else q
        _check(getattr(cp, name)(cp.asarray(x), qq, axis=1, method="inverted_cdf", weights=cp.asarray(w)),
               _quiet(getattr(numpy, name), x, q, axis=1, method="inverted_cdf", weights=w), exact=True)
        if not skip_nan:  # NumPy's nan- forms fail on weights of the reduced axes' shape (an IndexError)
            _check(getattr(cp, name)(cp.asarray(x), qq, axis=0, method="inverted_cdf", weights=cp.asarray(w[:, 0])),
                   _quiet(getattr(numpy, name), x, q, axis=0, method="inverted_cdf", weights=w[:, 0]), exact=True)
    with pytest.raises(ValueError, match="non-negative"):
        cp.percentile(cp.asarray(x), 50, axis=1, method="inverted_cdf", weights=cp.asarray(-w))
    with pytest.raises(ValueError, match="all zero"):
        cp.percentile(cp.asarray(x), 50, axis=1, method="inverted_cdf", weights=cp.zeros((4, 7)))
    with pytest.raises(TypeError, match="Axis must be specified"):
        cp.percentile(cp.asarray(x), 50, method="inverted_cdf", weights=cp.ones(7))
    with pytest.raises(ValueError, match="Shape of weights must be consistent"):
        cp.percentile(cp.asarray(x), 50, axis=1, method="inverted_cdf", weights=cp.ones(4))


@gpu
@pytest.mark.parametrize("dtype", ALL, ids=str)
def test_average(dtype):
    x = _data(dtype, (3, 4, 5), seed=6, nan=False)
    d = cp.asarray(x)
    for axis in [None, 0, 2, (0, 2)]:
        for keepdims in (False, True):
            _check(cp.average(d, axis=axis, keepdims=keepdims), numpy.average(x, axis=axis, keepdims=keepdims))
    w = numpy.arange(1, 6, dtype="f4")
    _check(cp.average(d, axis=2, weights=cp.asarray(w)), numpy.average(x, axis=2, weights=w))
    w2 = numpy.arange(1, 21, dtype="i4").reshape(4, 5)
    avg, scl = cp.average(d, axis=(1, 2), weights=cp.asarray(w2), returned=True)
    wavg, wscl = numpy.average(x, axis=(1, 2), weights=w2, returned=True)
    _check(avg, wavg)
    _check(scl, wscl)
    avg, scl = cp.average(d, returned=True)
    wavg, wscl = numpy.average(x, returned=True)
    _check(avg, wavg)
    _check(scl, numpy.asarray(wscl))
    full = numpy.ones(x.shape, dtype="f8")
    _check(cp.average(d, weights=cp.asarray(full)), numpy.average(x, weights=full))


@gpu
def test_average_errors():
    d = cp.ones((3, 4))
    with pytest.raises(ZeroDivisionError, match="Weights sum to zero"):
        cp.average(d, axis=1, weights=cp.zeros(4))
    with pytest.raises(TypeError, match="Axis must be specified"):
        cp.average(d, weights=cp.ones(4))
    with pytest.raises(ValueError, match="Shape of weights must be consistent"):
        cp.average(d, axis=1, weights=cp.ones(3))
    with pytest.raises(numpy.exceptions.AxisError):
        cp.average(d, axis=2)
    with pytest.raises(ZeroDivisionError):
        cp.average(cp.ones((0, 3)), axis=1)


@gpu
@pytest.mark.parametrize("dtype", ["?", "i2", "u8", "f2", "f4", "f8", "c16"])
def test_trapezoid(dtype):
    y = _data(dtype, (4, 6), seed=7, nan=False)
    d = cp.asarray(y)
    _check(cp.trapezoid(d), numpy.trapezoid(y))
    _check(cp.trapezoid(d, axis=0), numpy.trapezoid(y, axis=0))
    _check(cp.trapezoid(d, dx=0.5), numpy.trapezoid(y, dx=0.5))
    x = numpy.linspace(0, 3, 6) ** 2
    _check(cp.trapezoid(d, x=cp.asarray(x)), numpy.trapezoid(y, x=x))
    x2 = numpy.cumsum(numpy.random.default_rng(0).random((4, 6)), axis=0)
    _check(cp.trapezoid(d, x=cp.asarray(x2), axis=0), numpy.trapezoid(y, x=x2, axis=0))
    _check(cp.trapezoid(d[:, ::-1]), numpy.trapezoid(y[:, ::-1]))
    _check(cp.trapezoid(cp.asarray(y[:, :1])), numpy.trapezoid(y[:, :1]))
    with pytest.raises(IndexError):
        cp.trapezoid(d, axis=2)


@gpu
@pytest.mark.parametrize("dtype", ["?", "i4", "f2", "f4", "f8", "c8", "c16"])
def test_cov_and_corrcoef(dtype):
    m = _data(dtype, (3, 7), seed=8, nan=False)
    y = _data(dtype, (2, 7), seed=9, nan=False)
    d = cp.asarray(m)
    _check(cp.cov(d), numpy.cov(m))
    _check(cp.cov(d, cp.asarray(y)), numpy.cov(m, y))
    _check(cp.cov(cp.asarray(m.T), rowvar=False), numpy.cov(m.T, rowvar=False))
    _check(cp.cov(d, bias=True), numpy.cov(m, bias=True))
    _check(cp.cov(d, ddof=2), numpy.cov(m, ddof=2))
    _check(cp.cov(d[0]), numpy.cov(m[0]))
    fw = numpy.array([1, 2, 1, 3, 1, 1, 2])
    aw = numpy.linspace(0.5, 2.0, 7)
    _check(cp.cov(d, fweights=cp.asarray(fw)), numpy.cov(m, fweights=fw))
    _check(cp.cov(d, aweights=cp.asarray(aw)), numpy.cov(m, aweights=aw))
    _check(cp.cov(d, fweights=cp.asarray(fw), aweights=cp.asarray(aw), ddof=0),
           numpy.cov(m, fweights=fw, aweights=aw, ddof=0))
    _check(cp.cov(d, fweights=cp.asarray(fw), aweights=cp.asarray(aw)), numpy.cov(m, fweights=fw, aweights=aw))
    if dtype not in ("?", "i4"):
        _check(cp.cov(d, dtype=dtype), numpy.cov(m, dtype=dtype))
    _check(cp.corrcoef(d), numpy.corrcoef(m))
    _check(cp.corrcoef(d, cp.asarray(y)), numpy.corrcoef(m, y))
    _check(cp.corrcoef(d[1]), _quiet(numpy.corrcoef, m[1]))


@gpu
def test_cov_edges_and_errors():
    _check(cp.cov(cp.zeros((0, 3))), numpy.cov(numpy.zeros((0, 3))))
    _check(cp.cov(cp.ones((2, 1))), _quiet(numpy.cov, numpy.ones((2, 1))))
    with pytest.raises(ValueError, match="m has more than 2 dimensions"):
        cp.cov(cp.ones((2, 2, 2)))
    with pytest.raises(ValueError, match="ddof must be integer"):
        cp.cov(cp.ones((2, 3)), ddof=1.5)
    with pytest.raises(TypeError, match="fweights must be integer"):
        cp.cov(cp.ones((2, 3)), fweights=cp.asarray([1.0, 1.5, 1.0]))
    with pytest.raises(RuntimeError, match="incompatible numbers of samples"):
        cp.cov(cp.ones((2, 3)), fweights=cp.asarray([1, 1]))
    with pytest.raises(ValueError, match="aweights cannot be negative"):
        cp.cov(cp.ones((2, 3)), aweights=cp.asarray([1.0, -1.0, 1.0]))
    with pytest.raises(RuntimeError, match="multidimensional"):
        cp.cov(cp.ones((2, 3)), aweights=cp.ones((3, 1)))


@gpu
@pytest.mark.parametrize("mode", ["valid", "same", "full", 0, 1, 2])
@pytest.mark.parametrize("dtype", ["?", "i1", "i8", "u2", "f2", "f4", "f8", "c8", "c16"])
def test_correlate_and_convolve(dtype, mode):
    for na, nv in [(9, 4), (4, 9), (5, 5), (1, 3), (6, 1)]:
        a = _data(dtype, na, seed=na, nan=False)
        v = _data(dtype, nv, seed=nv + 1, nan=False)
        rtol = 2e-3 if dtype == "f2" else None
        _check(cp.correlate(cp.asarray(a), cp.asarray(v), mode), numpy.correlate(a, v, mode), rtol=rtol)
        _check(cp.convolve(cp.asarray(a), cp.asarray(v), mode), numpy.convolve(a, v, mode), rtol=rtol)
    a32 = numpy.arange(5, dtype="i1")
    _check(cp.correlate(cp.asarray(a32), cp.asarray(numpy.arange(3.0, dtype="f2"))),
           numpy.correlate(a32, numpy.arange(3.0, dtype="f2")), rtol=2e-3)


@gpu
def test_correlate_errors():
    a = cp.arange(4.0)
    with pytest.raises(ValueError, match="mode must be one of"):
        cp.correlate(a, a, "bad")
    with pytest.raises(ValueError, match="integer convolve/correlate mode"):
        cp.correlate(a, a, 5)
    with pytest.raises(ValueError, match="first array argument cannot be empty"):
        cp.correlate(cp.zeros(0), a)
    with pytest.raises(ValueError, match="second array argument cannot be empty"):
        cp.correlate(a, cp.zeros(0))
    with pytest.raises(ValueError, match="too deep"):
        cp.correlate(cp.ones((2, 2)), a)
    with pytest.raises(ValueError, match="too small depth"):
        cp.correlate(cp.asarray(numpy.float64(1.0)), a)
    with pytest.raises(ValueError, match="a cannot be empty"):
        cp.convolve(cp.zeros(0), a[:0])
    with pytest.raises(ValueError, match="v cannot be empty"):
        cp.convolve(a, cp.zeros(0))
    _check(cp.convolve(cp.asarray(numpy.float64(2.0)), a), numpy.convolve(2.0, numpy.arange(4.0)))
