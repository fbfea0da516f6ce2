"""NumPy's composite routines (issue 16) against NumPy: functional and shape helpers (piecewise, apply_along_axis,
broadcast, flatiter, require, shares_memory, who...), index tricks and small creation routines (mgrid, ogrid, r_,
c_, tri, vander, diag_indices...), comparisons, interp, unwrap, window functions and bit packing.

CPU tests check the host-only names, argument validation before any device use, the interp kernels compiled by
NVRTC and their operation run on the host (g++) against numpy.interp; GPU tests compare values, dtypes, shapes and
exception types with NumPy over dtypes, empty/0-d/size-1 inputs, non-contiguous and negative-stride views,
broadcasting and NaN/inf.
"""
import contextlib
import ctypes
import io
import shutil
import subprocess

import numpy
import pytest

import cuarray as cp
from cuarray import _numpy_extras as extras
from cuarray import testing

gpu = pytest.mark.gpu

DTYPES = [numpy.dtype(t) for t in ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
                                   "float16", "float32", "float64", "complex64", "complex128")]
INEXACT = [d for d in DTYPES if d.kind in "fc"]
NAMES = ["piecewise", "apply_along_axis", "apply_over_axes", "isscalar", "ndim", "size", "shape", "isfortran",
         "common_type", "broadcast", "ndindex", "flatiter", "require", "asarray_chkfinite", "byte_bounds",
         "shares_memory", "may_share_memory", "who", "tri", "vander", "mgrid", "ogrid", "r_", "c_", "s_", "index_exp",
         "fromfunction", "diag_indices", "diag_indices_from", "tril_indices", "tril_indices_from", "triu_indices",
         "triu_indices_from", "mask_indices", "allclose", "isclose", "array_equal", "array_equiv", "isposinf",
         "isneginf", "real_if_close", "interp", "unwrap", "hanning", "hamming", "blackman", "bartlett", "kaiser",
         "packbits", "unpackbits"]


def _values(shape, dtype, seed=0, special=True):
    """Random values of `dtype`; floats get NaN, +-inf and -0.0 in their first places when `special`."""
    dt = numpy.dtype(dtype)
    rng = numpy.random.default_rng(seed)
    n = int(numpy.prod(shape))
    if dt.kind == "b":
        v = rng.integers(0, 2, n).astype(bool)
    elif dt.kind in "iu":
        v = rng.integers(0 if dt.kind == "u" else -20, 20, n).astype(dt)
    else:
        v = rng.standard_normal(n) * 3
        if dt.kind == "c":
            v = v + 1j * rng.standard_normal(n) * 3
        v = v.astype(dt)
        if special:
            k = min(n, 4)
            v[:k] = numpy.array([numpy.nan, numpy.inf, -numpy.inf, -0.0])[:k]
    return v.reshape(shape)


def _host(x):
    return x.get() if isinstance(x, cp.ndarray) else x


def _same(got, want):
    """Equal values (NaNs equal), dtype and shape; `got` must be a device array."""
    assert isinstance(got, cp.ndarray), type(got)
    got = got.get()
    want = numpy.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    numpy.testing.assert_array_equal(got, want)


def _device_bool(got, want):
    """A 0-d device bool array (CuPy's convention) holding NumPy's Python bool."""
    assert isinstance(got, cp.ndarray) and got.shape == () and got.dtype == numpy.bool_, got
    assert type(want) is bool
    assert bool(got) == want


# -- CPU: the public names, host-only names and validation before any device use ----------------------------------


def test_names_are_exported():
    for name in NAMES:
        assert hasattr(cp, name), name
    assert isinstance(cp.flatiter, type) and isinstance(cp.broadcast, type)
    assert cp.lib.array_utils.byte_bounds is cp.byte_bounds


def test_signatures_follow_numpy():
    import inspect
    for name in ("piecewise", "apply_along_axis", "apply_over_axes", "ndim", "size", "shape", "isfortran", "require",
                 "asarray_chkfinite", "shares_memory", "may_share_memory", "tri", "vander", "fromfunction",
                 "diag_indices", "diag_indices_from", "allclose", "isclose", "array_equal", "array_equiv",
                 "isposinf", "isneginf", "real_if_close", "interp", "unwrap", "hanning", "hamming", "blackman",
                 "bartlett", "kaiser", "packbits", "unpackbits"):
        ours = inspect.signature(getattr(cp, name))
        theirs = inspect.signature(getattr(numpy, name))
        assert list(ours.parameters) == list(theirs.parameters), name
        for p in ours.parameters.values():
            q = theirs.parameters[p.name]
            assert p.kind == q.kind, (name, p.name)
            if q.default is not inspect.Parameter.empty:
                assert p.default == q.default, (name, p.name)


@pytest.mark.parametrize("obj", [[[1, 2, 3]], 5, 2.5, [], [[]], (1, 2), numpy.zeros((2, 3, 4)), numpy.float32(1)])
def test_shape_helpers_on_host_objects(obj):
    assert cp.ndim(obj) == numpy.ndim(obj)
    assert cp.shape(obj) == numpy.shape(obj)
    assert cp.size(obj) == numpy.size(obj)
    for axis in (0, -1, (0, 1), (0, 0), 3):
        try:
            want = numpy.size(obj, axis)
        except Exception as e:  # noqa: BLE001 - the same exception type is expected
            with pytest.raises(type(e)):
                cp.size(obj, axis)
        else:
            assert cp.size(obj, axis) == want


def test_isscalar_ndindex_s_index_exp():
    for v in (1, 2.5, 1j, True, numpy.float32(1), "s", [1], numpy.array(1), None):
        assert cp.isscalar(v) == numpy.isscalar(v)
    assert list(cp.ndindex(2, 3)) == list(numpy.ndindex(2, 3))
    assert list(cp.ndindex((2, 1))) == list(numpy.ndindex((2, 1)))
    assert cp.s_[1:5, ::2, None, ...] == numpy.s_[1:5, ::2, None, ...]
    assert cp.index_exp[3] == numpy.index_exp[3] == (3,)


def test_common_type_and_isfortran_on_dtype_holders():
    cases = [(numpy.arange(3), numpy.array([1], numpy.float16)), (), (numpy.zeros(1, numpy.float32),),
             (numpy.zeros(1, numpy.float32), numpy.zeros(1, numpy.complex64)), (numpy.array([1], numpy.uint8),)]
    for arrays in cases:
        assert cp.common_type(*arrays) is numpy.common_type(*arrays)
    with pytest.raises(TypeError):
        cp.common_type(numpy.array([True]))
    with pytest.raises(AttributeError):
        cp.common_type(1.0)
    assert cp.isfortran(numpy.zeros((2, 3), order="F")) is True
    assert cp.isfortran(numpy.zeros((1, 3), order="F")) is False
    with pytest.raises(AttributeError):
        cp.isfortran([1])


def test_require_flag_errors_come_first():
    with pytest.raises(KeyError):
        cp.require([1, 2], requirements="X")
    with pytest.raises(ValueError, match="both"):
        cp.require([1, 2], requirements="CF")
    # A string is a sequence of one-letter requirements, so "fortran" fails at its 'R', in NumPy too.
    for lib in (numpy, cp):
        with pytest.raises(KeyError, match="R"):
            lib.require([1, 2], requirements="fortran")


def test_memory_overlap_of_host_objects_is_numpy_s():
    h = numpy.arange(10)
    assert cp.shares_memory(h, h[::2]) == numpy.shares_memory(h, h[::2])
    assert cp.may_share_memory(h[::2], h[1::2]) is True
    assert cp.shares_memory(h[::2], h[1::2]) is False
    with pytest.raises(TypeError):
        cp.byte_bounds(h)


def test_who_without_device_arrays():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cp.who({"a": numpy.zeros(3), "b": 1}) is None
    assert out.getvalue() == "\nUpper bound on total bytes  =       0\n"


def test_broadcast_argument_count():
    with pytest.raises(ValueError, match="at most 64"):
        cp.broadcast(*([1] * 65))


@pytest.mark.parametrize("bitorder, exc", [(None, TypeError), (1, TypeError), ("l", ValueError), ("BIG", ValueError)])
def test_packbits_bitorder_is_checked_first(bitorder, exc):
    with pytest.raises(exc):
        numpy.packbits(numpy.array([1]), bitorder=bitorder)
    with pytest.raises(exc):
        cp.packbits(numpy.array([1]), bitorder=bitorder)


@pytest.mark.parametrize("bitorder, exc", [(None, TypeError), (1, TypeError), ("", ValueError), ("Big", ValueError)])
def test_unpackbits_bitorder_is_checked_first(bitorder, exc):
    with pytest.raises(exc):
        numpy.unpackbits(numpy.array([1], numpy.uint8), bitorder=bitorder)
    with pytest.raises(exc):
        cp.unpackbits(numpy.array([1], numpy.uint8), bitorder=bitorder)


@pytest.mark.parametrize("call", [
    lambda: cp.isclose(numpy.ones(2), 1.0), lambda: cp.isclose([1.0], 1.0), lambda: cp.array_equal([1], [1]),
    lambda: cp.allclose(numpy.ones(2), numpy.ones(2)), lambda: cp.interp(1.0, numpy.ones(2), numpy.ones(2)),
    lambda: cp.unwrap([1.0, 2.0]), lambda: cp.packbits(numpy.ones(3, bool)), lambda: cp.unpackbits([1]),
    lambda: cp.piecewise(numpy.ones(2), [True, False], [1]), lambda: cp.apply_along_axis(sum, 0, [[1]]),
    lambda: cp.vander([1, 2]), lambda: cp.real_if_close(numpy.ones(2)), lambda: cp.isposinf(numpy.ones(2))])
def test_host_arrays_are_refused(call):
    with pytest.raises(TypeError):
        call()


def test_complex_isposinf_is_a_type_error():
    for f in (cp.isposinf, cp.isneginf):
        with pytest.raises(TypeError, match="ambiguous"):
            f(1 + 1j)


def test_index_trick_errors_before_device_use():
    with pytest.raises(ValueError, match="first entry"):
        cp.r_[1, "0"]
    with pytest.raises(ValueError, match="unknown special directive"):
        cp.r_["0,x", 1]
    with pytest.raises(ValueError, match="unknown special directive"):
        cp.c_["a", 1]
    with pytest.raises(ValueError):
        cp.r_[()]
    with pytest.raises(NameError):
        cp.r_["no_such_name_here"]
    with pytest.raises(AttributeError):
        cp.mgrid[3]
    with pytest.raises(ValueError, match="2-d"):
        cp.diag_indices_from(numpy.zeros(3))
    with pytest.raises(ValueError, match="equal length"):
        cp.diag_indices_from(numpy.zeros((3, 4)))
    assert len(cp.r_) == len(cp.c_) == len(cp.mgrid) == len(cp.ogrid) == 0


def _interp_args(dtype):
    f64 = numpy.dtype(numpy.float64)
    scalar = 1j if dtype.kind == "c" else 1.0
    return (f64, f64, dtype, scalar, scalar, True, False)


@pytest.mark.parametrize("kernel, fp", [("_interp_real", numpy.float64), ("_interp_complex", numpy.complex128)])
@pytest.mark.parametrize("ndim", [0, 1, 3])
def test_interp_kernels_compile(kernel, fp, ndim):
    src = getattr(extras, kernel)._source(*_interp_args(numpy.dtype(fp)), ndim=ndim)
    assert "__dmul_rn" in src  # no fused multiply-add: NumPy's rounding
    assert cp._core.nvrtc_compile(src, "interp.cu", 80) > 0


_EMULATION = r"""
#include <cmath>
using std::isnan;
template <class T> struct _ca_raw { T* p; long long n; T& operator[](long long j) const { return p[j]; }
  long long size() const { return n; } };
struct cx { double re, im; };
template <class T> using complex = cx;
static inline double __dadd_rn(double a, double b) { return a + b; }
static inline double __dmul_rn(double a, double b) { return a * b; }
"""


def _emulated_kernel(name, T, operation):
    return (f'extern "C" void {name}(const double* xs, long long nx, double* xpp, long long n, {T}* fpp, '
            f'const {T}* lr, int dl, int dr, {T}* out) {{\n'
            f'  for (long long i = 0; i < nx; ++i) {{ const double x = xs[i]; _ca_raw<double> xp{{xpp, n}}; '
            f'_ca_raw<{T}> fp{{fpp, n}}; const {T} lval = lr[0], rval = lr[1]; {T}& y = out[i];\n'
            f'{operation}\n  }}\n}}\n')


@pytest.fixture(scope="module")
def interp_on_host(tmp_path_factory):
    """The interp kernels' operation text compiled for the host, without contraction of a*b+c (NumPy's build)."""
    cxx = shutil.which("g++") or shutil.which("c++")
    if not cxx:
        pytest.skip("no host C++ compiler")
    d = tmp_path_factory.mktemp("interp")
    src = _EMULATION + _emulated_kernel("interp_real", "double", extras._interp_real.operation) + \
        _emulated_kernel("interp_complex", "cx", extras._interp_complex.operation)
    (d / "k.cpp").write_text(src)
    subprocess.check_call([cxx, "-O1", "-ffp-contract=off", "-shared", "-fPIC", "-o", str(d / "k.so"),
                           str(d / "k.cpp")])
    lib = ctypes.CDLL(str(d / "k.so"))

    def run(x, xp, fp, left=None, right=None):
        x = numpy.ascontiguousarray(x, numpy.float64)
        xp = numpy.ascontiguousarray(xp, numpy.float64)
        is_complex = numpy.iscomplexobj(fp)
        dt = numpy.complex128 if is_complex else numpy.float64
        fp = numpy.ascontiguousarray(fp, dt)
        lr = numpy.array([0 if left is None else left, 0 if right is None else right], dt)
        out = numpy.empty(x.shape, dt)
        f = lib.interp_complex if is_complex else lib.interp_real
        f(ctypes.c_void_p(x.ctypes.data), ctypes.c_longlong(x.size), ctypes.c_void_p(xp.ctypes.data),
          ctypes.c_longlong(xp.size), ctypes.c_void_p(fp.ctypes.data), ctypes.c_void_p(lr.ctypes.data),
          ctypes.c_int(left is None), ctypes.c_int(right is None), ctypes.c_void_p(out.ctypes.data))
        return out
    return run


@pytest.mark.parametrize("seed", range(4))
def test_interp_kernel_logic_matches_numpy_on_host(interp_on_host, seed):
    """The kernels' search, end values and NaN retries, bit for bit against numpy.interp (duplicate and infinite
    sample points, NaN/inf in x and fp, complex fp, given left/right)."""
    rng = numpy.random.default_rng(seed)
    specials = numpy.array([numpy.nan, numpy.inf, -numpy.inf, 0.0, -0.0])
    for _ in range(400):
        n = int(rng.integers(1, 12))
        xp = numpy.sort(numpy.round(rng.standard_normal(n) * 3, int(rng.integers(0, 3))))
        if rng.random() < 0.2:
            xp[rng.integers(0, n)] = rng.choice([numpy.inf, -numpy.inf])
            xp.sort()
        fp = rng.standard_normal(n) * 5
        if rng.random() < 0.3:
            fp[rng.integers(0, n)] = rng.choice(specials)
        if rng.random() < 0.5:
            fp = fp + 1j * rng.standard_normal(n)
            if rng.random() < 0.3:
                fp[rng.integers(0, n)] = complex(rng.choice(specials), rng.choice(specials))
        x = numpy.concatenate([rng.standard_normal(30) * 4, xp, specials])
        left = None if rng.random() < 0.5 else float(rng.standard_normal())
        right = None if rng.random() < 0.5 else float(rng.standard_normal())
        want = numpy.interp(x, xp, fp, left, right)
        got = interp_on_host(x, xp, fp, left, right)
        numpy.testing.assert_array_equal(got.view(numpy.float64), want.view(numpy.float64))
        assert numpy.array_equal(numpy.signbit(got.view(numpy.float64)), numpy.signbit(want.view(numpy.float64)))


# -- GPU: comparisons -------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("equal_nan", [False, True])
def test_isclose(dtype, equal_nan):
    a = _values((4, 5), dtype, 0)
    b = a.copy()
    b[1] = _values((5,), dtype, 1)
    if dtype.kind in "fc":
        b[0, 0] = numpy.nan  # NaN against NaN
        b[0, 1] = -numpy.inf  # inf against -inf
        b[2] = a[2] * (1 + 1e-6)
    for x, y, kw in [(a, b, {}), (a, b, {"rtol": 0.5, "atol": 1}), (a[:, ::-2], b[:, ::-2], {}), (a, b[0], {}),
                     (a[:0], b[:0], {}), (a[0, 0], b[0, 0], {})]:
        want = numpy.isclose(x, y, equal_nan=equal_nan, **kw)
        got = cp.isclose(cp.asarray(x), cp.asarray(y), equal_nan=equal_nan, **kw)
        _same(got, want)
        _device_bool(cp.allclose(cp.asarray(x), cp.asarray(y), equal_nan=equal_nan, **kw),
                     bool(numpy.allclose(x, y, equal_nan=equal_nan, **kw)))


@gpu
@pytest.mark.parametrize("dtype", ["int8", "uint64", "float32", "complex64"])
def test_isclose_with_scalars_and_mixed_dtypes(dtype):
    a = _values((7,), dtype, 2, special=False)
    for other in (1, 2.5, 1j if dtype.startswith("complex") else -1.5, numpy.float32(0.5), True):
        _same(cp.isclose(cp.asarray(a), other), numpy.isclose(a, other))
        _same(cp.isclose(other, cp.asarray(a)), numpy.isclose(other, a))
    _same(cp.isclose(cp.asarray(a), cp.asarray(a.astype(numpy.float64))), numpy.isclose(a, a.astype(numpy.float64)))
    _same(cp.isclose(1.0, 1.0 + 1e-9), numpy.isclose(1.0, 1.0 + 1e-9))
    big = numpy.array([numpy.iinfo(numpy.int64).min, 0, 5])
    _same(cp.isclose(cp.asarray(big), cp.asarray(big)), numpy.isclose(big, big))
    with pytest.warns(RuntimeWarning):
        cp.isclose(cp.asarray(a), 1, atol=numpy.inf)


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_array_equal_and_equiv(dtype):
    a = _values((3, 4), dtype, 3)
    for x, y in [(a, a.copy()), (a, a[::-1]), (a, a.T), (a, a[:, :2]), (a[:0], a[:0]), (a[0, 0], a[0, 0]),
                 (a, a.astype(numpy.complex128))]:
        X, Y = cp.asarray(x), cp.asarray(y)
        for equal_nan in (False, True):
            _device_bool(cp.array_equal(X, Y, equal_nan=equal_nan), numpy.array_equal(x, y, equal_nan=equal_nan))
        _device_bool(cp.array_equiv(X, Y), numpy.array_equiv(x, y))
    row = a[1]
    tiled = numpy.tile(row, (3, 1))
    _device_bool(cp.array_equiv(cp.asarray(tiled), cp.asarray(row)), numpy.array_equiv(tiled, row))
    _device_bool(cp.array_equiv(cp.asarray(a), cp.asarray(a[:, :1])), numpy.array_equiv(a, a[:, :1]))
    _device_bool(cp.array_equal(cp.asarray(a), 3), numpy.array_equal(a, 3))


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@testing.numpy_cuarray_equal()
def test_isposinf_isneginf(xp, dtype):
    a = xp.asarray(_values((2, 6), dtype, 4))
    out = xp.zeros((2, 6), bool)
    r = xp.isposinf(a[:, ::-1], out)
    return xp.isposinf(a), xp.isneginf(a), r, out, xp.isneginf(a[0, 0])


@gpu
@pytest.mark.parametrize("dtype", INEXACT, ids=str)
@testing.numpy_cuarray_equal()
def test_real_if_close(xp, dtype):
    a = _values((3, 4), dtype, 5, special=False)
    small = a.real + 1e-30j if dtype.kind == "c" else a
    eps = numpy.finfo(dtype).eps
    edge = (a.real + 1j * 99 * eps).astype(dtype) if dtype.kind == "c" else a
    return (xp.real_if_close(xp.asarray(a)), xp.real_if_close(xp.asarray(small)), xp.real_if_close(xp.asarray(edge)),
            xp.real_if_close(xp.asarray(edge), tol=1e-300), xp.real_if_close(xp.asarray(a[:0])))


# -- GPU: interp and unwrap -------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("x_dtype", ["float64", "float32", "int64", "bool"])
@pytest.mark.parametrize("fp_dtype", ["float64", "float16", "int32", "complex64", "complex128"])
@testing.numpy_cuarray_equal()
def test_interp(xp, x_dtype, fp_dtype):
    rng = numpy.random.default_rng(6)
    xs = numpy.unique(numpy.round(rng.standard_normal(12) * 3, 1))[:9]
    xd = xs.copy()
    xd[4] = xd[3]  # a repeated sample point (not with period=, where the sort order of equal points would matter)
    fs = _values((9,), fp_dtype, 7, special=False)
    x = (rng.standard_normal((4, 6)) * 4).astype(x_dtype)
    if numpy.dtype(x_dtype).kind == "f":
        x[0, :4] = [numpy.nan, numpy.inf, -numpy.inf, xs[3]]
    X, XP, XD, FP = xp.asarray(x), xp.asarray(xs), xp.asarray(xd), xp.asarray(fs)
    return (xp.interp(X, XP, FP), xp.interp(X, XD, FP), xp.interp(X[:, ::-2], XP, FP, left=-7, right=9.5),
            xp.interp(X, XP[:1], FP[:1]), xp.interp(X, XP, FP, period=numpy.e), xp.interp(X[0, 0], XP, FP),
            xp.interp(X[:0], XP, FP), xp.interp(X, XP[::-1][::-1], FP[::-1][::-1], period=-numpy.pi))


@gpu
@testing.numpy_cuarray_equal()
def test_interp_special_fp(xp):
    xs = xp.asarray(numpy.array([0.0, 1.0, 2.0, 3.0, numpy.inf]))
    fs = xp.asarray(numpy.array([1.0, numpy.inf, numpy.inf, -numpy.inf, 5.0]))
    x = xp.asarray(numpy.array([0.5, 1.5, 2.5, 3.5, 1.0, numpy.inf]))
    c = xp.asarray(numpy.array([1 + 1j, complex(numpy.inf, 1), 2 + 2j, complex(1, numpy.nan), 0j]))
    return xp.interp(x, xs, fs), xp.interp(x, xs, c), xp.interp(x, xs, c, left=1j, right=2)


@gpu
@pytest.mark.parametrize("call", [
    lambda xp: xp.interp(xp.asarray([1.0]), xp.asarray(numpy.zeros(0)), xp.asarray(numpy.zeros(0))),
    lambda xp: xp.interp(xp.asarray([1.0]), xp.asarray([1.0, 2.0]), xp.asarray([3.0])),
    lambda xp: xp.interp(xp.asarray([1.0]), xp.asarray([[1.0, 2.0]]), xp.asarray([3.0, 4.0])),
    lambda xp: xp.interp(xp.asarray([1.0]), xp.asarray(1.0), xp.asarray(3.0)),
    lambda xp: xp.interp(xp.asarray([1 + 1j]), xp.asarray([1.0, 2.0]), xp.asarray([3.0, 4.0])),
    lambda xp: xp.interp(xp.asarray([1.0]), xp.asarray([1.0, 2.0]), xp.asarray([3.0, 4.0]), period=0),
    lambda xp: xp.interp(xp.asarray([1.0]), xp.asarray([[1.0, 2.0]]), xp.asarray([3.0, 4.0]), period=2),
    lambda xp: xp.interp(xp.asarray([1.0]), xp.asarray([1.0, 2.0]), xp.asarray([3.0, 4.0]), left=1j),
    lambda xp: xp.interp(xp.asarray(numpy.zeros(0)), xp.asarray(numpy.zeros(0)), xp.asarray(numpy.zeros(0)))])
@testing.numpy_cuarray_equal()
def test_interp_errors(xp, call):
    return call(xp)


@gpu
@pytest.mark.parametrize("dtype", ["int8", "int64", "float16", "float32", "float64", "bool"])
@pytest.mark.parametrize("shape, axis", [((0,), -1), ((1,), 0), ((30,), -1), ((4, 7), 0), ((4, 7), 1),
                                         ((3, 4, 5), -2)])
def test_unwrap(dtype, shape, axis):
    rng = numpy.random.default_rng(8)
    p = (rng.standard_normal(shape) * 10).astype(dtype)
    tol = {"float16": 2e-2, "float32": 1e-4}.get(dtype, 1e-12)
    for kw in [{}, {"discont": 1.0}, {"period": 5}, {"period": 6}, {"period": 7.5}, {"period": 4, "discont": 1}]:
        for src, dev in ((p, cp.asarray(p)), (numpy.flip(p, axis), cp.flip(cp.asarray(p), axis))):
            want = numpy.unwrap(src, axis=axis, **kw)
            got = cp.unwrap(dev, axis=axis, **kw)
            assert got.dtype == want.dtype and got.shape == want.shape
            numpy.testing.assert_allclose(got.get(), want, rtol=tol, atol=tol * 10)


@gpu
@testing.numpy_cuarray_allclose(rtol=1e-12)
def test_unwrap_phase_and_errors(xp):
    phase = xp.asarray(numpy.array([0.0, numpy.pi, 2 * numpy.pi, numpy.pi, 0.0, -numpy.pi, 3.5, -3.5, 0.0]))
    ints = xp.asarray(numpy.array([0, 3, 6, 9, 12, 2, -4]))
    return xp.unwrap(phase), xp.unwrap(ints, period=6), xp.unwrap(ints, period=7)


@gpu
@pytest.mark.parametrize("call", [lambda xp: xp.unwrap(xp.asarray(1.0)),
                                  lambda xp: xp.unwrap(xp.asarray(numpy.zeros(3)), axis=1)])
@testing.numpy_cuarray_equal()
def test_unwrap_errors(xp, call):
    return call(xp)


# -- GPU: window functions ---------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("M", [-3, 0, 1, 2, 5, 6, 17, 5.5, 0.5, numpy.int8(4), 1.0])
@testing.numpy_cuarray_allclose(rtol=1e-13, atol=1e-15)
def test_windows(xp, M):
    return (xp.hanning(M), xp.hamming(M), xp.blackman(M), xp.bartlett(M), xp.kaiser(M, 0), xp.kaiser(M, 1.5),
            xp.kaiser(M, 14), xp.kaiser(M, numpy.nan))


# -- GPU: bit packing --------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int64", "uint16"])
@pytest.mark.parametrize("shape", [(), (0,), (1,), (7,), (9,), (3, 10), (2, 0, 3), (4, 5, 17)])
def test_packbits(dtype, shape):
    rng = numpy.random.default_rng(9)
    a = (rng.integers(-2, 3, shape) * (rng.random(shape) < 0.5)).astype(dtype)
    d = cp.asarray(a)
    for axis in (None, 0, -1, 1, 2):
        for bitorder in ("big", "little", "bigger"):
            for x, dx in [(a, d), (a[..., ::-1], d[..., ::-1])] if a.ndim else [(a, d)]:
                try:
                    want = numpy.packbits(x, axis=axis, bitorder=bitorder)
                except Exception as e:  # noqa: BLE001 - the same exception type is expected
                    with pytest.raises(type(e)):
                        cp.packbits(dx, axis=axis, bitorder=bitorder)
                    continue
                _same(cp.packbits(dx, axis=axis, bitorder=bitorder), want)


@gpu
@pytest.mark.parametrize("shape", [(), (1,), (5,), (3, 4), (2, 3, 4)])
def test_unpackbits(shape):
    rng = numpy.random.default_rng(10)
    a = rng.integers(0, 256, shape).astype(numpy.uint8)
    d = cp.asarray(a)
    for axis in (None, 0, -1, 1, 2):
        for bitorder in ("big", "little", "l"):
            for count in (None, 0, 3, 8, 21, 40, -1, -8, -100):
                for x, dx in [(a, d), (a[..., ::-1], d[..., ::-1])] if a.ndim else [(a, d)]:
                    try:
                        want = numpy.unpackbits(x, axis=axis, count=count, bitorder=bitorder)
                    except Exception as e:  # noqa: BLE001 - the same exception type is expected
                        with pytest.raises(type(e)):
                            cp.unpackbits(dx, axis=axis, count=count, bitorder=bitorder)
                        continue
                    _same(cp.unpackbits(dx, axis=axis, count=count, bitorder=bitorder), want)


@gpu
def test_bit_packing_round_trip_and_errors():
    a = cp.asarray(numpy.random.default_rng(11).integers(0, 2, (6, 19)).astype(bool))
    for axis in (0, 1):
        for bitorder in ("big", "little"):
            packed = cp.packbits(a, axis=axis, bitorder=bitorder)
            back = cp.unpackbits(packed, axis=axis, count=a.shape[axis], bitorder=bitorder)
            assert bool(cp.array_equal(back, a.astype(numpy.uint8)))
    # Empty input padded to `count`: zeros (NumPy leaves this padding unwritten).
    _same(cp.unpackbits(cp.zeros(0, numpy.uint8), count=8), numpy.zeros(8, numpy.uint8))
    with pytest.raises(TypeError, match="integer or boolean"):
        cp.packbits(cp.ones(3))
    with pytest.raises(TypeError, match="unsigned byte"):
        cp.unpackbits(cp.ones(3, numpy.int8))
    with pytest.raises(TypeError):
        cp.unpackbits(cp.ones(3, numpy.uint8), count=2.0)
    with pytest.raises(TypeError):
        cp.unpackbits(cp.ones(3, numpy.uint8), count=True)
    with pytest.raises(ValueError, match="-count"):
        cp.unpackbits(cp.ones(1, numpy.uint8), count=-9)
    with pytest.raises(numpy.exceptions.AxisError):
        cp.packbits(cp.ones((2, 3), bool), axis=2)
    f = cp.asfortranarray(cp.ones((9, 4), bool))
    assert cp.packbits(f, axis=0).flags.f_contiguous == numpy.packbits(numpy.ones((9, 4), bool, order="F"),
                                                                       axis=0).flags.f_contiguous


# -- GPU: functional helpers -------------------------------------------------------------------------------------


@gpu
@testing.numpy_cuarray_equal()
def test_piecewise(xp):
    x = xp.asarray(numpy.linspace(-2.5, 2.5, 6))
    m = xp.asarray(numpy.arange(12.0).reshape(3, 4))
    z = xp.asarray(numpy.array(1.5))
    return (xp.piecewise(x, [x < 0, x >= 0], [-1, 1]),
            xp.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v]),
            xp.piecewise(x, [x < 0], [lambda v: -v, lambda v: v * 2]),
            xp.piecewise(x, x < 0, [lambda v: -v, lambda v: v * 2]),
            xp.piecewise(x, [x < 0, x > 1], [1, 2, 3]),
            xp.piecewise(x, [x < -10], [lambda v, k: v * k], 3),
            xp.piecewise(x[::-1], [x < 0], [lambda v, k=1: v + k], k=5),
            xp.piecewise(m, [m < 4, m > 8], [0, lambda v: v ** 2, 5]),
            xp.piecewise(m.T, [m.T < 4], [0, lambda v: v ** 2]),
            xp.piecewise(z, [True], [lambda v: v + 1]),
            xp.piecewise(z, [z > 5], [lambda v: v + 1, 7]),
            xp.piecewise(xp.asarray(numpy.arange(5)), [True, False, True, False, True], [3]))


@gpu
@pytest.mark.parametrize("call", [lambda xp, x: xp.piecewise(x, [x < 0, x > 1], [1]),
                                  lambda xp, x: xp.piecewise(x, [x < 0], [1, 2, 3]),
                                  lambda xp, x: xp.piecewise(x.reshape(3, 2), x.reshape(3, 2) < 4, [0, 1])])
@testing.numpy_cuarray_equal()
def test_piecewise_errors(xp, call):
    return call(xp, xp.asarray(numpy.arange(6.0)))


@gpu
@pytest.mark.parametrize("shape, axis", [((5,), 0), ((3, 4), 0), ((3, 4), 1), ((2, 3, 4), 1), ((2, 3, 4), -1)])
@testing.numpy_cuarray_allclose(rtol=1e-12)
def test_apply_along_axis(xp, shape, axis):
    a = xp.asarray(_values(shape, "float64", 12, special=False))
    return (xp.apply_along_axis(lambda v: v.sum(), axis, a),
            xp.apply_along_axis(lambda v: v[::-1] * 2, axis, a),
            xp.apply_along_axis(lambda v: xp.outer(v, v), axis, a),
            xp.apply_along_axis(lambda v, k: (v * k).astype(numpy.int16), axis, a, 3),
            xp.apply_along_axis(lambda v, k=0: v.max() + k, axis, a.T, k=1))


@gpu
@pytest.mark.parametrize("args", [(0, (0, 3)), (1, (0, 3)), (2, (2, 3)), (-3, (2, 3))])
@testing.numpy_cuarray_equal()
def test_apply_along_axis_edges(xp, args):
    return xp.apply_along_axis(lambda v: v.sum(), args[0], xp.zeros(args[1]))


@gpu
@pytest.mark.parametrize("axes", [0, [0, 2], (1,), [-1, 0], []])
@testing.numpy_cuarray_allclose(rtol=1e-12)
def test_apply_over_axes(xp, axes):
    a = xp.asarray(numpy.arange(24.0).reshape(2, 3, 4))
    return xp.apply_over_axes(xp.sum, a, axes), xp.apply_over_axes(lambda v, ax: xp.mean(v, axis=ax), a[:, ::-1],
                                                                   axes)


@gpu
@testing.numpy_cuarray_equal()
def test_apply_over_axes_wrong_shape(xp):
    return xp.apply_over_axes(lambda v, ax: v.sum(), xp.ones((2, 3, 4)), [0])


# -- GPU: shape and memory helpers -------------------------------------------------------------------------------


@gpu
def test_metadata_helpers_on_device_arrays():
    h = numpy.zeros((2, 3, 4), numpy.float32)
    d = cp.asarray(h)
    for x, y in [(h, d), (h[:, ::-1], d[:, ::-1]), (h.T, d.T), (h[0, 0, 0], d[0, 0, 0])]:
        assert cp.ndim(y) == numpy.ndim(x) and cp.shape(y) == numpy.shape(x) and cp.size(y) == numpy.size(x)
        assert cp.isfortran(y) == numpy.isfortran(x)
    assert cp.size(d, (0, 2)) == 8 and cp.size(d, -1) == 4
    assert cp.shape([d, d]) == (2, 2, 3, 4) and cp.ndim([d]) == 4 and cp.size([d, d]) == 48
    assert cp.common_type(d, cp.arange(3)) is numpy.float64
    assert cp.isscalar(d[0, 0, 0]) is False


@gpu
@pytest.mark.parametrize("requirements", [None, "C", "F", "CW", "O", ["A", "E"], ["aligned", "c_contiguous"],
                                          ["fortran"], "OF"])
@pytest.mark.parametrize("dtype", [None, numpy.float32])
def test_require(requirements, dtype):
    # The host base must own its memory as the device copy does, or the unchanged input's OWNDATA differs already.
    h = numpy.arange(24.0).reshape(4, 6).copy()
    for make in (lambda x: x, lambda x: x.T, lambda x: x[:, ::2], lambda x: x[::-1]):
        x, d = make(h), make(cp.asarray(h))
        assert d.flags.owndata == x.flags.owndata
        want = numpy.require(x, dtype, requirements)
        got = cp.require(d, dtype, requirements)
        _same(got, want)
        assert (got is d) == (want is x)
        assert got.flags.c_contiguous == want.flags.c_contiguous
        assert got.flags.f_contiguous == want.flags.f_contiguous
        assert got.flags.owndata == want.flags.owndata


@gpu
@pytest.mark.parametrize("dtype", ["float32", "complex64", "int16", "bool"])
def test_asarray_chkfinite(dtype):
    a = _values((3, 4), dtype, 13, special=False)
    _same(cp.asarray_chkfinite(cp.asarray(a)), numpy.asarray_chkfinite(a))
    _same(cp.asarray_chkfinite(a.tolist(), dtype=dtype), numpy.asarray_chkfinite(a.tolist(), dtype=dtype))
    if numpy.dtype(dtype).kind in "fc":
        for bad in (numpy.nan, numpy.inf):
            b = a.copy()
            b[1, 2] = bad
            with pytest.raises(ValueError, match="infs or NaNs"):
                cp.asarray_chkfinite(cp.asarray(b))


@gpu
def test_byte_bounds_and_memory_overlap():
    h = numpy.arange(60, dtype=numpy.int32).reshape(6, 10)
    d = cp.asarray(h)
    views = [lambda x: x, lambda x: x[::2, 1::3], lambda x: x[::-1, ::-2], lambda x: x.T, lambda x: x[2:4, 5],
             lambda x: x[:0], lambda x: x[1:2, 3:4], lambda x: x[:, ::-1][1:, 2:]]
    base_h, base_d = h.__array_interface__["data"][0], d.data.ptr
    for v in views:
        lo_h, hi_h = numpy.lib.array_utils.byte_bounds(v(h))
        lo_d, hi_d = cp.byte_bounds(v(d))
        assert (lo_d - base_d, hi_d - base_d) == (lo_h - base_h, hi_h - base_h)
    for v in views:
        for w in views:
            for max_work in (None, 0, -1, 100):
                for f in ("shares_memory", "may_share_memory"):
                    try:
                        want = getattr(numpy, f)(v(h), w(h), max_work=max_work)
                    except numpy.exceptions.TooHardError:
                        with pytest.raises(numpy.exceptions.TooHardError):
                            getattr(cp, f)(v(d), w(d), max_work=max_work)
                        continue
                    assert getattr(cp, f)(v(d), w(d), max_work=max_work) is want
    other = cp.asarray(h)
    assert cp.shares_memory(d, other) is False and cp.may_share_memory(d, d.copy()) is False
    assert cp.shares_memory(d, h) is False and cp.shares_memory(d, 1) is False
    x = cp.zeros(400, numpy.int8)
    with pytest.raises(numpy.exceptions.TooHardError):
        cp.shares_memory(x[::7], x[3::11], max_work=0)  # as NumPy's: the exact answer needs a search
    assert cp.shares_memory(x[::7], x[3::11]) is True and cp.may_share_memory(x[::7], x[3::11]) is True


@gpu
def test_who_prints_device_arrays():
    a = cp.arange(10)
    b = cp.ones((2, 3), numpy.float32)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        cp.who({"a": a, "b": b, "alias": a, "n": 3})
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ["Name", "Shape", "Bytes", "Type"]
    assert set(lines[1]) == {"="}
    rows = [line.split() for line in lines[3:6]]
    assert rows[0] == ["a", "10", "80", "int64"]
    assert rows[1] == ["b", "2", "x", "3", "24", "float32"]
    assert rows[2] == ["alias", "(a)", "10", "80", "int64"]
    assert lines[-1] == "Upper bound on total bytes  =       104"


# -- GPU: broadcast and flatiter ---------------------------------------------------------------------------------


@gpu
def test_broadcast_object():
    hx, hy = numpy.arange(3.0), numpy.arange(2)[:, None]
    dx, dy = cp.asarray(hx), cp.asarray(hy)
    b, nb = cp.broadcast(dx, dy, 5), numpy.broadcast(hx, hy, 5)
    assert (b.shape, b.nd, b.ndim, b.numiter, b.size, b.index) == (nb.shape, nb.nd, nb.ndim, nb.numiter, nb.size,
                                                                   nb.index)
    assert len(b.iters) == 3 and all(isinstance(it, cp.flatiter) for it in b.iters)
    first = next(b)
    assert [float(v) for v in first] == [float(v) for v in next(nb)]
    assert b.index == 1 and b.iters[0].index == 1
    b.reset()
    assert b.index == 0 and b.iters[1].index == 0
    got = [tuple(float(v) for v in t) for t in b]
    assert got == [tuple(float(v) for v in t) for t in numpy.broadcast(hx, hy, 5)]
    with pytest.raises(StopIteration):
        next(b)
    nested = cp.broadcast(b, dx)
    assert nested.numiter == 4 and nested.shape == (2, 3)
    empty = cp.broadcast()
    assert (empty.shape, empty.size, empty.numiter, list(empty)) == ((), 1, 0, [()])
    assert [v.shape for v in cp.broadcast(dx, dy).values] == [(2, 3), (2, 3)]
    with pytest.raises(ValueError, match="arg 0 with shape \\(3,\\) and arg 1 with shape \\(2,\\)"):
        cp.broadcast(dx, cp.arange(2))


@gpu
def test_flatiter_protocol():
    h = numpy.arange(6.0).reshape(2, 3)
    for x, d in [(h, cp.asarray(h)), (h.T, cp.asarray(h).T), (h[:, ::-1], cp.asarray(h)[:, ::-1])]:
        f, nf = d.flat, x.flat
        assert isinstance(f, cp.flatiter) and iter(f) is f and len(f) == len(nf)
        assert (f.index, f.coords) == (nf.index, nf.coords)
        for _ in range(4):
            v = next(f)
            assert isinstance(v, cp.ndarray) and v.shape == () and float(v) == next(nf)
            assert (f.index, f.coords) == (nf.index, nf.coords)
        rest = [float(v) for v in f]
        assert rest == [float(v) for v in nf]
        with pytest.raises(StopIteration):
            next(f)
        assert (f.index, f.coords) == (nf.index, nf.coords)
    z = cp.asarray(numpy.array(5)).flat
    assert (z.index, z.coords, float(next(z)), z.index, z.coords) == (0, (), 5.0, 1, ())
    e = cp.zeros((0, 3)).flat
    assert (e.index, e.coords, list(e)) == (0, (0, 0), [])
    d = cp.asarray(h)
    assert d.flat.base is d
    v = next(d.flat)
    v[...] = 100
    assert float(d[0, 0]) == 0.0  # next() gives a copy
    with pytest.raises(IndexError):
        d.flat[None]
    with pytest.raises(IndexError):
        d.flat[1, 2]


# -- GPU: creation and index tricks ------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("N, M, k", [(3, None, 0), (4, 2, 1), (2, 5, -1), (0, 3, 0), (3, 0, 2), (5, 5, 10),
                                     (5, 5, -10), (1, 1, 0)])
@pytest.mark.parametrize("dtype", [float, int, bool, numpy.complex64, numpy.uint8])
@testing.numpy_cuarray_equal()
def test_tri(xp, N, M, k, dtype):
    return xp.tri(N, M, k, dtype=dtype), xp.tri(N, M, k=k)


@gpu
@pytest.mark.parametrize("dtype", ["int8", "uint64", "float32", "float64", "complex64", "bool", "int64"])
@pytest.mark.parametrize("N", [None, 0, 1, 3, 7])
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_vander(xp, dtype, N):
    x = xp.asarray(_values((5,), dtype, 14, special=False))
    return xp.vander(x, N), xp.vander(x, N, increasing=True), xp.vander(x[::-2], N), xp.vander(x[:0], N)


@gpu
@pytest.mark.parametrize("call", [lambda xp: xp.vander(xp.zeros((2, 2))), lambda xp: xp.vander(xp.zeros(3), -1)])
@testing.numpy_cuarray_equal()
def test_vander_errors(xp, call):
    return call(xp)


@gpu
@testing.numpy_cuarray_equal()
def test_fromfunction_and_diag_indices(xp):
    return (xp.fromfunction(lambda i, j: i * 10 + j, (3, 4), dtype=int),
            xp.fromfunction(lambda i, j, k=1: (i + j) * k, (2, 2), k=3),
            xp.fromfunction(lambda i: i, (0,)), xp.fromfunction(lambda i, j: i - j, (3, 2)),
            xp.diag_indices(4), xp.diag_indices(3, 3), xp.diag_indices(0),
            xp.diag_indices_from(xp.zeros((3, 3, 3))), xp.diag_indices_from(xp.zeros((2, 2))[::-1]))


@gpu
@pytest.mark.parametrize("call", [lambda xp: xp.diag_indices_from(xp.zeros(3)),
                                  lambda xp: xp.diag_indices_from(xp.zeros((3, 4)))])
@testing.numpy_cuarray_equal()
def test_diag_indices_from_errors(xp, call):
    return call(xp)


@gpu
@testing.numpy_cuarray_equal()
def test_triangle_and_mask_indices(xp):
    a = xp.zeros((4, 5))
    return (xp.tril_indices(4), xp.triu_indices(4, 1, 6), xp.tril_indices_from(a, -1), xp.triu_indices_from(a, 2),
            xp.mask_indices(4, xp.triu), xp.mask_indices(5, xp.tril, -2))


GRID_KEYS = [slice(0, 5), slice(5), slice(0, 1, 5j), slice(2, 8, 2.5), slice(0, 10, 1j), slice(5, 0),
             (slice(0, 3), slice(0, 2)), (slice(0, 1, 3j), slice(-1, 1, 0.5)), (slice(0, 4, 2),),
             (slice(numpy.float32(0), numpy.float32(2)), slice(0, 2)), (slice(1, 0),), (slice(0, 2), slice(1, 1, 1j)),
             (slice(-2, 2, 4j), slice(0, 3), slice(None, 2))]


@gpu
@pytest.mark.parametrize("key", GRID_KEYS, ids=str)
@testing.numpy_cuarray_allclose(rtol=1e-14)
def test_mgrid_ogrid(xp, key):
    return xp.mgrid[key], xp.ogrid[key]


@gpu
@pytest.mark.parametrize("key", [
    lambda xp: (xp.asarray([1, 2]), 0, 3), lambda xp: (slice(0, 3), 7, xp.asarray([1.5])),
    lambda xp: ("r", xp.asarray([1, 2]), 3), lambda xp: ("c", xp.asarray([1, 2])),
    lambda xp: ("0,2", xp.asarray([1, 2]), xp.asarray([3, 4])),
    lambda xp: ("1,2,0", xp.asarray([1, 2]), xp.asarray([3, 4])),
    lambda xp: ("-1", xp.ones((2, 2)), xp.zeros((2, 1))), lambda xp: (slice(-1, 1, 5j), 0),
    lambda xp: (numpy.int8(3), xp.asarray(numpy.array([1], numpy.int8))),
    lambda xp: (2.5, xp.asarray(numpy.array([1], numpy.int8))), lambda xp: (xp.ones((2, 2)), [[5, 6]]),
    lambda xp: ([1, 2], [3.5]), lambda xp: (xp.asarray(numpy.arange(6.0).reshape(2, 3))[:, ::-1], 9),
    lambda xp: (xp.asarray(numpy.zeros((0,))), 1), lambda xp: ("r", xp.ones((2, 3)))])
@pytest.mark.parametrize("name", ["r_", "c_"])
@testing.numpy_cuarray_equal()
def test_r_c(xp, key, name):
    r = getattr(xp, name)[key(xp)]
    # NumPy's 'r'/'c' directives make numpy.matrix objects: cuarray gives the same values as a 2-D array.
    return numpy.asarray(r) if isinstance(r, numpy.matrix) else r


@gpu
def test_r_matrix_string():
    A = cp.asarray(numpy.array([[1, 2], [3, 4]]))  # noqa: N806 - NumPy's bmat example names
    B = cp.asarray(numpy.array([[5], [6]]))  # noqa: N806
    hA, hB = A.get(), B.get()  # noqa: N806,F841 - read by numpy.r_ from this frame
    got = cp.r_["A, B; A, B"]
    want = numpy.asarray(numpy.r_["hA, hB; hA, hB"])
    _same(got, want)
