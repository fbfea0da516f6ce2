"""Krylov solvers for square systems A x = b: cg, cgs, gmres and minres with SciPy's interface and exit codes.

Vectors stay on the device; the scalars each method's recurrences and stopping tests need are read back once per
use (a norm or a dot product per step), as SciPy's and CuPy's solvers do.
"""
import math
import warnings

import numpy

import cuarray as cp
from cuarray.scipy.sparse.linalg._interface import IdentityOperator, LinearOperator, aslinearoperator

_FP = "fdFD"


def _coerce(a, b):
    """SciPy's result type of the solution: both type codes taken to float32/64 or complex64/128, then promoted."""
    a = a if a in _FP else "d"
    b = b if b in _FP else "d"
    return numpy.result_type(a, b).char


def _check_vector(x, name):
    if not isinstance(x, cp.ndarray):
        raise TypeError(f"{name} must be a cuarray.ndarray, got {type(x).__name__} (move it with cuarray.asarray)")


def _make_system(A, M, x0, b):
    """(A, M, x, b) as LinearOperators and flat device vectors of the solution's dtype (SciPy's make_system)."""
    A_ = A
    A = aslinearoperator(A)
    if A.shape[0] != A.shape[1]:
        raise ValueError(f"expected square matrix, but got shape={(A.shape,)}")
    n = A.shape[0]
    _check_vector(b, "b")
    if not (b.shape == (n, 1) or b.shape == (n,)):
        raise ValueError(f"shapes of A {A.shape} and b {b.shape} are incompatible")
    if b.dtype.char not in _FP:
        b = b.astype("d")
    xtype = A.dtype.char if A.dtype is not None else A.matvec(b).dtype.char
    xtype = _coerce(xtype, b.dtype.char)
    b = b.astype(xtype, copy=False).ravel()
    if M is None:
        psolve = getattr(A_, "psolve", None)
        rpsolve = getattr(A_, "rpsolve", None)
        if psolve is None and rpsolve is None:
            M = IdentityOperator(shape=A.shape, dtype=A.dtype)
        else:
            ident = (lambda v: v)
            M = LinearOperator(A.shape, matvec=psolve or ident, rmatvec=rpsolve or ident, dtype=A.dtype)
    else:
        M = aslinearoperator(M)
        if A.shape != M.shape:
            raise ValueError("matrix and preconditioner have different shapes")
    if x0 is None:
        x = cp.zeros(n, dtype=xtype)
    elif isinstance(x0, str):
        if x0 != "Mb":
            raise ValueError(f"x0 must be an array, None or 'Mb', got {x0!r}")
        x = cp.asarray(M.matvec(b.copy())).astype(xtype)
    else:
        _check_vector(x0, "x0")
        x = x0.astype(xtype, copy=True)
        if not (x.shape == (n, 1) or x.shape == (n,)):
            raise ValueError(f"shapes of A {A.shape} and x0 {x.shape} are incompatible")
        x = x.ravel()
    return A, M, x, b


def _get_atol(name, b_norm, atol, rtol):
    if isinstance(atol, str) or atol is None or atol < 0:
        raise ValueError(f"'cuarray.scipy.sparse.linalg.{name}' called with invalid `atol`={atol}; if set, `atol` "
                         "must be a real, non-negative number.")
    return max(float(atol), float(rtol) * float(b_norm))


def _norm(x):
    return float(cp.linalg.norm(x))


def _dot_fn(dtype):
    # The Hermitian product for complex vectors, the plain one for real (same value, cheaper path).
    if numpy.dtype(dtype).kind == "c":
        return lambda a, b: complex(cp.vdot(a, b))
    return lambda a, b: float(cp.dot(a, b))


def _nonzero(x):
    return bool(cp.any(x))


def cg(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None, callback=None):
    """Conjugate gradients for a Hermitian positive definite A.

    Returns ``(x, info)``: info 0 on convergence (``norm(b - A x) <= max(atol, rtol * norm(b))``), the iteration
    count when ``maxiter`` (default ``10 * n``) steps did not converge. ``callback(xk)`` runs after each step.
    """
    A, M, x, b = _make_system(A, M, x0, b)
    bnrm2 = _norm(b)
    atol = _get_atol("cg", bnrm2, atol, rtol)
    if bnrm2 == 0:
        return b, 0
    n = b.shape[0]
    if maxiter is None:
        maxiter = n * 10
    dot = _dot_fn(x.dtype)
    matvec, psolve = A.matvec, M.matvec
    r = b - matvec(x) if _nonzero(x) else b.copy()
    rho_prev, p = None, None
    for iteration in range(maxiter):
        if _norm(r) < atol:
            return x, 0
        z = psolve(r)
        rho = dot(r, z)
        if iteration > 0:
            p = z + (rho / rho_prev) * p
        else:
            p = z.copy()
        q = matvec(p)
        alpha = rho / dot(p, q)
        x += alpha * p
        r -= alpha * q
        rho_prev = rho
        if callback:
            callback(x)
    return x, maxiter


def cgs(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None, callback=None):
    """Conjugate gradients squared for a general square A.

    Returns ``(x, info)``: 0 on convergence, the iteration count when ``maxiter`` steps did not converge, -10 on a
    breakdown of rho and -11 on a breakdown of the dot product with the shadow residual (SciPy's codes).
    """
    A, M, x, b = _make_system(A, M, x0, b)
    bnrm2 = _norm(b)
    atol = _get_atol("cgs", bnrm2, atol, rtol)
    if bnrm2 == 0:
        return b, 0
    n = b.shape[0]
    if maxiter is None:
        maxiter = n * 10
    dot = _dot_fn(x.dtype)
    matvec, psolve = A.matvec, M.matvec
    rhotol = float(numpy.finfo(x.dtype).eps) ** 2
    r = b - matvec(x) if _nonzero(x) else b.copy()
    rtilde = r.copy()
    rho_prev = p = u = q = None
    for iteration in range(maxiter):
        if _norm(r) < atol:
            return x, 0
        rho = dot(rtilde, r)
        if abs(rho) < rhotol:
            return x, -10
        if iteration > 0:
            beta = rho / rho_prev
            u = r + beta * q
            p = u + beta * (q + beta * p)
        else:
            p = r.copy()
            u = r.copy()
        phat = psolve(p)
        vhat = matvec(phat)
        rv = dot(rtilde, vhat)
        if rv == 0:
            return x, -11
        alpha = rho / rv
        q = u - alpha * vhat
        uhat = psolve(u + q)
        x += alpha * uhat
        # The true residual, one matvec, rather than the recurrence: rounding errors build up in the latter.
        r = b - matvec(x)
        rho_prev = rho
        if callback:
            callback(x)
    return x, maxiter


def _lartg(f, g):
    """A plane rotation (c real, s) with [c s; -conj(s) c] [f; g] = [r; 0] (LAPACK's lartg)."""
    if g == 0:
        return 1.0, 0.0 * g, f
    if f == 0:
        ag = abs(g)
        return 0.0, numpy.conj(g) / ag, ag
    af, ag = abs(f), abs(g)
    d = math.hypot(af, ag)
    phase = f / af
    return af / d, phase * numpy.conj(g) / d, phase * d


def gmres(A, b, x0=None, *, rtol=1e-5, atol=0.0, restart=None, maxiter=None, M=None, callback=None,
          callback_type=None):
    """Restarted GMRES for a general square A.

    ``restart`` (default 20) is the Krylov dimension between restarts, ``maxiter`` the number of restart cycles
    (default ``10 * n``). ``callback_type``: 'x' calls ``callback(xk)`` per cycle, 'pr_norm' calls
    ``callback(preconditioned residual norm / norm(b))`` per inner step, 'legacy' (the default, with SciPy's
    DeprecationWarning when a callback is given without a type) as 'pr_norm' but counting inner steps against
    ``maxiter``. Returns ``(x, info)``: 0 on convergence, ``maxiter`` otherwise.
    """
    if callback is not None and callback_type is None:
        warnings.warn("cuarray.scipy.sparse.linalg.gmres called without specifying `callback_type`. The default "
                      "value will be changed in a future release. For compatibility, specify a value for "
                      "`callback_type` explicitly, e.g., ``gmres(..., callback_type='pr_norm')``, or to retain the "
                      "old behavior ``gmres(..., callback_type='legacy')``", DeprecationWarning, stacklevel=2)
    if callback_type is None:
        callback_type = "legacy"
    if callback_type not in ("x", "pr_norm", "legacy"):
        raise ValueError(f"Unknown callback_type: {callback_type!r}")
    if callback is None:
        callback_type = None

    A, M, x, b = _make_system(A, M, x0, b)
    matvec, psolve = A.matvec, M.matvec
    n = b.shape[0]
    bnrm2 = _norm(b)
    atol = _get_atol("gmres", bnrm2, atol, rtol)
    if bnrm2 == 0:
        return b, 0
    dt = x.dtype
    eps = float(numpy.finfo(dt).eps)
    if maxiter is None:
        maxiter = n * 10
    if restart is None:
        restart = 20
    restart = min(int(restart), n)

    # Tolerance of the inner (preconditioned) iteration, adapted between cycles (SciPy's gh-8400 control).
    Mb_nrm2 = _norm(psolve(b))
    ptol_max_factor = 1.0
    ptol = Mb_nrm2 * min(ptol_max_factor, atol / bnrm2)
    presid = 0.0
    hdt = numpy.complex128 if dt.kind == "c" else numpy.float64
    V = cp.empty((restart + 1, n), dtype=dt)
    inner_iter = 0
    rnorm = 0.0
    r = None
    for iteration in range(maxiter):
        if iteration == 0:
            r = b - matvec(x) if _nonzero(x) else b.copy()
            rnorm = _norm(r)
            if rnorm < atol:
                return x, 0
        v0 = psolve(r)
        beta = _norm(v0)
        V[0] = v0 * (1.0 / beta) if beta != 0 else v0
        # Host copies of the small Hessenberg problem: columns of H, the rotations and the rotated right side.
        H = numpy.zeros((restart + 1, restart), dtype=hdt)
        S = numpy.zeros(restart + 1, dtype=hdt)
        S[0] = beta
        givens = []
        breakdown = False
        col = 0
        for col in range(restart):
            w = psolve(matvec(V[col]))
            h0 = _norm(w)
            # Classical Gram-Schmidt applied twice: as stable as modified Gram-Schmidt, but two matrix-vector
            # products (one host read each) instead of col+1 dot products.
            Vk = V[:col + 1]
            h = Vk.conj() @ w
            w = w - h @ Vk
            h2 = Vk.conj() @ w
            w = w - h2 @ Vk
            hcol = cp.asnumpy(h + h2).astype(hdt)
            h1 = _norm(w)
            H[:col + 1, col] = hcol
            H[col + 1, col] = h1
            if h1 <= eps * h0:
                H[col + 1, col] = 0
                V[col + 1] = w
                breakdown = True
            else:
                V[col + 1] = w * (1.0 / h1)
            for k, (c, s) in enumerate(givens):
                n0, n1 = H[k, col], H[k + 1, col]
                H[k, col], H[k + 1, col] = c * n0 + s * n1, -numpy.conj(s) * n0 + c * n1
            c, s, mag = _lartg(H[col, col], H[col + 1, col])
            givens.append((c, s))
            H[col, col], H[col + 1, col] = mag, 0
            tmp = -numpy.conj(s) * S[col]
            S[col], S[col + 1] = c * S[col], tmp
            presid = abs(tmp)
            inner_iter += 1
            if callback_type in ("legacy", "pr_norm"):
                callback(presid / bnrm2)
            if callback_type == "legacy" and inner_iter == maxiter:
                break
            if presid <= ptol or breakdown:
                break
        # Back substitution with H's upper triangle; a zero pivot gives the pseudo-solution SciPy's has.
        if H[col, col] == 0:
            S[col] = 0
        y = numpy.array(S[:col + 1], dtype=hdt)
        for k in range(col, 0, -1):
            if y[k] != 0:
                y[k] /= H[k, k]
                y[:k] -= y[k] * H[:k, k]
        if y[0] != 0:
            y[0] /= H[0, 0]
        x += cp.asarray(y.astype(dt)) @ V[:col + 1]
        r = b - matvec(x)
        rnorm = _norm(r)
        if callback_type == "legacy" and inner_iter == maxiter:
            return x, 0 if rnorm <= atol else maxiter
        if callback_type == "x":
            callback(x)
        if rnorm <= atol:
            break
        elif breakdown:
            break
        elif presid <= ptol:
            ptol_max_factor = max(eps, 0.25 * ptol_max_factor)
        else:
            ptol_max_factor = min(1.0, 1.5 * ptol_max_factor)
        ptol = presid * min(ptol_max_factor, atol / rnorm)
    return x, (0 if rnorm <= atol else maxiter)


def minres(A, b, x0=None, *, rtol=1e-5, shift=0.0, maxiter=None, M=None, callback=None, show=False, check=False):
    """MINRES for a Hermitian (possibly indefinite) A, solving (A - shift I) x = b.

    ``M`` must be Hermitian positive definite. Returns ``(x, info)``: 0 when a stopping test of Paige and
    Saunders' method was met, ``maxiter`` (default ``5 * n``) when the iteration limit was reached. ``check``
    tests A and M for symmetry first (ValueError if not); ``show`` prints the iteration log.
    """
    A, M, x, b = _make_system(A, M, x0, b)
    matvec, psolve = A.matvec, M.matvec
    n = A.shape[0]
    if maxiter is None:
        maxiter = 5 * n
    dt = x.dtype
    eps = float(numpy.finfo(dt).eps)
    inner = _dot_fn(dt)

    def rinner(a, c):
        return float(numpy.real(inner(a, c)))

    if show:
        print("Enter minres.   Solution of symmetric Ax = b")
        print(f"Enter minres.   n      =  {n:3g}     shift  =  {shift:23.14e}")
        print(f"Enter minres.   itnlim =  {maxiter:3g}     rtol   =  {rtol:11.2e}")
    r1 = b.copy() if x0 is None else b - matvec(x)
    y = psolve(r1)
    beta1 = rinner(r1, y)
    if beta1 < 0:
        raise ValueError("indefinite preconditioner")
    elif beta1 == 0:
        return x, 0
    bnorm = _norm(b)
    if bnorm == 0:
        return b, 0
    beta1 = math.sqrt(beta1)
    if check:
        w = matvec(y)
        r2 = matvec(w)
        s, t = rinner(w, w), rinner(y, r2)
        if abs(s - t) > (s + eps) * eps ** (1.0 / 3.0):
            raise ValueError("non-symmetric matrix")
        r2 = psolve(y)
        s, t = rinner(y, y), rinner(r1, r2)
        if abs(s - t) > (s + eps) * eps ** (1.0 / 3.0):
            raise ValueError("non-symmetric preconditioner")
    istop = itn = 0
    Anorm = Acond = rnorm = ynorm = 0.0
    oldb = 0.0
    beta = beta1
    dbar = epsln = 0.0
    phibar = rhs1 = beta1
    rhs2 = tnorm2 = gmax = 0.0
    gmin = float(numpy.finfo(dt).max)
    cs, sn = -1.0, 0.0
    w = cp.zeros(n, dtype=dt)
    w2 = cp.zeros(n, dtype=dt)
    r2 = r1
    while itn < maxiter:
        itn += 1
        v = (1.0 / beta) * y
        y = matvec(v)
        if shift != 0:
            y = y - shift * v
        if itn >= 2:
            y = y - (beta / oldb) * r1
        alfa = rinner(v, y)
        y = y - (alfa / beta) * r2
        r1, r2 = r2, y
        y = psolve(r2)
        oldb = beta
        beta = rinner(r2, y)
        if beta < 0:
            raise ValueError("non-symmetric matrix")
        beta = math.sqrt(beta)
        tnorm2 += alfa ** 2 + oldb ** 2 + beta ** 2
        if itn == 1 and beta / beta1 <= 10 * eps:
            istop = -1
        oldeps = epsln
        delta = cs * dbar + sn * alfa
        gbar = sn * dbar - cs * alfa
        epsln = sn * beta
        dbar = -cs * beta
        root = math.hypot(gbar, dbar)
        gamma = max(math.hypot(gbar, beta), eps)
        cs, sn = gbar / gamma, beta / gamma
        phi = cs * phibar
        phibar = sn * phibar
        w1, w2 = w2, w
        w = (v - oldeps * w1 - delta * w2) * (1.0 / gamma)
        x = x + phi * w
        gmax, gmin = max(gmax, gamma), min(gmin, gamma)
        z = rhs1 / gamma
        rhs1 = rhs2 - delta * z
        rhs2 = -epsln * z
        Anorm = math.sqrt(tnorm2)
        ynorm = _norm(x)
        epsx = Anorm * ynorm * eps
        rnorm = phibar
        test1 = math.inf if (ynorm == 0 or Anorm == 0) else rnorm / (Anorm * ynorm)
        test2 = math.inf if Anorm == 0 else root / Anorm
        Acond = gmax / gmin
        if istop == 0:
            if 1 + test2 <= 1:
                istop = 2
            if 1 + test1 <= 1:
                istop = 1
            if itn >= maxiter:
                istop = 6
            if Acond >= 0.1 / eps:
                istop = 4
            if epsx >= beta1:
                istop = 3
            if test2 <= rtol:
                istop = 2
            if test1 <= rtol:
                istop = 1
        if show:
            print(f"{itn:6g} {test1:10.3e} {test2:10.3e} {Anorm:8.1e} {Acond:8.1e} {gbar / Anorm:8.1e}")
        if callback is not None:
            callback(x)
        if istop != 0:
            break
    if show:
        print(f"Exit  minres.   istop   =  {istop:3g}               itn   ={itn:5g}")
        print(f"Exit  minres.   Anorm   =  {Anorm:12.4e}      Acond =  {Acond:12.4e}")
        print(f"Exit  minres.   rnorm   =  {rnorm:12.4e}      ynorm =  {ynorm:12.4e}")
    return x, (maxiter if istop == 6 else 0)
