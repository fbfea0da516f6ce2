"""Functions that build sparse matrices: eye, diags, random, stacking, Kronecker products, triangles, find."""
import numbers

import numpy

import cuarray as xp
from cuarray.scipy.sparse import _base, _util
from cuarray.scipy.sparse._base import _cls, issparse


def _is_array_input(*mats):
    return any(getattr(m, '_is_array', False) for m in mats)


def _coo_of(m, is_array=False):
    if issparse(m):
        return m.tocoo()
    return _cls('coo', is_array)(m)


def eye(m, n=None, k=0, dtype=float, format=None):
    """Sparse matrix with ones on the k-th diagonal."""
    return _eye(m, n, k, dtype, format, False)


def _eye(m, n, k, dtype, format, is_array):
    if n is None:
        n = m
    m, n = _util.check_shape((m, n))
    k = int(k)
    dt = _util.coerce_dtype(dtype)
    length = max(0, min(m + min(k, 0), n - max(k, 0)))
    pos = xp.arange(length, dtype=numpy.int64)
    idt = _util.index_dtype(maxval=max(m, n))
    coo = _cls('coo', is_array)._from_arrays(xp.ones(length, dtype=dt), (pos + max(-k, 0)).astype(idt),
                                             (pos + max(k, 0)).astype(idt), (m, n), True)
    return coo.asformat(format or 'dia')


def identity(n, dtype='d', format=None):
    """Identity matrix in sparse format."""
    return eye(n, n, dtype=dtype, format=format)


def diags(diagonals, offsets=0, shape=None, format=None, dtype=None):
    """Sparse matrix from diagonals."""
    return _diags(diagonals, offsets, shape, format, dtype, False)


def diags_array(diagonals, /, *, offsets=0, shape=None, format=None, dtype=None):
    """Sparse array from diagonals."""
    return _diags(diagonals, offsets, shape, format, dtype, True)


def _diags(diagonals, offsets, shape, format, dtype, is_array):
    if _util.isscalarlike(offsets):
        if len(diagonals) == 0 or _util.isscalarlike(diagonals[0]) or getattr(diagonals[0], 'ndim', 1) == 0:
            diagonals = [diagonals]
        offsets = [offsets]
    offsets = [int(o) for o in offsets]
    if len(diagonals) != len(offsets):
        raise ValueError('Different number of diagonals and offsets.')
    diagonals = [xp.atleast_1d(xp.asarray(d) if _util.isdense(d) else xp.asarray(numpy.asarray(d)))
                 for d in diagonals]
    if shape is None:
        m = len(diagonals[0]) + abs(int(offsets[0]))
        shape = (m, m)
    m, n = _util.check_shape(shape)
    if dtype is None:
        dtype = numpy.result_type(*[d.dtype for d in diagonals])
    dt = _util.coerce_dtype(dtype)
    rows, cols, vals = [], [], []
    for j, (d, k) in enumerate(zip(diagonals, offsets)):
        length = min(m + min(k, 0), n - max(k, 0))
        if length < 0:
            raise ValueError('Offset {} (index {}) out of bounds'.format(k, j))
        if d.size != 1 and d.size < length:
            raise ValueError('Diagonal length (index {}: {} at offset {}) does not agree with array size ({}, {}).'
                             .format(j, d.size, k, m, n))
        v = xp.broadcast_to(d, (length,)) if d.size == 1 else d[:length]
        pos = xp.arange(length, dtype=numpy.int64)
        rows.append(pos + max(-k, 0))
        cols.append(pos + max(k, 0))
        vals.append(v.astype(dt))
    coo = _cls('coo', is_array)((xp.concatenate(vals), (xp.concatenate(rows), xp.concatenate(cols))), shape=(m, n))
    # SciPy's diags sums repeated offsets' entries through dia storage; duplicate offsets overwrite there,
    # which SciPy forbids anyway
    return coo.asformat(format or 'dia')


def spdiags(data, diags, m=None, n=None, format=None):
    """Sparse matrix from the rows of `data` placed on the diagonals `diags` (SciPy's dia layout)."""
    if m is None and n is None:
        raise ValueError('m and n must be given')
    if n is None:
        m, n = m
    data = xp.asarray(data) if _util.isdense(data) else xp.asarray(numpy.asarray(data))
    return _cls('dia', False)((data, diags), shape=(m, n)).asformat(format)


def random(m, n, density=0.01, format='coo', dtype=None, random_state=None, data_rvs=None):
    """Sparse matrix of the given shape and density with uniformly distributed values (positions drawn
    without replacement on the host from `random_state`: an int seed, numpy RandomState or Generator)."""
    return _random(m, n, density, format, dtype, random_state, data_rvs, False)


def _random(m, n, density, format, dtype, random_state, data_rvs, is_array):
    if density < 0 or density > 1:
        raise ValueError('density expected to be 0 <= density <= 1')
    m, n = _util.check_shape((m, n))
    dt = _util.coerce_dtype(dtype if dtype is not None else numpy.float64)
    mn = m * n
    k = int(round(density * mn))
    if isinstance(random_state, (numpy.random.RandomState, numpy.random.Generator)):
        rng = random_state
    else:
        rng = numpy.random.default_rng(random_state)
    if isinstance(rng, numpy.random.Generator):
        flat = rng.choice(mn, size=k, replace=False) if k else numpy.empty(0, numpy.int64)
    else:
        flat = rng.choice(mn, size=k, replace=False) if k else numpy.empty(0, numpy.int64)
    flat = numpy.sort(flat)
    if data_rvs is None:
        if dt.kind == 'c':
            vals = rng.random(k) + 1j * rng.random(k) if isinstance(rng, numpy.random.Generator) else \
                rng.random_sample(k) + 1j * rng.random_sample(k)
        else:
            vals = rng.random(k) if isinstance(rng, numpy.random.Generator) else rng.random_sample(k)
    else:
        vals = data_rvs(k)
    vals = xp.asarray(vals).astype(dt) if _util.isdense(vals) else xp.asarray(numpy.asarray(vals).astype(dt))
    idt = _util.index_dtype(maxval=max(m, n, k))
    flat = xp.asarray(flat)
    row = (flat // n).astype(idt) if n else flat.astype(idt)
    col = (flat % n).astype(idt) if n else flat.astype(idt)
    coo = _cls('coo', is_array)._from_arrays(vals, row, col, (m, n), True)
    return coo.asformat(format)


def rand(m, n, density=0.01, format='coo', dtype=None, random_state=None):
    """random() without data_rvs."""
    return random(m, n, density=density, format=format, dtype=dtype, random_state=random_state)


def bmat(blocks, format=None, dtype=None):
    """A sparse matrix from a 2-D grid of sparse blocks (None for zero blocks)."""
    if isinstance(blocks, numpy.ndarray) and blocks.dtype == object:
        grid = blocks
    else:
        grid = numpy.empty((len(blocks), len(blocks[0]) if len(blocks) else 0), dtype=object)
        for i, r in enumerate(blocks):
            if isinstance(r, (list, tuple)) and len(r) != grid.shape[1]:
                raise ValueError('blocks must be 2-D')
            for j, b in enumerate(r):
                grid[i, j] = b
    if grid.ndim != 2:
        raise ValueError('blocks must be 2-D')
    M, N = grid.shape
    is_array = _is_array_input(*[b for b in grid.flat if b is not None])
    stacked = _compressed_stack(grid, format, dtype, is_array)
    if stacked is not None:
        return stacked
    present = [b for b in grid.flat if b is not None]
    if format is None and present and len(present) == grid.size:
        # SciPy returns the blocks' compressed format when every block has it (its fast paths), COO otherwise.
        for f in ('csr', 'csc'):
            if all(issparse(b) and b.format == f for b in present):
                format = f
    heights = numpy.zeros(M, dtype=numpy.int64)
    widths = numpy.zeros(N, dtype=numpy.int64)
    hset = numpy.zeros(M, dtype=bool)
    wset = numpy.zeros(N, dtype=bool)
    coos = {}
    for i in range(M):
        for j in range(N):
            b = grid[i, j]
            if b is None:
                continue
            c = _coo_of(b, is_array)
            coos[i, j] = c
            if hset[i] and c.shape[0] != heights[i]:
                raise ValueError('blocks[{},:] has incompatible row dimensions. Got blocks[{},{}].shape[0] == {}, '
                                 'expected {}.'.format(i, i, j, c.shape[0], heights[i]))
            if wset[j] and c.shape[1] != widths[j]:
                raise ValueError('blocks[:,{}] has incompatible column dimensions. Got blocks[{},{}].shape[1] == {}, '
                                 'expected {}.'.format(j, i, j, c.shape[1], widths[j]))
            heights[i], widths[j] = c.shape
            hset[i] = wset[j] = True
    roff = numpy.concatenate([[0], numpy.cumsum(heights)])
    coff = numpy.concatenate([[0], numpy.cumsum(widths)])
    shape = (int(roff[-1]), int(coff[-1]))
    if coos:
        dt = numpy.result_type(*[c.dtype for c in coos.values()]) if dtype is None else dtype
    else:
        dt = dtype if dtype is not None else numpy.float64
    dt = _util.coerce_dtype(dt)
    rows, cols, vals = [], [], []
    for (i, j), c in coos.items():
        rows.append(c.row.astype(numpy.int64) + int(roff[i]))
        cols.append(c.col.astype(numpy.int64) + int(coff[j]))
        vals.append(c.data.astype(dt))
    if not rows:
        return _cls('coo', is_array)(shape, dtype=dt).asformat(format)
    idt = _util.index_dtype(maxval=max(shape))
    coo = _cls('coo', is_array)._from_arrays(xp.concatenate(vals), xp.concatenate(rows).astype(idt),
                                             xp.concatenate(cols).astype(idt), shape, None)
    return coo.asformat(format)


def _compressed_stack(grid, format, dtype, is_array):
    """SciPy's fast path of bmat: a single column of CSR blocks (vstack) or a single row of CSC blocks (hstack),
    result format None or the blocks' own, is the concatenation of their data and indices with shifted indptrs:
    no COO triplets and no sort, so the result costs its own size in memory and one pass in time."""
    M, N = grid.shape
    if M == 0 or N == 0 or (M > 1 and N > 1):
        return None
    blocks = list(grid.flat)
    if any(b is None for b in blocks):
        return None
    fmt = 'csr' if N == 1 else 'csc'
    if M == 1 and N == 1 and issparse(blocks[0]) and blocks[0].format == 'csc':
        fmt = 'csc'
    if format not in (None, fmt) or not all(issparse(b) and b.format == fmt for b in blocks):
        return None
    axis = 1 if fmt == 'csr' else 0  # the axis every block must share (columns of a vstack, rows of an hstack)
    other = blocks[0].shape[axis]
    if any(b.shape[axis] != other for b in blocks):
        raise ValueError(f'incompatible dimensions for axis {axis}')
    majors = [b.shape[1 - axis] for b in blocks]
    n_major = int(sum(majors))
    nnz = [int(b.indptr[-1]) if b.indptr.size else 0 for b in blocks]
    total = int(sum(nnz))
    dt = _util.coerce_dtype(numpy.result_type(*[b.dtype for b in blocks]) if dtype is None else dtype)
    idt = _util.index_dtype(maxval=max(n_major, other, total))
    data = xp.concatenate([b.data[:n].astype(dt, copy=False) for b, n in zip(blocks, nnz)])
    indices = xp.concatenate([b.indices[:n].astype(idt, copy=False) for b, n in zip(blocks, nnz)])
    parts, offset = [], 0
    for b, n, last in zip(blocks, nnz, range(len(blocks) - 1, -1, -1)):
        p = b.indptr if last == 0 else b.indptr[:-1]
        parts.append(p.astype(idt) + offset)
        offset += n
    indptr = xp.concatenate(parts)
    canonical = True if all(getattr(b, '_canonical', None) for b in blocks) else None
    shape = (n_major, other) if fmt == 'csr' else (other, n_major)
    return _cls(fmt, is_array)._from_arrays(data, indices, indptr, shape, canonical)


def _check_blocks(blocks):
    if isinstance(blocks, (list, tuple)) and len(blocks) == 0:
        raise ValueError('blocks must not be empty')


def hstack(blocks, format=None, dtype=None):
    """Stack sparse matrices horizontally."""
    _check_blocks(blocks)
    return bmat([list(blocks)], format=format, dtype=dtype)


def vstack(blocks, format=None, dtype=None):
    """Stack sparse matrices vertically."""
    _check_blocks(blocks)
    return bmat([[b] for b in blocks], format=format, dtype=dtype)


def block_diag(mats, format=None, dtype=None):
    """A block-diagonal sparse matrix from the given blocks (dense blocks are made sparse)."""
    mats = list(mats)
    n = len(mats)
    grid = numpy.empty((n, n), dtype=object)
    for i, a in enumerate(mats):
        grid[i, i] = a if issparse(a) else _cls('coo', False)(xp.atleast_2d(
            a if _util.isdense(a) else xp.asarray(numpy.asarray(a))))
    if n == 0:
        return _cls('coo', False)((0, 0), dtype=dtype).asformat(format)
    return bmat(grid, format=format, dtype=dtype)


def kron(A, B, format=None):
    """Kronecker product of two sparse matrices."""
    is_array = _is_array_input(A, B)
    A = _coo_of(A if issparse(A) else _as_dense(A), is_array)
    B = _coo_of(B if issparse(B) else _as_dense(B), is_array)
    Am, An = A.shape
    Bm, Bn = B.shape
    shape = (Am * Bm, An * Bn)
    dt = _util.upcast(A.dtype, B.dtype)
    na, nb = A.data.size, B.data.size
    if na == 0 or nb == 0:
        return _cls('coo', is_array)(shape, dtype=dt).asformat(format)
    row = xp.repeat(A.row.astype(numpy.int64) * Bm, nb) + xp.tile(B.row.astype(numpy.int64), na)
    col = xp.repeat(A.col.astype(numpy.int64) * Bn, nb) + xp.tile(B.col.astype(numpy.int64), na)
    data = xp.repeat(A.data.astype(dt), nb) * xp.tile(B.data.astype(dt), na)
    idt = _util.index_dtype(maxval=max(shape))
    return _cls('coo', is_array)._from_arrays(data, row.astype(idt), col.astype(idt), shape, None).asformat(format)


def kronsum(A, B, format=None):
    """Kronecker sum kron(I_n, A) + kron(B, I_m) of square A (m x m) and B (n x n)."""
    is_array = _is_array_input(A, B)
    A = _coo_of(A if issparse(A) else _as_dense(A), is_array)
    B = _coo_of(B if issparse(B) else _as_dense(B), is_array)
    if A.shape[0] != A.shape[1]:
        raise ValueError('A is not square')
    if B.shape[0] != B.shape[1]:
        raise ValueError('B is not square')
    dt = _util.upcast(A.dtype, B.dtype)
    L = kron(_eye(B.shape[0], None, 0, dt, 'coo', is_array), A, format='coo')
    R = kron(B, _eye(A.shape[0], None, 0, dt, 'coo', is_array), format='coo')
    return (L + R).asformat(format)


def _as_dense(a):
    return a if _util.isdense(a) else xp.asarray(numpy.asarray(a))


def _triangle(A, k, format, lower):
    is_array = _is_array_input(A)
    coo = _coo_of(A if issparse(A) else _as_dense(A), is_array)
    d = coo.col.astype(numpy.int64) - coo.row
    mask = d <= k if lower else d >= k
    res = _cls('coo', is_array)._from_arrays(coo.data[mask], coo.row[mask], coo.col[mask], coo.shape, None)
    return res.asformat(format)


def tril(A, k=0, format=None):
    """The lower triangle (on and below the k-th diagonal) of a sparse matrix."""
    return _triangle(A, int(k), format, True)


def triu(A, k=0, format=None):
    """The upper triangle (on and above the k-th diagonal) of a sparse matrix."""
    return _triangle(A, int(k), format, False)


def find(A):
    """(row, col, values) of the nonzero entries, duplicates summed, in row-major order."""
    coo = _coo_of(A if issparse(A) else _as_dense(A)).copy()
    coo.sum_duplicates()
    nz = coo.data != 0
    return coo.row[nz], coo.col[nz], coo.data[nz]


def save_npz(file, matrix, compressed=True):
    """Save a sparse matrix to a .npz file in SciPy's layout (scipy.sparse.load_npz reads it)."""
    fmt = matrix.format
    arrays = {'format': fmt.encode('ascii'), 'shape': numpy.array(matrix.shape)}
    if fmt in ('csr', 'csc'):
        arrays.update(indices=_util.to_host(matrix.indices), indptr=_util.to_host(matrix.indptr))
    elif fmt == 'coo':
        arrays.update(row=_util.to_host(matrix.row), col=_util.to_host(matrix.col))
    elif fmt == 'dia':
        arrays.update(offsets=_util.to_host(matrix.offsets))
    else:
        raise NotImplementedError('Save is not implemented for sparse matrix of format {}.'.format(fmt))
    arrays['data'] = _util.to_host(matrix.data)
    if matrix._is_array:
        arrays['_is_array'] = True
    (numpy.savez_compressed if compressed else numpy.savez)(file, **arrays)


def load_npz(file):
    """Load a sparse matrix saved by save_npz (ours or SciPy's)."""
    with numpy.load(file, allow_pickle=False) as f:
        try:
            fmt = f['format'].item()
        except KeyError:
            raise ValueError('The file {} does not contain a sparse array or matrix.'.format(file)) from None
        if not isinstance(fmt, str):
            fmt = fmt.decode('ascii')
        is_array = bool(f['_is_array']) if '_is_array' in f else False
        cls = _cls(fmt, is_array) if (fmt, is_array) in _base._classes else None
        if cls is None:
            raise ValueError('Unknown format "{}"'.format(fmt))
        shape = tuple(int(s) for s in f['shape'])
        if fmt in ('csr', 'csc'):
            return cls((xp.asarray(f['data']), xp.asarray(f['indices']), xp.asarray(f['indptr'])), shape=shape)
        if fmt == 'coo':
            return cls((xp.asarray(f['data']), (xp.asarray(f['row']), xp.asarray(f['col']))), shape=shape)
        return cls((xp.asarray(f['data']), xp.asarray(f['offsets'])), shape=shape)
