"""cuarray.scipy.sparse against SciPy on the same inputs: formats, dtypes, shapes, products, reductions, indexing."""
import io
import itertools

import numpy
import pytest

ss = pytest.importorskip('scipy.sparse')

import cuarray as cp  # noqa: E402
import cuarray.scipy.sparse as sp  # noqa: E402
from cuarray.scipy.sparse import _compressed  # noqa: E402

gpu = pytest.mark.gpu
FORMATS = ['csr', 'csc', 'coo', 'dia']
DTYPES = [numpy.float32, numpy.float64, numpy.complex64, numpy.complex128]
SHAPES = [(0, 3), (3, 0), (1, 1), (5, 4), (7, 9)]


def _tol(dt):
    return 1e-5 if numpy.dtype(dt) in (numpy.float32, numpy.complex64) else 1e-12


def _scipy(m, n, dt, fmt, density=0.3, seed=0):
    s = ss.random(m, n, density=density, random_state=seed, format='coo').astype(dt)
    if numpy.dtype(dt).kind == 'c':
        s = (s + 1j * ss.random(m, n, density=density, random_state=seed, format='coo')).astype(dt)
    return s.asformat(fmt)


def _close(actual, expected, dt=numpy.float64):
    if hasattr(actual, 'toarray'):
        actual = actual.toarray()
    if hasattr(expected, 'toarray'):
        expected = expected.toarray()
    if isinstance(actual, cp.ndarray):
        actual = cp.asnumpy(actual)
    numpy.testing.assert_allclose(actual, numpy.asarray(expected), rtol=_tol(dt), atol=_tol(dt))


# -- no GPU needed ------------------------------------------------------------------------------------------------
def test_public_names():
    for name in ['csr_matrix', 'csc_matrix', 'coo_matrix', 'dia_matrix', 'csr_array', 'csc_array', 'coo_array',
                 'dia_array', 'eye', 'identity', 'diags', 'spdiags', 'random', 'rand', 'vstack', 'hstack', 'bmat',
                 'block_diag', 'kron', 'kronsum', 'tril', 'triu', 'find', 'issparse', 'isspmatrix',
                 'isspmatrix_csr', 'isspmatrix_csc', 'isspmatrix_coo', 'isspmatrix_dia', 'save_npz', 'load_npz']:
        assert callable(getattr(sp, name)), name
    import cuarray.scipy
    assert cuarray.scipy.sparse is sp


def test_not_sparse():
    assert not sp.issparse(numpy.eye(2))
    assert not sp.isspmatrix(ss.csr_matrix(numpy.eye(2)))
    assert not sp.isspmatrix_csr(None)


@pytest.mark.parametrize('shape', [(-1, 2), (2, -3)])
def test_negative_shape(shape):
    with pytest.raises(ValueError):
        sp.csr_matrix(shape)
    with pytest.raises(ValueError):
        sp.coo_matrix(shape)


def test_bad_shape_length():
    with pytest.raises(TypeError):
        sp.coo_matrix((1, 2, 3))
    with pytest.raises(TypeError):
        sp.csr_matrix(object())


def test_random_density_checked_first():
    with pytest.raises(ValueError):
        sp.random(3, 3, density=1.5)


# -- on the GPU -----------------------------------------------------------------------------------------------------
@gpu
@pytest.mark.parametrize('shape,dt,fmt', list(itertools.product(SHAPES, DTYPES, FORMATS)))
def test_construct_convert_products_reductions(shape, dt, fmt):
    m, n = shape
    s = _scipy(m, n, dt, fmt)
    a = getattr(sp, fmt + '_matrix')(s)
    d = s.toarray()
    assert a.shape == s.shape and a.dtype == s.dtype and a.format == fmt and a.nnz == s.nnz
    _close(a, d, dt)
    assert (a.get() != s).nnz == 0
    for f in FORMATS:
        b = a.asformat(f)
        assert b.format == f
        _close(b, d, dt)
    rng = numpy.random.default_rng(1)
    x = rng.random(n).astype(dt)
    xm = rng.random((n, 3)).astype(dt)
    _close(a @ cp.asarray(x), d @ x, dt)
    _close(a @ cp.asarray(xm), d @ xm, dt)
    _close(a.dot(cp.asarray(x)), d @ x, dt)
    _close(a @ a.T, d @ d.T, dt)
    _close(a.conj().T @ a, d.conj().T @ d, dt)
    _close(a.sum(), d.sum(), dt)
    _close(a.sum(axis=0), d.sum(axis=0, keepdims=True), dt)
    _close(a.sum(axis=1), d.sum(axis=1, keepdims=True), dt)
    for k in (-1, 0, 2):
        _close(a.diagonal(k), s.diagonal(k), dt)
    _close(a + a, 2 * d, dt)
    _close(a - 2 * a, -d, dt)
    _close(a * 3, d * 3, dt)
    _close(a.multiply(a), d * d, dt)
    _close(a.power(2), s.power(2), dt)
    assert a.count_nonzero() == s.count_nonzero()
    if m and n:
        _close(a.mean(axis=1), d.mean(axis=1, keepdims=True), dt)
        if numpy.dtype(dt).kind == 'f':
            t = s.tocsr()
            _close(a.max(), t.max(), dt)
            _close(a.min(axis=0), t.min(axis=0), dt)
            _close(a.max(axis=1), t.max(axis=1), dt)
            numpy.testing.assert_array_equal(cp.asnumpy(a.argmax(axis=0)).ravel(), numpy.asarray(t.argmax(axis=0)).ravel())
            assert int(a.argmin()) == t.argmin()


@gpu
@pytest.mark.parametrize('fmt', ['csr', 'csc'])
def test_indexing(fmt):
    s = _scipy(6, 5, numpy.float64, fmt, density=0.5)
    a = getattr(sp, fmt + '_matrix')(s)
    t = s.tocsr()
    keys = [1, (1,), (slice(1, 3), slice(None)), (slice(None), 2), ([2, 0, 2], slice(None)), (slice(None), [4, 0]),
            (numpy.array([True, False, True, False, False, True]), slice(None)), (slice(None, None, -1), slice(0, 5, 2)),
            (-1, slice(None))]
    for key in keys:
        _close(a[key], t[key])
    _close(a[1, 2], t[1, 2])
    _close(a[-1, -2], t[-1, -2])
    _close(a[[0, 2], [1, 2]], numpy.asarray(t[[0, 2], [1, 2]]))
    with pytest.raises(IndexError):
        a[6]
    with pytest.raises(IndexError):
        a[0, 5]


@gpu
@pytest.mark.parametrize('k', [0, 1, -2])
def test_setdiag(k):
    s = _scipy(5, 4, numpy.float64, 'csr', density=0.5)
    a = sp.csr_matrix(s)
    a.setdiag(5.0, k)
    s.setdiag(5.0, k)
    _close(a, s)
    a.setdiag(cp.arange(2.0), k)
    s.setdiag(numpy.arange(2.0), k)
    _close(a, s)
    with pytest.raises(ValueError):
        a.setdiag(1.0, 9)


@gpu
def test_duplicates_unsorted_canonical():
    row = numpy.array([2, 0, 2, 1, 0, 2])
    col = numpy.array([1, 3, 1, 0, 3, 0])
    v = numpy.arange(1.0, 7)
    s = ss.coo_matrix((v, (row, col)), shape=(3, 4))
    a = sp.coo_matrix((cp.asarray(v), (cp.asarray(row), cp.asarray(col))), shape=(3, 4))
    assert not a.has_canonical_format
    _close(a, s)
    c = a.tocsr()
    assert c.has_canonical_format
    _close(c, s)
    _close(a.sum(axis=0), s.sum(axis=0))
    u = sp.csr_matrix((cp.asarray([1., 2, 3]), cp.asarray([2, 0, 1]), cp.asarray([0, 2, 3])), shape=(2, 3))
    assert not u.has_sorted_indices
    u.sort_indices()
    assert u.has_sorted_indices
    numpy.testing.assert_array_equal(cp.asnumpy(u.indices), [0, 2, 1])
    d = sp.csr_matrix((cp.asarray([1., 2, 0]), cp.asarray([0, 0, 1]), cp.asarray([0, 2, 3])), shape=(2, 3))
    assert not d.has_canonical_format
    d.sum_duplicates()
    numpy.testing.assert_array_equal(cp.asnumpy(d.data), [3, 0])
    d.eliminate_zeros()
    assert d.nnz == 1


@gpu
def test_errors():
    a = sp.csr_matrix(_scipy(3, 4, numpy.float64, 'csr'))
    b = sp.csr_matrix(_scipy(2, 4, numpy.float64, 'csr'))
    with pytest.raises(ValueError):
        a @ a
    with pytest.raises(ValueError):
        a + b
    with pytest.raises(NotImplementedError):
        a + 1
    with pytest.raises(ValueError):
        a @ cp.ones(5)
    with pytest.raises(ValueError):
        a @ 2
    with pytest.raises(TypeError):
        a @ numpy.ones(4)
    with pytest.raises(ValueError):
        sp.csr_matrix((cp.asarray([1.0]), cp.asarray([0]), cp.asarray([0, 1])), shape=(3, 3))
    with pytest.raises(ValueError):
        sp.coo_matrix((cp.asarray([1.0]), (cp.asarray([5]), cp.asarray([0]))), shape=(3, 3))


@gpu
def test_array_forms():
    s = _scipy(4, 4, numpy.float64, 'csr', density=0.5)
    a = sp.csr_array(s)
    assert not sp.isspmatrix(a) and sp.issparse(a)
    _close(a * a, s.toarray() ** 2)          # elementwise for arrays
    _close(a.sum(axis=0), s.toarray().sum(axis=0))
    assert type(a.get()).__name__ == 'csr_array'
    m = sp.csr_matrix(s)
    _close(m * m, s.toarray() @ s.toarray())  # matrix product for matrices
    _close(m ** 2, s.toarray() @ s.toarray())


@gpu
def test_construction_functions():
    for f in ['csr', 'csc', 'coo', 'dia', None]:
        _close(sp.eye(4, 5, k=1, format=f), ss.eye(4, 5, k=1))
        _close(sp.identity(3, format=f), numpy.eye(3))
    _close(sp.diags([[1., 2, 3], [4., 5]], [0, -1]), ss.diags([[1., 2, 3], [4., 5]], [0, -1]))
    data = numpy.array([[1., 2, 3, 4], [5, 6, 7, 8]])
    _close(sp.spdiags(data, [0, 1], 4, 4), ss.spdiags(data, [0, 1], 4, 4))
    r = sp.random(30, 20, density=0.1, random_state=3, format='csr', dtype=numpy.float32)
    assert r.nnz == 60 and r.has_canonical_format and r.dtype == numpy.float32
    s1, s2 = _scipy(3, 4, numpy.float64, 'csr'), _scipy(2, 4, numpy.float64, 'coo', seed=2)
    a1, a2 = sp.csr_matrix(s1), sp.coo_matrix(s2)
    _close(sp.vstack([a1, a2]), ss.vstack([s1, s2]))
    _close(sp.hstack([a1.T, a2.T], format='csr'), ss.hstack([s1.T, s2.T]))
    _close(sp.bmat([[a1, None], [None, a2]]), ss.bmat([[s1, None], [None, s2]]))
    _close(sp.block_diag([a1, a2]), ss.block_diag([s1, s2]))
    _close(sp.kron(a1, a2), ss.kron(s1, s2))
    q1, q2 = _scipy(3, 3, numpy.float64, 'csr'), _scipy(2, 2, numpy.float64, 'csr', 0.9)
    _close(sp.kronsum(sp.csr_matrix(q1), sp.csr_matrix(q2)), ss.kronsum(q1, q2))
    _close(sp.tril(a1, -1), ss.tril(s1, -1))
    _close(sp.triu(a1, 1), ss.triu(s1, 1))
    for got, want in zip(sp.find(a1), ss.find(s1)):
        _close(got, want)
    with pytest.raises(ValueError):
        sp.vstack([a1, sp.csr_matrix(_scipy(2, 5, numpy.float64, 'csr'))])


@gpu
@pytest.mark.parametrize('dtypes', [(numpy.float32, numpy.float32), (numpy.float32, numpy.float64),
                                    (numpy.complex64, numpy.float64)])
def test_compressed_stacks_match_scipy(dtypes):
    """vstack of CSR blocks and hstack of CSC blocks take the concatenating path: SciPy's format, dtype, values,
    sorted indices; blocks with no rows or no entries; and SciPy's error for mismatched shapes."""
    d1, d2 = dtypes
    s1, s2 = _scipy(5, 7, d1, 'csr'), _scipy(4, 7, d2, 'csr', seed=4)
    empty_rows, no_entries = ss.csr_matrix((0, 7), dtype=d1), ss.csr_matrix((3, 7), dtype=d2)
    for blocks in ([s1, s2], [s1, empty_rows, s2], [no_entries, s1], [s1]):
        got = sp.vstack([sp.csr_matrix(b) for b in blocks])
        want = ss.vstack(blocks)
        assert got.format == want.format == 'csr' and got.dtype == want.dtype and got.shape == want.shape
        _close(got, want, numpy.dtype(want.dtype).type)
        assert got.has_sorted_indices
        numpy.testing.assert_array_equal(cp.asnumpy(got.indptr), want.indptr)
        gotc = sp.hstack([sp.csc_matrix(b.T) for b in blocks])
        wantc = ss.hstack([b.T.tocsc() for b in blocks])
        assert gotc.format == wantc.format == 'csc' and gotc.shape == wantc.shape
        _close(gotc, wantc, numpy.dtype(wantc.dtype).type)
    got = sp.vstack([sp.csr_matrix(s1), sp.csr_matrix(s2)], dtype=numpy.complex128)
    assert got.dtype == numpy.complex128
    _close(got, ss.vstack([s1, s2], dtype=numpy.complex128), numpy.complex128)
    # Formats SciPy picks for other all-compressed grids, and COO once a block is missing.
    a1, a2 = sp.csr_matrix(s1), sp.csr_matrix(_scipy(5, 3, d2, 'csr', seed=2))
    assert sp.hstack([a1, a2]).format == ss.hstack([s1, a2.get()]).format
    assert sp.vstack([a1.tocsc(), sp.csc_matrix(s2)]).format == ss.vstack([s1.tocsc(), s2.tocsc()]).format
    assert sp.bmat([[a1, None], [None, a2]]).format == ss.bmat([[s1, None], [None, a2.get()]]).format
    assert sp.vstack([a1, sp.csr_matrix(s2)], format='coo').format == 'coo'
    with pytest.raises(ValueError):
        sp.vstack([a1, a2])
    with pytest.raises(ValueError):
        sp.hstack([a1.tocsc(), sp.csc_matrix(s2)])


@gpu
@pytest.mark.parametrize('fmt', FORMATS)
def test_npz_round_trip(fmt):
    s = _scipy(3, 4, numpy.float64, fmt)
    buf = io.BytesIO()
    sp.save_npz(buf, sp.csr_matrix(s).asformat(fmt))
    buf.seek(0)
    _close(ss.load_npz(buf), s)
    buf = io.BytesIO()
    ss.save_npz(buf, s)
    buf.seek(0)
    b = sp.load_npz(buf)
    assert b.format == fmt
    _close(b, s)


@gpu
@pytest.mark.parametrize('op', ['N', 'T', 'H'])
@pytest.mark.parametrize('rows', [1, 3, 8])
def test_blocked_product_matches(op, rows):
    s = _scipy(37, 11, numpy.complex128, 'csr', density=0.4)
    a = sp.csr_matrix(s)
    d = s.toarray()
    rng = numpy.random.default_rng(2)
    _compressed._FORCE_BLOCK_ROWS = rows
    try:
        if op == 'N':
            x = rng.random((11, 4))
            _close(a @ cp.asarray(x), d @ x)
            _close(a @ cp.asarray(x[:, 0]), d @ x[:, 0])
        else:
            y = rng.random((37, 2))
            m = a.T if op == 'T' else a.getH()
            ref = d.T if op == 'T' else d.conj().T
            _close(m @ cp.asarray(y), ref @ y)
            _close(m @ cp.asarray(y[:, 1]), ref @ y[:, 1])
    finally:
        _compressed._FORCE_BLOCK_ROWS = None


@gpu
def test_product_under_pool_limit():
    # Note [blocked products]: a limit below the one-shot need makes the product run in row blocks.
    pool = cp.get_default_memory_pool()
    s = ss.random(4000, 3000, density=0.05, random_state=5, format='csr', dtype=numpy.float64)
    a = sp.csr_matrix(s)
    x = cp.asarray(numpy.random.default_rng(3).random((3000, 8)))
    rows, cols, indptr, indices, data, op = a._csr_args()
    out = cp.empty((4000, 8))
    need = cp._core.sparse.spmm_buffer_size(rows, cols, indptr, indices, data, x, out, op)
    del out
    old = pool.get_limit()
    try:
        pool.free_all_blocks()
        # room for the result but not for the one-shot work area
        pool.set_limit(pool.used_bytes() + 4000 * 8 * 8 + max(need // 2, 0) + 4096)
        y = a @ x
    finally:
        pool.set_limit(old)
    _close(y, s @ cp.asnumpy(x))


@gpu
def test_int64_indices_and_fallbacks():
    s = _scipy(6, 5, numpy.float64, 'csr', density=0.5)
    a = sp.csr_matrix((cp.asarray(s.data), cp.asarray(s.indices.astype(numpy.int64)),
                       cp.asarray(s.indptr.astype(numpy.int64))), shape=s.shape)
    _close(a, s)
    _close(a.tocsc(), s)
    x = numpy.arange(5.0)
    _close(a @ cp.asarray(x), s @ x)
    from cuarray.scipy.sparse._compressed import _spgemm_expand
    _close(_spgemm_expand(a, a.T.tocsr(), False), s @ s.T)


@gpu
def test_device_expand_and_repeat_counts():
    from cuarray.scipy.sparse import _util
    # empty lines first, in the middle and last; int32 and int64 index pointers
    for dt in (numpy.int32, numpy.int64):
        indptr = numpy.array([0, 0, 2, 2, 2, 5, 6, 6], dtype=dt)
        want = numpy.repeat(numpy.arange(7, dtype=dt), numpy.diff(indptr))
        got = _util.expand_ptr(cp.asarray(indptr), 7)
        assert got.dtype == dt
        numpy.testing.assert_array_equal(cp.asnumpy(got), want)
        numpy.testing.assert_array_equal(cp.asnumpy(_util.expand_ptr(cp.asarray(indptr), 7, 6)), want)
    assert _util.expand_ptr(cp.zeros(4, dtype=numpy.int32), 3).size == 0
    counts = numpy.array([0, 3, 0, 1, 2, 0])
    vals = numpy.array([5., 6, 7, 8, 9, 10])
    numpy.testing.assert_array_equal(cp.asnumpy(_util.repeat_counts(cp.asarray(vals), cp.asarray(counts))),
                                     numpy.repeat(vals, counts))
    assert _util.repeat_counts(cp.asarray(vals), cp.zeros(6, dtype=numpy.int64)).size == 0


@gpu
def test_spgemm_sorted_and_unsorted_operands():
    s = _scipy(40, 30, numpy.float32, 'csr', density=0.2, seed=3)
    t = _scipy(30, 25, numpy.float32, 'csr', density=0.2, seed=4)
    a, b = sp.csr_matrix(s), sp.csr_matrix(t)
    assert a.has_sorted_indices and a.has_canonical_format
    c = a @ b
    _close(c, s @ t, numpy.float32)
    assert c.has_sorted_indices
    # the same matrix with each row's entries reversed: unsorted, and the operand must be left as given
    rev = numpy.concatenate([numpy.arange(t.indptr[i + 1] - 1, t.indptr[i] - 1, -1) for i in range(30)]).astype(int)
    u = sp.csr_matrix((cp.asarray(t.data[rev]), cp.asarray(t.indices[rev]), cp.asarray(t.indptr)), shape=t.shape)
    assert not u.has_sorted_indices
    before = cp.asnumpy(u.indices)
    _close(a @ u, s @ t, numpy.float32)
    numpy.testing.assert_array_equal(cp.asnumpy(u.indices), before)
    row = _compressed._spgemm_expand(a, b, False)
    _close(row, s @ t, numpy.float32)


@gpu
@pytest.mark.parametrize('fmt', ['csr', 'csc'])
def test_conversion_keeps_duplicates_out_of_canonical_form(fmt):
    # (0, 1) is stored twice: the transpose to the other compressed format keeps both entries, so the result
    # must not claim canonical form; summing them afterwards gives SciPy's matrix.
    row = numpy.array([0, 0, 1, 2, 0])
    col = numpy.array([1, 2, 0, 2, 1])
    val = numpy.array([1.0, 2.0, 3.0, 4.0, 5.0])
    ref = ss.coo_matrix((val, (row, col)), shape=(3, 3))
    a = ss.csr_matrix((val[[0, 4, 1, 2, 3]], numpy.array([1, 1, 2, 0, 2]), numpy.array([0, 3, 4, 5])),
                      shape=(3, 3))
    if fmt == 'csc':
        a = ss.csc_matrix((val[[2, 0, 4, 1, 3]], numpy.array([1, 0, 0, 0, 2]), numpy.array([0, 1, 3, 5])),
                          shape=(3, 3))
    assert not a.has_canonical_format
    d = sp.csr_matrix(a) if fmt == 'csr' else sp.csc_matrix(a)
    other = d.tocsc() if fmt == 'csr' else d.tocsr()
    assert not other.has_canonical_format
    assert other.nnz == 5
    other.sum_duplicates()
    assert other.has_canonical_format and other.nnz == 4
    numpy.testing.assert_array_equal(other.toarray().get(), ref.toarray())
