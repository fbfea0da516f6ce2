"""norm of sparse matrices (SciPy's orders and axes) and onenormest (Higham and Tisseur's block 1-norm estimator)."""

import numpy

import cuarray as cp
from cuarray.scipy.sparse.linalg._interface import aslinearoperator, issparse


def _abs_csr(x):
    """|x| as a canonical CSR matrix (duplicates summed first, so that the norm is the matrix's)."""
    from cuarray.scipy import sparse
    x = x.tocsr()
    if not x.has_canonical_format:
        x = x.copy()
        x.sum_duplicates()
    return sparse.csr_matrix((cp.abs(x.data), x.indices, x.indptr), shape=x.shape), x


def _line_sums(a, axis):
    """Sums of the CSR matrix `a` along `axis` (0: per column, 1: per row) as a 1-d device array."""
    m, n = a.shape
    if axis == 1:
        return cp.asarray(a @ cp.ones(n, dtype=a.dtype)).reshape(m)
    return cp.asarray(a.T @ cp.ones(m, dtype=a.dtype)).reshape(n)


def _frobenius(x):
    _, xc = _abs_csr(x)
    return cp.linalg.norm(xc.data)


def norm(x, ord=None, axis=None):
    """Norm of a sparse matrix: SciPy's matrix norms (None/'fro', 1, -1, inf, -inf, 2) without axis or with a pair
    of axes, and vector norms of the rows or columns (any order; 0 counts nonzeros) with one axis. Duplicate
    entries are summed first. The result is a 0-d (or, per axis, 1-d) device array."""
    if not issparse(x):
        raise TypeError("input is not sparse. use cuarray.linalg.norm")
    if axis is None and ord in (None, "fro", "f"):
        return _frobenius(x)
    nd = 2
    if axis is None:
        axis = (0, 1)
    elif not isinstance(axis, tuple):
        msg = "'axis' must be None, an integer or a tuple of integers"
        try:
            int_axis = int(axis)
        except TypeError as e:
            raise TypeError(msg) from e
        if axis != int_axis:
            raise TypeError(msg)
        axis = (int_axis,)
    if len(axis) == 2:
        row_axis, col_axis = axis
        if not (-nd <= row_axis < nd and -nd <= col_axis < nd):
            raise ValueError(f"Invalid axis {axis!r} for an array with shape {x.shape!r}")
        if row_axis % nd == col_axis % nd:
            raise ValueError("Duplicate axes given.")
        if ord == 2:
            from cuarray.scipy.sparse.linalg._eigen import svds
            s = svds(x, k=1, return_singular_vectors=False)
            return s[0]
        if ord == -2 or ord == "nuc":
            raise NotImplementedError("the -2 and nuclear norms of sparse matrices are not implemented "
                                      "(nor in SciPy)")
        if ord in (None, "f", "fro"):
            return _frobenius(x)
        if ord not in (1, -1, numpy.inf, -numpy.inf):
            raise ValueError("Invalid norm order for matrices.")
        a, _ = _abs_csr(x)
        # ord +-1 sums along row_axis (column sums for (0, 1)); ord +-inf along col_axis.
        along = row_axis % nd if ord in (1, -1) else col_axis % nd
        sums = _line_sums(a, 1 if along == 1 else 0)
        if sums.size == 0:
            raise ValueError("zero-size array to reduction operation maximum which has no identity")
        return sums.max() if ord > 0 else sums.min()
    if len(axis) == 1:
        a_ax, = axis
        if not (-nd <= a_ax < nd):
            raise ValueError(f"Invalid axis {axis!r} for an array with shape {x.shape!r}")
        a_ax %= nd
        a, xc = _abs_csr(x)
        from cuarray.scipy import sparse
        along = a_ax  # reduce over this axis: 0 gives one value per column, 1 per row
        length = x.shape[along]
        if ord == numpy.inf or ord == -numpy.inf:
            return _line_extreme(a, along, ord > 0)
        if ord == 0:
            ones = (xc.data != 0).astype(numpy.float64)
            cnt = sparse.csr_matrix((ones, xc.indices, xc.indptr), shape=x.shape)
            return _line_sums(cnt, along).astype(numpy.int64) if length else cp.zeros(x.shape[1 - along])
        if ord == 1:
            return _line_sums(a, along)
        if ord in (2, None):
            sq = sparse.csr_matrix((a.data * a.data, a.indices, a.indptr), shape=x.shape)
            return cp.sqrt(_line_sums(sq, along))
        try:
            ord + 1
        except TypeError as e:
            raise ValueError("Invalid norm order for vectors.") from e
        pw = sparse.csr_matrix((a.data ** ord, a.indices, a.indptr), shape=x.shape)
        return cp.power(_line_sums(pw, along), 1.0 / ord)
    raise ValueError("Improper number of dimensions to norm.")


def _line_extreme(a, along, largest):
    """max (or min, counting implicit zeros) of the nonnegative CSR `a` over `along`, one value per line."""
    if along == 0:
        a = a.T.tocsr()
    m, n = a.shape
    indptr = a.indptr
    counts = indptr[1:] - indptr[:-1]
    if a.data.size == 0:
        return cp.zeros(m, dtype=a.dtype)
    rows = cp.repeat(cp.arange(m, dtype=numpy.int64), counts)
    # Sort by (row, value) and take each row's last (largest) or first (smallest) stored value.
    order = cp.lexsort(cp.stack([a.data, rows.astype(a.data.dtype)]))
    vals = a.data[order]
    ends = indptr[1:].astype(numpy.int64)
    starts = indptr[:-1].astype(numpy.int64)
    nonempty = counts > 0
    if largest:
        pick = cp.where(nonempty, ends - 1, 0)
        return cp.where(nonempty, vals[pick], 0)
    pick = cp.where(nonempty, starts, 0)
    full = counts == n
    return cp.where(full, vals[pick], 0)


def onenormest(A, t=2, itmax=5, compute_v=False, compute_w=False):
    """A lower estimate of the 1-norm of A (sparse, dense or LinearOperator; square) by Higham and Tisseur's block
    algorithm with t columns and at most itmax iterations, as SciPy's. Optionally also v with
    ||A v||_1 = est ||v||_1 and w = A v. The random start vectors come from NumPy's generator, as in SciPy."""
    A = aslinearoperator(A)
    if A.shape[0] != A.shape[1]:
        raise ValueError("expected the operator to act like a square matrix")
    n = A.shape[1]
    if t >= n:
        # Exact: the column sums of the explicit matrix.
        eye = cp.eye(n, dtype=A.dtype or numpy.float64)
        A_explicit = cp.asarray(A.matmat(eye))
        col_abs_sums = cp.asnumpy(cp.abs(A_explicit).sum(axis=0))
        j = int(numpy.argmax(col_abs_sums))
        est = float(col_abs_sums[j])
        v = cp.zeros(n, dtype=numpy.float64)
        v[j] = 1
        w = A_explicit[:, j]
    else:
        est, v, w = _onenormest_core(A, t, itmax)
    result = (est,)
    if compute_v:
        result += (v,)
    if compute_w:
        result += (w,)
    return result[0] if len(result) == 1 else result


def _sign_round_up(X):
    # sign with 0 counted as +1, as the algorithm requires (every entry +-1).
    Y = numpy.sign(X)
    Y[Y == 0] = 1
    return Y


def _parallel(S, T):
    """Whether every column of S is parallel to a column of T (entries +-1: |s.t| == n)."""
    n = S.shape[0]
    return bool(numpy.all(numpy.max(numpy.abs(S.T @ T), axis=1) == n))


def _resample(S, rng, S_old=None):
    # Columns of S parallel to an earlier column of S or to one of S_old are replaced by random +-1 columns.
    n, t = S.shape
    for i in range(t):
        for _ in range(n // t + 10):
            prev = S[:, :i]
            dup = (i > 0 and numpy.any(numpy.abs(prev.T @ S[:, i]) == n))
            if S_old is not None:
                dup = dup or numpy.any(numpy.abs(S_old.T @ S[:, i]) == n)
            if not dup:
                break
            S[:, i] = rng.integers(0, 2, n) * 2 - 1


def _onenormest_core(A, t, itmax):
    """Higham and Tisseur (2000), Algorithm 2.4. The n x t blocks cross to the host for the +-1/index logic; the
    products with A and A^H run wherever A does."""
    if itmax < 2:
        raise ValueError("at least two iterations are required")
    if t < 1:
        raise ValueError("at least one column is required")
    n = A.shape[0]
    rng = numpy.random.default_rng()
    dt = A.dtype or numpy.float64
    real = numpy.dtype(dt).kind != "c"
    X = numpy.ones((n, t))
    if t > 1:
        X[:, 1:] = rng.integers(0, 2, (n, t - 1)) * 2 - 1
        _resample(X, rng)
    X /= float(n)
    ind_hist = numpy.zeros(0, dtype=numpy.intp)
    est_old = 0.0
    S = numpy.zeros((n, t))
    k = 1
    ind = None
    ind_best = None
    w = None
    while True:
        Y = cp.asnumpy(A.matmat(cp.asarray(X.astype(dt))))
        mags = numpy.abs(Y).sum(axis=0)
        est = float(numpy.max(mags))
        best_j = int(numpy.argmax(mags))
        if est > est_old or k == 2:
            if k >= 2:
                ind_best = int(ind[best_j])
            w = Y[:, best_j]
        if k >= 2 and est <= est_old:
            est = est_old
            break
        est_old = est
        S_old = S
        if k > itmax:
            break
        if real:
            S = _sign_round_up(Y)
            if _parallel(S, S_old):
                break
            if t > 1:
                _resample(S, rng, S_old)
        else:
            absY = numpy.abs(Y)
            S = numpy.where(absY == 0, 1, Y / numpy.where(absY == 0, 1, absY))
        Z = cp.asnumpy(A.rmatmat(cp.asarray(S.astype(dt))))
        h = numpy.max(numpy.abs(Z), axis=1)
        if k >= 2 and numpy.max(h) == h[ind_best]:
            break
        ind = numpy.argsort(h)[::-1][:t + len(ind_hist)]
        if t > 1:
            if numpy.all(numpy.isin(ind[:t], ind_hist)):
                break
            seen = numpy.isin(ind, ind_hist)
            ind = numpy.concatenate((ind[~seen], ind[seen]))[:t]
        else:
            ind = ind[:t]
        X = numpy.zeros((n, t))
        X[ind, numpy.arange(len(ind))] = 1
        ind_hist = numpy.concatenate((ind_hist, ind))
        k += 1
    if ind_best is None:
        ind_best = 0
    v = numpy.zeros(n)
    v[ind_best] = 1
    return est, cp.asarray(v), cp.asarray(w)
