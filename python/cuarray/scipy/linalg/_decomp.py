"""scipy.linalg's factorisations and solvers on cuSOLVER/cuBLAS (cuarray._core._lapack and cuarray.linalg)."""
import warnings

import numpy

import cuarray as _cp
from cuarray import _core
from cuarray.scipy.linalg._util import (
    LinAlgError, LinAlgWarning, all_finite, as_lapack, asarray_validated, broadcast_rhs, common_lapack_dtype,
    host_ints, lapack_dtype, require_finite, require_matrices, trans_code)

_lapack = _core._lapack


# Note [one read per solve]: each device-to-host read waits for the GPU, and between such a read and the next
# launch the GPU idles while the host runs Python. SciPy's check_finite read a and b one at a time before the
# solve, and solve_triangular read the diagonal as well: three reads a call. lu_solve, cho_solve and
# solve_triangular now queue the solve first and then make one read for every check, raising the same errors
# (the result computed from the bad input is dropped).


def _warn_singular_lu(info):
    for i in host_ints(info):
        if i > 0:
            warnings.warn('Diagonal number {} is exactly zero. Singular matrix.'.format(int(i)), LinAlgWarning,
                          stacklevel=3)


def lu_factor(a, overwrite_a=False, check_finite=True):
    """LU decomposition with partial pivoting: (lu, piv) with 0-based int32 row interchanges, as SciPy's."""
    a = asarray_validated(a, check_finite)
    require_matrices(a)
    lu, ipiv, info = _lapack.getrf(as_lapack(a))
    _warn_singular_lu(info)
    return lu, (ipiv - 1).astype(numpy.int32)


def lu_solve(lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True):
    """Solve a x = b (trans 0), a^T x = b (1) or a^H x = b (2) with lu_factor's result."""
    lu, piv = lu_and_piv
    lu = asarray_validated(lu, False)
    piv = _cp.asarray(piv)
    b = asarray_validated(b, False)
    require_matrices(lu, square=True)
    code = trans_code(trans) if trans in (0, 1, 2) else None
    if code is None:
        raise ValueError('trans must be 0, 1 or 2')
    if b.ndim == 0 or lu.shape[-1] != (b.shape[0] if b.ndim == 1 else b.shape[-2]):
        raise ValueError('Shapes of lu {} and b {} are incompatible'.format(lu.shape, b.shape))
    if piv.ndim < 1 or piv.shape[-1] != lu.shape[-1]:
        raise ValueError('Shapes of lu {} and piv {} are incompatible'.format(lu.shape, piv.shape))
    t = common_lapack_dtype(lu.dtype, b.dtype)
    lu2, b2, vector = broadcast_rhs(lu, b)
    piv2 = _cp.broadcast_to(piv, lu2.shape[:-1])
    x = _lapack.getrs(lu2.astype(t, copy=False), piv2.astype(numpy.int64) + 1, b2.astype(t, copy=False), code)
    if check_finite:
        require_finite(lu, b)  # Note [one read per solve]
    return x[..., 0] if vector else x


def lu(a, permute_l=False, overwrite_a=False, check_finite=True, p_indices=False):
    """LU decomposition a = p @ l @ u of (..., M, N) matrices (permute_l: (p @ l, u); p_indices: row indices)."""
    a = asarray_validated(a, check_finite)
    require_matrices(a)
    a = as_lapack(a)
    m, n = a.shape[-2:]
    k = min(m, n)
    batch = a.shape[:-2]
    real = numpy.empty(0, a.dtype).real.dtype
    if min(a.shape) == 0:
        # SciPy's shapes for any empty axis (batch ones included): p is (..., 0, 0), p_indices (..., 0).
        pl = _cp.empty(batch + (m, k), dtype=a.dtype)
        u = _cp.empty(batch + (k, n), dtype=a.dtype)
        if permute_l:
            return pl, u
        p = _cp.empty(batch + (0,), dtype=numpy.int32) if p_indices else _cp.empty(batch + (0, 0), dtype=real)
        return p, pl, u
    if (m, n) == (1, 1):
        # SciPy's scalar shortcut: p takes a's dtype (complex too) and p_indices is the default int, not int32.
        ones = _cp.ones(a.shape, dtype=a.dtype)
        if permute_l:
            return ones, a.copy()
        p = _cp.zeros(batch + (1,), dtype=numpy.int_) if p_indices else _cp.ones(a.shape, dtype=a.dtype)
        return p, ones, a.copy()
    lu_, ipiv, info = _lapack.getrf(a)
    l = _cp.tril(lu_[..., :, :k], -1) + _cp.eye(m, k, dtype=a.dtype)
    u = _cp.triu(lu_[..., :k, :])
    # The row interchanges are sequential, so the permutation is built on the host from the (small) pivots.
    count = int(numpy.prod(batch, dtype=numpy.int64))
    swaps = numpy.asarray(ipiv.get()).astype(numpy.int64).reshape((count, k)) - 1
    perm = numpy.broadcast_to(numpy.arange(m), (swaps.shape[0], m)).copy()
    rows = numpy.arange(swaps.shape[0])
    for i in range(k):
        j = swaps[:, i]
        pi, pj = perm[rows, i].copy(), perm[rows, j].copy()
        perm[rows, i], perm[rows, j] = pj, pi
    # a[perm[j]] = (l @ u)[j], so a = l[inv] @ u with inv = argsort(perm): SciPy's p_indices.
    inv = numpy.argsort(perm, axis=1)
    if permute_l:
        # One gather of whole rows from the stacked (count * m, k) view: row b*m + inv[b, j] goes to b*m + j.
        flat = (inv + (numpy.arange(count, dtype=numpy.int64) * m)[:, None]).reshape(-1)
        rows_l = _cp.take(l.reshape((count * m, k)), _cp.asarray(flat), axis=0)
        return rows_l.reshape(batch + (m, k)), u
    inv_d = _cp.asarray(inv.astype(numpy.int32).reshape(batch + (m,)))
    if p_indices:
        return inv_d, l, u
    p = (inv_d[..., :, None] == _cp.arange(m)).astype(real)
    return p, l, u


def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False, check_finite=True):
    """Solve a x = b for triangular a (its `lower` or upper triangle), trans 0/'N', 1/'T', 2/'C'."""
    a = asarray_validated(a, False)
    b = asarray_validated(b, False)
    require_matrices(a, square=True)
    code = trans_code(trans)
    if b.ndim == 0 or a.shape[-1] != (b.shape[0] if b.ndim == 1 else b.shape[-2]):
        raise ValueError('shapes of a {} and b {} are incompatible'.format(a.shape, b.shape))
    t = common_lapack_dtype(a.dtype, b.dtype)
    a2, b2, vector = broadcast_rhs(a, b)
    a2 = a2.astype(t, copy=False)
    x = _lapack.trsm(a2, b2.astype(t, copy=False), bool(lower), code, bool(unit_diagonal))
    # Note [one read per solve]: LAPACK's trtrs refuses an exact zero on the diagonal, where cuBLAS's trsm
    # divides by it; that leaves an inf or NaN in x, so the diagonal is read only when x is not all finite.
    # trtrs checks the diagonal even with no right-hand sides.
    checked = ([a, b] if check_finite else []) + ([x] if not unit_diagonal else [])
    if (x.size == 0 and not unit_diagonal) or (checked and not all_finite(*checked)):
        if check_finite:
            require_finite(a)
            require_finite(b)
        if not unit_diagonal and a2.size:
            diag = numpy.asarray(_cp.diagonal(a2, axis1=-2, axis2=-1).reshape((-1, a2.shape[-1])).get())
            bad = numpy.nonzero((diag == 0).any(axis=0))[0]
            if bad.size:
                raise LinAlgError('singular matrix: resolution failed at diagonal {}'.format(int(bad[0])))
    return x[..., 0] if vector else x


def _potrf(a, lower, check_finite):
    a = asarray_validated(a, check_finite)
    require_matrices(a, square=True)
    c, info = _lapack.potrf(as_lapack(a), bool(lower))
    for i in host_ints(info):
        if i > 0:
            raise LinAlgError('{}-th leading minor of the array is not positive definite'.format(int(i)))
    return c


def cholesky(a, lower=False, overwrite_a=False, check_finite=True):
    """Cholesky factor: upper u with a = u^H u, or (lower) l with a = l l^H."""
    c = _potrf(a, lower, check_finite)
    return _cp.tril(c) if lower else _cp.triu(c)


def cho_factor(a, lower=False, overwrite_a=False, check_finite=True):
    """(c, lower) for cho_solve; c's other triangle holds a's entries, as LAPACK's potrf leaves it."""
    return _potrf(a, lower, check_finite), lower


def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True):
    """Solve a x = b with cho_factor's result."""
    c, lower = c_and_lower
    c = asarray_validated(c, False)
    b = asarray_validated(b, False)
    if c.ndim < 2 or c.shape[-1] != c.shape[-2]:
        raise ValueError('The factored matrix c is not square.')
    if b.ndim == 0 or c.shape[-1] != (b.shape[0] if b.ndim == 1 else b.shape[-2]):
        raise ValueError('incompatible dimensions ({} and {})'.format(c.shape, b.shape))
    t = common_lapack_dtype(c.dtype, b.dtype)
    c2, b2, vector = broadcast_rhs(c, b)
    x = _lapack.potrs(c2.astype(t, copy=False), b2.astype(t, copy=False), bool(lower))
    if check_finite:
        require_finite(c, b)  # Note [one read per solve]
    return x[..., 0] if vector else x


_QR_MODES = ('full', 'r', 'economic', 'raw')


def qr(a, overwrite_a=False, lwork=None, mode='full', pivoting=False, check_finite=True):
    """QR decomposition; pivoting=True computes on the host with SciPy (cuSOLVER has no geqp3)."""
    if mode not in _QR_MODES:
        raise ValueError("Mode argument should be one of ['full', 'r', 'economic', 'raw']")
    a = asarray_validated(a, check_finite)
    require_matrices(a)
    a = as_lapack(a)
    if pivoting:
        import scipy.linalg
        out = scipy.linalg.qr(a.get(), mode=mode, pivoting=True, check_finite=False)
        return tuple(_cp.asarray(x) if not isinstance(x, tuple) else tuple(_cp.asarray(y) for y in x)
                     for x in out)
    m, n = a.shape[-2:]
    k = min(m, n)
    if mode == 'raw':
        h, tau = _cp.linalg.qr(a, mode='raw')
        qr_ = _cp.swapaxes(h, -1, -2)
        return (qr_, tau), _cp.triu(qr_[..., :k, :])
    if mode == 'r':
        r = _cp.linalg.qr(a, mode='r')
        if m > k:  # SciPy's R is (M, N), zero below the first K rows
            r = _cp.concatenate([r, _cp.zeros(a.shape[:-2] + (m - k, n), dtype=r.dtype)], axis=-2)
        return (r,)
    q, r = _cp.linalg.qr(a, mode='complete' if mode == 'full' else 'reduced')
    return q, r


def svd(a, full_matrices=True, compute_uv=True, overwrite_a=False, check_finite=True, lapack_driver='gesdd'):
    """Singular value decomposition (U, s, Vh), or s alone; lapack_driver is checked, cuSOLVER picks its own."""
    if lapack_driver not in ('gesdd', 'gesvd'):
        raise ValueError('lapack_driver must be "gesdd" or "gesvd", not "{}"'.format(lapack_driver))
    a = asarray_validated(a, check_finite)
    require_matrices(a)
    a = as_lapack(a)
    if not compute_uv:
        return _cp.linalg.svd(a, compute_uv=False)
    u, s, vh = _cp.linalg.svd(a, full_matrices=full_matrices)
    return u, s, vh


def svdvals(a, overwrite_a=False, check_finite=True):
    return svd(a, compute_uv=False, check_finite=check_finite)


def _hermitian_from(a, lower):
    t = _cp.tril(a, -1) if lower else _cp.triu(a, 1)
    d = _cp.diagonal(a, axis1=-2, axis2=-1)
    d = d.real.astype(a.dtype) if a.dtype.kind == 'c' else d
    return t + _cp.conj(_cp.swapaxes(t, -1, -2)) + d[..., None] * _cp.eye(a.shape[-1], dtype=a.dtype)


_EIGH_DRIVERS = (None, 'ev', 'evd', 'evr', 'evx', 'gv', 'gvd', 'gvx')


def eigh(a, b=None, *, lower=True, eigvals_only=False, overwrite_a=False, overwrite_b=False, type=1,
         check_finite=True, subset_by_index=None, subset_by_value=None, driver=None):
    """Hermitian (generalized with b) eigenproblem; ascending eigenvalues (w, v) or w alone."""
    if driver not in _EIGH_DRIVERS:
        raise ValueError('"{}" is unknown. Possible values are "None", "{}".'.format(
            driver, '", "'.join(d for d in _EIGH_DRIVERS if d)))
    if type not in (1, 2, 3):
        raise ValueError('"type" keyword only accepts 1, 2, and 3.')
    if subset_by_index is not None and subset_by_value is not None:
        raise ValueError('Either index or value subset can be requested.')
    a = asarray_validated(a, check_finite)
    require_matrices(a, square=True)
    n = a.shape[-1]
    if subset_by_index is not None:
        lo, hi = (int(x) for x in subset_by_index)
        if not 0 <= lo <= hi < n:
            raise ValueError('Requested eigenvalue indices are not valid. Valid range is [0, {}] and start <= end, '
                             'but start={}, end={} is given'.format(n - 1, lo, hi))
    if b is None:
        a = as_lapack(a)
        uplo = 'L' if lower else 'U'
        if eigvals_only and subset_by_value is None and subset_by_index is None:
            return _cp.linalg.eigvalsh(a, UPLO=uplo)
        w, v = _cp.linalg.eigh(a, UPLO=uplo)
    else:
        b = asarray_validated(b, check_finite)
        require_matrices(b, square=True)
        if b.shape[-1] != n:
            raise ValueError("wrong b dimensions {}, should be {}".format(b.shape, a.shape))
        t = common_lapack_dtype(a.dtype, b.dtype)
        batch = numpy.broadcast_shapes(a.shape[:-2], b.shape[:-2])
        a = _cp.broadcast_to(a, batch + (n, n)).astype(t, copy=False)
        b = _cp.broadcast_to(b, batch + (n, n)).astype(t, copy=False)
        c, info = _lapack.potrf(b, bool(lower))
        for i in host_ints(info):
            if i > 0:
                raise LinAlgError('The leading minor of order {} of B is not positive definite. The factorization of '
                                  'B could not be completed and no eigenvalues or eigenvectors were computed.'
                                  .format(int(i)))
        # b = L L^H with L lower triangular, whichever triangle was read.
        L = _cp.tril(c) if lower else _cp.conj(_cp.swapaxes(_cp.triu(c), -1, -2))
        A = _hermitian_from(a, lower)
        if type == 1:  # L^-1 A L^-H
            y = _lapack.trsm(L, A, True, 0, False)
            C = _cp.conj(_cp.swapaxes(_lapack.trsm(L, _cp.conj(_cp.swapaxes(y, -1, -2)), True, 0, False), -1, -2))
        else:  # L^H A L
            C = _cp.matmul(_cp.conj(_cp.swapaxes(L, -1, -2)), _cp.matmul(A, L))
        C = _hermitian_from(C, True)
        w, v = _cp.linalg.eigh(C, UPLO='L')
        # Eigenvectors normalised as LAPACK's sygvd: v^H B v = I (types 1, 2), v^H B^-1 v = I (type 3).
        v = _lapack.trsm(L, v, True, 2, False) if type in (1, 2) else _cp.matmul(L, v)
    if subset_by_index is not None:
        w, v = w[..., lo:hi + 1], v[..., lo:hi + 1]
    elif subset_by_value is not None:
        lo_v, hi_v = (float(x) for x in subset_by_value)
        keep = numpy.asarray(((w > lo_v) & (w <= hi_v)).get()).reshape((-1, n))
        counts = keep.sum(axis=1)
        if counts.size and (counts != counts[0]).any():
            raise ValueError('subset_by_value selects a different number of eigenvalues in each batch matrix')
        first = int(keep[0].argmax()) if counts.size and counts[0] else 0
        cnt = int(counts[0]) if counts.size else 0
        w, v = w[..., first:first + cnt], v[..., first:first + cnt]
    return w if eigvals_only else (w, v)


def eigvalsh(a, b=None, *, lower=True, overwrite_a=False, overwrite_b=False, type=1, check_finite=True,
             subset_by_index=None, subset_by_value=None, driver=None):
    return eigh(a, b, lower=lower, eigvals_only=True, type=type, check_finite=check_finite,
                subset_by_index=subset_by_index, subset_by_value=subset_by_value, driver=driver)


_ASSUME_A = (None, 'general', 'gen', 'symmetric', 'sym', 'hermitian', 'her', 'positive definite', 'pos',
             'diagonal', 'upper triangular', 'lower triangular', 'tridiagonal', 'banded')


def solve(a, b, lower=False, overwrite_a=False, overwrite_b=False, check_finite=True, assume_a=None,
          transposed=False):
    """Solve a x = b (transposed: a^T x = b), batched over leading axes; assume_a picks the factorisation."""
    if assume_a not in _ASSUME_A:
        raise ValueError('{} is not a recognized matrix structure'.format(assume_a))
    a = asarray_validated(a, check_finite)
    b = asarray_validated(b, check_finite)
    require_matrices(a, square=True)
    if b.ndim == 0 or a.shape[-1] != (b.shape[0] if b.ndim == 1 else b.shape[-2]):
        raise ValueError('Input b has to have same number of rows as input a')
    t = common_lapack_dtype(a.dtype, b.dtype)
    a2, b2, vector = broadcast_rhs(a, b)
    a2, b2 = a2.astype(t, copy=False), b2.astype(t, copy=False)
    if assume_a in ('upper triangular', 'lower triangular'):
        x = solve_triangular(a2, b2, trans=1 if transposed else 0, lower=assume_a[0] == 'l', check_finite=False)
    elif assume_a == 'diagonal':
        d = _cp.diagonal(a2, axis1=-2, axis2=-1)
        if a2.size and bool((d == 0).any()):
            raise LinAlgError('Matrix is singular.')
        x = b2 / d[..., :, None]
    elif assume_a in ('positive definite', 'pos') and not transposed:
        c, info = _lapack.potrf(a2, bool(lower))
        if any(i > 0 for i in host_ints(info)):
            raise LinAlgError('Matrix is singular.')
        x = _lapack.potrs(c, b2, bool(lower))
    else:
        if assume_a in ('symmetric', 'sym', 'hermitian', 'her', 'positive definite', 'pos'):
            # Only the named triangle is referenced, as LAPACK's sysv/hesv/posv.
            h = _hermitian_from(a2, lower)
            if assume_a in ('symmetric', 'sym') and t.kind == 'c':
                t_ = _cp.tril(a2, -1) if lower else _cp.triu(a2, 1)
                h = t_ + _cp.swapaxes(t_, -1, -2) + _cp.diagonal(a2, axis1=-2, axis2=-1)[..., None] * _cp.eye(
                    a2.shape[-1], dtype=t)
            a2 = h
        lu_, ipiv, info = _lapack.getrf(a2)
        if any(i > 0 for i in host_ints(info)):
            raise LinAlgError('Matrix is singular.')
        x = _lapack.getrs(lu_, ipiv, b2, 1 if transposed else 0)
    return x[..., 0] if vector else x


def inv(a, overwrite_a=False, check_finite=True, *, assume_a=None, lower=False):
    """Inverse of square matrices (..., N, N); LinAlgError for singular ones."""
    a = asarray_validated(a, check_finite)
    require_matrices(a, square=True)
    a = as_lapack(a)
    eye = _cp.broadcast_to(_cp.eye(a.shape[-1], dtype=a.dtype), a.shape)
    try:
        return solve(a, eye, lower=lower, check_finite=False, assume_a=assume_a)
    except LinAlgError:
        raise LinAlgError('singular matrix') from None


def det(a, overwrite_a=False, check_finite=True):
    """Determinant; SciPy computes in float64/complex128 whatever the input precision."""
    a = asarray_validated(a, check_finite)
    require_matrices(a, square=True)
    t = numpy.complex128 if a.dtype.kind == 'c' else numpy.float64
    lapack_dtype(a.dtype)
    return _cp.linalg.det(a.astype(t, copy=False))


def norm(a, ord=None, axis=None, keepdims=False, check_finite=True):
    a = asarray_validated(a, check_finite)
    return _cp.linalg.norm(a, ord=ord, axis=axis, keepdims=keepdims)


def lstsq(a, b, cond=None, overwrite_a=False, overwrite_b=False, check_finite=True, lapack_driver=None):
    """Least squares (x, residues, rank, s); residues is empty unless rank == N < M, as SciPy's."""
    if lapack_driver not in (None, 'gelsd', 'gelsy', 'gelss'):
        raise ValueError('LAPACK driver "{}" is not found'.format(lapack_driver))
    a = asarray_validated(a, check_finite)
    b = asarray_validated(b, check_finite)
    if a.ndim != 2:
        raise ValueError('Input array a should be 2D')
    if b.ndim == 0 or b.shape[0] != a.shape[0]:
        raise ValueError('Shape mismatch: a and b should have the same number of rows ({} != {}).'.format(
            a.shape[0], b.shape[0] if b.ndim else 0))
    t = common_lapack_dtype(a.dtype, b.dtype)
    x, res, rank, s = _cp.linalg.lstsq(a.astype(t, copy=False), b.astype(t, copy=False), rcond=cond)
    m, n = a.shape
    if not (rank == n and m > n):
        res = _cp.empty((0,), dtype=numpy.empty(0, t).real.dtype)
    elif b.ndim == 1:
        res = res.reshape(())
    return x, res, rank, s


def _cutoff(atol, rtol, smax, m, n, dt):
    if (atol is not None and atol < 0) or (rtol is not None and rtol < 0):
        raise ValueError('atol and rtol values must be positive.')
    atol = 0.0 if atol is None else atol
    rtol = max(m, n) * numpy.finfo(dt).eps if rtol is None else rtol
    return atol + rtol * smax


def pinv(a, *, atol=None, rtol=None, return_rank=False, check_finite=True):
    """Moore-Penrose pseudo-inverse through the SVD; singular values <= atol + rtol * max(s) are dropped."""
    a = asarray_validated(a, check_finite)
    require_matrices(a)
    a = as_lapack(a)
    m, n = a.shape[-2:]
    u, s, vh = _cp.linalg.svd(a, full_matrices=False)
    smax = s.max(axis=-1, keepdims=True) if s.shape[-1] else _cp.zeros(s.shape[:-1] + (1,), s.dtype)
    keep = s > _cutoff(atol, rtol, smax, m, n, s.dtype)
    psigma = _cp.where(keep, 1 / _cp.where(keep, s, 1), 0).astype(a.dtype)
    B = _cp.matmul(_cp.conj(_cp.swapaxes(vh, -1, -2)) * psigma[..., None, :], _cp.conj(_cp.swapaxes(u, -1, -2)))
    if return_rank:
        rank = _cp.count_nonzero(keep, axis=-1)
        return B, (int(rank) if a.ndim == 2 else rank)
    return B


def pinvh(a, atol=None, rtol=None, lower=True, return_rank=False, check_finite=True):
    """Pseudo-inverse of Hermitian matrices through eigh (the `lower` or upper triangle is read)."""
    a = asarray_validated(a, check_finite)
    require_matrices(a, square=True)
    a = as_lapack(a)
    n = a.shape[-1]
    s, u = _cp.linalg.eigh(a, UPLO='L' if lower else 'U')
    smax = _cp.abs(s).max(axis=-1, keepdims=True) if n else _cp.zeros(s.shape[:-1] + (1,), s.dtype)
    keep = _cp.abs(s) > _cutoff(atol, rtol, smax, n, n, s.dtype)
    psigma = _cp.where(keep, 1 / _cp.where(keep, s, 1), 0).astype(a.dtype)
    B = _cp.matmul(u * psigma[..., None, :], _cp.conj(_cp.swapaxes(u, -1, -2)))
    if return_rank:
        rank = _cp.count_nonzero(keep, axis=-1)
        return B, (int(rank) if a.ndim == 2 else rank)
    return B
