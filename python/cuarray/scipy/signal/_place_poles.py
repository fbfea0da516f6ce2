"""Pole placement by state feedback (scipy.signal.place_poles: Tits-Yang 'YT' and Kautsky-Nichols-Van Dooren 'KNV0').

The matrices are n x n with n the number of states (a handful), and the algorithms are sequences of small QR,
SVD and eigen-decompositions: they run in float64 NumPy on the host, and the results come back as cuarray arrays.
"""
import warnings

import numpy

import cuarray as _cp


def _host(a):
    return a.get() if isinstance(a, _cp.ndarray) else numpy.asarray(a)


class Bunch:
    """Result of place_poles: gain_matrix, computed_poles, requested_poles, X, rtol, nb_iter."""

    def __init__(self, **kwds):
        self.__dict__.update(kwds)


def _qr_full(M):
    return numpy.linalg.qr(M, mode='complete')


def _order_complex_poles(poles):
    """Real poles ascending, then each complex pair as (p, conj(p)) with Im p < 0, pairs ascending."""
    real = numpy.sort(poles[numpy.isreal(poles)])
    pairs = []
    for p in numpy.sort(poles[numpy.imag(poles) < 0]):
        if numpy.conj(p) in poles:
            pairs += [p, numpy.conj(p)]
    ordered = numpy.hstack((real, pairs))
    if poles.shape[0] != len(ordered):
        raise ValueError("Complex poles must come with their conjugates")
    return ordered


def _check(A, B, poles, method, rtol, maxiter):
    poles = numpy.asarray(poles)
    if poles.ndim > 1:
        raise ValueError("Poles must be a 1D array like.")
    poles = _order_complex_poles(poles)
    if A.ndim > 2:
        raise ValueError("A must be a 2D array/matrix.")
    if B.ndim > 2:
        raise ValueError("B must be a 2D array/matrix")
    if A.shape[0] != A.shape[1]:
        raise ValueError("A must be square")
    if len(poles) > A.shape[0]:
        raise ValueError(f"maximum number of poles is {A.shape[0]} but you asked for {len(poles)}")
    if len(poles) < A.shape[0]:
        raise ValueError(f"number of poles is {len(poles)} but you should provide {A.shape[0]}")
    rank = numpy.linalg.matrix_rank(B)
    for p in poles:
        if numpy.sum(p == poles) > rank:
            raise ValueError("at least one of the requested pole is repeated more than rank(B) times")
    if method not in ('KNV0', 'YT'):
        raise ValueError("The method keyword must be one of 'YT' or 'KNV0'")
    if method == 'KNV0' and not numpy.all(numpy.isreal(poles)):
        raise ValueError("Complex poles are not supported by KNV0")
    if maxiter < 1:
        raise ValueError("maxiter must be at least equal to 1")
    if rtol > 1:
        raise ValueError("rtol can not be greater than 1")
    return poles


# -- column updates ----------------------------------------------------------------------------------------------
def _knv0_update(ker, X, j):
    # Replace column j by the unit vector of its admissible subspace closest to the normal of the other columns.
    Q, _ = _qr_full(numpy.delete(X, j, axis=1))
    y = ker[j] @ (ker[j].T @ Q[:, -1])
    if not numpy.allclose(y, 0):
        X[:, j] = y / numpy.linalg.norm(y)


def _yt_real_update(ker, Q, X, i, j):
    # Rotate the pair of real columns (i, j) within their admissible subspaces, maximising the volume spanned
    # together with the other columns (whose orthogonal complement is spanned by Q's last two columns).
    n = X.shape[0]
    u, v = Q[:, -2:-1], Q[:, -1:]
    m = ker[i].T @ (u @ v.T - v @ u.T) @ ker[j]
    um, sv, vh = numpy.linalg.svd(m)
    mu1, mu2 = um[:, 0:1], um[:, 1:2]
    nu1, nu2 = vh[0:1].T, vh[1:2].T
    xij = numpy.vstack((X[:, i:i + 1], X[:, j:j + 1]))
    if not numpy.allclose(sv[0], sv[1]):
        kmn = numpy.vstack((ker[i] @ mu1, ker[j] @ nu1))
    else:
        zi, zj = numpy.zeros(ker[i].shape), numpy.zeros(ker[j].shape)
        kk = numpy.vstack((numpy.hstack((ker[i], zi)), numpy.hstack((zj, ker[j]))))
        kmn = kk @ numpy.vstack((numpy.hstack((mu1, mu2)), numpy.hstack((nu1, nu2))))
    t = kmn @ (kmn.T @ xij)
    if not numpy.allclose(t, 0):
        t = numpy.sqrt(2) * t / numpy.linalg.norm(t)
        X[:, i], X[:, j] = t[:n, 0], t[n:, 0]
    else:
        X[:, i], X[:, j] = kmn[:n, 0], kmn[n:, 0]


def _yt_complex_update(ker, Q, X, i, j):
    # Columns i, j hold the real and imaginary parts of one complex eigenvector; update it as a whole.
    u = numpy.sqrt(2) * Q[:, -2:-1] + 1j * numpy.sqrt(2) * Q[:, -1:]
    K = ker[i]
    m = numpy.conj(K.T) @ (u @ numpy.conj(u).T - numpy.conj(u) @ u.T) @ K
    ev, evec = numpy.linalg.eig(m)
    order = numpy.argsort(numpy.abs(ev))
    mu1, mu2 = evec[:, order[-1]][:, None], evec[:, order[-2]][:, None]
    x = X[:, i:i + 1] + 1j * X[:, j:j + 1]
    if not numpy.allclose(numpy.abs(ev[order[-1]]), numpy.abs(ev[order[-2]])):
        km = K @ mu1
    else:
        km = K @ numpy.hstack((mu1, mu2))
    t = km @ (numpy.conj(km.T) @ x)
    if not numpy.allclose(t, 0):
        t = t / numpy.linalg.norm(t)
        X[:, i], X[:, j] = numpy.real(t[:, 0]), numpy.imag(t[:, 0])
    else:
        X[:, i], X[:, j] = numpy.real(km[:, 0]), numpy.imag(km[:, 0])


def _yt_pairs(poles):
    """The order in which Tits and Yang's method visits column pairs (1-based, as in their paper); a pair (1, 1)
    stands for a single KNV0 update of column 1 when there is only one real pole to pair."""
    nreal = int(numpy.sum(numpy.isreal(poles)))
    half = nreal // 2
    odd = nreal % 2
    cplx = [(c, c + 1) for c in range(nreal + 1, len(poles) + 1, 2)]
    single = [(1, 1)] if half == 0 and numpy.isreal(poles[0]) else []
    seq = [(nreal, 1)] if nreal > 0 else []
    seq += [(2 * r, 2 * r + 1) for r in range(1, half + odd)]
    seq += cplx
    seq += [(2 * r - 1, 2 * r) for r in range(1, half + 1)]
    seq += single + cplx
    seq += [(i, i + j) for j in range(2, half + odd) for i in range(1, half + 1)]
    seq += single + cplx
    for j in range(2, half + odd):
        for i in range(half + 1, nreal + 1):
            k = i + j
            seq.append((i, k - nreal if k > nreal else k))
    seq += single + cplx
    seq += [(i, i + half) for i in range(1, half + 1)]
    seq += single + cplx
    return [(a - 1, b - 1) for a, b in seq]


def _iterate(sweep, X, maxiter, rtol):
    # Sweeps until |det X| (the conditioning measure both methods maximise) stops changing by more than rtol.
    floor = numpy.sqrt(numpy.spacing(1))
    stop, it, cur = False, 0, 0
    while it < maxiter and not stop:
        before = abs(numpy.linalg.det(X))
        sweep()
        after = max(floor, abs(numpy.linalg.det(X)))
        cur = abs((after - before) / after)
        stop = bool(cur < rtol and after > floor)
        it += 1
    return stop, cur, it


def place_poles(A, B, poles, method="YT", rtol=1e-3, maxiter=30):
    """State feedback gain K such that eig(A - B K) are `poles` (scipy.signal.place_poles); returns a Bunch with
    gain_matrix, computed_poles, requested_poles, X, rtol and nb_iter."""
    A = numpy.asarray(_host(A))
    B = numpy.asarray(_host(B))
    poles = _check(A, B, _host(poles), method, rtol, maxiter)
    n = A.shape[0]
    Qb, Rb = _qr_full(B)
    rank = numpy.linalg.matrix_rank(B)
    u0, u1, z = Qb[:, :rank], Qb[:, rank:], Rb[:rank, :]
    cur_rtol, nb_iter = 0, 0
    if n == rank:
        # B is invertible on the state space: place the poles directly on a real block-diagonal target.
        target = numpy.zeros(A.shape)
        idx = 0
        while idx < poles.shape[0]:
            p = poles[idx]
            target[idx, idx] = numpy.real(p)
            if not numpy.isreal(p):
                target[idx, idx + 1] = -numpy.imag(p)
                target[idx + 1, idx + 1] = numpy.real(p)
                target[idx + 1, idx] = numpy.imag(p)
                idx += 1
            idx += 1
        gain = numpy.linalg.lstsq(B, target - A, rcond=-1)[0]
        X = numpy.eye(n)
        cur_rtol = numpy.nan
        nb_iter = numpy.nan
    else:
        # Admissible eigenvector space of each pole: null space of u1^T (A - p I).
        ker, cols = [], []
        j = 0
        while j < n:
            S = (u1.T @ (A - poles[j] * numpy.eye(n))).T
            Q, _ = _qr_full(S)
            K = Q[:, S.shape[1]:]
            x = numpy.sum(K, axis=1)[:, None]
            x = x / numpy.linalg.norm(x)
            if not numpy.isreal(poles[j]):
                cols += [numpy.real(x), numpy.imag(x)]
                ker += [K, K]
                j += 2
            else:
                cols.append(x)
                ker.append(K)
                j += 1
        X = numpy.hstack(cols)
        if rank > 1:
            if method == 'KNV0':
                def sweep():
                    for c in range(n):
                        _knv0_update(ker, X, c)
            else:
                pairs = _yt_pairs(poles)

                def sweep():
                    for i, k in pairs:
                        if i == k:
                            _knv0_update(ker, X, i)
                            continue
                        Q, _ = _qr_full(numpy.delete(X, (i, k), axis=1))
                        if numpy.isreal(poles[i]):
                            _yt_real_update(ker, Q, X, i, k)
                        else:
                            _yt_complex_update(ker, Q, X, i, k)
            stop, cur_rtol, nb_iter = _iterate(sweep, X, maxiter, rtol)
            if not stop and rtol > 0:
                warnings.warn("Convergence was not reached after maxiter iterations.\n"
                              f"You asked for a tolerance of {rtol}, we got {cur_rtol}.", stacklevel=2)
        X = X.astype(complex)
        idx = 0
        while idx < poles.shape[0] - 1:
            if not numpy.isreal(poles[idx]):
                re, im = X[:, idx].copy(), X[:, idx + 1].copy()
                X[:, idx], X[:, idx + 1] = re - 1j * im, re + 1j * im
                idx += 1
            idx += 1
        try:
            M = numpy.linalg.solve(X.T, numpy.diag(poles) @ X.T).T
            gain = numpy.linalg.solve(z, u0.T @ (M - A))
        except numpy.linalg.LinAlgError as e:
            raise ValueError("The poles you've chosen can't be placed. Check the controllability matrix and try "
                             "another set of poles") from e
    gain = numpy.real(-gain)
    computed = _order_complex_poles(numpy.linalg.eig(A - B @ gain)[0])
    return Bunch(gain_matrix=_cp.asarray(gain), computed_poles=_cp.asarray(computed),
                 requested_poles=_cp.asarray(poles), X=_cp.asarray(X), rtol=cur_rtol, nb_iter=nb_iter)
