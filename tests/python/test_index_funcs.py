"""diagonal, diag, fill_diagonal, tril/triu and their indices, indices, ix_, ravel/unravel_index, mask_indices,
select and choose against NumPy.

CPU tests check argument errors raised before any device use and the exports; GPU tests compare values, dtypes,
shapes, views and exceptions with NumPy over dtypes and layouts (empty, 0-d, non-contiguous, negative strides).
"""
import numpy
import pytest

import cuarray as cp
from cuarray import testing

gpu = pytest.mark.gpu

DTYPES = [numpy.dtype(t) for t in ("bool", "int8", "uint8", "int16", "int32", "int64", "uint64", "float16",
                                   "float32", "float64", "complex64", "complex128")]
INDEX_DTYPES = [numpy.dtype(t) for t in ("bool", "int8", "uint8", "int16", "uint32", "int32", "int64")]


def _rand(dtype, shape, seed=0):
    """Random values of `dtype` and `shape` (NaN and infinities among the floats)."""
    dt = numpy.dtype(dtype)
    rng = numpy.random.default_rng(seed)
    n = int(numpy.prod(shape, dtype=numpy.int64))
    if dt.kind == "b":
        v = rng.integers(0, 2, n).astype(bool)
    elif dt.kind in "iu":
        info = numpy.iinfo(dt)
        v = rng.integers(max(info.min, -100), min(info.max, 100), n, endpoint=True).astype(dt)
    else:
        v = rng.standard_normal(n) * 10
        if dt.kind == "c":
            v = v + 1j * rng.standard_normal(n)
        v = v.astype(dt)
        if n > 3:
            v[1], v[2] = numpy.nan, numpy.inf
    return v.reshape(shape)


def _layouts(xp, base):
    """`base` (a NumPy array) on xp as C-contiguous, transposed, negatively strided and sliced views."""
    a = xp.asarray(base)
    out = [a, a.T if a.ndim >= 2 else a, a[::-1], a[..., ::-2]]
    if a.ndim >= 2:
        out.append(a[::-1, ::2])
    return out


# -- CPU: exports and errors raised before any device use --------------------------------------------------------


def test_functions_are_exported():
    for name in ("diagonal", "diag", "diagflat", "fill_diagonal", "tril", "triu", "tril_indices", "triu_indices",
                 "tril_indices_from", "triu_indices_from", "indices", "ix_", "ravel_multi_index", "unravel_index",
                 "mask_indices", "select", "choose"):
        assert callable(getattr(cp, name)), name
    for name in ("diagonal", "choose"):
        assert callable(getattr(cp.ndarray, name)), name


def test_select_of_empty_lists_raises_value_error():
    with pytest.raises(ValueError, match="empty condition list"):
        cp.select([], [])


@pytest.mark.parametrize("n,k,m", [(3.5, 0, None), (3, 1.5, None), (3, 0, 2.5), ("3", 0, None)])
def test_tri_indices_need_integers(n, k, m):
    with pytest.raises(TypeError):
        cp.tril_indices(n, k, m)
    with pytest.raises(TypeError):
        cp.triu_indices(n, k, m)


def test_indices_errors_before_device_use():
    with pytest.raises(ValueError, match="negative dimensions"):
        cp.indices((-1, 2))
    with pytest.raises(TypeError, match="at most length 2"):
        cp.indices((2, 3), dtype=bool)


def test_host_arrays_are_refused():
    a = numpy.eye(3)
    with pytest.raises(TypeError):
        cp.fill_diagonal(a, 1)
    with pytest.raises(TypeError):
        cp.diagonal(a)
    with pytest.raises(TypeError):
        cp.tril(a)


# -- GPU: diagonal ---------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@testing.numpy_cuarray_equal()
def test_diagonal_offsets_and_layouts(xp, dtype):
    out = []
    for a in _layouts(xp, _rand(dtype, (5, 7))):
        for k in (0, 1, -1, 3, -4, 6, -5, 7, 100, -100):
            out.append(xp.diagonal(a, k))
            out.append(a.diagonal(k))
    return out


@gpu
@pytest.mark.parametrize("axes", [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (-1, -3), (2, -2)])
@pytest.mark.parametrize("offset", [0, 1, -2, 10])
@testing.numpy_cuarray_equal()
def test_diagonal_of_stacks_appends_the_diagonal_axis(xp, axes, offset):
    a = xp.asarray(_rand("float32", (3, 4, 5)))
    return [xp.diagonal(a, offset, *axes), a.diagonal(offset=offset, axis1=axes[0], axis2=axes[1]),
            xp.diagonal(a[:, ::-1, 1:], offset, *axes)]


@gpu
@testing.numpy_cuarray_equal()
def test_diagonal_of_empty_arrays(xp):
    return [xp.diagonal(xp.zeros((0, 3))), xp.diagonal(xp.zeros((3, 0)), -1), xp.diagonal(xp.zeros((2, 0, 4)), 1, 0, 2),
            xp.diagonal(xp.zeros((4, 4, 0)))]


@gpu
def test_diagonal_is_a_view_that_writes_through():
    a = cp.asarray(numpy.arange(12.0).reshape(3, 4))
    d = a.diagonal(1)
    assert d.base is a
    d[...] = -1
    want = numpy.arange(12.0).reshape(3, 4)
    want[[0, 1, 2], [1, 2, 3]] = -1
    numpy.testing.assert_array_equal(a.get(), want)
    e = cp.diagonal(a[::-1], -1)
    e[...] = 7
    want[::-1][[1, 2], [0, 1]] = 7
    numpy.testing.assert_array_equal(a.get(), want)


@gpu
@pytest.mark.parametrize("args", [(0, 0, 0), (0, 3, 0), (0, 0, -4), (0, 1, 1), (0, -1, 2)])
@testing.numpy_cuarray_equal()
def test_diagonal_axis_errors(xp, args):
    return xp.diagonal(xp.zeros((2, 3, 4)), *args)


@gpu
@testing.numpy_cuarray_equal()
def test_diagonal_of_1d_raises_value_error(xp):
    return xp.diagonal(xp.zeros(3))


# -- GPU: diag, diagflat ---------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@testing.numpy_cuarray_equal()
def test_diag_of_vectors_and_matrices(xp, dtype):
    v = xp.asarray(_rand(dtype, (5,)))
    m = xp.asarray(_rand(dtype, (4, 6)))
    out = []
    for k in (0, 1, -1, 3, -5, 7, -9):
        out += [xp.diag(v, k), xp.diag(v[::-2], k), xp.diag(m, k), xp.diag(m.T, k), xp.diag(m[::-1, ::2], k)]
    out += [xp.diag(v[:0]), xp.diag(v[:0], 2), xp.diag(m[:0])]
    return out


@gpu
def test_diag_of_a_matrix_is_a_copy():
    m = cp.asarray(numpy.arange(9.0).reshape(3, 3))
    d = cp.diag(m)
    d[...] = 0
    numpy.testing.assert_array_equal(m.get(), numpy.arange(9.0).reshape(3, 3))


@gpu
@pytest.mark.parametrize("shape", [(), (3, 4, 2)])
@testing.numpy_cuarray_equal()
def test_diag_of_other_ranks_raises_value_error(xp, shape):
    return xp.diag(xp.zeros(shape))


@gpu
@pytest.mark.parametrize("dtype", ["bool", "int32", "float16", "complex128"])
@testing.numpy_cuarray_equal()
def test_diagflat(xp, dtype):
    a = xp.asarray(_rand(dtype, (2, 3)))
    return [xp.diagflat(a), xp.diagflat(a, 2), xp.diagflat(a.T, -1), xp.diagflat(a[0, 0]), xp.diagflat(a[:0])]


# -- GPU: fill_diagonal ----------------------------------------------------------------------------------------


def _filled(xp, shape, dtype, val, wrap=False, view=None):
    a = xp.zeros(shape, dtype)
    target = a if view is None else view(a)
    xp.fill_diagonal(target, val, wrap)
    return a


@gpu
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float16", "float64", "complex64"])
@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (7, 3), (11, 2), (8, 3), (3, 3, 3), (2, 2, 2, 2), (0, 0), (5, 0)])
@testing.numpy_cuarray_equal()
def test_fill_diagonal_with_scalars_and_arrays(xp, dtype, shape):
    vals = _rand(dtype, (13,), seed=3)
    out = []
    for wrap in (False, True):
        out += [_filled(xp, shape, dtype, 1, wrap), _filled(xp, shape, dtype, xp.asarray(vals[:1]), wrap),
                _filled(xp, shape, dtype, xp.asarray(vals[:2]), wrap), _filled(xp, shape, dtype, xp.asarray(vals), wrap),
                _filled(xp, shape, dtype, xp.asarray(vals[:6].reshape(2, 3)), wrap),
                _filled(xp, shape, dtype, xp.asarray(vals[::-3]), wrap)]
    return out


@gpu
@pytest.mark.parametrize("view", [lambda a: a.T, lambda a: a[::-1], lambda a: a[:, ::-2], lambda a: a[1:, 1:]])
@pytest.mark.parametrize("wrap", [False, True])
@testing.numpy_cuarray_equal()
def test_fill_diagonal_of_views(xp, view, wrap):
    return [_filled(xp, (9, 4), "float64", xp.arange(1.0, 8.0), wrap, view),
            _filled(xp, (4, 9), "int32", xp.arange(1, 8), wrap, view)]


@gpu
@pytest.mark.parametrize("dtype,val", [("int64", 2.7), ("int8", -1), ("uint8", 255), ("bool", 5), ("float16", 1e5),
                                       ("complex64", 1 + 2j), ("int8", numpy.int64(300)), ("float32", True),
                                       ("int8", 300), ("uint8", -1), ("int64", numpy.nan), ("float64", 1j)])
@testing.numpy_cuarray_equal()
def test_fill_diagonal_python_scalar_rules(xp, dtype, val):
    return _filled(xp, (3, 3), dtype, val)


@gpu
@testing.numpy_cuarray_equal()
def test_fill_diagonal_casts_arrays_unsafely_and_ignores_empty_values(xp):
    return [_filled(xp, (3, 3), "int8", xp.asarray(numpy.array([300, 2.5, -1.5]))),
            _filled(xp, (3, 3), "float32", xp.zeros(0))]


@gpu
def test_fill_diagonal_with_overlapping_values():
    a = cp.asarray(numpy.arange(16.0).reshape(4, 4))
    n = numpy.arange(16.0).reshape(4, 4)
    cp.fill_diagonal(a, a[0])
    numpy.fill_diagonal(n, n[0].copy())
    numpy.testing.assert_array_equal(a.get(), n)


@gpu
@pytest.mark.parametrize("shape", [(3,), (), (3, 3, 2), (2, 3, 3)])
@testing.numpy_cuarray_equal()
def test_fill_diagonal_shape_errors(xp, shape):
    xp.fill_diagonal(xp.zeros(shape), 1)


# -- GPU: tril, triu -------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@testing.numpy_cuarray_equal()
def test_tril_triu_over_dtypes_and_layouts(xp, dtype):
    out = []
    for a in _layouts(xp, _rand(dtype, (5, 6))):
        for k in (0, 1, -1, 4, -6, 2**40, -2**40):
            out += [xp.tril(a, k), xp.triu(a, k)]
    return out


@gpu
@pytest.mark.parametrize("shape", [(3, 4, 5), (2, 1, 3, 3), (0, 3), (3, 0), (2, 0, 4), (6,), (0,), (1, 1)])
@pytest.mark.parametrize("k", [0, 2, -1])
@testing.numpy_cuarray_equal()
def test_tril_triu_shapes(xp, shape, k):
    a = xp.asarray(_rand("int32", shape))
    return [xp.tril(a, k), xp.triu(a, k), xp.tril(a[..., ::-1], k)]


@gpu
@testing.numpy_cuarray_equal()
def test_tril_of_0d_raises_type_error(xp):
    return xp.tril(xp.asarray(numpy.array(4)))


@gpu
def test_tril_result_is_c_contiguous():
    r = cp.tril(cp.asfortranarray(cp.ones((3, 4))))
    assert r.flags.c_contiguous


# -- GPU: tril_indices, triu_indices ---------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("n,k,m", [(3, 0, None), (4, 1, None), (4, -1, None), (3, 1, 5), (5, -2, 3), (3, -1, 2),
                                   (0, 0, None), (-1, 0, None), (3, 0, -1), (3, 0, 0), (1, 0, None), (6, 100, 4),
                                   (6, -100, 4), (7, 3, 11), (40, -7, 33)])
@testing.numpy_cuarray_equal()
def test_tri_indices(xp, n, k, m):
    return [xp.tril_indices(n, k, m), xp.triu_indices(n, k, m), xp.tril_indices(n, k=k, m=m)]


@gpu
def test_tri_indices_large():
    for n, k, m in ((1000, 0, None), (777, -20, 1300), (1200, 35, 500)):
        for f in ("tril_indices", "triu_indices"):
            got = getattr(cp, f)(n, k, m)
            want = getattr(numpy, f)(n, k, m)
            for g, w in zip(got, want):
                numpy.testing.assert_array_equal(g.get(), w)


@gpu
@pytest.mark.parametrize("shape", [(3, 3), (2, 5), (5, 2), (0, 3), (3,), (2, 2, 2)])
@pytest.mark.parametrize("k", [0, 1, -2])
@testing.numpy_cuarray_equal()
def test_tri_indices_from(xp, shape, k):
    a = xp.zeros(shape)
    return [xp.tril_indices_from(a, k), xp.triu_indices_from(a, k)]


# -- GPU: indices, ix_, mask_indices ---------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dims", [(2, 3), (4,), (), (2, 0), (3, 1, 2), (300,), (2, 2)])
@pytest.mark.parametrize("dtype", ["int64", "int8", "uint16", "float16", "float32", "complex64", "bool"])
@testing.numpy_cuarray_equal()
def test_indices(xp, dims, dtype):
    return xp.indices(dims, dtype=dtype), xp.indices(dims, dtype=dtype, sparse=True)


@gpu
@testing.numpy_cuarray_equal()
def test_indices_default_dtype_and_none(xp):
    return [xp.indices((2, 3)), xp.indices([3]), xp.indices((2,), dtype=None)]


@gpu
@testing.numpy_cuarray_equal()
def test_ix(xp):
    a = xp.asarray(numpy.array([1, 3, 4]))
    b = xp.asarray(numpy.array([True, False, True, True]))
    c = xp.asarray(numpy.array([2.5, -1.0]))
    return [xp.ix_(a, b), xp.ix_(a[::-1], c, b), xp.ix_(), xp.ix_([], a), xp.ix_([0, 2], [True, False]),
            xp.ix_(b[:0])]


@gpu
@pytest.mark.parametrize("arg", [numpy.zeros((2, 2), int), numpy.array(1)])
@testing.numpy_cuarray_equal()
def test_ix_of_non_vectors_raises_value_error(xp, arg):
    return xp.ix_(xp.asarray(arg))


@gpu
def test_ix_returns_views():
    a = cp.arange(4)
    (r,) = cp.ix_(a)
    r[0] = 9
    assert int(a[0]) == 9


@gpu
@pytest.mark.parametrize("func,k", [("triu", 0), ("triu", 1), ("tril", -1), ("tril", 2)])
@testing.numpy_cuarray_equal()
def test_mask_indices(xp, func, k):
    return xp.mask_indices(4, getattr(xp, func), k)


# -- GPU: ravel_multi_index, unravel_index ---------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", INDEX_DTYPES + [numpy.dtype("uint64")], ids=str)
@pytest.mark.parametrize("order", ["C", "F"])
@testing.numpy_cuarray_equal()
def test_ravel_multi_index_round_trips(xp, dtype, order):
    dims = (3, 5, 2) if dtype != numpy.bool_ else (2, 2, 2)
    rng = numpy.random.default_rng(1)
    coords = tuple(xp.asarray(rng.integers(0, d, 17).astype(dtype)) for d in dims)
    flat = xp.ravel_multi_index(coords, dims, order=order)
    return flat, xp.unravel_index(flat, dims, order=order)


@gpu
@pytest.mark.parametrize("mode", ["wrap", "clip", ("clip", "wrap"), ("wrap", "raise"), ["raise", "clip"]])
@testing.numpy_cuarray_equal()
def test_ravel_multi_index_modes(xp, mode):
    i = xp.asarray(numpy.array([0, 5, -1, -7, 3, 1, 100, -100]))
    j = xp.asarray(numpy.array([[9], [-1], [2]]))
    if mode == ("wrap", "raise") or mode == ["raise", "clip"]:
        j = xp.asarray(numpy.array([[0], [1], [2]]))
        i = i if mode[0] == "wrap" else xp.asarray(numpy.array([0, 1, 1, 0, 1, 0, 0, 1]))
    return xp.ravel_multi_index((i, j), (2, 3), mode=mode)


@gpu
@testing.numpy_cuarray_equal()
def test_ravel_multi_index_broadcasts_scalars_and_2d_arrays(xp):
    c = xp.asarray(numpy.array([[0, 1], [2, 3]]))
    return [xp.ravel_multi_index((1, 2), (2, 4)), xp.ravel_multi_index(c, (4, 4)),
            xp.ravel_multi_index((c, 1), (4, 4)), xp.ravel_multi_index((), ()),
            xp.ravel_multi_index((c[:, :0], c[:, :0]), (0, 4))]


@gpu
@testing.numpy_cuarray_equal()
def test_ravel_multi_index_of_many_dimensions(xp):
    dims = (2, 3, 1, 2, 2, 3, 2, 1, 2, 3, 2)
    rng = numpy.random.default_rng(5)
    coords = tuple(xp.asarray(rng.integers(-3, d + 3, 9)) for d in dims)
    flat = [xp.ravel_multi_index(coords, dims, mode="wrap"), xp.ravel_multi_index(coords, dims, mode="clip", order="F")]
    return flat, xp.unravel_index(flat[0], dims), xp.unravel_index(flat[1], dims, order="F")


@gpu
@pytest.mark.parametrize("case", ["invalid_raise", "negative_raise", "zero_dim", "zero_dim_clip", "length",
                                  "modes_length", "bad_mode", "float", "order", "overflow", "negative_dim"])
@testing.numpy_cuarray_equal()
def test_ravel_multi_index_errors(xp, case):
    i = xp.asarray(numpy.array([0, 1]))
    j = xp.asarray(numpy.array([2, 4]))
    if case == "invalid_raise":
        return xp.ravel_multi_index((i, j), (2, 4))
    if case == "negative_raise":
        return xp.ravel_multi_index((i, -j), (2, 5))
    if case == "zero_dim":
        return xp.ravel_multi_index((i, i), (2, 0))
    if case == "zero_dim_clip":
        return xp.ravel_multi_index((i, i), (0, 2), mode="clip")
    if case == "length":
        return xp.ravel_multi_index((i,), (2, 4))
    if case == "modes_length":
        return xp.ravel_multi_index((i, j), (2, 4), mode=("clip",))
    if case == "bad_mode":
        return xp.ravel_multi_index((i, j), (2, 4), mode="foo")
    if case == "float":
        return xp.ravel_multi_index((i, j.astype(float)), (2, 4))
    if case == "order":
        return xp.ravel_multi_index((i, i), (2, 4), order="A")
    if case == "overflow":
        return xp.ravel_multi_index((i, i), (2**40, 2**40))
    return xp.ravel_multi_index((i, i), (2, -1))


@gpu
@pytest.mark.parametrize("dtype", INDEX_DTYPES + [numpy.dtype("uint64")], ids=str)
@testing.numpy_cuarray_equal()
def test_unravel_index_over_dtypes_and_layouts(xp, dtype):
    idx = numpy.random.default_rng(2).integers(0, 2 if dtype == numpy.bool_ else 60, (4, 6)).astype(dtype)
    out = []
    for a in _layouts(xp, idx):
        out += [xp.unravel_index(a, (3, 4, 5)), xp.unravel_index(a, (5, 12), order="F")]
    return out


@gpu
@testing.numpy_cuarray_equal()
def test_unravel_index_scalars_and_empty_shapes(xp):
    return [xp.unravel_index(7, (2, 4)), xp.unravel_index(1, 6), xp.unravel_index(0, ()),
            xp.unravel_index(xp.zeros(0, int), (2, 3)), xp.unravel_index(xp.zeros(0, int), (0, 3))]


@gpu
@pytest.mark.parametrize("idx,shape", [(10, (2, 3)), ([1, 10, -1], (2, 3)), ([1, -1, 10], (2, 3)), (1, ()),
                                       ([0], (2, 0)), (1, (2, -3)), ([[5, 6], [7, 6]], (2, 3))])
def test_unravel_index_out_of_bounds_message(idx, shape):
    with pytest.raises(ValueError) as np_err:
        numpy.unravel_index(idx, shape)
    with pytest.raises(ValueError) as cp_err:
        cp.unravel_index(cp.asarray(numpy.asarray(idx)), shape)
    assert str(cp_err.value) == str(np_err.value)


@gpu
@pytest.mark.parametrize("case", ["float", "order", "overflow"])
@testing.numpy_cuarray_equal()
def test_unravel_index_errors(xp, case):
    i = xp.asarray(numpy.array([1, 2]))
    if case == "float":
        return xp.unravel_index(i.astype(float), (2, 3))
    if case == "order":
        return xp.unravel_index(i, (2, 3), order="K")
    return xp.unravel_index(i, (2**40, 2**40))


# -- GPU: select -----------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@testing.numpy_cuarray_equal()
def test_select_over_dtypes(xp, dtype):
    x = xp.asarray(_rand(dtype, (4, 5)))
    y = xp.asarray(_rand(dtype, (5,), seed=1))
    r = xp.asarray(numpy.random.default_rng(3).integers(0, 4, (4, 5)))
    conds = [r == 0, r == 1, r == 2]
    return [xp.select(conds, [x, y, x.T.T[::-1]]), xp.select(conds[:2], [x, y], default=x[0, 0]),
            xp.select([r[:, :1] > 1], [y])]


@gpu
@pytest.mark.parametrize("n", [1, 4, 5, 9])
@testing.numpy_cuarray_equal()
def test_select_many_conditions_first_true_wins(xp, n):
    r = xp.asarray(numpy.random.default_rng(n).integers(0, n + 2, 50))
    conds = [r <= k for k in range(n)]
    choices = [xp.asarray(numpy.full(50, 10.0 * k)) + r for k in range(n)]
    return xp.select(conds, choices, default=-1.0)


@gpu
@pytest.mark.parametrize("choices,default", [(["i8"], 0), (["i8"], 500), ([500], "i8"), (["i8"], 1.5), (["i8"], 1j),
                                             ([5], 0), (["u8", "i8"], 0), (["f16"], 2.0), ([True], False),
                                             (["i8"], numpy.int16(3)), ([2.5, "f16"], numpy.float32(1))])
@testing.numpy_cuarray_equal()
def test_select_dtypes_follow_nep50(xp, choices, default):
    arrays = {"i8": numpy.array([1, -2, 3, 4], numpy.int8), "u8": numpy.array([1, 2, 3, 200], numpy.uint8),
              "f16": numpy.array([0.5, 1, 2, 3], numpy.float16)}
    pick = lambda c: xp.asarray(arrays[c]) if isinstance(c, str) else c  # noqa: E731
    c = xp.asarray(numpy.array([True, False, True, False]))
    conds = [c, ~c][:len(choices)]
    return xp.select(conds, [pick(x) for x in choices], pick(default))


@gpu
@testing.numpy_cuarray_equal()
def test_select_of_scalar_conditions_and_choices(xp):
    return [xp.select([True], [1]), xp.select([False, True], [1, 2.5]),
            xp.select([xp.asarray(numpy.array([True, False]))], [xp.zeros((3, 1))])]


@gpu
@pytest.mark.parametrize("case", ["length", "non_bool", "shapes"])
@testing.numpy_cuarray_equal()
def test_select_errors(xp, case):
    c = xp.asarray(numpy.array([True, False, True]))
    x = xp.asarray(numpy.arange(3))
    if case == "length":
        return xp.select([c], [x, x])
    if case == "non_bool":
        return xp.select([c, x], [x, x])
    return xp.select([c], [xp.zeros(4)])


# -- GPU: choose -----------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@testing.numpy_cuarray_equal()
def test_choose_over_dtypes_and_layouts(xp, dtype):
    a = xp.asarray(numpy.random.default_rng(4).integers(0, 3, (4, 5)).astype(numpy.int8))
    choices = [xp.asarray(_rand(dtype, (4, 5), seed=s)) for s in range(3)]
    out = [xp.choose(a, choices), a.choose(choices), xp.choose(a.T, [c.T for c in choices]),
           xp.choose(a[::-1], [choices[0][::-1], choices[1][:, :1], choices[2][0]])]
    out.append(xp.choose(a, xp.stack(choices)))
    return out


@gpu
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize("adtype", INDEX_DTYPES, ids=str)
@testing.numpy_cuarray_equal()
def test_choose_modes_and_index_dtypes(xp, mode, adtype):
    lo, hi = (0, 2) if mode == "raise" or adtype == numpy.bool_ else (-7, 9)
    if numpy.dtype(adtype).kind == "u":
        lo = 0
    a = xp.asarray(numpy.random.default_rng(6).integers(lo, hi, (3, 7)).astype(adtype))
    choices = [xp.asarray(numpy.arange(21.0).reshape(3, 7) + 100 * k) for k in range(3)]
    return xp.choose(a, choices, mode=mode)


@gpu
@pytest.mark.parametrize("n", [2, 20, 63])
@testing.numpy_cuarray_equal()
def test_choose_many_choices_in_one_pass(xp, n):
    a = xp.asarray(numpy.random.default_rng(n).integers(0, n, (6, 9)))
    choices = [xp.asarray(numpy.full((1, 9), k, numpy.int16)) * (xp.arange(9, dtype=numpy.int16) + 1)
               for k in range(n)]
    return xp.choose(a, choices)


@gpu
@testing.numpy_cuarray_equal()
def test_choose_broadcasts_and_weak_scalars(xp):
    a = xp.asarray(numpy.array([[0], [1]]))
    i8 = xp.asarray(numpy.arange(4, dtype=numpy.int8))
    idx = xp.asarray(numpy.array([0, 1, 0, 1]))
    return [xp.choose(a, [i8, i8 * 2]), xp.choose(idx, [i8, 5]), xp.choose(idx, [i8, 500]),
            xp.choose(idx, [i8, 5.5]), xp.choose(0, [1, 2]), xp.choose(idx[:0], [i8[:0], 1]),
            xp.choose(xp.asarray(numpy.array([True, False])), [i8[:2], i8[2:]])]


@gpu
@testing.numpy_cuarray_equal()
def test_choose_out(xp):
    idx = xp.asarray(numpy.array([0, 1, 1, 0]))
    x = xp.asarray(numpy.array([1.5, 2.5, 3.5, 4.5]))
    y = xp.asarray(numpy.array([-1.5, -2.5, -3.5, -4.5]))
    o1 = xp.zeros(4)
    r1 = xp.choose(idx, [x, y], out=o1)
    o2 = xp.zeros(4, numpy.int32)
    r2 = xp.choose(idx, [x, y], out=o2)
    o3 = xp.zeros(8)[::-2]
    xp.choose(idx, [x, y], out=o3)
    xp.choose(idx, [x, y], out=x)  # out is one of the choices
    return [r1 is o1, r2 is o2, o1, o2, o3, x]


@gpu
@pytest.mark.parametrize("case", ["invalid", "negative", "uint64", "float", "empty", "too_many", "out_shape",
                                  "bad_mode", "shapes"])
@testing.numpy_cuarray_equal()
def test_choose_errors(xp, case):
    i = xp.asarray(numpy.array([0, 3]))
    c = [xp.zeros(2), xp.ones(2)]
    if case == "invalid":
        return xp.choose(i, c)
    if case == "negative":
        return xp.choose(-i, c)
    if case == "uint64":
        return xp.choose(i.astype(numpy.uint64), c)
    if case == "float":
        return xp.choose(i.astype(float), c)
    if case == "empty":
        return xp.choose(i, [])
    if case == "too_many":
        return xp.choose(i * 0, c * 32)
    if case == "out_shape":
        return xp.choose(i * 0, c, out=xp.zeros(3))
    if case == "bad_mode":
        return xp.choose(i, c, mode="foo")
    return xp.choose(i * 0, [xp.zeros(3), xp.zeros(2)])
