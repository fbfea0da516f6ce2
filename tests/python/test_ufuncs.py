"""Every ufunc against NumPy: every loop NumPy defines, random and edge values, layouts, scalars, out=, where=."""
import numpy
import pytest

import cuarray as cp
from cuarray import testing
from cuarray.testing import _ufunc_cases as cases

pytestmark = pytest.mark.gpu

def _names():
    # Aliases (numpy.pow, numpy.atanh...) share their target's loops: test each ufunc once, by its own name.
    return sorted(n for n in cp._core.ufunc_names() if hasattr(numpy, n) and getattr(numpy, n).__name__ == n)


def _loops(name):
    out = []
    for t in getattr(numpy, name).types:
        ins, outs = t.split("->")
        if set(ins + outs) <= cases.SUPPORTED and (ins, outs) not in out:
            out.append((ins, outs))
    return out


CASES = [(n, ins, outs) for n in _names() for ins, outs in _loops(n)]


@pytest.mark.parametrize("name,ins,outs", CASES, ids=[f"{n}-{i}->{o}" for n, i, o in CASES])
def test_ufunc_loop_matches_numpy(name, ins, outs):
    n = 97
    np_in = [cases.values(c, n, k + 1, name) for k, c in enumerate(ins)]
    want = cases.expected(name, np_in)
    got = getattr(cp, name)(*[cp.asarray(x) for x in np_in])
    if not isinstance(got, tuple):
        got = (got,)
    for g, w in zip(got, want):
        cases.compare(name, g.get(), numpy.asarray(w))


@pytest.mark.parametrize("name", ["add", "multiply", "sin", "maximum", "divmod", "isnan", "left_shift"])
@pytest.mark.parametrize("layout", ["strided", "negative", "fortran", "broadcast", "zero_d", "empty"])
def test_ufunc_layouts_match_numpy(name, layout):
    u = getattr(numpy, name)
    char = "i" if name == "left_shift" else "d"
    base = [cases.values(char, 6 * 8, k + 1, name).reshape(6, 8) for k in range(u.nin)]
    if layout == "strided":
        np_in = [b[::2, 1::3] for b in base]
    elif layout == "negative":
        np_in = [b[::-1, ::-2] for b in base]
    elif layout == "fortran":
        np_in = [numpy.asfortranarray(b) for b in base]
    elif layout == "broadcast":
        np_in = [base[0][:, :1]] + [b[:1, :] for b in base[1:]]
    elif layout == "zero_d":
        np_in = [numpy.asarray(b[1, 2]) for b in base]
    else:
        np_in = [b[:0] for b in base]
    want = cases.expected(name, np_in)
    got = getattr(cp, name)(*[cp.asarray(x) for x in np_in])
    got = got if isinstance(got, tuple) else (got,)
    for g, w in zip(got, want):
        cases.compare(name, g.get(), numpy.asarray(w))


@pytest.mark.parametrize("shape_a,shape_b", [((), ()), ((0,), (1,)), ((5,), ()), ((3, 1), (1, 4)), ((2, 3, 4), (4,)),
                                             ((1,), (3, 0))])
@testing.numpy_cuarray_allclose()
def test_add_broadcasts(xp, shape_a, shape_b):
    a = testing.shaped_arange(shape_a, xp, numpy.float32)
    b = testing.shaped_reverse_arange(shape_b, xp, numpy.float32)
    return a + b


@testing.numpy_cuarray_equal()
def test_noncontiguous_negative_strides_and_f_order(xp):
    a = testing.shaped_arange((6, 8), xp, numpy.int32)
    b = xp.asfortranarray(testing.shaped_arange((6, 8), xp, numpy.int32))
    return a[::2, ::-3] * b[::2, ::-3], a.T - b.T, xp.multiply(a, b)


@pytest.mark.parametrize("scalar", [2, -3, 2.5, 1j, True, numpy.float32(2), numpy.int8(3), numpy.float64(0.5)])
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "float16", "float32", "float64", "complex64", "bool"])
@testing.numpy_cuarray_allclose(rtol=1e-3)
def test_python_and_numpy_scalars_follow_nep50(xp, scalar, dtype):
    a = xp.asarray(numpy.array([1, 0, 3], dtype=dtype))
    if numpy.dtype(dtype).kind == "u" and isinstance(scalar, int) and scalar < 0:
        pytest.skip("NumPy raises OverflowError; tested separately")
    return a * scalar, scalar + a, a - scalar


@testing.numpy_cuarray_equal(accept_error=OverflowError)
def test_python_int_out_of_range_raises_overflow(xp):
    return xp.asarray(numpy.array([1, 2], numpy.uint8)) + (-1)


@testing.numpy_cuarray_equal()
def test_comparisons_return_bool(xp):
    a = testing.shaped_arange((4,), xp, numpy.float64)
    b = testing.shaped_reverse_arange((4,), xp, numpy.float64)
    return a < b, a <= b, a > b, a >= b, a == b, a != b


@testing.numpy_cuarray_allclose()
def test_out_and_where(xp):
    a = testing.shaped_arange((3, 4), xp, numpy.float64)
    out = xp.zeros((3, 4), dtype=numpy.float64)
    mask = xp.asarray(numpy.array([True, False, True, False]))
    r = xp.add(a, 1.0, out=out, where=mask)
    assert r is out
    return out


@testing.numpy_cuarray_equal(accept_error=TypeError)
def test_out_casting_error(xp):
    a = testing.shaped_arange((3,), xp, numpy.float64)
    out = xp.zeros((3,), dtype=numpy.int64)
    return xp.add(a, a, out=out)


@testing.numpy_cuarray_allclose()
def test_out_keyword_alone_broadcasts_into_the_output(xp):
    # `ufunc(..., out=o)` with no other keyword takes the borrowed path (call_ufunc1_into).
    a = testing.shaped_arange((4,), xp, numpy.float32)
    out = xp.zeros((3, 4), dtype=numpy.float64)
    r = xp.multiply(a, 2.0, out=out)
    assert r is out
    t = xp.zeros((3, 4), dtype=numpy.float32)[:, ::-1]  # a non-contiguous output, given as a 1-tuple
    r2 = xp.add(a, xp.float32(1), out=(t,))
    assert r2 is t
    z = xp.zeros((), dtype=numpy.int64)
    xp.add(3, 4, out=z)  # scalars only, 0-d output
    s = xp.zeros((4,), dtype=numpy.float32)
    xp.sin(a, out=s)
    return out, t, z, s


@testing.numpy_cuarray_equal(accept_error=ValueError)
def test_out_keyword_non_broadcastable_output(xp):
    a = testing.shaped_arange((2, 3), xp, numpy.float64)
    return xp.add(a, 1.0, out=xp.zeros((3,), dtype=numpy.float64))


@testing.numpy_cuarray_equal(accept_error=TypeError)
def test_inplace_operator_casting_error(xp):
    a = testing.shaped_arange((3,), xp, numpy.int32)
    a += 1.5  # float64 result into int32: not 'same_kind'
    return a


@testing.numpy_cuarray_allclose()
def test_inplace_operators(xp):
    a = testing.shaped_arange((5,), xp, numpy.float32)
    a += 1
    a *= 2
    a -= a[::-1].copy()
    return a


@testing.numpy_cuarray_equal()
def test_inplace_with_overlap_gives_numpy_result(xp):
    a = testing.shaped_arange((10,), xp, numpy.int64)
    a[1:] += a[:-1]
    b = testing.shaped_arange((10,), xp, numpy.int64)
    xp.add(b[:-1], b[1:], out=b[1:])
    return a, b


@testing.numpy_cuarray_allclose()
def test_dtype_argument_and_divmod(xp):
    a = testing.shaped_arange((6,), xp, numpy.int32)
    q, r = xp.divmod(a, 4)
    return xp.add(a, a, dtype=numpy.float32), q, r, divmod(a, 3)


def test_numpy_ufunc_on_device_array_returns_device_array():
    a = cp.arange(5, dtype=cp.float32)
    r = numpy.add(a, a)
    assert isinstance(r, cp.ndarray)
    numpy.testing.assert_array_equal(r.get(), numpy.arange(5, dtype=numpy.float32) * 2)
    s = numpy.sin(a)
    assert isinstance(s, cp.ndarray)


def test_mixing_with_numpy_array_raises_type_error_naming_get():
    a = cp.arange(3)
    with pytest.raises(TypeError, match=r"\.get\(\)|asarray"):
        a + numpy.arange(3)
    with pytest.raises(TypeError, match=r"\.get\(\)|asarray"):
        numpy.arange(3) + a
    with pytest.raises(TypeError):
        cp.add(a, [1, 2, 3])


def test_ufunc_attributes_match_numpy():
    for name in ("add", "sin", "divmod", "modf", "logical_and", "maximum", "isnan"):
        ours, theirs = getattr(cp, name), getattr(numpy, name)
        assert (ours.nin, ours.nout, ours.nargs) == (theirs.nin, theirs.nout, theirs.nargs)
        assert ours.__name__ == theirs.__name__
        assert ours.identity == theirs.identity, name
        assert set(ours.types) <= set(t.replace("q", "l").replace("Q", "L") for t in theirs.types)


@testing.numpy_cuarray_allclose()
def test_outer(xp):
    a = testing.shaped_arange((3,), xp, numpy.float64)
    b = testing.shaped_arange((2, 2), xp, numpy.float64)
    return xp.multiply.outer(a, b)


def test_large_array_uses_64bit_indexing():
    n = (1 << 31) + 7
    if cp.cuda.Device().mem_info[0] < 3 * n:
        pytest.skip("not enough device memory")
    a = cp.ones(n, dtype=cp.uint8)
    b = a + a
    assert int(b[-1]) == 2 and int(b[0]) == 2 and int(b[n // 2]) == 2
    del a, b


def test_kernel_cache_hits_after_first_call():
    a = cp.arange(10, dtype=cp.float32)
    a + a
    before = cp._core.kernel_cache_stats()
    for _ in range(10):
        a + a
    after = cp._core.kernel_cache_stats()
    assert after[1] == before[1]  # no new compile
    assert after[0] >= before[0] + 10


_BINARY_OPERATORS = ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "lshift", "rshift", "and", "or",
                     "xor", "lt", "le", "gt", "ge", "eq", "ne"]


@pytest.mark.parametrize("op", _BINARY_OPERATORS)
@pytest.mark.parametrize("dtype", ["int32", "uint8", "float64", "bool"])
def test_operators_both_sides_and_in_place_match_numpy(op, dtype):
    import operator
    fn = getattr(operator, op + "_" if op in ("and", "or") else op)
    base = numpy.array([3, 1, 2, 0, 5, 4], dtype=dtype)
    other = numpy.array([1, 2, 2, 3, 1, 1], dtype=dtype)
    for lhs, rhs in ((base, other), (base, 2), (2, base), (base, other[:1])):
        try:
            with numpy.errstate(all="ignore"):
                want = fn(lhs, rhs)
        except Exception as e:  # NumPy refuses (e.g. shifts of bool): cuarray raises the same builtin type
            with pytest.raises(TypeError if isinstance(e, TypeError) else type(e)):
                fn(*(cp.asarray(x) if isinstance(x, numpy.ndarray) else x for x in (lhs, rhs)))
            continue
        got = fn(*(cp.asarray(x) if isinstance(x, numpy.ndarray) else x for x in (lhs, rhs)))
        cases.compare(op, got.get(), numpy.asarray(want))
    iop = getattr(operator, "i" + (op + "_" if op in ("and", "or") else op), None)
    if iop is not None and op not in ("lt", "le", "gt", "ge", "eq", "ne"):
        a, b = base.copy(), cp.asarray(base)
        try:
            with numpy.errstate(all="ignore"):
                want = iop(a, other)
        except Exception as e:
            with pytest.raises(TypeError if isinstance(e, TypeError) else type(e)):
                iop(b, cp.asarray(other))
            return
        got = iop(b, cp.asarray(other))
        cases.compare(op, got.get(), want)


@testing.numpy_cuarray_allclose()
def test_divmod_reflected_and_unary_operators(xp):
    a = xp.asarray(numpy.array([3.5, -1.0, 2.0]))
    q, r = divmod(7, a)
    return q, r, -a, +a, abs(a), ~xp.asarray(numpy.array([1, 2], numpy.int8))
