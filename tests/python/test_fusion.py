"""cuarray.fuse against NumPy: dtypes, broadcasting, layouts, scalars, outputs, in-place updates, caching, errors."""
import numpy
import pytest

import cuarray as cp
from cuarray import testing

gpu = pytest.mark.gpu

F32 = numpy.dtype(numpy.float32)
F64 = numpy.dtype(numpy.float64)
I8 = numpy.dtype(numpy.int8)
I32 = numpy.dtype(numpy.int32)
C64 = numpy.dtype(numpy.complex64)


def _xyz(x, y, z):
    return x * y + z


def _compiles(fused, *args, ndim=1):
    src = fused._source(*args, ndim=ndim)
    assert cp._core.nvrtc_compile(src, "fused.cu", 80) > 0
    return src


# -- CPU: tracing and the generated source (NVRTC needs no device) --------------------------------------------


@pytest.mark.parametrize("dtype", [I8, I32, F32, F64, C64, numpy.dtype(numpy.float16), numpy.dtype(numpy.bool_),
                                   numpy.dtype(numpy.uint64)])
@pytest.mark.parametrize("ndim", [0, 1, 3])
def test_source_of_xyz_compiles(dtype, ndim):
    _compiles(cp.fuse(_xyz), dtype, dtype, dtype, ndim=ndim)


@pytest.mark.parametrize("args", [(I8, F32, F64), (I8, 2.5, 3), (F32, 2, True), (C64, 1j, numpy.float64(2)),
                                  (2, 3.5, 4), (numpy.int16(3), I32, 2.0), (F64, 2 ** 63, 1)])
def test_source_with_mixed_dtypes_and_scalars_compiles(args):
    ndim = 1 if any(isinstance(a, numpy.dtype) for a in args) else 0
    _compiles(cp.fuse(_xyz), *args, ndim=ndim)


def test_scalar_arguments_are_kernel_inputs_not_constants():
    f = cp.fuse(lambda x, a: x * a)
    src = f._source(F32, 2.5)
    assert "2.5" not in src
    assert "double v1" in src  # a Python float is passed by value as a double


def test_python_constants_are_weak():
    f = cp.fuse(lambda x: x + 2.5)
    src = f._source(I8)
    assert "ca_store<double>" in src  # int8 + 2.5 -> float64 (NEP 50)
    src = f._source(F32)
    assert "ca_store<float>" in src  # float32 + 2.5 -> float32


def test_numpy_scalar_constants_are_strong():
    f = cp.fuse(lambda x: x + numpy.float64(1))
    assert "ca_store<double>" in f._source(F32)


CHAINS = [
    lambda x, y: numpy.where(x > y, numpy.sin(x), numpy.exp(y)),
    lambda x, y: cp.maximum(cp.sin(x) * 2, cp.exp(-y)) - 1,
    lambda x, y: cp.where(x < 0.5, x, y) ** 2,
    lambda x, y: (abs(-x) // (y + 1), x % 3, divmod(x, 2)[1]),
    lambda x, y: (x.astype(numpy.float16) + y).astype(numpy.int32),
    lambda x, y: ((x + 1j * y).real, (x + 1j * y).imag, (x + 2j).conj()),
    lambda x, y: cp.clip(x, 0.5, y) + cp.around(y) + numpy.clip(y, 1, None),
    lambda x, y: (x > 1) & (y < 3) | ~(x == y) ^ (x != 2),
]


@pytest.mark.parametrize("k", range(len(CHAINS)))
@pytest.mark.parametrize("dtype", [F32, F64])
def test_source_of_chains_compiles(k, dtype):
    _compiles(cp.fuse(CHAINS[k]), dtype, dtype)


def test_source_of_integer_operators_compiles():
    def f(x, y):
        return (x << 2) >> y, x & y, x | 3, x ^ y, ~x, -x, +x, x // y, x % y
    _compiles(cp.fuse(f), I32, numpy.dtype(numpy.uint8))

    def g(x, y):
        return x ** 2, 7 - x, 7 // x, divmod(y, x)[1], abs(x)
    _compiles(cp.fuse(g), I32, numpy.dtype(numpy.uint8))


def test_source_of_inplace_update_compiles():
    def f(x, y):
        x += y
        x *= 2
        return x + 1
    src = _compiles(cp.fuse(f), F32, F64)
    assert src.count("ca_store<float>") == 2  # the returned value and the update of x (kept float32)


def test_kernel_name_is_the_function_name_or_kernel_name():
    def fma(x, y, z):
        return x * y + z
    assert "cuarray_fma_ew" in _compiles(cp.fuse(fma), F32, F32, F32)
    assert "cuarray_my_kernel_ew" in _compiles(cp.fuse(kernel_name="my_kernel")(fma), F32, F32, F32)
    assert "cuarray_fma_ew" in _compiles(cp.fuse()(fma), F32, F32, F32)


def test_nested_fused_functions_are_inlined():
    inner = cp.fuse(lambda a, b: a * b)

    def outer(x, y):
        return inner(x, y) + 1
    src = _compiles(cp.fuse(outer), F32, F32)
    assert "ca_uf_multiply" in src and "ca_uf_add" in src


def test_static_arguments_are_passed_to_the_function():
    def f(x, dtype):
        return x.astype(dtype)
    assert "ca_store<short>" in _compiles(cp.fuse(f), F32, numpy.int16)


def test_numpy_arrays_run_the_plain_function():
    calls = []

    def f(x, y):
        calls.append(1)
        return numpy.sin(x) * y + 1

    fused = cp.fuse(f)
    x = numpy.linspace(0, 1, 7)
    got = fused(x, 2.0)
    assert type(got) is numpy.ndarray
    numpy.testing.assert_array_equal(got, numpy.sin(x) * 2.0 + 1)
    assert calls == [1]
    numpy.testing.assert_array_equal(fused(3, numpy.arange(3)), numpy.sin(3) * numpy.arange(3) + 1)


@pytest.mark.parametrize("func, match", [
    (lambda x: x if x > 0 else -x, "bool"),
    (lambda x: x > 0 and x < 1, "bool"),
    (lambda x: 0 < x < 1, "bool"),
    (lambda x: float(x), "float"),
    (lambda x: x[0], "indexing"),
    (lambda x: x.sum() * 2, "reduction can only be returned"),
    (lambda x: numpy.sin(numpy.sum(x)), "reduction can only be returned"),
    (lambda x: (x.sum(), x), "reduction alone"),
    (lambda x: x.mean(), "ndarray.mean"),
    (lambda x: numpy.add.reduce(x), "reduce"),
    (lambda x: x @ x, "matmul"),
    (lambda x: x.shape, "shape"),
    (lambda x: [v for v in x], "iteration"),
    (lambda x: x + numpy.ones(3), "numpy.ndarray"),
    (lambda x: cp.sin(x, out=x), "out="),
])
def test_unsupported_constructs_raise_type_error(func, match):
    with pytest.raises(TypeError, match=match):
        cp.fuse(func)._source(F32)


def test_unsupported_cuarray_function_raises_type_error():
    def f(x):
        return cp.fuse(lambda v: v)(x) + cp.asarray(x)
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cp.fuse(f)._source(F32)


def test_inplace_update_that_changes_kind_raises_like_numpy():
    def f(x):
        x += 1.5
        return x
    with pytest.raises(TypeError, match="same_kind"):
        cp.fuse(f)._source(I32)


def test_constant_out_of_range_raises_overflow_error_like_numpy():
    with pytest.raises(OverflowError):
        cp.fuse(lambda x: x + 1000)._source(I8)


def test_decorator_forms():
    @cp.fuse
    def a(x):
        return x + 1

    @cp.fuse()
    def b(x):
        return x + 1

    @cp.fuse(kernel_name="k")
    def c(x):
        return x + 1
    assert a.__name__ == "a" and b.__name__ == "b" and c.__name__ == "c"
    with pytest.raises(TypeError):
        cp.fuse(unknown=1)


# -- GPU: results against NumPy ------------------------------------------------------------------------------


@gpu
@testing.for_dtypes([I32, F32, F64, C64])
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_xyz_with_broadcasting(xp, dtype):
    x = testing.shaped_arange((2, 3, 4), xp, dtype)
    y = testing.shaped_reverse_arange((3, 4), xp, dtype)
    z = testing.shaped_arange((2, 1, 4), xp, dtype)
    return cp.fuse(_xyz)(x, y, z)


@gpu
@testing.for_dtypes([I32, F32, F64, C64])
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_xyz_non_contiguous(xp, dtype):
    x = testing.shaped_arange((4, 6), xp, dtype)[:, ::2]
    y = testing.shaped_reverse_arange((3, 4), xp, dtype).T
    z = testing.shaped_arange((8, 3), xp, dtype)[::-2]
    return cp.fuse(_xyz)(x, y, z)


@gpu
@testing.for_dtypes([I32, F32, F64, C64])
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_xyz_zero_dim(xp, dtype):
    x = xp.asarray(numpy.array(3, dtype))
    y = xp.asarray(numpy.array(2, dtype))
    z = testing.shaped_arange((5,), xp, dtype)
    return cp.fuse(_xyz)(x, y, x), cp.fuse(_xyz)(x, y, z)


@gpu
@testing.numpy_cuarray_equal()
def test_xyz_empty(xp):
    x = xp.asarray(numpy.zeros((0, 3), numpy.float32))
    return cp.fuse(_xyz)(x, x, 1.0)


@gpu
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_mixed_array_dtypes(xp):
    a = testing.shaped_arange((6,), xp, numpy.int8)
    b = testing.shaped_arange((6,), xp, numpy.float32)
    c = testing.shaped_arange((6,), xp, numpy.uint16)
    return cp.fuse(lambda x, y: x + y)(a, b), cp.fuse(lambda x, y: x * y)(a, c), cp.fuse(_xyz)(a, c, b)


@gpu
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_python_constants_are_weak_nep50(xp):
    a = testing.shaped_arange((6,), xp, numpy.int8)
    f = testing.shaped_arange((6,), xp, numpy.float32)
    return (cp.fuse(lambda x: x + 2.5)(a), cp.fuse(lambda x: x + 2.5)(f), cp.fuse(lambda x: x * 3)(a),
            cp.fuse(lambda x: 2 ** x)(f), cp.fuse(lambda x: x + 1j)(f), cp.fuse(lambda x: x > 2)(a))


@gpu
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_python_scalar_arguments_are_weak(xp):
    a = testing.shaped_arange((6,), xp, numpy.int8)
    f = testing.shaped_arange((6,), xp, numpy.float32)
    add = cp.fuse(lambda x, y: x + y)
    return add(a, 2.5), add(f, 2.5), add(a, 3), add(3, a), add(f, 2), add(a, True), add(f, 1 + 2j)


@gpu
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_numpy_scalar_arguments_are_strong(xp):
    f = testing.shaped_arange((6,), xp, numpy.float32)
    add = cp.fuse(lambda x, y: x + y)
    return add(f, numpy.float64(2.5)), add(f, numpy.int8(3)), add(numpy.float16(2), f)


@gpu
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_scalar_arguments_and_constants(xp):
    def f(x, a, b):
        return (x * a + b - 1) / 2
    x = testing.shaped_arange((3, 4), xp, numpy.float32)
    fused = cp.fuse(f)
    return fused(x, 2, 0.5), fused(x, 3, -1.25), fused(x, numpy.float32(2), 1)


@gpu
def test_all_scalar_arguments_give_zero_dim_arrays():
    f = cp.fuse(lambda a, b: (a * b + 1, a - b))
    r, s = f(3, 2.5)
    assert isinstance(r, cp.ndarray) and r.shape == () and r.dtype == numpy.float64
    assert float(r.get()) == 8.5 and float(s.get()) == 0.5


@gpu
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_multiple_outputs(xp):
    def f(x, y):
        s = x + y
        q, r = divmod(x, 3)
        return s, s * y, x > y, q, r
    x = testing.shaped_arange((2, 5), xp, numpy.float64)
    y = testing.shaped_reverse_arange((5,), xp, numpy.float64)
    r = cp.fuse(f)(x, y)
    assert isinstance(r, tuple) and len(r) == 5
    return r


@gpu
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_outputs_of_different_shapes(xp):
    x = testing.shaped_arange((2, 3), xp, numpy.float32)
    y = testing.shaped_arange((4,), xp, numpy.float32)
    return cp.fuse(lambda a, b: (a + 1, b * 2, a * 0 + 3))(x, y)


@gpu
@testing.for_dtypes([F32, F64])
@testing.numpy_cuarray_allclose(rtol=1e-5, atol=1e-6)
def test_where_maximum_sin_exp_chain(xp, dtype):
    def f(x, y):
        a = numpy.where(x > y, numpy.sin(x), numpy.exp(-y))
        b = numpy.maximum(a, 0.25)
        return numpy.sqrt(b) + numpy.cos(x) * 0.5
    x = testing.shaped_random((4, 5), xp, dtype, scale=3, seed=1)
    y = testing.shaped_random((4, 5), xp, dtype, scale=3, seed=2)
    return cp.fuse(f)(x, y)


@gpu
@testing.numpy_cuarray_allclose(rtol=1e-5, atol=1e-6)
def test_xp_functions_through_the_closure(xp):
    def f(x, y):
        return xp.where(x < y, xp.tanh(x), xp.log1p(y)), xp.minimum(x, y), xp.clip(x, 0.5, 2.0)
    x = testing.shaped_random((3, 7), xp, numpy.float32, scale=3, seed=3)
    y = testing.shaped_random((7,), xp, numpy.float32, scale=3, seed=4)
    return cp.fuse(f)(x, y)


@gpu
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_astype_real_imag_conj(xp):
    def f(z, x):
        return z.real + x.astype(numpy.float32), z.imag * 2, z.conj(), numpy.real(z), abs(z)
    z = testing.shaped_arange((6,), xp, numpy.complex64)
    x = testing.shaped_arange((6,), xp, numpy.int16)
    return cp.fuse(f)(z, x)


@gpu
@testing.numpy_cuarray_equal()
def test_integer_and_bitwise_operators(xp):
    def f(x, y):
        return (x << 2) >> 1, x & y, x | 3, x ^ y, ~x, -x, x // (y + 1), x % (y + 1), x ** 2, 100 - x
    x = testing.shaped_arange((10,), xp, numpy.int32)
    y = testing.shaped_reverse_arange((10,), xp, numpy.int32)
    return cp.fuse(f)(x, y)


@gpu
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_more_outputs_than_one_kernel_takes(xp):
    def f(x, y):
        return tuple(x * k + y for k in range(12))
    x = testing.shaped_arange((3, 4), xp, numpy.float32)
    y = testing.shaped_arange((4,), xp, numpy.float32)
    return cp.fuse(f)(x, y)


@gpu
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_inplace_update_of_an_argument_matches_numpy(xp):
    def f(x, y):
        x += y
        x *= 2
        return x - 1
    x = testing.shaped_arange((3, 4), xp, numpy.float32)
    y = testing.shaped_arange((4,), xp, numpy.float64)
    r = cp.fuse(f)(x, y)
    return x, r


@gpu
def test_returning_an_argument_returns_that_array():
    def f(x):
        x += 1
        return x
    x = cp.zeros(4, numpy.int32)
    r = cp.fuse(f)(x)
    assert r is x
    numpy.testing.assert_array_equal(x.get(), numpy.ones(4, numpy.int32))


@gpu
def test_function_named_fma_and_kernel_name():
    def fma(x, y, z):
        return x * y + z
    x = cp.asarray(numpy.arange(8, dtype=numpy.float32))
    numpy.testing.assert_array_equal(cp.fuse(fma)(x, x, x).get(), numpy.arange(8.0) ** 2 + numpy.arange(8.0))
    numpy.testing.assert_array_equal(cp.fuse(kernel_name="saxpy_k")(fma)(2.0, x, x).get(), 3 * numpy.arange(8.0))


@gpu
def test_another_scalar_value_does_not_recompile():
    f = cp.fuse(lambda x, a: x * a + 1)
    x = cp.asarray(numpy.arange(16, dtype=numpy.float32))
    f(x, 2.0)
    cp.cuda.Device().synchronize()
    _, misses = cp._core.kernel_cache_stats()
    r = f(x, 3.5)
    assert cp._core.kernel_cache_stats()[1] == misses
    numpy.testing.assert_array_equal(r.get(), numpy.arange(16, dtype=numpy.float32) * 3.5 + 1)
    assert len(f._cache) == 1


@gpu
def test_nested_fused_function_on_device():
    inner = cp.fuse(lambda a, b: a * b)
    outer = cp.fuse(lambda x, y: inner(x, y) + 1)
    x = cp.asarray(numpy.arange(5, dtype=numpy.float64))
    numpy.testing.assert_array_equal(outer(x, x).get(), numpy.arange(5.0) ** 2 + 1)


@gpu
def test_mixing_numpy_and_cuarray_arrays_raises_type_error():
    f = cp.fuse(_xyz)
    with pytest.raises(TypeError, match="asarray"):
        f(cp.ones(3), numpy.ones(3), 1.0)


@gpu
def test_shapes_that_do_not_broadcast_raise_value_error():
    with pytest.raises(ValueError):
        cp.fuse(_xyz)(cp.ones(3), cp.ones(4), 1.0)


@gpu
def test_python_int_argument_out_of_range_raises_overflow_error():
    f = cp.fuse(lambda x, a: x + a)
    x = cp.ones(3, numpy.int8)
    numpy.testing.assert_array_equal(f(x, 100).get(), numpy.full(3, 101, numpy.int8))
    with pytest.raises(OverflowError):
        numpy.ones(3, numpy.int8) + 1000
    with pytest.raises(OverflowError):
        f(x, 1000)


# --- reductions inside fuse ---------------------------------------------------------------------------------


@pytest.mark.gpu
@pytest.mark.parametrize("axis", [None, -1, 0, (0, 1)], ids=str)
def test_fused_sum_of_a_product_is_one_reduction(axis):
    @cp.fuse()
    def dot_rows(x, y):
        return cp.sum(x * y, axis=axis)

    rng = numpy.random.default_rng(0)
    x = rng.standard_normal((5, 7, 33)).astype(numpy.float32)
    y = rng.standard_normal((5, 7, 33)).astype(numpy.float32)
    got = dot_rows(cp.asarray(x), cp.asarray(y))
    want = numpy.sum(x * y, axis=axis)
    assert got.shape == numpy.shape(want) and got.dtype == want.dtype
    numpy.testing.assert_allclose(got.get(), want, rtol=1e-5, atol=1e-5)


@pytest.mark.gpu
def test_fused_reductions_methods_scalars_dtypes_keepdims():
    @cp.fuse()
    def sq_max(x, s):
        return (x * s - 1).max(axis=1, keepdims=True)

    @cp.fuse()
    def count_pos(x):
        return (x > 0).sum(axis=0)

    @cp.fuse()
    def prod64(x):
        return cp.prod(x + 1, dtype=numpy.float64)

    x = numpy.random.default_rng(1).standard_normal((6, 9))
    xi = numpy.random.default_rng(2).integers(-3, 4, (6, 9)).astype(numpy.int8)
    g = sq_max(cp.asarray(x), 2.5)
    numpy.testing.assert_allclose(g.get(), (x * 2.5 - 1).max(axis=1, keepdims=True))
    c = count_pos(cp.asarray(xi))
    assert c.dtype == numpy.sum(xi > 0, axis=0).dtype
    numpy.testing.assert_array_equal(c.get(), numpy.sum(xi > 0, axis=0))
    numpy.testing.assert_allclose(prod64(cp.asarray(xi[:2, :4])).get(), numpy.prod(xi[:2, :4] + 1, dtype=numpy.float64))
    with pytest.raises(ValueError):
        sq_max(cp.zeros((3, 0)), 1.0)


def test_fused_reduction_result_cannot_be_used_further():
    @cp.fuse()
    def bad(x):
        return cp.sum(x) + 1

    with pytest.raises(TypeError):
        bad._source(numpy.dtype(numpy.float32))


# --- fuse by value: cuarray reached by a path _rewrite does not replace (Note [fuse by value]) ---------------


def _alias_module():
    """A module made elsewhere that re-exports cuarray's functions under a name not like cuarray's."""
    import types
    alias = types.ModuleType("alias")
    for name in ("sin", "exp", "add", "sum", "max", "amin", "prod", "where", "clip", "around", "real", "imag", "mean"):
        setattr(alias, name, getattr(cp, name))
    return alias


_mod = _alias_module()  # a global of this module whose value is not cuarray: _rewrite leaves it alone


def _import_module(tmp_path, name, text):
    import importlib.util
    path = tmp_path / f"{name}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_HELPER = """
from cuarray import sin, where


def helper(x, y):
    return where(x > 0, sin(x) * y, y) + 1
"""


def _src(func, *dtypes):
    """The kernel source of `func` under one kernel name, so that two functions' sources compare."""
    return cp.fuse(kernel_name="k")(func)._source(*dtypes)


def _trace(fused, *dtypes):
    return cp._fusion._Trace(fused, tuple(("a", d) for d in dtypes), [cp._fusion._FakeArray(d) for d in dtypes])


def test_by_value_alias_traces_like_the_module():
    def direct(x, y):
        return cp.where(x > 0, cp.clip(cp.sin(x), -0.5, 0.5), cp.around(cp.real(y))) + cp.add(x, y, dtype=F64)

    def by_alias(x, y):
        return _mod.where(x > 0, _mod.clip(_mod.sin(x), -0.5, 0.5), _mod.around(_mod.real(y))) + \
            _mod.add(x, y, dtype=F64)

    assert _src(by_alias, F32, F32) == _src(direct, F32, F32)
    _compiles(cp.fuse(by_alias), F32, F32)


def test_by_value_helper_of_another_module_traces(tmp_path):
    helper = _import_module(tmp_path, "cuarray_fuse_helper_a", _HELPER).helper

    def direct(x, y):
        return cp.where(x > 0, cp.sin(x) * y, y) + 1

    assert _src(lambda x, y: helper(x, y), F32, F32) == _src(direct, F32, F32)


def test_by_value_module_imported_after_decoration_traces(tmp_path):
    late = None
    fused = cp.fuse(kernel_name="k")(lambda x: late.sin(x) * 2)  # `late` is bound after fuse saw the function
    late = _import_module(tmp_path, "cuarray_fuse_late_a", "from cuarray import sin\n")
    assert fused._source(F64) == _src(lambda x: cp.sin(x) * 2, F64)


def test_by_value_functions_in_a_container_trace():
    table = {"sin": cp.sin, "imag": cp.imag, "max": cp.max}
    assert _src(lambda x: table["sin"](x) + table["imag"](x), C64) == _src(lambda x: cp.sin(x) + cp.imag(x), C64)
    red = _trace(cp.fuse(lambda x: table["max"](x * 2, axis=0)), F32).reduction
    assert red.op == "max" and red.axis == 0


def test_numpy_ufunc_on_a_traced_value_traces_like_cuarray():
    assert _src(lambda x: numpy.sin(x) + 1, F32) == _src(lambda x: cp.sin(x) + 1, F32)


@pytest.mark.parametrize("name, kwargs", [("sum", {"axis": -1}), ("max", {"axis": (0, 1), "keepdims": True}),
                                          ("amin", {}), ("prod", {"axis": 1, "dtype": F64})])
def test_by_value_reduction_traces_like_the_module(name, kwargs):
    by_alias = _trace(cp.fuse(lambda x, y: getattr(_mod, name)(x * y, **kwargs)), F32, F32)
    direct = _trace(cp.fuse(lambda x, y: getattr(cp, name)(x * y, **kwargs)), F32, F32)
    a, b = by_alias.reduction, direct.reduction
    assert (a.op, a.axis, a.keepdims, a.dtype) == (b.op, b.axis, b.keepdims, b.dtype)
    assert cp._fusion._reduction_code(by_alias) == cp._fusion._reduction_code(direct)


def test_by_value_unsupported_function_raises_fuse_error():
    with pytest.raises(TypeError, match="cuarray.mean is not supported in a fused function"):
        cp.fuse(lambda x: _mod.mean(x))._source(F32)
    with pytest.raises(TypeError, match="out= argument of cuarray.sin"):
        cp.fuse(lambda x: _mod.sin(x, out=x))._source(F32)


def test_ufunc_defers_to_an_operand_overriding_array_ufunc():
    class Other:
        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            return ufunc.__name__, method, len(inputs), kwargs

    class Refuses:
        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            return NotImplemented

    o = Other()
    assert cp.sin(o) == ("sin", "__call__", 1, {})
    assert cp.add(1.0, o, dtype=F32) == ("add", "__call__", 2, {"dtype": F32})
    assert cp.sin.__call__(o) == ("sin", "__call__", 1, {})
    assert cp.negative(2.0, out=o) == ("negative", "__call__", 1, {"out": o})
    with pytest.raises(TypeError, match="Unsupported type Refuses"):
        cp.sin(Refuses())
    with pytest.raises(TypeError, match="Unsupported type ndarray"):  # host arrays are still refused
        cp.add(numpy.ones(3), 1.0)
    with pytest.raises(TypeError, match="Unsupported type ndarray"):
        cp.sin(numpy.ones(3), where=numpy.ones(3, bool))


@gpu
def test_by_value_alias_on_device_matches_numpy_and_the_module():
    @cp.fuse()
    def by_alias(x, y):
        return _mod.where(x > 0, _mod.sin(x) * y, _mod.clip(y, -1, 1)) + _mod.exp(x)

    @cp.fuse()
    def direct(x, y):
        return cp.where(x > 0, cp.sin(x) * y, cp.clip(y, -1, 1)) + cp.exp(x)

    rng = numpy.random.default_rng(3)
    x, y = rng.standard_normal((2, 4, 17)).astype(numpy.float32)
    got = by_alias(cp.asarray(x), cp.asarray(y))
    want = numpy.where(x > 0, numpy.sin(x) * y, numpy.clip(y, -1, 1)) + numpy.exp(x)
    assert got.dtype == want.dtype and got.shape == want.shape
    numpy.testing.assert_allclose(got.get(), want, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_array_equal(got.get(), direct(cp.asarray(x), cp.asarray(y)).get())


@gpu
def test_by_value_helper_of_another_module_on_device(tmp_path):
    helper = _import_module(tmp_path, "cuarray_fuse_helper_b", _HELPER).helper
    fused = cp.fuse(lambda x, y: helper(x, y) * 2)
    x = numpy.linspace(-2, 2, 33)
    y = numpy.linspace(1, 3, 33)
    got = fused(cp.asarray(x), cp.asarray(y))
    numpy.testing.assert_allclose(got.get(), (numpy.where(x > 0, numpy.sin(x) * y, y) + 1) * 2, rtol=1e-12)


@gpu
def test_by_value_module_imported_after_decoration_on_device(tmp_path):
    late = None

    @cp.fuse()
    def f(x):
        return late.sin(x) * 2

    late = _import_module(tmp_path, "cuarray_fuse_late_b", "from cuarray import sin\n")
    x = numpy.arange(10, dtype=numpy.float64)
    numpy.testing.assert_allclose(f(cp.asarray(x)).get(), numpy.sin(x) * 2, rtol=1e-12)


@gpu
def test_numpy_ufunc_on_a_traced_value_on_device():
    f = cp.fuse(lambda x, y: numpy.sin(x) + numpy.multiply(x, y))
    x = numpy.arange(12, dtype=numpy.float32).reshape(3, 4)
    got = f(cp.asarray(x), cp.asarray(x))
    numpy.testing.assert_allclose(got.get(), numpy.sin(x) + x * x, rtol=1e-6)


@gpu
@pytest.mark.parametrize("axis", [None, -1, (0, 1)], ids=str)
def test_by_value_reduction_through_an_alias_on_device(axis):
    @cp.fuse()
    def dot_rows(x, y):
        return _mod.sum(x * y, axis=axis)

    rng = numpy.random.default_rng(4)
    x, y = rng.standard_normal((2, 5, 7, 33)).astype(numpy.float32)
    got = dot_rows(cp.asarray(x), cp.asarray(y))
    want = numpy.sum(x * y, axis=axis)
    assert got.shape == numpy.shape(want) and got.dtype == want.dtype
    numpy.testing.assert_allclose(got.get(), want, rtol=1e-5, atol=1e-5)
