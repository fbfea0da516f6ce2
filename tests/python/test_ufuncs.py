"""Every ufunc against NumPy: every loop NumPy defines, random and edge values, layouts, scalars, out=, where=."""
import warnings

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


# NumPy compares with None through its object loop: None equals nothing but None (Note [comparison with None]
# in python/src/ufunc.cpp). The operators give arrays too, not Python's identity answer, and NumPy 2's
# operators answer a str or bytes the same way.
@pytest.mark.parametrize("form", ["==", "!=", "r==", "r!=", "equal", "not_equal", "equal-r", "not_equal-r",
                                  "=='x'", "!=b'x'", "r=='x'"])
@pytest.mark.parametrize("shape", [(), (0,), (1,), (3, 4)], ids=str)
@testing.numpy_cuarray_equal()
def test_compare_with_none(xp, form, shape):
    a = testing.shaped_arange(shape, xp, numpy.int64)
    ops = {"==": lambda: a == None, "!=": lambda: a != None,  # noqa: E711 (the comparison is the test)
           "r==": lambda: None == a, "r!=": lambda: None != a,  # noqa: E711
           "equal": lambda: xp.equal(a, None), "not_equal": lambda: xp.not_equal(a, None),
           "equal-r": lambda: xp.equal(None, a), "not_equal-r": lambda: xp.not_equal(None, a),
           "=='x'": lambda: a == "x", "!=b'x'": lambda: a != b"x", "r=='x'": lambda: "x" == a}
    return ops[form]()


@pytest.mark.parametrize("case", ["none-none", "ne-none-none", "scalar", "out", "out-where", "out-bcast",
                                  "out-bad-shape", "dtype-bool", "casting-safe", "where-false", "positional-out",
                                  "strided"])
@testing.numpy_cuarray_equal()
def test_compare_with_none_keywords(xp, case):
    a = testing.shaped_arange((2, 3), xp, numpy.float32)
    if case == "none-none":
        return xp.equal(None, None)
    if case == "ne-none-none":
        return xp.not_equal(None, None)
    if case == "scalar":
        return xp.equal(2.5, None), xp.not_equal(None, 7)
    if case == "out":
        out = xp.full((2, 3), 5, numpy.float32)
        r = xp.not_equal(a, None, out=out)
        assert r is out
        return out
    if case == "out-where":
        out = xp.full((2, 3), 5, numpy.int8)
        xp.not_equal(a, None, out=out, where=xp.asarray(numpy.array([True, False, True])))
        return out
    if case == "out-bcast":
        out = xp.full((4, 2, 3), 5, numpy.int16)
        xp.equal(None, a, out=out)
        return out
    if case == "out-bad-shape":
        return xp.equal(a, None, out=xp.zeros((3,), bool))
    if case == "dtype-bool":
        return xp.equal(a, None, dtype=bool)
    if case == "casting-safe":
        return xp.not_equal(a, None, casting="safe")
    if case == "where-false":
        out = xp.ones((2, 3), bool)
        xp.equal(a, None, out=out, where=False)
        return out
    if case == "positional-out":
        out = xp.zeros((2, 3), bool)
        xp.not_equal(None, a, out)
        return out
    return xp.equal(a[:, ::-2], None)


# NumPy's errors are its UFuncTypeError subclasses; cuarray raises TypeError.
@pytest.mark.parametrize("case", ["dtype-float", "casting-no", "casting-equiv", "less", "add", "greater-r"])
@testing.numpy_cuarray_equal(accept_error=TypeError)
def test_compare_with_none_errors(xp, case):
    a = testing.shaped_arange((2, 3), xp, numpy.float32)
    if case == "dtype-float":
        return xp.equal(a, None, dtype=numpy.float64)
    if case in ("casting-no", "casting-equiv"):
        return xp.equal(a, None, casting=case[8:])
    if case == "less":
        return xp.less(a, None)
    if case == "add":
        return xp.add(a, None)
    return None > a


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


# Issue 14: a Python int beyond 64 bits converts to a floating-point loop's type (OverflowError past
# float64's range), compares exactly with integer arrays, and is an OverflowError in any integer or bool loop.
_BIG_INTS = [2 ** 70, -2 ** 80, 2 ** 64, -2 ** 63 - 1, 2 ** 63 + 2 ** 62 + 2 ** 64, 2 ** 1030, -2 ** 1030]
_BIG_OPS = {
    "lt": lambda x, v: x < v, "gt": lambda x, v: x > v, "le": lambda x, v: x <= v, "ge": lambda x, v: x >= v,
    "eq": lambda x, v: x == v, "ne": lambda x, v: x != v, "add": lambda x, v: x + v, "radd": lambda x, v: v + x,
    "sub": lambda x, v: x - v, "rsub": lambda x, v: v - x, "mul": lambda x, v: x * v,
    "truediv": lambda x, v: x / v, "floordiv": lambda x, v: x // v, "pow": lambda x, v: x ** v,
    "maximum": lambda x, v: cp_or_np(x).maximum(x, v), "less_call": lambda x, v: cp_or_np(x).less(v, x),
    "equal_call": lambda x, v: cp_or_np(x).equal(x, v, dtype=numpy.bool_),
    "logical_and": lambda x, v: cp_or_np(x).logical_and(x, v), "ldexp": lambda x, v: cp_or_np(x).ldexp(x, v),
    "add_dtype_f8": lambda x, v: cp_or_np(x).add(x, v, dtype=numpy.float64, casting="unsafe"),
}


def cp_or_np(x):
    return numpy if isinstance(x, numpy.ndarray) else cp


@pytest.mark.parametrize("value", _BIG_INTS, ids=lambda v: ("-" if v < 0 else "") + "2**%d" % abs(v).bit_length())
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "int8", "int64", "uint64", "bool"])
@pytest.mark.parametrize("op", list(_BIG_OPS))
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_python_int_beyond_64_bits_matches_numpy(xp, value, dtype, op):
    if op == "pow" and dtype == "complex64":
        pytest.skip("complex power by a huge exponent tests complex math, not the int's conversion")
    x = xp.asarray(numpy.array([0, 1, 3], dtype=dtype))
    with numpy.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _BIG_OPS[op](x, value)


@pytest.mark.parametrize("value", [2 ** 70, -2 ** 80])
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_python_int_beyond_64_bits_with_python_scalars(xp, value):
    return xp.add(value, 1.5), xp.multiply(xp.float32(2), value), xp.subtract(value, xp.asarray(numpy.float32(1)))


@testing.numpy_cuarray_equal()
def test_python_int_beyond_64_bits_in_place_float(xp):
    x = xp.asarray(numpy.array([1.0, 2.0], dtype=numpy.float32))
    x += 2 ** 70
    return x


@pytest.mark.parametrize("dtype", ["int64", "uint64", "int8", "bool"])
@testing.numpy_cuarray_equal()
def test_python_int_beyond_64_bits_in_place_int_raises(xp, dtype):
    x = xp.asarray(numpy.array([1, 2], dtype=dtype))
    x += 2 ** 70
    return x


@pytest.mark.parametrize("value", [2 ** 64, 2 ** 64 + 1, -2 ** 63 - 1, -2 ** 63 - 1000])
@testing.numpy_cuarray_equal()
def test_python_int_just_beyond_64_bits_compares_exactly(xp, value):
    # Integer arrays at their dtype's ends, next to an int that float64 rounds onto them.
    u = xp.asarray(numpy.array([0, 2 ** 64 - 1, 2 ** 63], dtype=numpy.uint64))
    i = xp.asarray(numpy.array([0, -2 ** 63, 2 ** 63 - 1], dtype=numpy.int64))
    return u == value, u != value, u < value, u >= value, i == value, i > value, i <= value


# Issue 14: a ufunc with several outputs takes out= as a tuple only (NumPy's TypeError otherwise, None too).
@pytest.mark.parametrize("out", ["array", 5, None, "list", "x"])
@testing.numpy_cuarray_equal()
def test_divmod_out_must_be_a_tuple(xp, out):
    a = xp.asarray(numpy.array([3.0, 4.0]))
    b = xp.asarray(numpy.array([2.0, 3.0]))
    o = {"array": xp.empty(2), 5: 5, None: None, "list": [xp.empty(2), xp.empty(2)], "x": "x"}[out]
    return xp.divmod(a, b, out=o)


@testing.numpy_cuarray_equal()
def test_divmod_out_tuple_still_works(xp):
    a = xp.asarray(numpy.array([3.0, 4.0]))
    q, r = xp.empty(2), xp.empty(2)
    got = xp.divmod(a, 2.0, out=(q, r))
    return got[0] is q and got[1] is r, q, r


# Issue 14: with several faults in one call a ufunc raises the exception NumPy raises: the keywords in
# NumPy's order (dtype, out, where, casting, order, subok), then the loop and the casts of the inputs and
# outputs (TypeError), then the shapes (ValueError). Each case: (body, the builtin type NumPy raises).
def _z(xp, shape, dtype=numpy.float64):
    return xp.zeros(shape, dtype=dtype)


def _inplace_add_cast_and_shape(xp):
    a = _z(xp, 3, numpy.int64)
    a += _z(xp, 4)


def _inplace_and_no_loop_and_shape(xp):
    a = _z(xp, 3)
    a &= _z(xp, 4)


_UFUNC_FAULTS = {
    "no_loop_and_shapes": (lambda xp: xp.bitwise_and(_z(xp, 3), _z(xp, 4)), TypeError),
    "operator_no_loop_and_shapes": (lambda xp: _z(xp, 3) & _z(xp, 4), TypeError),
    "no_loop_and_out_shape": (lambda xp: xp.bitwise_and(_z(xp, 3), _z(xp, 3), out=_z(xp, 5)), TypeError),
    "no_loop_and_where_shape": (lambda xp: xp.bitwise_and(_z(xp, 3), _z(xp, 3), where=_z(xp, 5, bool)), TypeError),
    "bool_negative_and_out_shape": (lambda xp: xp.negative(_z(xp, 3, bool), out=_z(xp, 5, bool)), TypeError),
    "out_cast_and_shapes": (lambda xp: xp.add(_z(xp, 3), _z(xp, 4), out=_z(xp, 3, numpy.int64)), TypeError),
    "out_cast_and_out_shape": (lambda xp: xp.add(_z(xp, 3), _z(xp, 3), out=_z(xp, 5, numpy.int64)), TypeError),
    "out_cast_and_smaller_out": (lambda xp: xp.add(_z(xp, (2, 3)), _z(xp, 3), out=_z(xp, 3, numpy.int64)),
                                 TypeError),
    "positional_out_cast_and_shapes": (lambda xp: xp.add(_z(xp, 3), _z(xp, 4), _z(xp, 3, numpy.int64)), TypeError),
    "second_out_cast_and_shape": (lambda xp: xp.divmod(_z(xp, 3), _z(xp, 3),
                                                       out=(_z(xp, 5, numpy.int64), _z(xp, 3))), TypeError),
    "input_cast_no_and_shapes": (lambda xp: xp.add(_z(xp, 3, numpy.int64), _z(xp, 4), casting="no"), TypeError),
    "dtype_cast_and_shapes": (lambda xp: xp.add(_z(xp, 3), _z(xp, 4), dtype=numpy.int64), TypeError),
    "unsafe_dtype_then_shapes": (lambda xp: xp.bitwise_and(_z(xp, 3), _z(xp, 4), dtype=numpy.int64,
                                                           casting="unsafe"), ValueError),
    "unsafe_out_then_shapes": (lambda xp: xp.add(_z(xp, 3), _z(xp, 4), out=_z(xp, 3, numpy.int64),
                                                 casting="unsafe"), ValueError),
    "where_not_bool": (lambda xp: xp.add(_z(xp, 3), _z(xp, 3), where=_z(xp, 3, numpy.int64)), TypeError),
    "where_float": (lambda xp: xp.add(_z(xp, 3), _z(xp, 3), out=_z(xp, 3), where=_z(xp, 3)), TypeError),
    "where_not_bool_and_shapes": (lambda xp: xp.add(_z(xp, 3), _z(xp, 4), where=_z(xp, 3, numpy.int64)), TypeError),
    "where_not_bool_and_bad_casting": (lambda xp: xp.add(_z(xp, 3), _z(xp, 3), where=_z(xp, 5, numpy.int64),
                                                         casting="bad"), TypeError),
    "bad_dtype_and_where": (lambda xp: xp.add(_z(xp, 3), _z(xp, 3), where=_z(xp, 5, numpy.int64), dtype="foo"),
                            TypeError),
    "bad_out_and_bad_casting": (lambda xp: xp.add(_z(xp, 3), _z(xp, 3), out=5, casting="bad"), TypeError),
    "out_tuple_length_and_bad_casting": (lambda xp: xp.add(_z(xp, 3), _z(xp, 3), out=(_z(xp, 3), _z(xp, 3)),
                                                           casting="bad"), ValueError),
    "bad_dtype_and_bad_out": (lambda xp: xp.add(_z(xp, 3), _z(xp, 3), dtype="foo", out=5), TypeError),
    "bad_casting_and_bad_order": (lambda xp: xp.add(_z(xp, 3), _z(xp, 3), order="Z", casting="bad"), ValueError),
    "unknown_keyword_and_bad_casting": (lambda xp: xp.add(_z(xp, 3), _z(xp, 3), casting="bad", foo=1), TypeError),
    "casting_not_a_string": (lambda xp: xp.add(_z(xp, 3), _z(xp, 3), casting=5), TypeError),
    "order_not_a_string": (lambda xp: xp.add(_z(xp, 3), _z(xp, 3), order=5), TypeError),
    "subok_not_a_bool": (lambda xp: xp.add(_z(xp, 3), _z(xp, 3), subok=5), TypeError),
    "where_false_out_cast": (lambda xp: xp.add(_z(xp, 3), _z(xp, 3), out=_z(xp, 3, numpy.int64), where=False),
                             TypeError),
    "where_false_shapes": (lambda xp: xp.add(_z(xp, 3), _z(xp, 4), where=False), ValueError),
    "inplace_cast_and_shape": (_inplace_add_cast_and_shape, TypeError),
    "inplace_no_loop_and_shape": (_inplace_and_no_loop_and_shape, TypeError),
    "at_no_loop_and_index": (lambda xp: xp.bitwise_and.at(_z(xp, 3), xp.asarray(numpy.array([5])), 1), TypeError),
    "at_index_and_shape": (lambda xp: xp.add.at(_z(xp, 3), xp.asarray(numpy.array([5])), _z(xp, 4)), IndexError),
    "at_empty_index_and_shape": (lambda xp: xp.add.at(_z(xp, 3), xp.asarray(numpy.array([], numpy.int64)),
                                                      _z(xp, 3)), ValueError),
}


@pytest.mark.parametrize("case", list(_UFUNC_FAULTS))
def test_ufunc_faults_raise_numpys_error_in_numpys_order(case):
    body, error = _UFUNC_FAULTS[case]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        testing.numpy_cuarray_equal(accept_error=error)(body)()


@pytest.mark.parametrize("where", [None, 0, 2, 1.5, "bool_true", "bool_false"])
@testing.numpy_cuarray_equal()
def test_ufunc_scalar_where_is_its_truth(xp, where):
    # NumPy takes a scalar where= (None too) by its truth value, not by 'safe' casting.
    w = {"bool_true": numpy.bool_(True), "bool_false": numpy.bool_(False)}.get(where, where)
    out = xp.zeros(3)
    xp.add(xp.ones(3), xp.ones(3), out=out, where=w)
    return out


@pytest.mark.parametrize("axis", [0, 5])
@testing.numpy_cuarray_equal(accept_error=TypeError)
def test_ufunc_reduce_where_must_be_bool(xp, axis):
    # Issue 14: NumPy refuses a non-bool mask (before the axis), where cuarray used to cast it.
    return xp.add.reduce(xp.ones(3), axis=axis, where=xp.asarray(numpy.array([1, 0, 1])))
