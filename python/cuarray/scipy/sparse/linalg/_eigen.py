"""eigsh (thick-restart Lanczos) and svds (eigsh on the Gram operator) for Hermitian / general sparse operators.

The Krylov basis lives on the device and is fully reorthogonalised (classical Gram-Schmidt twice, two
matrix-vector products per step), so no spurious copies of converged eigenvalues appear; the small projected
problem is solved on the host with NumPy. A restart keeps the wanted Ritz vectors (thick restart, Wu and Simon),
which for a Hermitian operator is equivalent to ARPACK's implicit restart.
"""
import numpy

import cuarray as cp
from cuarray.scipy.sparse.linalg._interface import LinearOperator, aslinearoperator

_WHICH = ("LM", "SM", "LA", "SA", "BE")


def _select(theta, which, k):
    """Indices of the k wanted Ritz values among `theta` (ascending), best first."""
    if which == "LM":
        order = numpy.argsort(-numpy.abs(theta), kind="stable")
    elif which == "SM":
        order = numpy.argsort(numpy.abs(theta), kind="stable")
    elif which == "LA":
        order = numpy.argsort(-theta, kind="stable")
    elif which == "SA":
        order = numpy.argsort(theta, kind="stable")
    else:  # BE: alternately from the top and the bottom, the extra one from the top (ARPACK's rule)
        asc = numpy.argsort(theta, kind="stable")
        lo, hi, out = 0, len(asc) - 1, []
        take_high = True
        while lo <= hi:
            if take_high:
                out.append(asc[hi])
                hi -= 1
            else:
                out.append(asc[lo])
                lo += 1
            take_high = not take_high
        order = numpy.array(out, dtype=numpy.intp)
    return order[:k]


def _orthogonalize(V, w):
    """w minus its projection on the rows of V, twice; returns (w, coefficients) with coefficients on the host."""
    h = V.conj() @ w
    w = w - h @ V
    h2 = V.conj() @ w
    w = w - h2 @ V
    return w, cp.asnumpy(h + h2)


def eigsh(A, k=6, M=None, sigma=None, which="LM", v0=None, ncv=None, maxiter=None, tol=0,
          return_eigenvectors=True, Minv=None, OPinv=None, mode="normal", rng=None):
    """k eigenvalues (and eigenvectors) of a Hermitian A (sparse, dense, LinearOperator).

    which: 'LM', 'SM', 'LA', 'SA' or 'BE' (largest/smallest magnitude, largest/smallest algebraic, both ends).
    With ``sigma`` the shift-invert mode finds eigenvalues near sigma: it needs ``OPinv`` (an operator applying
    (A - sigma I)^-1) or factorises A - sigma I once (splu, Note [sparse LU on the host]). The generalised
    problem (``M``/``Minv``) and the buckling/Cayley modes are not supported (ValueError). Eigenvalues come back
    in ascending order, eigenvectors as the columns of a (n, k) device array. ArpackNoConvergence-like
    behaviour: a RuntimeError naming the converged count when ``maxiter`` restarts do not converge.
    """
    if M is not None or Minv is not None:
        raise ValueError("the generalised eigenproblem (M, Minv) is not supported by cuarray's eigsh")
    if mode != "normal":
        raise ValueError(f"mode {mode!r} is not supported by cuarray's eigsh (only 'normal')")
    if which not in _WHICH:
        raise ValueError(f"which must be one of {' '.join(_WHICH)}")
    A_op = aslinearoperator(A)
    if A_op.shape[0] != A_op.shape[1]:
        raise ValueError(f"expected square matrix (shape={A_op.shape})")
    n = A_op.shape[0]
    if k <= 0:
        raise ValueError(f"k={k} must be greater than 0.")
    if k >= n:
        raise ValueError(f"k must be less than ndim(A), k={k}")
    dtype = numpy.dtype(A_op.dtype or numpy.float64)
    if dtype.kind not in "fc":
        dtype = numpy.dtype(numpy.float64)
    if sigma is None and which == "SM" and OPinv is None:
        # Smallest magnitude converges slowly in plain Lanczos; shift-invert about 0 turns it into 'LM' (ARPACK's
        # advice), when A can be factorised (not for a singular A or an operator without a matrix).
        from cuarray.scipy.sparse.linalg._interface import issparse
        if issparse(A) or isinstance(A, cp.ndarray):
            try:
                return eigsh(A, k=k, sigma=0.0, which="LM", v0=v0, ncv=ncv, maxiter=maxiter, tol=tol,
                             return_eigenvectors=return_eigenvectors)
            except (RuntimeError, ZeroDivisionError, FloatingPointError):
                pass
    if sigma is not None:
        if OPinv is None:
            from cuarray.scipy.sparse.linalg._solve import splu
            from cuarray.scipy.sparse.linalg._interface import issparse
            if issparse(A):
                from cuarray.scipy import sparse
                shifted = (A - sigma * sparse.identity(n, dtype=A.dtype, format="csr")).astype(
                    numpy.result_type(dtype, type(sigma)))
            elif isinstance(A, cp.ndarray):
                shifted = A - sigma * cp.eye(n, dtype=A.dtype)
            else:
                raise ValueError("shift-invert mode of a LinearOperator needs OPinv")
            lu = splu(shifted)
            OP = LinearOperator((n, n), matvec=lu.solve, dtype=dtype)
        else:
            OP = aslinearoperator(OPinv)
        # The eigenvalues nu of (A - sigma)^-1 are 1 / (lambda - sigma); `which` applies to nu, as in ARPACK.
        vals, vecs = _lanczos(OP, k, which, v0, ncv, maxiter, tol, dtype)
        vals = 1.0 / vals + sigma
    else:
        vals, vecs = _lanczos(A_op, k, which, v0, ncv, maxiter, tol, dtype)
    order = numpy.argsort(vals, kind="stable")
    vals = vals[order]
    if not return_eigenvectors:
        return cp.asarray(vals)
    return cp.asarray(vals), vecs[:, cp.asarray(order)]


def _lanczos(A, k, which, v0, ncv, maxiter, tol, dtype):
    n = A.shape[0]
    if ncv is None:
        ncv = min(max(2 * k + 1, 20), n)
    ncv = int(min(ncv, n))
    if ncv <= k:
        raise ValueError(f"ncv must be k<ncv<=n, ncv={ncv}")
    if maxiter is None:
        maxiter = n * 10
    eps = float(numpy.finfo(dtype).eps)
    tol = eps if tol == 0 else float(tol)
    hdt = numpy.complex128 if dtype.kind == "c" else numpy.float64
    V = cp.zeros((ncv + 1, n), dtype=dtype)
    if v0 is None:
        v = cp.asarray(numpy.random.default_rng().uniform(-1, 1, n).astype(dtype))
    else:
        if not isinstance(v0, cp.ndarray):
            raise TypeError("v0 must be a cuarray.ndarray")
        v = v0.astype(dtype).reshape(n)
    v = v / float(cp.linalg.norm(v))
    V[0] = v
    H = numpy.zeros((ncv, ncv), dtype=hdt)
    start = 0
    beta = 0.0
    rng = numpy.random.default_rng()
    for restart in range(maxiter):
        for j in range(start, ncv):
            w = cp.asarray(A.matvec(V[j]))
            w, h = _orthogonalize(V[:j + 1], w)
            H[:j + 1, j] = h
            H[j, :j + 1] = numpy.conj(h)
            beta = float(cp.linalg.norm(w))
            anorm = max(numpy.abs(h).max(), beta, 1e-300)
            if beta <= eps * anorm:
                # Invariant subspace: continue with a random direction orthogonal to the basis.
                r = cp.asarray(rng.uniform(-1, 1, n).astype(dtype))
                r, _ = _orthogonalize(V[:j + 1], r)
                V[j + 1] = r / float(cp.linalg.norm(r))
                beta = 0.0
            else:
                V[j + 1] = w * (1.0 / beta)
            if j + 1 < ncv:
                H[j + 1, j] = beta
                H[j, j + 1] = beta
        Hs = (H + H.conj().T) / 2
        theta, S = numpy.linalg.eigh(Hs)
        wanted = _select(theta, which, k)
        resid = numpy.abs(beta * S[ncv - 1, wanted])
        converged = resid <= tol * numpy.maximum(numpy.abs(theta[wanted]), eps)
        if numpy.all(converged) or restart == maxiter - 1:
            if not numpy.all(converged):
                raise RuntimeError(f"eigsh: no convergence ({int(converged.sum())} of {k} eigenvalues converged "
                                   f"in {maxiter} restarts)")
            Sk = cp.asarray(S[:, wanted].astype(dtype))
            return theta[wanted], (Sk.T @ V[:ncv]).T
        # Thick restart: keep the wanted Ritz vectors plus a few more, then the residual direction.
        keep = min(ncv - 1, k + (ncv - k) // 2)
        sel = _select(theta, which, keep)
        Sk = cp.asarray(S[:, sel].astype(dtype))
        newV = Sk.T @ V[:ncv]
        last = V[ncv].copy()
        V[:keep] = newV
        V[keep] = last
        H = numpy.zeros((ncv, ncv), dtype=hdt)
        H[numpy.arange(keep), numpy.arange(keep)] = theta[sel]
        H[keep, :keep] = beta * S[ncv - 1, sel]
        H[:keep, keep] = numpy.conj(beta * S[ncv - 1, sel])
        start = keep
    raise RuntimeError("eigsh: no convergence")


def svds(A, k=6, ncv=None, tol=0, which="LM", v0=None, maxiter=None, return_singular_vectors=True,
         solver="arpack", rng=None, options=None, *, random_state=None):
    """k largest ('LM') or smallest ('SM') singular triplets of A (sparse, dense, LinearOperator).

    Computed as eigenpairs of the Gram operator A^H A (or A A^H, the smaller) with eigsh, as CuPy does:
    singular values below about sqrt(eps) * s_max lose relative accuracy. Returns ``(u, s, vh)`` with s in
    ascending order (or only s with ``return_singular_vectors=False``); ``return_singular_vectors`` 'u'/'vh'
    computes one side only (the other is None). ``solver`` may be 'arpack', 'lobpcg' or 'propack' for SciPy's
    signature; the same Lanczos method serves all three.
    """
    if solver not in ("arpack", "lobpcg", "propack"):
        raise ValueError("solver must be one of ['arpack', 'lobpcg', 'propack']")
    if which not in ("LM", "SM"):
        raise ValueError("which must be either 'LM' or 'SM'.")
    if return_singular_vectors not in (True, False, "u", "vh"):
        raise ValueError("return_singular_vectors must be either True, False, 'u', or 'vh'.")
    A_op = aslinearoperator(A)
    m, n = A_op.shape
    if int(k) != k or not (0 < k <= min(m, n) - (0 if solver != "arpack" else 1)):
        raise ValueError(f"`k` must be an integer satisfying `0 < k < min(A.shape)` (k={k}, shape={A_op.shape}).")
    k = int(k)
    dtype = numpy.dtype(A_op.dtype or numpy.float64)
    if dtype.kind not in "fc":
        dtype = numpy.dtype(numpy.float64)
    tall = m >= n
    if tall:
        G = LinearOperator((n, n), matvec=lambda x: A_op.rmatvec(A_op.matvec(x)), dtype=dtype)
    else:
        G = LinearOperator((m, m), matvec=lambda x: A_op.matvec(A_op.rmatvec(x)), dtype=dtype)
    nG = G.shape[0]
    if k >= nG:
        # Every singular value: the Gram matrix explicitly (k == min(m, n) only for lobpcg/propack).
        Gm = G.matmat(cp.eye(nG, dtype=dtype))
        evals, evecs = cp.linalg.eigh((Gm + Gm.conj().T) / 2)
        evals, evecs = cp.asnumpy(evals), evecs
        sel = numpy.arange(nG) if which == "LM" else numpy.arange(nG)
    else:
        evals, evecs = eigsh(G, k=k, which="LA" if which == "LM" else "SA", v0=v0, ncv=ncv, maxiter=maxiter,
                             tol=tol * tol if tol else 0)
        evals = cp.asnumpy(evals)
        sel = numpy.arange(k)
    s = numpy.sqrt(numpy.clip(evals[sel], 0, None))
    order = numpy.argsort(s, kind="stable")
    s = s[order]
    if not return_singular_vectors:
        return cp.asarray(s.astype(dtype.char.lower() if dtype.kind == "c" else dtype))
    X = evecs[:, cp.asarray(sel[order])]
    sdev = cp.asarray(s)
    safe = cp.where(sdev > 0, sdev, 1)
    if tall:
        v = X
        u = cp.asarray(A_op.matmat(v)) / safe
    else:
        u = X
        v = cp.asarray(A_op.rmatmat(u)) / safe
    rdt = numpy.dtype(dtype.char.lower()) if dtype.kind == "c" else dtype
    u = u.astype(dtype, copy=False)
    vh = v.conj().T.astype(dtype, copy=False)
    s = cp.asarray(s.astype(rdt))
    if return_singular_vectors == "u":
        return u, s, None
    if return_singular_vectors == "vh":
        return None, s, vh
    return u, s, vh
