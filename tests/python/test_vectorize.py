"""cuarray.vectorize against numpy.vectorize (GPU), and its compilation and argument checks without a GPU."""
import math

import numpy
import pytest

import cuarray as cp
from cuarray.jit import _compile, _interface
from cuarray.jit import _types as T

gpu = pytest.mark.gpu


def piecewise(x, y):
    if x > y:
        return x - y
    elif x < -y:
        return x * 2 + y
    return x * y


def with_math(x):
    return math.sqrt(abs(x)) + math.sin(x) * 0.5


def with_loop(n):
    acc = 0
    for k in range(n % 7):
        acc += k * k
    return acc


def _compiles(func, dtypes):
    code, name, ret = _compile.generate_device(func, "numpy", [T.Scalar(d) for d in dtypes])
    src = _interface.full_source(code) + f"\n__global__ void probe(void* p) {{ (void){name}; }}\n"
    assert cp._core.nvrtc_compile(src, "v.cu", 80, ["-std=c++17"]) > 0
    return ret


@pytest.mark.parametrize("dtype", ["?", "b", "B", "h", "i", "I", "l", "L", "e", "f", "d", "F", "D"])
def test_arithmetic_function_compiles_with_numpy_result_types(dtype):
    ret = _compiles(lambda x: x * 2 + 1, [dtype])
    assert ret.dtype == numpy.result_type(numpy.dtype(dtype), 2)  # Python literals are weak (NEP 50)


@pytest.mark.parametrize("dtypes", [("f", "f"), ("d", "i"), ("l", "l"), ("i", "f"), ("e", "e")])
def test_control_flow_function_compiles(dtypes):
    ret = _compiles(piecewise, dtypes)
    assert ret.dtype == numpy.result_type(*[numpy.dtype(d) for d in dtypes])


@pytest.mark.parametrize("dtype", ["f", "d", "i", "l"])
def test_math_function_compiles(dtype):
    ret = _compiles(with_math, [dtype])
    assert ret.kind == "f"


def test_loop_function_compiles():
    assert _compiles(with_loop, ["l"]).dtype == numpy.int64


def test_unsupported_options_raise_like_cupy():
    with pytest.raises(NotImplementedError, match="excluded"):
        cp.vectorize(piecewise, excluded={1})
    with pytest.raises(NotImplementedError, match="signature"):
        cp.vectorize(piecewise, signature="(n),()->(n)")


def test_attributes_and_doc():
    v = cp.vectorize(piecewise, otypes=[numpy.float32], doc="my doc")
    assert v.__doc__ == "my doc" and v.otypes == "f" and v.pyfunc is piecewise
    assert cp.vectorize(with_math).__doc__ is None
    assert cp.vectorize(piecewise, otypes="d").otypes == "d"


def test_function_that_cannot_compile_names_the_line():
    def bad(x):
        return undefined_name * x  # noqa: F821

    with pytest.raises(NameError, match=r"(?s)undefined_name.*line"):
        _compile.generate_device(bad, "numpy", [T.Scalar("f")])


@gpu
@pytest.mark.parametrize("dtype", ["i", "l", "f", "d"])
def test_vectorize_matches_numpy(dtype):
    rng = numpy.random.default_rng(0)
    x = (rng.standard_normal(1000) * 5).astype(dtype)
    y = (rng.random(1000) * 3).astype(dtype)
    got = cp.vectorize(piecewise)(cp.asarray(x), cp.asarray(y))
    expect = numpy.vectorize(piecewise)(x, y)
    assert got.dtype == expect.dtype
    numpy.testing.assert_allclose(got.get(), expect, rtol=1e-6)


@gpu
def test_vectorize_broadcasts_and_takes_scalars():
    x = numpy.arange(12, dtype=numpy.float64).reshape(3, 4)
    y = numpy.array([1.0, 2.0, 3.0, 4.0])
    v = cp.vectorize(piecewise)
    numpy.testing.assert_allclose(v(cp.asarray(x), cp.asarray(y)).get(), numpy.vectorize(piecewise)(x, y))
    numpy.testing.assert_allclose(v(cp.asarray(x), 2.5).get(), numpy.vectorize(piecewise)(x, 2.5))


@gpu
def test_vectorize_math_loop_lambda_and_otypes():
    x = numpy.linspace(-4, 4, 257)
    numpy.testing.assert_allclose(cp.vectorize(with_math)(cp.asarray(x)).get(), numpy.vectorize(with_math)(x),
                                  rtol=1e-12)
    n = numpy.arange(-20, 20, dtype=numpy.int64)
    numpy.testing.assert_array_equal(cp.vectorize(with_loop)(cp.asarray(n)).get(), numpy.vectorize(with_loop)(n))
    f = cp.vectorize(lambda a: a * a - 1)
    numpy.testing.assert_array_equal(f(cp.asarray(n)).get(), n * n - 1)
    g = cp.vectorize(piecewise, otypes=[numpy.float32])
    r = g(cp.asarray(x), 1.0)
    assert r.dtype == numpy.float32
    numpy.testing.assert_allclose(r.get(), numpy.vectorize(piecewise, otypes=[numpy.float32])(x, 1.0), rtol=1e-6)


@gpu
def test_vectorize_empty_and_zero_d():
    v = cp.vectorize(piecewise)
    e = v(cp.zeros(0, numpy.float32), cp.zeros(0, numpy.float32))
    assert e.shape == (0,)
    z = v(cp.asarray(numpy.float64(3.0)), 1.0)
    assert z.shape == () and float(z) == 2.0


@pytest.mark.parametrize("dtypes", [("f", "f"), ("d", "l"), ("e", "e"), ("i", "i")])
def test_whole_elementwise_kernel_compiles(dtypes):
    v = cp.vectorize(piecewise)
    kern = v._kernel(tuple(numpy.dtype(d) for d in dtypes))
    src = kern._source(*[numpy.dtype(d) for d in dtypes])
    assert "ca_jit_dev_piecewise" in src
    assert cp._core.nvrtc_compile(src, "vectorize.cu", 80, []) > 0
    src_scalar = kern._source(numpy.dtype(dtypes[0]), numpy.dtype(dtypes[1]).type(1))
    assert cp._core.nvrtc_compile(src_scalar, "vectorize.cu", 80, []) > 0


def test_otypes_cast_is_in_the_kernel():
    v = cp.vectorize(piecewise, otypes=[numpy.int16])
    kern = v._kernel((numpy.dtype("d"), numpy.dtype("d")))
    src = kern._source(numpy.dtype("d"), numpy.dtype("d"))
    assert "ca_cast<short>" in src
    assert cp._core.nvrtc_compile(src, "vectorize.cu", 80, []) > 0
