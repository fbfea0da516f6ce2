"""lsqr and lsmr: Golub-Kahan bidiagonalisation least-squares solvers (Paige-Saunders, Fong-Saunders) as SciPy's.

Both accept any m x n A (sparse, dense cuarray, LinearOperator) and a damping term: they minimise
``||A x - b||^2 + damp^2 ||x||^2``. Vectors stay on the device; each step reads back two norms (and lsmr one more
for ||x||) to drive the scalar recurrences and stopping tests on the host.

Note [lsqr/lsmr precision]: the dtypes are SciPy's (scipy/sparse/linalg/_isolve/lsqr.py, lsmr.py), which are not
"everything in result_type(A, b, float)". That dtype is only the one of the iterate x (and lsmr's hbar), made by
zeros(n, dtype). The Golub-Kahan vectors start as u = b and v = A^H u and keep the precision of b and A: with a
float32 A and a float32 b SciPy's u, v, h (and lsqr's w) are float32 and its products are float32 products; with a
float64 b (or x0) they are float64 and its float32 matrix is upcast in each product. This module follows the same
rule (a float64 b on a float32 sparse matrix runs through the mixed-precision products of
cuarray.scipy.sparse._mixed). The scalar recurrences run in Python floats (SciPy's lsmr keeps them in the
vectors' precision); that is more precise, never less. How far results can agree with SciPy's: with the default
tolerances the iteration stops (istop 2, atol 1e-6) before it has converged in the small singular directions, and
the residual there follows the rounding. On the L-curve problem of benchmarks/bench_sparse_lcurve.py at its
smallest coefficient (0.1), SciPy's own ||A x - b|| moved by 3e-3 (float32) and 6e-3 (float64) relative when the
rows and columns were permuted (another summation order), and by 15% between a float32 and a float64 b.
"""
import math

import numpy

import cuarray as cp
from cuarray.scipy.sparse.linalg._interface import aslinearoperator, issparse

_LSQR_MSG = ("The exact solution is  x = 0                              ",
             "Ax - b is small enough, given atol, btol                  ",
             "The least-squares solution is good enough, given atol     ",
             "The estimate of cond(Abar) has exceeded conlim            ",
             "Ax - b is small enough for this machine                   ",
             "The least-squares solution is good enough for this machine",
             "Cond(Abar) seems to be too large for this machine         ",
             "The iteration limit has been reached                      ")


def _sign(a):
    return (a > 0) - (a < 0)


def _sym_ortho(a, b):
    """A stable Givens rotation (c, s, r) with [c s; -s c] [a; b] = [r; 0] for real a, b (Choi's SymOrtho)."""
    if b == 0:
        return float(_sign(a)), 0.0, abs(a)
    if a == 0:
        return 0.0, float(_sign(b)), abs(b)
    if abs(b) > abs(a):
        tau = a / b
        s = _sign(b) / math.sqrt(1 + tau * tau)
        c = s * tau
        return c, s, b / s
    tau = b / a
    c = _sign(a) / math.sqrt(1 + tau * tau)
    s = c * tau
    return c, s, a / c


def _norm(x):
    return float(cp.linalg.norm(x))


def _operator(A, b, x0):
    """A as the operator the iteration multiplies with, converted once per solve where a product would otherwise
    convert it every time: a sparse format other than CSR/CSC becomes CSR, and a dense matrix narrower than the
    vectors (float32 with a float64 b or x0) is upcast, as NumPy's product would upcast it on each call. A sparse
    float32/complex64 matrix stays as it is: its products with float64/complex128 vectors run in
    cuarray.scipy.sparse._mixed without a wider copy. The vectors keep SciPy's dtypes (Note [lsqr/lsmr precision])."""
    if issparse(A):
        return aslinearoperator(A if A.format in ("csr", "csc") else A.tocsr())
    if isinstance(A, cp.ndarray) and A.ndim <= 2 and isinstance(b, cp.ndarray):
        types = [A.dtype, b.dtype] + ([x0.dtype] if isinstance(x0, cp.ndarray) else [])
        vec = numpy.result_type(*types)
        if vec != A.dtype and vec.kind in "fc":
            return aslinearoperator(A.astype(vec))
    return aslinearoperator(A)


def _prepare(A, b, x0):
    A = _operator(A, b, x0)
    if not isinstance(b, cp.ndarray):
        raise TypeError(f"b must be a cuarray.ndarray, got {type(b).__name__} (move it with cuarray.asarray)")
    b = cp.atleast_1d(b)
    if b.ndim > 1:
        b = b.squeeze()
    m, n = A.shape
    if b.shape != (m,):
        raise ValueError(f"shapes of A {A.shape} and b {b.shape} are incompatible")
    types = [A.dtype if A.dtype is not None else numpy.float64, b.dtype, numpy.float64]
    if x0 is not None:
        if not isinstance(x0, cp.ndarray):
            raise TypeError(f"x0 must be a cuarray.ndarray, got {type(x0).__name__}")
        x0 = cp.atleast_1d(x0)
        if x0.ndim > 1:
            x0 = x0.squeeze()
        if x0.shape != (n,):
            raise ValueError(f"shapes of A {A.shape} and x0 {x0.shape} are incompatible")
        # SciPy iterates in x0's own precision when x0 is given (its x is a copy of x0), promoted with A and b.
        types = [types[0], b.dtype, x0.dtype]
    dtype = numpy.result_type(*types)
    if dtype.kind not in "fc":
        dtype = numpy.dtype(numpy.float64)
    return A, b, x0, dtype, m, n



def _stop_code(istop, out_of_iterations, test1, test2, test3, t1, rtol, atol, ctol):
    """LSQR's and LSMR's stopping rule (the same in both, as in SciPy): the last satisfied test wins, so the
    checks run from the weakest reason (7: iteration limit) to the strongest (1: Ax = b solved to rtol)."""
    if out_of_iterations:
        istop = 7
    if 1 + test3 <= 1:
        istop = 6
    if 1 + test2 <= 1:
        istop = 5
    if 1 + t1 <= 1:
        istop = 4
    if test3 <= ctol:
        istop = 3
    if test2 <= atol:
        istop = 2
    if test1 <= rtol:
        istop = 1
    return istop

def lsqr(A, b, damp=0.0, atol=1e-6, btol=1e-6, conlim=1e8, iter_lim=None, show=False, calc_var=False, x0=None):
    """The least-squares solution of A x = b (or of the damped problem) by LSQR.

    Returns ``(x, istop, itn, r1norm, r2norm, anorm, acond, arnorm, xnorm, var)`` with SciPy's meanings; istop
    0..7 says which stopping test ended the iteration (7: ``iter_lim``, default ``2 * n``, reached).
    """
    A, b, x0, dtype, m, n = _prepare(A, b, x0)
    if iter_lim is None:
        iter_lim = 2 * n
    var = cp.zeros(n, dtype=numpy.float64)
    eps = float(numpy.finfo(numpy.float64).eps)
    if show:
        print(" ")
        print("LSQR            Least-squares solution of  Ax = b")
        print(f"The matrix A has {m} rows and {n} columns")
        print(f"damp = {damp:20.14e}   calc_var = {calc_var:8g}")
        print(f"atol = {atol:8.2e}                 conlim = {conlim:8.2e}")
        print(f"btol = {btol:8.2e}               iter_lim = {iter_lim:8g}")
    itn = istop = 0
    ctol = 1 / conlim if conlim > 0 else 0
    anorm = acond = 0.0
    dampsq = damp ** 2
    ddnorm = res2 = xnorm = xxnorm = z = 0.0
    cs2, sn2 = -1.0, 0.0

    u = b
    bnorm = _norm(b)
    if x0 is None:
        x = cp.zeros(n, dtype=dtype)
        beta = bnorm
    else:
        x = x0.astype(dtype, copy=True)
        u = u - A.matvec(x)
        beta = _norm(u)
    if beta > 0:
        u = (1 / beta) * u
        v = A.rmatvec(u)
        alfa = _norm(v)
    else:
        v = x.copy()
        alfa = 0.0
    if alfa > 0:
        v = (1 / alfa) * v
    w = v.copy()
    rhobar, phibar = alfa, beta
    rnorm = r1norm = r2norm = beta
    arnorm = alfa * beta
    if arnorm == 0:
        if show:
            print(_LSQR_MSG[0])
        return x, istop, itn, r1norm, r2norm, anorm, acond, arnorm, xnorm, var
    while itn < iter_lim:
        itn += 1
        # Bidiagonalisation step: beta u = A v - alfa u, alfa v = A^H u - beta v.
        u = A.matvec(v) - alfa * u
        beta = _norm(u)
        if beta > 0:
            u = (1 / beta) * u
            anorm = math.sqrt(anorm ** 2 + alfa ** 2 + beta ** 2 + dampsq)
            v = A.rmatvec(u) - beta * v
            alfa = _norm(v)
            if alfa > 0:
                v = (1 / alfa) * v
        if damp > 0:
            rhobar1 = math.sqrt(rhobar ** 2 + dampsq)
            cs1, sn1 = rhobar / rhobar1, damp / rhobar1
            psi = sn1 * phibar
            phibar = cs1 * phibar
        else:
            rhobar1, psi = rhobar, 0.0
        cs, sn, rho = _sym_ortho(rhobar1, beta)
        theta = sn * alfa
        rhobar = -cs * alfa
        phi = cs * phibar
        phibar = sn * phibar
        tau = sn * phi
        t1, t2 = phi / rho, -theta / rho
        dk = (1 / rho) * w
        x = x + t1 * w
        w = v + t2 * w
        ddnorm += _norm(dk) ** 2
        if calc_var:
            var = var + cp.abs(dk) ** 2 if dk.dtype.kind == "c" else var + dk ** 2
        # Estimates of norm(x) (plane rotations on the lower bidiagonal), cond(Abar) and the residual norms.
        delta = sn2 * rho
        gambar = -cs2 * rho
        rhs = phi - delta * z
        zbar = rhs / gambar
        xnorm = math.sqrt(xxnorm + zbar ** 2)
        gamma = math.sqrt(gambar ** 2 + theta ** 2)
        cs2, sn2 = gambar / gamma, theta / gamma
        z = rhs / gamma
        xxnorm += z ** 2
        acond = anorm * math.sqrt(ddnorm)
        res1 = phibar ** 2
        res2 += psi ** 2
        rnorm = math.sqrt(res1 + res2)
        arnorm = alfa * abs(tau)
        if damp > 0:
            r1sq = rnorm ** 2 - dampsq * xxnorm
            r1norm = math.sqrt(abs(r1sq))
            if r1sq < 0:
                r1norm = -r1norm
        else:
            r1norm = rnorm
        r2norm = rnorm
        test1 = rnorm / bnorm
        test2 = arnorm / (anorm * rnorm + eps)
        test3 = 1 / (acond + eps)
        t1 = test1 / (1 + anorm * xnorm / bnorm)
        rtol = btol + atol * anorm * xnorm / bnorm
        istop = _stop_code(istop, itn >= iter_lim, test1, test2, test3, t1, rtol, atol, ctol)
        if show:
            print(f"{itn:6g} {r1norm:10.3e} {r2norm:10.3e}  {test1:8.1e} {test2:8.1e} {anorm:8.1e} {acond:8.1e}")
        if istop != 0:
            break
    if show:
        print(" ")
        print("LSQR finished")
        print(_LSQR_MSG[istop])
        print(f"istop ={istop:8g}   r1norm ={r1norm:8.1e}   anorm ={anorm:8.1e}   arnorm ={arnorm:8.1e}")
        print(f"itn   ={itn:8g}   r2norm ={r2norm:8.1e}   acond ={acond:8.1e}   xnorm  ={xnorm:8.1e}")
    return x, istop, itn, r1norm, r2norm, anorm, acond, arnorm, xnorm, var


def lsmr(A, b, damp=0.0, atol=1e-6, btol=1e-6, conlim=1e8, maxiter=None, show=False, x0=None):
    """The least-squares solution of A x = b (or of the damped problem) by LSMR.

    Returns ``(x, istop, itn, normr, normar, norma, conda, normx)`` with SciPy's meanings; istop 0..7 says which
    stopping test ended the iteration (7: ``maxiter``, default ``min(m, n)``, reached).
    """
    A, b, x0, dtype, m, n = _prepare(A, b, x0)
    if maxiter is None:
        maxiter = min(m, n)
    if show:
        print(" ")
        print("LSMR            Least-squares solution of  Ax = b\n")
        print(f"The matrix A has {m} rows and {n} columns")
        print(f"damp = {damp:20.14e}\n")
        print(f"atol = {atol:8.2e}                 conlim = {conlim:8.2e}\n")
        print(f"btol = {btol:8.2e}             maxiter = {maxiter:8g}\n")
    u = b
    normb = _norm(b)
    if x0 is None:
        x = cp.zeros(n, dtype=dtype)
        beta = normb
    else:
        x = x0.astype(dtype, copy=True)
        u = u - A.matvec(x)
        beta = _norm(u)
    if beta > 0:
        u = (1 / beta) * u
        v = A.rmatvec(u)
        alpha = _norm(v)
    else:
        v = cp.zeros(n, dtype=dtype)
        alpha = 0.0
    if alpha > 0:
        v = (1 / alpha) * v

    itn = 0
    zetabar = alpha * beta
    alphabar = alpha
    rho = rhobar = cbar = 1.0
    sbar = 0.0
    h = v.copy()
    hbar = cp.zeros(n, dtype=dtype)
    # Quantities of the estimate of ||r||.
    betadd, betad = beta, 0.0
    rhodold = 1.0
    tautildeold = thetatilde = zeta = d = 0.0
    # Quantities of the estimates of ||A|| and cond(A).
    normA2 = alpha * alpha
    maxrbar, minrbar = 0.0, 1e100
    normA = math.sqrt(normA2)
    condA = 1.0
    normx = 0.0
    istop = 0
    ctol = 1 / conlim if conlim > 0 else 0
    normr = beta
    normar = alpha * beta
    if normar == 0:
        if show:
            print(_LSQR_MSG[0])
        return x, istop, itn, normr, normar, normA, condA, normx
    if normb == 0:
        x.fill(0)
        return x, istop, itn, normr, normar, normA, condA, normx
    while itn < maxiter:
        itn += 1
        u = A.matvec(v) - alpha * u
        beta = _norm(u)
        if beta > 0:
            u = (1 / beta) * u
            v = A.rmatvec(u) - beta * v
            alpha = _norm(v)
            if alpha > 0:
                v = (1 / alpha) * v
        # Rotation eliminating the damping, then the rotation of the lower bidiagonal (P_k) and of Rbar (Pbar_k).
        chat, shat, alphahat = _sym_ortho(alphabar, damp)
        rhoold = rho
        c, s, rho = _sym_ortho(alphahat, beta)
        thetanew = s * alpha
        alphabar = c * alpha
        rhobarold = rhobar
        zetaold = zeta
        thetabar = sbar * rho
        rhotemp = cbar * rho
        cbar, sbar, rhobar = _sym_ortho(cbar * rho, thetanew)
        zeta = cbar * zetabar
        zetabar = -sbar * zetabar
        hbar = h - (thetabar * rho / (rhoold * rhobarold)) * hbar
        x = x + (zeta / (rho * rhobar)) * hbar
        h = v - (thetanew / rho) * h
        # Estimate of ||r||.
        betaacute = chat * betadd
        betacheck = -shat * betadd
        betahat = c * betaacute
        betadd = -s * betaacute
        thetatildeold = thetatilde
        ctildeold, stildeold, rhotildeold = _sym_ortho(rhodold, thetabar)
        thetatilde = stildeold * rhobar
        rhodold = ctildeold * rhobar
        betad = -stildeold * betad + ctildeold * betahat
        tautildeold = (zetaold - thetatildeold * tautildeold) / rhotildeold
        taud = (zeta - thetatilde * tautildeold) / rhodold
        d = d + betacheck * betacheck
        normr = math.sqrt(d + (betad - taud) ** 2 + betadd * betadd)
        # Estimates of ||A||, cond(A), ||A^H r|| and ||x||.
        normA2 = normA2 + beta * beta
        normA = math.sqrt(normA2)
        normA2 = normA2 + alpha * alpha
        maxrbar = max(maxrbar, rhobarold)
        if itn > 1:
            minrbar = min(minrbar, rhobarold)
        condA = max(maxrbar, rhotemp) / min(minrbar, rhotemp)
        normar = abs(zetabar)
        normx = _norm(x)
        test1 = normr / normb
        test2 = normar / (normA * normr) if (normA * normr) != 0 else math.inf
        test3 = 1 / condA
        t1 = test1 / (1 + normA * normx / normb)
        rtol = btol + atol * normA * normx / normb
        istop = _stop_code(istop, itn >= maxiter, test1, test2, test3, t1, rtol, atol, ctol)
        if show:
            print(f"{itn:6g} {normr:10.3e} {normar:10.3e}  {test1:8.1e} {test2:8.1e} {normA:8.1e} {condA:8.1e}")
        if istop > 0:
            break
    if show:
        print(" ")
        print("LSMR finished")
        print(_LSQR_MSG[istop])
        print(f"istop ={istop:8g}    normr ={normr:8.1e}")
        print(f"    normA ={normA:8.1e}    normAr ={normar:8.1e}")
        print(f"itn   ={itn:8g}    condA ={condA:8.1e}")
        print(f"    normx ={normx:8.1e}")
    return x, istop, itn, normr, normar, normA, condA, normx
