"""einsum and einsum_path against NumPy.

GPU tests run many subscript strings (explicit, implicit, ellipsis, traces, diagonals, broadcasting, 3+ operands,
the sublist form) over dtypes and every optimize value. CPU tests compare einsum_path's paths and reports, which
need only shapes.
"""
import numpy
import pytest

import cuarray as cp

from _arrays import small_random as _rand

gpu = pytest.mark.gpu

OPTIMIZE = [False, True, "greedy", "optimal"]


def _check(got, expected, k=64):
    expected = numpy.asarray(expected)
    assert isinstance(got, cp.ndarray)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    g = cp.asnumpy(got)
    if expected.dtype.kind in "biu":
        numpy.testing.assert_array_equal(g, expected)
        return
    eps = {"e": 1e-3, "f": 2e-6, "F": 2e-6}.get(expected.dtype.char, 1e-14)
    scale = max(1.0, float(numpy.max(numpy.abs(expected.astype(numpy.complex128)), initial=0)))
    numpy.testing.assert_allclose(g.astype(numpy.complex128), expected.astype(numpy.complex128),
                                  rtol=16 * eps * k ** 0.5, atol=16 * eps * k * scale)


CASES = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("ij,jk", [(3, 4), (4, 5)]),
    ("ij,jk->ki", [(3, 4), (4, 5)]),
    ("ji,jk->ik", [(4, 3), (4, 5)]),
    ("ij,kj->ik", [(3, 4), (5, 4)]),
    ("ij->ji", [(3, 4)]),
    ("ij", [(3, 4)]),
    ("ji", [(3, 4)]),
    ("ii", [(4, 4)]),
    ("ii->i", [(4, 4)]),
    ("iij->j", [(3, 3, 5)]),
    ("iji->j", [(3, 5, 3)]),
    ("ij->", [(3, 4)]),
    ("ij->j", [(3, 4)]),
    ("i,i", [(5,), (5,)]),
    ("i,i->i", [(5,), (5,)]),
    ("i,j->ij", [(3,), (4,)]),
    ("i,j", [(3,), (4,)]),
    ("ij,ij->ij", [(3, 4), (3, 4)]),
    ("ij,ij->", [(3, 4), (3, 4)]),
    ("ij,ij->i", [(3, 4), (3, 4)]),
    ("ij,ij->ij", [(3, 1), (3, 4)]),
    ("ij,j->i", [(3, 4), (4,)]),
    ("ij,i->j", [(3, 4), (3,)]),
    ("ij,jk->k", [(6, 4), (4, 5)]),
    ("ij,jk->...k", [(6, 4), (4, 5)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("bij,bjk->bki", [(2, 3, 4), (2, 4, 5)]),
    ("bij,jk->bik", [(2, 3, 4), (4, 5)]),
    ("ijk,ik->j", [(3, 4, 5), (3, 5)]),
    ("abc,bcd->ad", [(2, 3, 4), (3, 4, 5)]),
    ("abc,cba->", [(2, 3, 4), (4, 3, 2)]),
    ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)]),
    ("...i,...i->...", [(2, 3, 4), (3, 4)]),
    ("i...->...", [(3, 2, 4)]),
    ("...", [(2, 3)]),
    ("...ii->...i", [(2, 3, 3)]),
    ("ij...,jk...->ik...", [(2, 3, 4), (3, 5, 4)]),
    ("...j,j", [(2, 3, 4), (4,)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("ea,fb,abcd,gc,hd->efgh", [(3, 2), (3, 2), (2, 2, 2, 2), (3, 2), (3, 2)]),
    ("ijk,jkl,lm->im", [(2, 3, 4), (3, 4, 5), (5, 2)]),
    ("ab,bc,cd,de->ae", [(2, 3), (3, 4), (4, 5), (5, 2)]),
    ("i,i,i->", [(4,), (4,), (4,)]),
    ("i,i,i->i", [(4,), (4,), (4,)]),
    ("ii,i->i", [(3, 3), (3,)]),
    ("ij,kl->ijkl", [(2, 3), (4, 2)]),
    ("iJ,Jk->ik", [(2, 3), (3, 4)]),
    ("ba,aB", [(2, 3), (3, 4)]),
    ("ij,jk,ik->", [(3, 4), (4, 5), (3, 5)]),
    ("ij,jk->ik", [(0, 4), (4, 5)]),
    ("ij,jk->ik", [(3, 0), (0, 5)]),
    # An empty dimension against a missing label or an extent-1 broadcast: 0 wins, as in broadcasting.
    ("ij,jk->ik", [(3, 4), (4, 0)]),
    ("ij,jk->k", [(0, 4), (4, 5)]),
    ("i,j->ij", [(0,), (3,)]),
    ("bij,bjk->bik", [(0, 3, 4), (1, 4, 5)]),
    ("bij,bjk->bik", [(1, 3, 4), (0, 4, 5)]),
    (",->", [(), ()]),
    ("i,->i", [(3,), ()]),
    ("ij, jk -> ik", [(3, 4), (4, 5)]),
]


@gpu
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("optimize", OPTIMIZE, ids=str)
def test_einsum_float64_every_optimize(case, optimize):
    subs, shapes = case
    ops = [_rand(s, "float64", i) for i, s in enumerate(shapes)]
    e = numpy.einsum(subs, *ops, optimize=optimize)
    g = cp.einsum(subs, *[cp.asarray(x) for x in ops], optimize=optimize)
    _check(g, e)


@gpu
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "int32", "float16", "float32", "complex64", "complex128"])
@pytest.mark.parametrize("case", [c for c in CASES if c[0] in (
    "ij,jk->ik", "ii->i", "ij->", "i,i", "ij,ij->ij", "ij,jk->k", "bij,bjk->bik", "...i,...i->...",
    "ij,jk,kl->il", "i,i,i->", "abc,bcd->ad", "ij,j->i")], ids=lambda c: c[0])
def test_einsum_dtypes(dtype, case):
    subs, shapes = case
    ops = [_rand(s, dtype, i) for i, s in enumerate(shapes)]
    e = numpy.einsum(subs, *ops)
    g = cp.einsum(subs, *[cp.asarray(x) for x in ops])
    _check(g, e)


@gpu
def test_einsum_mixed_dtypes_and_dtype_keyword():
    a, b = _rand((3, 4), "int8", 1), _rand((4, 2), "float32", 2)
    _check(cp.einsum("ij,jk", cp.asarray(a), cp.asarray(b)), numpy.einsum("ij,jk", a, b))
    _check(cp.einsum("ij,jk", cp.asarray(a), cp.asarray(b), dtype="float64"),
           numpy.einsum("ij,jk", a, b, dtype="float64"))
    with pytest.raises(TypeError):
        cp.einsum("ij,jk", cp.asarray(b), cp.asarray(b.T), dtype="int32")
    _check(cp.einsum("ij,jk", cp.asarray(b), cp.asarray(b.T), dtype="int32", casting="unsafe"),
           numpy.einsum("ij,jk", b, b.T, dtype="int32", casting="unsafe"))


@gpu
def test_einsum_noncontiguous_and_negative_strides():
    a, b = _rand((6, 8), "float32", 1), _rand((8, 10), "float32", 2)
    views = [lambda x: x, lambda x: x[::-1], lambda x: x[:, ::-2], lambda x: x.T.T, lambda x: x[1:, 2:]]
    for fa in views:
        for fb in views:
            x, y = fa(a), fb(b)
            if x.shape[1] != y.shape[0]:
                continue
            _check(cp.einsum("ij,jk->ik", fa(cp.asarray(a)), fb(cp.asarray(b))), numpy.einsum("ij,jk->ik", x, y))
            _check(cp.einsum("ij,jk->ki", fa(cp.asarray(a)), fb(cp.asarray(b))), numpy.einsum("ij,jk->ki", x, y))


@gpu
def test_einsum_sublist_form():
    a, b = _rand((3, 4), "float64", 1), _rand((4, 5), "float64", 2)
    _check(cp.einsum(cp.asarray(a), [0, 1], cp.asarray(b), [1, 2], [0, 2]), numpy.einsum(a, [0, 1], b, [1, 2], [0, 2]))
    _check(cp.einsum(cp.asarray(a), [0, 1], cp.asarray(b), [1, 2]), numpy.einsum(a, [0, 1], b, [1, 2]))
    c = _rand((2, 3, 4), "float64", 3)
    _check(cp.einsum(cp.asarray(c), [Ellipsis, 1], [Ellipsis]), numpy.einsum(c, [Ellipsis, 1], [Ellipsis]))


@gpu
def test_einsum_out_order_and_views():
    a, b = _rand((3, 4), "float32", 1), _rand((4, 5), "float32", 2)
    out = cp.empty((3, 5), dtype="float64")
    r = cp.einsum("ij,jk->ik", cp.asarray(a), cp.asarray(b), out=out)
    assert r is out
    np_out = numpy.empty((3, 5), dtype="float64")
    numpy.einsum("ij,jk->ik", a, b, out=np_out)
    _check(out, np_out)
    r = cp.einsum("ij,jk->ki", cp.asarray(a), cp.asarray(b), order="C")
    assert r.flags.c_contiguous
    r = cp.einsum("ij,jk->ik", cp.asarray(a), cp.asarray(b), order="F")
    assert r.flags.f_contiguous
    _check(r, numpy.einsum("ij,jk->ik", a, b))
    # A single operand without sums is a view, as NumPy's.
    x = cp.zeros((3, 3))
    d = cp.einsum("ii->i", x)
    d[...] = 2
    assert float(x.sum()) == 6.0


@gpu
@pytest.mark.parametrize("subs,shapes", [
    ("ij,jk", [(3, 4), (5, 6)]),             # size mismatch
    ("ij,jk", [(3, 4)]),                      # too few operands
    ("ij", [(3, 4), (4, 5)]),                 # too many operands
    ("ijk", [(3, 4)]),                        # too many subscripts
    ("i", [(3, 4)]),                          # too few without ellipsis
    ("ij->ix", [(3, 4)]),                     # output label not in input
    ("ij->ii", [(3, 4)]),                     # repeated output label
    ("ii", [(3, 4)]),                         # diagonal of unequal extents
    ("i2", [(3, 3)]),                         # invalid character
    ("i..j", [(3, 3)]),                       # broken ellipsis
    ("...i->i", [(2, 3)]),                    # broadcast dims without output ellipsis
    ("ij->j->i", [(3, 4)]),                   # two arrows
])
def test_einsum_errors_are_value_errors(subs, shapes):
    ops = [numpy.ones(s) for s in shapes]
    with pytest.raises(ValueError):
        numpy.einsum(subs, *ops)
    with pytest.raises(ValueError):
        cp.einsum(subs, *[cp.asarray(x) for x in ops])


@gpu
def test_einsum_explicit_path_and_memory_limit():
    ops = [_rand(s, "float64", i) for i, s in enumerate([(2, 3), (3, 4), (4, 5)])]
    dev = [cp.asarray(x) for x in ops]
    e = numpy.einsum("ij,jk,kl->il", *ops)
    _check(cp.einsum("ij,jk,kl->il", *dev, optimize=["einsum_path", (1, 2), (0, 1)]), e)
    _check(cp.einsum("ij,jk,kl->il", *dev, optimize=["einsum_path", (0, 1, 2)]), e)
    _check(cp.einsum("ij,jk,kl->il", *dev, optimize=("greedy", 1)), e)
    path, _ = numpy.einsum_path("ij,jk,kl->il", *ops)
    _check(cp.einsum("ij,jk,kl->il", *dev, optimize=path), e)


@gpu
def test_einsum_reduction_before_product_large():
    # The benchmark's contraction: (sum_i A_ij) then a vector-matrix product.
    a, b = _rand((300, 200), "float32", 1), _rand((200, 100), "float32", 2)
    _check(cp.einsum("ij,jk->...k", cp.asarray(a), cp.asarray(b)), numpy.einsum("ij,jk->...k", a, b), k=60000)


# ---- CPU: einsum_path needs only shapes ---------------------------------------------------------------------

PATH_CASES = [
    ("ij,jk,kl->il", [(2, 2), (2, 5), (5, 2)]),
    ("ea,fb,abcd,gc,hd->efgh", [(10, 10), (10, 10), (10, 10, 10, 10), (10, 10), (10, 10)]),
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("ij,jk", [(3, 4), (4, 5)]),
    ("ii->i", [(4, 4)]),
    ("abc,bcd,dea,ef->f", [(2, 3, 4), (3, 4, 5), (5, 6, 2), (6, 7)]),
    ("ab,bc,cd,de,ef->af", [(10, 20), (20, 5), (5, 30), (30, 4), (4, 8)]),
    ("ij,kl,jk->il", [(2, 30), (40, 3), (30, 40)]),
    ("i,j,k->ijk", [(2,), (3,), (4,)]),
    ("ab,ab,ab->ab", [(3, 4), (3, 4), (3, 4)]),
    ("ij,jk,kl,lm,mn->in", [(4, 8), (8, 2), (2, 16), (16, 3), (3, 5)]),
    ("aab,bc,cd->ad", [(3, 3, 4), (4, 5), (5, 2)]),
]


@pytest.mark.parametrize("case", PATH_CASES, ids=[c[0] for c in PATH_CASES])
@pytest.mark.parametrize("optimize", ["greedy", "optimal", True, False, ("greedy", 50), ("optimal", 50)], ids=str)
def test_einsum_path_matches_numpy(case, optimize):
    subs, shapes = case
    ops = [numpy.ones(s) for s in shapes]
    e_path, e_report = numpy.einsum_path(subs, *ops, optimize=optimize)
    g_path, g_report = cp.einsum_path(subs, *ops, optimize=optimize)
    assert g_path == e_path
    assert g_report == e_report


def test_einsum_path_default_is_greedy_and_explicit_path():
    ops = [numpy.ones(s) for s in [(2, 2), (2, 5), (5, 2)]]
    assert cp.einsum_path("ij,jk,kl->il", *ops)[0] == numpy.einsum_path("ij,jk,kl->il", *ops)[0]
    p = ["einsum_path", (0, 2), (0, 1)]
    assert cp.einsum_path("ij,jk,kl->il", *ops, optimize=p) == numpy.einsum_path("ij,jk,kl->il", *ops, optimize=p)


def test_einsum_path_ellipsis_path_matches_numpy():
    ops = [numpy.ones(s) for s in [(2, 3, 4), (4, 5), (5, 6)]]
    assert cp.einsum_path("...ij,jk,kl->...il", *ops)[0] == numpy.einsum_path("...ij,jk,kl->...il", *ops)[0]


@pytest.mark.parametrize("subs,shapes", [("ij,jk", [(3, 4), (5, 6)]), ("ij,jk", [(3, 4)]), ("i2", [(3,)]),
                                         ("ij->ix", [(3, 4)])])
def test_einsum_path_errors(subs, shapes):
    ops = [numpy.ones(s) for s in shapes]
    with pytest.raises(ValueError):
        numpy.einsum_path(subs, *ops)
    with pytest.raises(ValueError):
        cp.einsum_path(subs, *ops)


def test_einsum_path_bad_optimize():
    ops = [numpy.ones((2, 2))] * 3
    with pytest.raises(TypeError):
        cp.einsum_path("ij,jk,kl", *ops, optimize=[1, 2])
    with pytest.raises((KeyError, ValueError)):
        cp.einsum_path("ij,jk,kl", *ops, optimize="fastest")
    with pytest.raises((RuntimeError, ValueError)):
        cp.einsum_path("ij,jk,kl", *ops, optimize=["einsum_path", (0, 1)])
