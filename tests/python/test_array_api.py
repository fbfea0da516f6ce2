"""The Array API standard 2024.12: namespace, inspection, devices, the standard's names, and its special cases.

CPU tests check the version, the inspection object, the `device=` validation done before any device use, the
presence of every name of the standard, and the complex special values of the kernels' math compiled for the
host. GPU tests compare the added functions and `descending` sorts with NumPy (or Python's sorted), device
placement, and the special values on the device.
"""
import ctypes
import inspect
import itertools
import math
import pathlib
import shutil
import subprocess
import warnings

import numpy
import pytest

import cuarray as cp

gpu = pytest.mark.gpu
ROOT = pathlib.Path(__file__).resolve().parents[2]

# The 2024.12 standard's names (its stubs' __all__ lists), by namespace.
STANDARD_NAMES = {
    "": """e inf nan newaxis pi arange asarray empty empty_like eye from_dlpack full full_like linspace meshgrid ones
        ones_like tril triu zeros zeros_like astype can_cast finfo iinfo isdtype result_type abs acos acosh add asin
        asinh atan atan2 atanh bitwise_and bitwise_left_shift bitwise_invert bitwise_or bitwise_right_shift
        bitwise_xor ceil clip conj copysign cos cosh divide equal exp expm1 floor floor_divide greater greater_equal
        hypot imag isfinite isinf isnan less less_equal log log1p log2 log10 logaddexp logical_and logical_not
        logical_or logical_xor maximum minimum multiply negative nextafter not_equal positive pow real reciprocal
        remainder round sign signbit sin sinh square sqrt subtract tan tanh trunc take take_along_axis
        __array_namespace_info__ matmul matrix_transpose tensordot vecdot broadcast_arrays broadcast_to concat
        expand_dims flip moveaxis permute_dims repeat reshape roll squeeze stack tile unstack argmax argmin
        count_nonzero nonzero searchsorted where unique_all unique_counts unique_inverse unique_values argsort sort
        cumulative_sum cumulative_prod max mean min prod std sum var all any diff bool int8 int16 int32 int64 uint8
        uint16 uint32 uint64 float32 float64 complex64 complex128 __array_api_version__""",
    "linalg": """cholesky cross det diagonal eigh eigvalsh inv matmul matrix_norm matrix_power matrix_rank
        matrix_transpose outer pinv qr slogdet solve svd svdvals tensordot trace vecdot vector_norm""",
    "fft": "fft ifft fftn ifftn rfft irfft rfftn irfftn hfft ihfft fftfreq rfftfreq fftshift ifftshift",
}
ARRAY_MEMBERS = """__abs__ __add__ __and__ __array_namespace__ __bool__ __complex__ __dlpack__ __dlpack_device__ __eq__
    __float__ __floordiv__ __ge__ __getitem__ __gt__ __index__ __int__ __invert__ __le__ __lshift__ __lt__ __matmul__
    __mod__ __mul__ __ne__ __neg__ __or__ __pos__ __pow__ __rshift__ __setitem__ __sub__ __truediv__ __xor__
    to_device dtype device mT ndim shape size T""".split()

BAD_DEVICES = ["cpu", "cuda:x", "gpu:", "tpu", True, 1.5, -1, (2, 0)]


# --- CPU: namespace, version, inspection ------------------------------------------------------------------------

def test_every_standard_name_exists():
    missing = []
    for ns, names in STANDARD_NAMES.items():
        mod = getattr(cp, ns) if ns else cp
        missing += [f"{ns}.{n}" if ns else n for n in names.split() if not hasattr(mod, n)]
    missing += [f"ndarray.{n}" for n in ARRAY_MEMBERS if not hasattr(cp.ndarray, n)]
    assert not missing


def test_version_and_namespace_versions():
    assert cp.__array_api_version__ == "2024.12"
    namespace = cp.ndarray.__array_namespace__
    for version in (None, "2021.12", "2022.12", "2023.12", "2024.12"):
        assert namespace(None, api_version=version) is cp
    for bad in ("2019.12", "2025.12", "2024"):
        with pytest.raises(ValueError, match="not supported"):
            namespace(None, api_version=bad)
    with pytest.raises(ValueError):
        namespace(None, api_version=2024.12)
    with pytest.raises(TypeError):
        namespace(None, "2024.12")  # keyword-only, as in NumPy


def test_info_object_matches_numpys_shape():
    info = cp.__array_namespace_info__()
    ref = numpy.__array_namespace_info__()
    assert info.capabilities() == {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}
    assert info.default_dtypes() == ref.default_dtypes()
    assert info.default_dtypes(device=None) == ref.default_dtypes()
    kinds = [None, "bool", "signed integer", "unsigned integer", "integral", "real floating", "complex floating",
             "numeric", ("bool", "real floating"), ("integral", "complex floating")]
    for kind in kinds:
        assert info.dtypes(kind=kind) == ref.dtypes(kind=kind), kind
    with pytest.raises(ValueError):
        info.dtypes(kind="floating")
    devices = info.devices()
    assert isinstance(devices, list)
    assert all(isinstance(d, cp.cuda.Device) for d in devices)
    assert len(devices) == cp._core.device_count_or_zero()
    assert isinstance(info.default_device(), cp.cuda.Device)
    if devices:
        assert info.default_device() in devices
        assert info.dtypes(device=devices[0]) == ref.dtypes()
    for name in ("default_dtypes", "dtypes"):
        params = inspect.signature(getattr(info, name)).parameters
        assert all(p.kind is p.KEYWORD_ONLY for p in params.values())


@pytest.mark.parametrize("bad", BAD_DEVICES, ids=repr)
def test_unknown_devices_are_value_errors_before_device_use(bad):
    info = cp.__array_namespace_info__()
    calls = [lambda: info.dtypes(device=bad), lambda: info.default_dtypes(device=bad),
             lambda: cp.zeros(3, device=bad), lambda: cp.empty((2, 2), device=bad), lambda: cp.ones(2, device=bad),
             lambda: cp.full(2, 1.5, device=bad), lambda: cp.arange(4, device=bad),
             lambda: cp.linspace(0, 1, 5, device=bad), lambda: cp.eye(3, device=bad),
             lambda: cp.asarray([1, 2], device=bad), lambda: cp.fft.fftfreq(8, device=bad),
             lambda: cp.fft.rfftfreq(8, device=bad)]
    for call in calls:
        with pytest.raises(ValueError):
            call()


def test_device_numbers_beyond_the_devices_are_value_errors():
    n = cp._core.device_count_or_zero()
    if n == 0:
        pytest.skip("without a device the first device use reports that instead")
    for bad in (n, "cuda:%d" % n, 1 << 40):
        with pytest.raises(ValueError):
            cp._core.device_arg(bad)


def test_device_arg_names():
    assert cp._core.device_arg(None) == -1
    current = cp._core.get_device_id()
    assert cp._core.device_arg("cuda") == current
    assert cp._core.device_arg("gpu") == current
    if cp._core.device_count_or_zero():
        assert cp._core.device_arg(0) == 0
        assert cp._core.device_arg("cuda:0") == 0
        assert cp._core.device_arg(cp.cuda.Device(0)) == 0
        assert cp._core.device_arg(numpy.int64(0)) == 0


def test_signatures_of_the_added_names():
    assert str(inspect.signature(cp.astype)) == "(x, dtype, /, *, copy=True, device=None)"
    assert str(inspect.signature(cp.ndarray.to_device)) == "(self, device, /, *, stream=None)"
    assert cp.concat is cp.concatenate
    for f in (cp.zeros, cp.ones, cp.empty, cp.full, cp.empty_like, cp.zeros_like, cp.ones_like, cp.full_like,
              cp.arange, cp.linspace, cp.eye, cp.asarray, cp.from_dlpack):
        assert "device=None" in (f.__doc__ or "") + str(_signature(f)), f.__name__
    for f in (cp.sort, cp.argsort):
        assert "descending" in (f.__doc__ or "") + str(_signature(f))


def _signature(f):
    try:
        return inspect.signature(f)
    except (TypeError, ValueError):
        return ""


def test_astype_refuses_non_arrays():
    with pytest.raises(TypeError):
        cp.astype([1, 2], cp.int8)
    with pytest.raises(TypeError):
        numpy.astype([1, 2], numpy.int8)


def test_dtype_helpers_on_dtypes_match_numpy():
    for t in (cp.float32, cp.float64, cp.complex64, cp.complex128):
        assert cp.finfo(t).dtype == numpy.finfo(t).dtype
        assert cp.finfo(t).eps == numpy.finfo(t).eps
    for t in (cp.int8, cp.uint16, cp.int64, cp.uint64):
        assert (cp.iinfo(t).min, cp.iinfo(t).max) == (numpy.iinfo(t).min, numpy.iinfo(t).max)
    for args in [(cp.int8, cp.uint8), (cp.float32, 1.0), (cp.int16, cp.complex64, 1j), (cp.bool, cp.bool)]:
        assert cp.result_type(*args) == numpy.result_type(*args)
    assert cp.can_cast(cp.int8, cp.int16) and not cp.can_cast(cp.float64, cp.float32)
    assert cp.isdtype(cp.float32, "real floating") and not cp.isdtype(cp.int8, ("bool", "complex floating"))


# --- complex special values -------------------------------------------------------------------------------------

_PARTS = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, math.inf, -math.inf, math.nan, 1e300, -1e300]
_SPECIAL_FUNCS = {"acos": "arccos", "acosh": "arccosh", "asin": "arcsin", "asinh": "arcsinh", "atan": "arctan",
                  "atanh": "arctanh", "tanh": "tanh", "tan": "tan", "sinh": "sinh", "cosh": "cosh", "sin": "sin",
                  "cos": "cos", "exp": "exp", "log": "log", "sqrt": "sqrt", "expm1": "expm1", "log1p": "log1p",
                  "log2": "log2", "log10": "log10"}
# The Array API's cases that C99 before C11 (and so older libraries) got otherwise: NumPy's results, and the
# standard's, where it fixes them.
_STANDARD_CASES = [
    ("acos", complex(0.0, math.nan), (math.pi / 2, math.nan)),
    ("acos", complex(-0.0, math.nan), (math.pi / 2, math.nan)),
    ("acosh", complex(0.0, math.nan), (math.nan, math.pi / 2)),
    ("tanh", complex(0.0, math.inf), (0.0, math.nan)),
    ("tanh", complex(0.0, math.nan), (0.0, math.nan)),
    ("tanh", complex(-0.0, -math.inf), (-0.0, math.nan)),
    ("tanh", complex(math.inf, math.nan), (1.0, 0.0)),
    ("acos", complex(0.0, 0.0), (math.pi / 2, -0.0)),
    ("acosh", complex(-0.0, 0.0), (0.0, math.pi / 2)),
    ("acos", complex(-math.inf, math.inf), (3 * math.pi / 4, -math.inf)),
    ("acosh", complex(-math.inf, math.inf), (math.inf, 3 * math.pi / 4)),
]


def _same(got, want, rel=4e-16):
    """Equal parts, the same signs of zero, NaN where NumPy has NaN (each part on its own)."""
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        if math.isnan(w) or math.isnan(g):
            if not (math.isnan(w) and math.isnan(g)):
                return False
        elif g != w and not abs(g - w) <= rel * max(abs(g), abs(w)):
            return False
        elif g == 0 and math.copysign(1, g) != math.copysign(1, w):
            return False
    return True


def _numpy_values(func, zs, dtype):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(numpy, _SPECIAL_FUNCS[func])(zs.astype(dtype))


def _special_grid():
    return numpy.array([complex(a, b) for a, b in itertools.product(_PARTS, _PARTS)])


@pytest.fixture(scope="module")
def host_complex_math(tmp_path_factory):
    """The kernels' complex math (src/engine/device/ca_complex_math.cuh) compiled for the host."""
    cxx = shutil.which("g++") or shutil.which("c++")
    if not cxx:
        pytest.skip("no host C++ compiler")
    body = "\n".join(f'  if (!strcmp(name, "{f}")) {{ ca_complex128 r = ca_c_{f}(z); out[0] = r.re; out[1] = r.im; '
                     "return 0; }" for f in _SPECIAL_FUNCS)
    src = tmp_path_factory.mktemp("cm") / "cm.cpp"
    src.write_text('#include "ca_complex_math.cuh"\n#include <string.h>\n'
                   'extern "C" int eval(const char* name, double re, double im, double* out) {\n'
                   "  ca_complex128 z(re, im);\n" + body + "\n  return 1;\n}\n")
    lib = src.with_suffix(".so")
    r = subprocess.run([cxx, "-std=c++17", "-O1", "-fPIC", "-shared", "-w", f"-I{ROOT / 'src/engine/device'}",
                        str(src), "-o", str(lib)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-4000:]
    dll = ctypes.CDLL(str(lib))
    out = (ctypes.c_double * 2)()

    def evaluate(func, z):
        assert dll.eval(func.encode(), ctypes.c_double(z.real), ctypes.c_double(z.imag), out) == 0
        return complex(out[0], out[1])
    return evaluate


@pytest.mark.parametrize("func", sorted(_SPECIAL_FUNCS))
def test_host_complex_special_values_match_numpy(host_complex_math, func):
    zs = _special_grid()
    want = _numpy_values(func, zs, numpy.complex128)
    bad = [(z, host_complex_math(func, z), w) for z, w in zip(zs, want) if not _same(host_complex_math(func, z), w)]
    assert not bad


@pytest.mark.parametrize("func,z,want", _STANDARD_CASES)
def test_host_complex_standard_cases(host_complex_math, func, z, want):
    assert _same(host_complex_math(func, z), complex(*want))
    assert _same(complex(_numpy_values(func, numpy.array([z]), numpy.complex128)[0]), complex(*want))


def test_host_acosh_of_a_subnormal_imaginary_part_keeps_its_real_part(host_complex_math):
    # acosh(1 + iy) = sqrt(y) (1 + i) to first order: 5e-324 must not underflow to a zero real part.
    z = complex(1.0, 5e-324)
    assert _same(host_complex_math("acosh", z), complex(numpy.arccosh(z)))
    assert _same(host_complex_math("asin", z), complex(numpy.arcsin(z)))


@gpu
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("func", sorted(_SPECIAL_FUNCS))
def test_gpu_complex_special_values_match_numpy(func, dtype):
    zs = _special_grid()
    want = _numpy_values(func, zs, dtype)
    got = getattr(cp, func)(cp.asarray(zs.astype(dtype))).get()
    assert got.dtype == want.dtype
    # A few ulps: the device's libm and glibc (NumPy's) differ in the last bits, and complex64 is computed in
    # double and rounded once (Note [complex math precision]) where NumPy uses glibc's float functions.
    rel = 1e-15 if dtype == "complex128" else 1e-6
    bad = [(z, g, w) for z, g, w in zip(zs, got, want) if not _same(complex(g), complex(w), rel)]
    assert not bad


@gpu
@pytest.mark.parametrize("func,z,want", _STANDARD_CASES)
def test_gpu_complex_standard_cases(func, z, want):
    for dtype in ("complex64", "complex128"):
        got = getattr(cp, func)(cp.asarray(numpy.array([z], dtype=dtype))).get()[0]
        assert _same(complex(got), complex(*want), 2e-7), dtype


# --- GPU: arrays, devices, the added names ----------------------------------------------------------------------

@gpu
def test_array_namespace_and_mT():
    x = cp.arange(24.0).reshape(2, 3, 4)
    assert x.__array_namespace__() is cp
    assert x.__array_namespace__(api_version="2023.12") is cp
    with pytest.raises(ValueError):
        x.__array_namespace__(api_version="2030.12")
    numpy.testing.assert_array_equal(x.mT.get(), numpy.arange(24.0).reshape(2, 3, 4).swapaxes(-1, -2))
    assert x.device == cp.cuda.Device(cp._core.get_device_id())


@gpu
@pytest.mark.parametrize("device", ["object", "int", "cuda", "cuda:N", "info"])
def test_creation_functions_place_arrays_on_the_device(device):
    d = cp._core.get_device_id()
    dev = {"object": cp.cuda.Device(d), "int": d, "cuda": "cuda", "cuda:N": f"cuda:{d}",
           "info": cp.__array_namespace_info__().default_device()}[device]
    base = cp.arange(6, dtype=cp.float32).reshape(2, 3)
    made = {
        "zeros": (cp.zeros((2, 3), device=dev), numpy.zeros((2, 3))),
        "ones": (cp.ones(4, dtype=cp.int8, device=dev), numpy.ones(4, numpy.int8)),
        "empty": (cp.empty(0, device=dev), numpy.empty(0)),
        "full": (cp.full((2,), 7, device=dev), numpy.full((2,), 7)),
        "zeros_like": (cp.zeros_like(base, device=dev), numpy.zeros((2, 3), numpy.float32)),
        "ones_like": (cp.ones_like(base, device=dev), numpy.ones((2, 3), numpy.float32)),
        "full_like": (cp.full_like(base, 2.5, device=dev), numpy.full((2, 3), 2.5, numpy.float32)),
        "empty_like": (cp.empty_like(base, device=dev), numpy.empty((2, 3), numpy.float32)),
        "arange": (cp.arange(1, 10, 2, device=dev), numpy.arange(1, 10, 2)),
        "linspace": (cp.linspace(0, 1, 5, device=dev), numpy.linspace(0, 1, 5)),
        "eye": (cp.eye(3, k=1, device=dev), numpy.eye(3, k=1)),
        "asarray": (cp.asarray([[1, 2]], device=dev), numpy.asarray([[1, 2]])),
        "fftfreq": (cp.fft.fftfreq(6, 0.5, device=dev), numpy.fft.fftfreq(6, 0.5)),
        "rfftfreq": (cp.fft.rfftfreq(6, device=dev), numpy.fft.rfftfreq(6)),
        "from_dlpack": (cp.from_dlpack(base, device=dev), numpy.arange(6, dtype=numpy.float32).reshape(2, 3)),
        "astype": (cp.astype(base, cp.float64, device=dev), numpy.arange(6.0).reshape(2, 3)),
    }
    for name, (got, want) in made.items():
        assert got.device == cp.cuda.Device(d), name
        assert got.shape == want.shape and got.dtype == want.dtype, name
        if "empty" not in name:
            numpy.testing.assert_array_equal(got.get(), want, err_msg=name)


@gpu
def test_asarray_with_device_keeps_an_array_that_is_there():
    x = cp.arange(5)
    assert cp.asarray(x, device=x.device) is x
    assert cp.asarray(x, device=x.device, copy=False) is x
    y = cp.asarray(x, device=x.device, copy=True)
    assert y is not x and y.device == x.device


@gpu
def test_to_device():
    x = cp.arange(10.0)
    assert x.to_device(x.device) is x
    assert x.to_device(x._device_id) is x
    assert x.to_device("cuda") is x
    s = cp.cuda.Stream()
    assert x.to_device(x.device, stream=s) is x
    for bad in BAD_DEVICES:
        with pytest.raises(ValueError):
            x.to_device(bad)
    with pytest.raises(TypeError):
        x.to_device(None)
    with pytest.raises(ValueError):
        cp.empty_like(x, device="cpu")


@gpu
def test_to_device_between_devices():
    if cp._core.device_count_or_zero() < 2:
        pytest.skip("needs two devices")
    x = cp.arange(12.0).reshape(3, 4)[:, ::2]
    with cp.cuda.Device(1):
        s = cp.cuda.Stream()
    for stream in (None, s):
        y = x.to_device(cp.cuda.Device(1), stream=stream)
        assert y.device == cp.cuda.Device(1)
        numpy.testing.assert_array_equal(y.get(), x.get())
    z = cp.zeros(3, device=1)
    assert z.device == cp.cuda.Device(1) and cp._core.get_device_id() == 0
    w = cp.asarray(x, device=1)
    assert w.device == cp.cuda.Device(1)
    with pytest.raises(ValueError):
        cp.asarray(x, device=1, copy=False)


@gpu
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float32", "complex128"])
def test_astype_matches_numpy(dtype):
    # Values every target holds (out-of-range float-to-integer casts are undefined in C, so not compared).
    h = (numpy.arange(12).reshape(3, 4) * 1.5).astype(dtype)
    x = cp.asarray(h)
    for target in ("bool", "int32", "uint8", "float64", "complex64", dtype):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = numpy.astype(h, target)
            got = cp.astype(x, target)
        assert got.dtype == want.dtype
        numpy.testing.assert_array_equal(got.get(), want)
        assert got is not x
    assert cp.astype(x, dtype, copy=False) is x
    assert cp.astype(x, "float64", copy=False) is not x
    assert numpy.astype(x, "float64").__class__ is cp.ndarray  # NumPy's call dispatches here


@gpu
def test_concat_and_dtype_helpers_take_arrays():
    a, b = numpy.arange(6).reshape(2, 3), numpy.ones((1, 3), numpy.float32)
    got = cp.concat([cp.asarray(a), cp.asarray(b)], axis=0)
    want = numpy.concat([a, b], axis=0)
    assert got.dtype == want.dtype
    numpy.testing.assert_array_equal(got.get(), want)
    x8, xf = cp.zeros(2, cp.int8), cp.zeros(2, cp.float32)
    assert cp.result_type(x8, xf) == numpy.float32
    assert cp.result_type(x8, 1) == numpy.int8 and cp.result_type(x8, 1.0) == numpy.float64
    assert numpy.result_type(x8, cp.uint8) == numpy.int16  # NumPy's own call dispatches here
    assert cp.can_cast(x8, cp.int16) and not cp.can_cast(xf, cp.int8)
    assert cp.finfo(xf).dtype == numpy.float32 and cp.finfo(cp.zeros(1, cp.complex128)).dtype == numpy.float64
    assert cp.iinfo(x8).max == 127


@gpu
def test_unique_results_are_numpys_named_tuples():
    h = numpy.array([3, 1, 3, 2, 1, 3])
    x = cp.asarray(h)
    for name in ("unique_all", "unique_counts", "unique_inverse"):
        got, want = getattr(cp, name)(x), getattr(numpy, name)(h)
        assert type(got).__name__ == type(want).__name__
        assert got._fields == want._fields
        for g, w in zip(got, want):
            numpy.testing.assert_array_equal(g.get(), w)
    # NumPy's unique_values uses a hash table where it can, so its order is unspecified ("may vary" in its docs).
    numpy.testing.assert_array_equal(numpy.sort(cp.unique_values(x).get()), numpy.sort(numpy.unique_values(h)))


def _sorted_reference(h, axis, descending):
    """Python's sorted per line along `axis` (stable, also with reverse=True): values and order."""
    moved = numpy.moveaxis(h, axis, -1)
    order = numpy.empty(moved.shape, numpy.int64)
    for idx in numpy.ndindex(moved.shape[:-1]):
        line = moved[idx].tolist()
        order[idx] = sorted(range(len(line)), key=line.__getitem__, reverse=descending)
    values = numpy.take_along_axis(moved, order, -1)
    return numpy.moveaxis(values, -1, axis), numpy.moveaxis(order, -1, axis)


@gpu
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int32", "uint64", "float16", "float32", "float64"])
@pytest.mark.parametrize("shape,axis", [((0,), -1), ((1,), 0), ((37,), -1), ((4, 9), 0), ((4, 9), 1),
                                        ((3, 1, 70), -1), ((5, 6), -2)])
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("stable", [None, True, False])
def test_sort_and_argsort_descending_are_stable(dtype, shape, axis, descending, stable):
    rng = numpy.random.default_rng(7)
    h = rng.integers(0, 4, shape).astype(dtype)  # many ties
    x = cp.asarray(h)
    want_values, want_order = _sorted_reference(h, axis, descending)
    got = cp.argsort(x, axis=axis, descending=descending, stable=stable)
    assert got.dtype == numpy.int64 and got.shape == h.shape
    numpy.testing.assert_array_equal(got.get(), want_order)
    got_values = cp.sort(x, axis=axis, descending=descending, stable=stable)
    assert got_values.dtype == h.dtype
    numpy.testing.assert_array_equal(got_values.get(), want_values)


def _descending_order(line):
    """NumPy 2.5's stable descending order of a 1-D host array, by Python's sorted: values from the largest down
    (-0.0 and 0.0 equal), then the NaNs (complex: R+nanj, then nan+Rj, then nan+nanj, each class from its largest
    non-NaN part down); ties keep their order."""
    def key(i):
        v = complex(line[i])
        re_nan, im_nan = math.isnan(v.real), math.isnan(v.imag)
        return 2 * re_nan + im_nan, 0.0 if re_nan else -v.real, 0.0 if im_nan else -v.imag
    return sorted(range(len(line)), key=key)


_HAS_DESCENDING = numpy.lib.NumpyVersion(numpy.__version__) >= "2.5.0"


@gpu
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128"])
def test_descending_sort_puts_nans_last_as_numpy_does(dtype):
    nan, inf = numpy.nan, numpy.inf
    row = [1.0, nan, -inf, 2.0, nan, 0.0, inf, -3.0, -0.0, 2.0, 0.0]
    if dtype.startswith("complex"):
        row += [complex(1, nan), complex(nan, 2), complex(nan, nan), complex(3, nan), complex(nan, -1), complex(2, 5),
                complex(2, -5)]
    h = numpy.array([row, row[::-1], row[3:] + row[:3]], dtype=dtype)
    x = cp.asarray(h)
    order = numpy.array([_descending_order(line) for line in h])
    want = numpy.take_along_axis(h, order, -1)
    numpy.testing.assert_array_equal(cp.argsort(x, descending=True).get(), order)
    numpy.testing.assert_array_equal(cp.argsort(x, descending=True, stable=True).get(), order)
    got = cp.sort(x, descending=True).get()
    assert got.tobytes() == want.tobytes()  # the input's bits, zeros' signs and ties' order included
    y = x.copy()
    y.sort(descending=True)
    assert y.get().tobytes() == want.tobytes()
    numpy.testing.assert_array_equal(x.argsort(descending=True).get(), order)
    # axis=None sorts the flattened array; axis=0 the columns
    flat = numpy.array(_descending_order(h.ravel()))
    numpy.testing.assert_array_equal(cp.argsort(x, axis=None, descending=True).get(), flat)
    assert cp.sort(x, axis=None, descending=True).get().tobytes() == h.ravel()[flat].tobytes()
    cols = numpy.array([_descending_order(line) for line in h.T]).T
    numpy.testing.assert_array_equal(cp.argsort(x, axis=0, descending=True).get(), cols)
    # descending=None and False are ascending
    for flag in (None, False):
        numpy.testing.assert_array_equal(cp.argsort(x, descending=flag).get(), numpy.argsort(h, stable=True))
    if _HAS_DESCENDING:
        numpy.testing.assert_array_equal(got, numpy.sort(h, descending=True))
        numpy.testing.assert_array_equal(cp.argsort(x, descending=True, stable=True).get(),
                                         numpy.argsort(h, descending=True, stable=True))


@gpu
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int64", "uint64"])
def test_descending_sort_of_integers_at_their_limits(dtype):
    info = numpy.iinfo(dtype) if dtype != "bool" else None
    values = [False, True] if info is None else [info.min, 0, 1, info.max, info.min + 1, info.max - 1]
    h = numpy.array(values * 3, dtype=dtype)
    x = cp.asarray(h)
    order = sorted(range(h.size), key=lambda i: h[i].item(), reverse=True)
    numpy.testing.assert_array_equal(cp.argsort(x, descending=True).get(), order)
    numpy.testing.assert_array_equal(cp.sort(x, descending=True).get(), h[order])


def test_descending_with_kind_is_refused_before_device_use():
    # NumPy 2.5: `kind` goes with neither stable= nor descending= (None counts as not given).
    for f in (cp.sort, cp.argsort):
        with pytest.raises(ValueError, match="at the same time"):
            f([3, 1, 2], kind="stable", descending=True)
        with pytest.raises(ValueError, match="at the same time"):
            f([3, 1, 2], kind="quicksort", descending=False)
        if _HAS_DESCENDING:
            with pytest.raises(ValueError, match="at the same time"):
                getattr(numpy, f.__name__)([3, 1, 2], kind="quicksort", descending=False)


@gpu
def test_argsort_descending_of_a_non_contiguous_view():
    h = numpy.arange(40).reshape(5, 8)[::-1, ::2] % 3
    x = cp.asarray(numpy.arange(40).reshape(5, 8))[::-1, ::2] % 3
    for axis in (0, 1, -1):
        want_values, want_order = _sorted_reference(h, axis, True)
        numpy.testing.assert_array_equal(cp.argsort(x, axis=axis, descending=True).get(), want_order)
        numpy.testing.assert_array_equal(cp.sort(x, axis=axis, descending=True).get(), want_values)


@gpu
@pytest.mark.parametrize("dtype", [None, "float32", "float64"])
def test_fftfreq_dtype(dtype):
    for name in ("fftfreq", "rfftfreq"):
        got = getattr(cp.fft, name)(7, d=0.25, dtype=dtype)
        want = getattr(numpy.fft, name)(7, d=0.25).astype(dtype or "float64")
        assert got.dtype == want.dtype
        numpy.testing.assert_allclose(got.get(), want, rtol=1e-6)
    with pytest.raises(ValueError):
        cp.fft.fftfreq(4, dtype="int32")
