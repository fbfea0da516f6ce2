"""ElementwiseKernel: parameters, placeholders, raw arguments, outputs, size=, errors; sources compiled by NVRTC."""
import numpy
import pytest

import cuarray as cp
from cuarray import testing

gpu = pytest.mark.gpu

F16 = numpy.dtype(numpy.float16)
F32 = numpy.dtype(numpy.float32)
F64 = numpy.dtype(numpy.float64)
I32 = numpy.dtype(numpy.int32)
C64 = numpy.dtype(numpy.complex64)

SQUARED_DIFF = ("float32 x, float32 y", "float32 z", "z = (x - y) * (x - y)", "squared_diff")
GENERIC = ("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff_generic")


def _compiles(kernel, *args, size=None, ndim=1):
    src = kernel._source(*args, size=size, ndim=ndim)
    assert cp._core.nvrtc_compile(src, "ek.cu", 80) > 0
    return src


# -- CPU: generated sources compile ---------------------------------------------------------------------------


@pytest.mark.parametrize("args", [(F32, F32), (F32, 5), (F64, F32), (I32, 2.5), (3, F32), (F32, F32, F32)])
@pytest.mark.parametrize("ndim", [0, 1, 2])
def test_squared_diff_sources(args, ndim):
    _compiles(cp.ElementwiseKernel(*SQUARED_DIFF), *args, ndim=ndim)


@pytest.mark.parametrize("dtype", testing.ALL_DTYPES)
def test_generic_sources_for_every_dtype(dtype):
    k = cp.ElementwiseKernel("T x, T y", "T z", "T d = x - y; z = d * d + (T)1", "gen")
    _compiles(k, dtype, dtype)
    _compiles(k, dtype, 3)


def test_several_placeholders_with_output_given():
    k = cp.ElementwiseKernel("X x, Y y", "Z z", "z = (x - y) * (x - y)", "super_generic")
    src = _compiles(k, I32, F32, F64)
    assert "typedef int X;" in src and "typedef float Y;" in src and "typedef double Z;" in src


def test_named_placeholders():
    k = cp.ElementwiseKernel("Tin x", "Tout y", "y = (Tout)(x * 2)", "named")
    _compiles(k, F32, F16)


@pytest.mark.parametrize("kw", [
    dict(loop_prep="T acc = 0; double s = scale * 2;", after_loop="acc += (T)s;"),
    dict(preamble="template <class U> __device__ U twice(U v) { return v + v; }"),
    dict(preamble="__device__ float offset() { return 1.5f; }", loop_prep="const T base = (T)offset();"),
])
def test_preamble_and_loop_prep_sources(kw):
    op = "z = twice(x) * scale" if "twice" in kw.get("preamble", "") else (
        "z = x * scale + base" if "base" in kw.get("loop_prep", "") else "z = x * scale")
    k = cp.ElementwiseKernel("T x, float64 scale", "T z", op, "prep", **kw)
    _compiles(k, F32, 2.0)
    _compiles(k, F64, 0.5, F64)


def test_raw_parameter_sources():
    add_reverse = cp.ElementwiseKernel("T x, raw T y", "T z", "z = x + y[_ind.size() - i - 1]", "add_reverse")
    _compiles(add_reverse, F32, F32)
    reverse = cp.ElementwiseKernel("raw T x", "T y", "y = x[_ind.size() - i - 1]", "reverse")
    _compiles(reverse, F64, size=10)
    sized = cp.ElementwiseKernel("raw T x", "raw T y", "y[i] = x[x.size() - 1 - i] + (T)y.size()", "sized",
                                 loop_prep="long long m = x.size();")
    src = _compiles(sized, I32, I32, size=4)
    assert "long long v" in src  # the raw sizes are kernel arguments, not constants
    boolean = cp.ElementwiseKernel("raw bool m, T x", "T y", "y = m[i] ? x : (T)0", "masked")
    _compiles(boolean, numpy.dtype(numpy.bool_), F32)


def test_raw_output_pointer_follows_hidden_inputs():
    k = cp.ElementwiseKernel("T x", "T y, raw T z", "y += x; z[i] = y + (T)z.size()", "hidden")
    _compiles(k, F32, F32, F32)


COLLIDING = ["in0", "in1", "out0", "out1", "p0", "p1", "p2", "v0", "v1", "raw0", "raw1", "raw2", "L", "e", "v",
             "d", "q", "r", "rem", "o0", "o1", "stride", "nvec", "u0", "uw", "ca_layout", "idx"]


@pytest.mark.parametrize("name", COLLIDING)
def test_parameter_names_that_the_engine_uses_work(name):
    others = [n for n in ("a", "b") if n != name]
    for in_params, out_params, op in [
        (f"T {name}, T {others[0]}", f"T {others[1]}", f"{others[1]} = {name} - {others[0]}"),
        (f"T {others[0]}, T {others[1]}", f"T {name}", f"{name} = {others[0]} - {others[1]}"),
        (f"T {others[0]}, raw T {name}", f"T {others[1]}", f"{others[1]} = {others[0]} + {name}[i]"),
        (f"T {others[0]}, T {others[1]}", f"raw T {name}", f"{name}[i] = {others[0]} * {others[1]}"),
        (f"T {others[0]}, float64 {name}", f"T {others[1]}", f"{others[1]} = {others[0]} * {name}"),
    ]:
        k = cp.ElementwiseKernel(in_params, out_params, op, "collide", loop_prep="double unused = 1;")
        args = (F32, 2.0 if "float64" in in_params else F32)
        if "raw" in out_params:
            args += (F32,)  # a raw output is never allocated: it is passed
        for ndim in (1, 3):
            _compiles(k, *args, ndim=ndim)


def test_engine_names_as_type_placeholders():
    for t in ("L", "e", "v", "d", "q", "r"):
        k = cp.ElementwiseKernel(f"{t} x", f"{t} y", f"{t} w = x; y = w + ({t})1", "ph",
                                 loop_prep="int unused = 0;")
        _compiles(k, F32)


def test_complex_spelled_as_cupy():
    k = cp.ElementwiseKernel("T x", "complex64 y", "y = complex<float>(x, -x)", "cplx")
    _compiles(k, F32)


def test_numpy_dtype_names_and_one_letter_placeholders():
    k = cp.ElementwiseKernel("float32 x, int16 y, bool b, complex128 c", "float64 z", "z = x + y + b + c.real()",
                             "names")
    src = _compiles(k, F32, numpy.dtype(numpy.int16), numpy.dtype(numpy.bool_), numpy.dtype(numpy.complex128))
    assert "ca_complex128" in src
    # One character is a placeholder even where it names a dtype ('f', 'd').
    k = cp.ElementwiseKernel("f x", "d y", "y = x", "letters")
    assert "typedef double f;" in _compiles(k, F64, numpy.dtype(numpy.int8))


def test_compile_error_raises_compile_exception():
    k = cp.ElementwiseKernel("T x", "T y", "y = undefined_name + x", "broken")
    with pytest.raises(cp.cuda.compiler.CompileException, match="undefined_name"):
        _compiles(k, F32)


# -- CPU: argument errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize("params", ["T i", "T n", "T _x", "T float", "raw T", "T x y", "T 1x"])
def test_invalid_parameter_names_raise_value_error(params):
    with pytest.raises(ValueError):
        cp.ElementwiseKernel(params, "T z", "z = 0", "bad")


# 'raw T' is a raw parameter without a name (CuPy refuses it too), not a parameter T of a placeholder type 'raw';
# nor may a placeholder type be a C++ keyword.
@pytest.mark.parametrize("ins,outs", [("float32 x", "raw T"), ("raw T", "float64 y"), ("raw float64 acc, raw T", "T y"),
                                      ("raw raw x", "float32 y"), ("for x", "float32 y"), ("float32 x", "char y")])
def test_parameter_without_name_or_with_keyword_type_raises_value_error(ins, outs):
    with pytest.raises(ValueError, match="Invalid parameter"):
        cp.ElementwiseKernel(ins, outs, "y = 0;", "bad")


def test_duplicate_names_and_placeholder_clashes_raise_value_error():
    with pytest.raises(ValueError, match="unique"):
        cp.ElementwiseKernel("T x, T x", "T z", "z = x", "dup")
    with pytest.raises(ValueError, match="placeholder"):
        cp.ElementwiseKernel("T x, U T", "T z", "z = x", "clash")
    with pytest.raises(ValueError):
        cp.ElementwiseKernel("n x", "n z", "z = x", "reserved_placeholder")


def test_unsupported_dtype_name_raises_type_error():
    with pytest.raises(TypeError):
        cp.ElementwiseKernel("object x", "T z", "z = x", "obj")


def test_wrong_number_of_arguments_raises_type_error():
    k = cp.ElementwiseKernel(*SQUARED_DIFF)
    with pytest.raises(TypeError, match="Wrong number of arguments"):
        k._source(F32)
    with pytest.raises(TypeError, match="Wrong number of arguments"):
        k._source(F32, F32, F32, F32)


def test_numpy_array_argument_raises_type_error_naming_get_and_asarray():
    k = cp.ElementwiseKernel(*SQUARED_DIFF)
    with pytest.raises(TypeError, match=r"asarray.*\.get\(\)"):
        k(numpy.ones(3, numpy.float32), numpy.ones(3, numpy.float32))


def test_call_errors_before_any_launch():
    k = cp.ElementwiseKernel(*SQUARED_DIFF)
    with pytest.raises(TypeError, match=r"ElementwiseKernel.__call__\(\) got an unexpected keyword argument 'bogus'"):
        k(1.0, 2.0, bogus=1)
    with pytest.raises(TypeError, match="Wrong number of arguments"):
        k(1.0)
    # The call is the base type's C slot: an instance whose __init__ never ran refuses to be called.
    bare = cp._core._ElementwiseCall.__new__(cp._core._ElementwiseCall)
    with pytest.raises(TypeError, match="not initialised"):
        bare(1.0, 2.0)


def test_unsupported_argument_types_raise_type_error():
    k = cp.ElementwiseKernel(*GENERIC)
    with pytest.raises(TypeError, match="list"):
        k._source([1, 2], F32)
    with pytest.raises(TypeError, match="must be a cuarray.ndarray"):
        k._source(F32, F32, 3.0)
    raw = cp.ElementwiseKernel("raw T x", "T y", "y = x[i]", "raw_scalar")
    with pytest.raises(TypeError, match="Raw argument"):
        raw._source(2.0, size=3)


def test_mismatched_placeholder_types_raise_type_error():
    k = cp.ElementwiseKernel(*GENERIC)
    with pytest.raises(TypeError, match="mismatched"):
        k._source(F32, F64)
    with pytest.raises(TypeError, match="mismatched"):
        k._source(F32, F32, F64)  # the output binds T first


def test_undeterminable_output_type_raises_type_error():
    k = cp.ElementwiseKernel("X x, Y y", "Z z", "z = x + y", "super_generic")
    with pytest.raises(TypeError, match="'Z'"):
        k._source(F32, F32)


def test_loop_size_errors():
    raw = cp.ElementwiseKernel("raw T x", "T y", "y = x[i]", "raw_only")
    with pytest.raises(ValueError, match="undecided"):
        raw._source(F32)
    k = cp.ElementwiseKernel(*GENERIC)
    with pytest.raises(ValueError, match="size"):
        k._source(F32, F32, size=4)
    with pytest.raises(ValueError, match="undecided"):
        k._source(1.0, 2.0)


def test_output_shape_must_be_the_broadcast_shape():
    k = cp.ElementwiseKernel(*GENERIC)
    from cuarray._elementwise import _FakeArray
    with pytest.raises(ValueError, match="shape"):
        k._source(_FakeArray(F32, (2, 3)), _FakeArray(F32, (3,)), _FakeArray(F32, (3,)))
    with pytest.raises(ValueError, match="broadcast"):
        k._source(_FakeArray(F32, (2,)), _FakeArray(F32, (3,)))
    _compiles(k, _FakeArray(F32, (3,)), _FakeArray(F32, (3,)), _FakeArray(F32, (2, 3)))  # inputs broadcast to out


def test_attributes():
    k = cp.ElementwiseKernel(*GENERIC, no_return=False, return_tuple=True)
    assert (k.nin, k.nout, k.nargs, k.name) == (2, 1, 3, "squared_diff_generic")
    assert [p.name for p in k.params] == ["x", "y", "z"]
    assert k.operation == GENERIC[2] and k.return_tuple and not k.no_return


# -- GPU: results against NumPy -----------------------------------------------------------------------------


@gpu
def test_squared_diff_docs_example():
    squared_diff = cp.ElementwiseKernel(*SQUARED_DIFF)
    x = cp.arange(10, dtype=numpy.float32).reshape(2, 5)
    y = cp.arange(5, dtype=numpy.float32)
    xn, yn = x.get(), y.get()
    numpy.testing.assert_array_equal(squared_diff(x, y).get(), (xn - yn) ** 2)
    numpy.testing.assert_array_equal(squared_diff(x, 5).get(), (xn - 5) ** 2)
    z = cp.empty((2, 5), dtype=numpy.float32)
    r = squared_diff(x, y, z)
    assert r is z
    numpy.testing.assert_array_equal(z.get(), (xn - yn) ** 2)


@gpu
@testing.for_dtypes([I32, F32, F64, C64, numpy.dtype(numpy.uint8), F16])
@testing.numpy_cuarray_allclose(rtol=1e-3)
def test_generic_squared_diff(xp, dtype):
    x = testing.shaped_arange((2, 5), xp, dtype)
    y = testing.shaped_reverse_arange((5,), xp, dtype)
    if xp is numpy:
        return (x - y) * (x - y)
    return cp.ElementwiseKernel(*GENERIC)(x, y)


@gpu
def test_generic_with_body_using_the_placeholder_and_non_contiguous_inputs():
    k = cp.ElementwiseKernel("T x, T y", "T z", "T diff = x - y; z = diff * diff;", "squared_diff_generic2")
    xn = numpy.arange(24, dtype=numpy.float64).reshape(4, 6)
    x = cp.asarray(xn)[:, ::2]
    y = cp.asarray(xn).T[::2, :4].T
    numpy.testing.assert_array_equal(k(x, y).get(), (xn[:, ::2] - xn.T[::2, :4].T) ** 2)


@gpu
def test_several_placeholders_need_the_output():
    k = cp.ElementwiseKernel("X x, Y y", "Z z", "z = (x - y) * (x - y)", "super_generic")
    x = cp.arange(5, dtype=numpy.int32)
    y = cp.full(5, 0.5, dtype=numpy.float32)
    z = cp.empty(5, dtype=numpy.float64)
    k(x, y, z)
    numpy.testing.assert_allclose(z.get(), (numpy.arange(5) - 0.5) ** 2)
    with pytest.raises(TypeError):
        k(x, y)


@gpu
def test_scalar_is_cast_to_the_placeholder_an_array_fixed():
    k = cp.ElementwiseKernel("T x, T y", "T z", "z = x + y", "add_cast")
    x = cp.arange(4, dtype=numpy.int32)
    r = k(x, 2.7)
    assert r.dtype == numpy.int32
    numpy.testing.assert_array_equal(r.get(), numpy.arange(4) + 2)
    r = cp.ElementwiseKernel("T x", "T y", "y = x * 2", "from_scalar")(1.25, size=3)
    assert r.dtype == numpy.float64 and r.shape == (3,)
    numpy.testing.assert_array_equal(r.get(), [2.5, 2.5, 2.5])


@gpu
def test_explicit_types_cast_arrays():
    k = cp.ElementwiseKernel("float32 x", "int16 y", "y = x * 1.5f", "explicit")
    r = k(cp.arange(6, dtype=numpy.int64))
    assert r.dtype == numpy.int16
    numpy.testing.assert_array_equal(r.get(), (numpy.arange(6) * 1.5).astype(numpy.int16))


@gpu
def test_raw_add_reverse_docs_example():
    add_reverse = cp.ElementwiseKernel("T x, raw T y", "T z", "z = x + y[_ind.size() - i - 1]", "add_reverse")
    x = cp.arange(8, dtype=numpy.float32)
    y = cp.arange(8, dtype=numpy.float32) * 10
    numpy.testing.assert_array_equal(add_reverse(x, y).get(), numpy.arange(8) + numpy.arange(8)[::-1] * 10)


@gpu
def test_raw_reverse_with_size():
    reverse = cp.ElementwiseKernel("raw T x", "T y", "y = x[_ind.size() - i - 1]", "reverse")
    xn = numpy.arange(10, dtype=numpy.int64)
    numpy.testing.assert_array_equal(reverse(cp.asarray(xn), size=10).get(), xn[::-1])
    # A raw input that is not contiguous is indexed in C order of its elements.
    x2 = cp.asarray(numpy.arange(20, dtype=numpy.int64))[::2]
    numpy.testing.assert_array_equal(reverse(x2, size=10).get(), numpy.arange(20)[::2][::-1])
    y = cp.empty(10, dtype=numpy.int64)
    assert reverse(cp.asarray(xn), y) is y
    numpy.testing.assert_array_equal(y.get(), xn[::-1])


@gpu
def test_raw_sizes_and_raw_outputs():
    k = cp.ElementwiseKernel("raw T x", "raw T y", "y[i] = x[x.size() - 1 - i] + (T)y.size()", "sized")
    x = cp.asarray(numpy.arange(6, dtype=numpy.int32))
    y = cp.zeros(6, dtype=numpy.int32)
    k(x, y, size=6)
    numpy.testing.assert_array_equal(y.get(), numpy.arange(6)[::-1] + 6)
    k2 = cp.ElementwiseKernel("T x", "T y, raw T z", "y = x * 2; z[i] = x + (T)z.size()", "two_out")
    z = cp.zeros(5, dtype=numpy.float32)
    yy, zz = k2(cp.arange(5, dtype=numpy.float32), None, z)
    assert zz is z
    numpy.testing.assert_array_equal(yy.get(), numpy.arange(5) * 2)
    numpy.testing.assert_array_equal(z.get(), numpy.arange(5) + 5)


@gpu
def test_index_i_is_the_c_order_index():
    k = cp.ElementwiseKernel("T x", "T y", "y = x * 0 + (T)i", "index")
    x = cp.zeros((3, 4), dtype=numpy.float32).T
    numpy.testing.assert_array_equal(k(x).get(), numpy.arange(12, dtype=numpy.float32).reshape(4, 3))


@gpu
def test_given_outputs_keep_what_the_operation_leaves():
    relu_into = cp.ElementwiseKernel("T x", "T y", "if (x > 0) y = x;", "keep")
    x = cp.asarray(numpy.array([-1, 2, -3, 4], numpy.float32))
    y = cp.full(4, 9.0, dtype=numpy.float32)
    relu_into(x, y)
    numpy.testing.assert_array_equal(y.get(), [9, 2, 9, 4])
    acc = cp.ElementwiseKernel("T x", "T y", "y += x", "accumulate")
    acc(x, y)
    numpy.testing.assert_array_equal(y.get(), [8, 4, 6, 8])


@gpu
def test_preamble_and_loop_prep():
    k = cp.ElementwiseKernel(
        "T x, float64 scale", "T z", "z = twice(x) * (T)scale + base",
        "prep", preamble="template <class U> __device__ U twice(U v) { return v + v; }",
        loop_prep="const T base = (T)(scale * 10);")
    x = cp.arange(5, dtype=numpy.float32)
    numpy.testing.assert_array_equal(k(x, 0.5).get(), numpy.arange(5, dtype=numpy.float32) + 5)


@gpu
def test_parameter_names_that_the_engine_uses():
    k = cp.ElementwiseKernel("T in1, T in0, raw T p0", "T out0", "out0 = in1 - in0 + p0[i]", "collide")
    a = cp.asarray(numpy.array([5, 6, 7], numpy.float64))
    b = cp.asarray(numpy.array([1, 1, 2], numpy.float64))
    numpy.testing.assert_array_equal(k(a, b, b).get(), [5, 6, 7])


@gpu
def test_no_return_and_return_tuple():
    k = cp.ElementwiseKernel("T x", "T y", "y = x + (T)1", "noret", no_return=True)
    y = cp.empty(3, dtype=numpy.float32)
    assert k(cp.zeros(3, dtype=numpy.float32), y) is None
    numpy.testing.assert_array_equal(y.get(), [1, 1, 1])
    t = cp.ElementwiseKernel("T x", "T y", "y = x", "tup", return_tuple=True)(cp.zeros(2, dtype=numpy.int8))
    assert isinstance(t, tuple) and len(t) == 1 and t[0].dtype == numpy.int8


@gpu
def test_broadcast_shapes_and_errors_on_device():
    k = cp.ElementwiseKernel(*GENERIC)
    with pytest.raises(ValueError):
        k(cp.ones(3, dtype=numpy.float32), cp.ones(4, dtype=numpy.float32))
    with pytest.raises(ValueError):
        k(cp.ones((2, 3), dtype=numpy.float32), cp.ones(3, dtype=numpy.float32), cp.empty(3, dtype=numpy.float32))
    with pytest.raises(TypeError):
        k(cp.ones(3, dtype=numpy.float32), numpy.ones(3, dtype=numpy.float32))


@gpu
def test_compile_error_on_call_raises_compile_exception():
    k = cp.ElementwiseKernel("T x", "T y", "y = undefined_name_on_call + x", "broken_call")
    with pytest.raises(cp.cuda.compiler.CompileException):
        k(cp.ones(3, dtype=numpy.float32))


@gpu
def test_stream_argument():
    k = cp.ElementwiseKernel("T x", "T y", "y = x * (T)3", "on_stream")
    s = cp.cuda.Stream()
    r = k(cp.arange(4, dtype=numpy.int32), stream=s)
    s.synchronize()
    numpy.testing.assert_array_equal(r.get(), numpy.arange(4) * 3)


@gpu
def test_warm_call_does_not_recompile():
    k = cp.ElementwiseKernel("T x, T y", "T z", "z = x * y + (T)1", "warm")
    x = cp.arange(32, dtype=numpy.float32)
    k(x, x)
    misses = cp._core.kernel_cache_stats()[1]
    for _ in range(3):
        k(x, 2.0)
        k(x, x)
    assert cp._core.kernel_cache_stats()[1] == misses + 1  # the scalar variant compiles once


# Issue 14: an output array is written as it is, so one of the wrong dtype is CuPy's TypeError ("Type is
# mismatched"), not a silent cast: for a parameter of an explicit type and for a placeholder the inputs fix.
@gpu
@pytest.mark.parametrize("positional", [True, False])
def test_output_of_wrong_dtype_is_a_type_error(positional):
    explicit = cp.ElementwiseKernel("float32 x", "float32 z", "z = x * 2", "explicit_out")
    generic = cp.ElementwiseKernel("T x", "T z", "z = x * 2", "generic_out")
    x = cp.arange(4, dtype=numpy.float32)
    for k in (explicit, generic):
        z = cp.full(4, 7.0, dtype=numpy.float64)
        with pytest.raises(TypeError):  # "Type is mismatched"; out= is no keyword of CuPy's kernels at all
            k(x, z) if positional else k(x, out=z)
        numpy.testing.assert_array_equal(z.get(), numpy.full(4, 7.0))  # nothing written
    z = cp.empty(4, dtype=numpy.float32)
    assert explicit(x, z) is z and generic(x, z) is z
    numpy.testing.assert_array_equal(z.get(), numpy.arange(4) * 2)


@gpu
def test_raw_output_of_wrong_dtype_is_a_type_error():
    k = cp.ElementwiseKernel("raw T x", "raw float32 y", "y[i] = x[i]", "raw_explicit_out")
    with pytest.raises(TypeError):
        k(cp.arange(4, dtype=numpy.float32), cp.empty(4, dtype=numpy.int32), size=4)
